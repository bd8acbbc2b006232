// SPDX-License-Identifier: MIT
// What check's reports carry: secrets expanded from the environment and redacted from every
// report, and the JSON and JUnit forms of the findings.
#include <gtest/gtest.h>

#include <cstdlib>

#include "agent_streams.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"

namespace {

using agent_streams::bad_agent;
using ssec::live::capture;

TEST(secrets, env_values_are_expanded_and_redacted) {
  ::setenv("SSEC_LIVE_TEST_TOKEN", "s3cr3t-value", 1);
  std::vector<std::string> secrets;
  const auto h = ssec::live::expand_env("Authorization: Bearer ${SSEC_LIVE_TEST_TOKEN}", secrets);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*h, "Authorization: Bearer s3cr3t-value");
  EXPECT_EQ(ssec::live::redact("url?k=s3cr3t-value&x=s3cr3t-value", secrets), "url?k=[redacted]&x=[redacted]");
  const auto unset = ssec::live::expand_env("X: $SSEC_LIVE_TEST_UNSET_VAR", secrets);
  ASSERT_FALSE(unset.ok());
  EXPECT_NE(unset.error().message.find("SSEC_LIVE_TEST_UNSET_VAR"), std::string::npos) << unset.error().message;
}

TEST(secrets, only_braced_variables_are_expanded_in_scenarios) {
  ::setenv("SSEC_LIVE_TEST_TOKEN", "s3cr3t-value", 1);
  std::vector<std::string> secrets;
  const auto body = ssec::live::expand_env_braced("{\"k\":\"${SSEC_LIVE_TEST_TOKEN}\",\"p\":\"$PATH $${x}\"}", secrets);
  ASSERT_TRUE(body.ok()) << body.error().to_string();
  EXPECT_EQ(*body, "{\"k\":\"s3cr3t-value\",\"p\":\"$PATH ${x}\"}");
  EXPECT_EQ(secrets, std::vector<std::string>{"s3cr3t-value"});
  const auto unset = ssec::live::expand_env_braced("a ${SSEC_LIVE_TEST_UNSET_VAR} b", secrets);
  ASSERT_FALSE(unset.ok());
  EXPECT_EQ(unset.error().to_string(), "${SSEC_LIVE_TEST_UNSET_VAR} is not set in the environment");
}

// The text between variables is copied a piece at a time: every edge of a
// piece (a `$` first or last, an unclosed or empty brace, `$$` runs, no `$`
// at all) keeps its bytes, under both expanders.
TEST(secrets, text_around_variables_is_kept_byte_for_byte) {
  ::setenv("SSEC_LIVE_TEST_TOKEN", "s3cr3t-value", 1);
  std::vector<std::string> secrets;
  const std::pair<std::string, std::string> braced[] = {
      {"", ""},
      {"no variable at all", "no variable at all"},
      {"$", "$"},
      {"ends in $", "ends in $"},
      {"$ starts", "$ starts"},
      {"${unclosed", "${unclosed"},
      {"${}", "${}"},
      {"$$$", "$$$"},
      {"$${SSEC_LIVE_TEST_TOKEN}", "${SSEC_LIVE_TEST_TOKEN}"},
      {"a${SSEC_LIVE_TEST_TOKEN}b$", "as3cr3t-valueb$"},
      {"${SSEC_LIVE_TEST_TOKEN}${SSEC_LIVE_TEST_TOKEN}", "s3cr3t-values3cr3t-value"},
      {std::string(5000, 'h') + "$" + std::string(5000, 'h'), std::string(5000, 'h') + "$" + std::string(5000, 'h')},
  };
  for (const auto& [in, out] : braced) {
    const auto got = ssec::live::expand_env_braced(in, secrets);
    ASSERT_TRUE(got.ok()) << in;
    EXPECT_EQ(*got, out) << in;
  }
  const auto plain = ssec::live::expand_env("$ a $SSEC_LIVE_TEST_TOKEN-b $ ${}$", secrets);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain, "$ a s3cr3t-value-b $ ${}$");
}

// A variable named many times (or in every request of a scenario file) is
// one secret: each report string is redacted once per secret.
TEST(secrets, a_value_is_kept_once_however_often_it_is_expanded) {
  ::setenv("SSEC_LIVE_TEST_TOKEN", "s3cr3t-value", 1);
  std::vector<std::string> secrets;
  ASSERT_TRUE(ssec::live::expand_env_braced("${SSEC_LIVE_TEST_TOKEN} ${SSEC_LIVE_TEST_TOKEN}", secrets).ok());
  ASSERT_TRUE(ssec::live::expand_env("Bearer $SSEC_LIVE_TEST_TOKEN", secrets).ok());
  EXPECT_EQ(secrets, std::vector<std::string>{"s3cr3t-value"});
}

// A control byte in a finding (a stream's escape sequence, say) is written as
// the case-log escape: XML 1.0 cannot carry it, and 0x1B is \u001B, never
// its decimal value after \x (\x27, which reads as an apostrophe).
TEST(outputs, junit_escapes_control_bytes_as_the_case_log_does) {
  ssec::live::check_report r;
  r.source = "t";
  r.findings.push_back({"WIRE-X", "must", std::nullopt, 3, "saw \x1B[31m", "text", "\x1B", 0});
  r.must = 1;
  const std::string x = ssec::live::to_junit({r}, {"t"});
  EXPECT_EQ(x.find('\x1B'), std::string::npos) << x;
  EXPECT_EQ(x.find("\\x27"), std::string::npos) << x;
  EXPECT_NE(x.find("saw \\u001B[31m"), std::string::npos) << x;
  EXPECT_NE(x.find("seen \\u001B)"), std::string::npos) << x;
}

TEST(outputs, json_and_junit_carry_the_findings) {
  capture c;
  c.source = "t";
  c.pieces.push_back({bad_agent, 0});
  c.timed = false;
  ssec::live::check_options opt;
  opt.dialect = sse::dialect::builtin_dialect("agent");
  const auto r = ssec::live::analyze(c, opt);
  const auto j = ssec::live::to_json(r);
  EXPECT_FALSE(j["summary"]["conforming"].get<bool>());
  EXPECT_EQ(j["findings"][0]["rule"], "AGENT-RUNID-PRESENT");
  const std::string x = ssec::live::to_junit({r}, {"t"});
  EXPECT_NE(x.find("<failure"), std::string::npos);
  EXPECT_NE(x.find("AGENT-RUNID-PRESENT"), std::string::npos);
}

// A decision-based finding promoted by --strict fails the JUnit case too, says
// it was promoted, and every failure carries its basis.
TEST(outputs, junit_fails_promoted_findings_and_names_each_basis) {
  capture c;
  c.source = "t";
  c.pieces.push_back(
      {"data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
       "data: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
       "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n",
       0});
  c.timed = false;
  ssec::live::check_options opt;
  opt.dialect = sse::dialect::builtin_dialect("agent");
  const auto lenient = ssec::live::analyze(c, opt);
  EXPECT_TRUE(lenient.conforming());
  EXPECT_EQ(ssec::live::to_junit({lenient}, {"t"}).find("<failure"), std::string::npos);
  opt.strict = true;
  const auto strict = ssec::live::analyze(c, opt);
  EXPECT_FALSE(strict.conforming());
  const std::string x = ssec::live::to_junit({strict}, {"t"});
  EXPECT_NE(x.find("AGENT-STEP-PAIR (should, promoted by --strict)"), std::string::npos) << x;
  EXPECT_NE(x.find("basis: decision, spec/DECISIONS.md#agent-step-pair"), std::string::npos) << x;
}

// A failure's message names its rules; the SHOULD findings a CI page would
// otherwise never show are in the testcase's <system-out>, one line each.
TEST(outputs, junit_names_the_failing_rules_and_lists_should_findings) {
  ssec::live::check_report r;
  r.source = "t";
  r.findings.push_back({"AGENT-DONE-LAST", "must", 2, 90, "no done", "done last", "end of stream", 0});
  r.findings.push_back({"AGENT-FIELD-TYPE", "must", 1, 40, "runId is a number", "string", "7", 0});
  r.findings.push_back({"AGENT-DONE-LAST", "must", 3, 120, "no done", "done last", "end of stream", 0});
  r.findings.push_back({"AGENT-STEPID-PRESENT", "should", 1, 40, "no stepId", "stepId", "none", 0});
  r.must = 3;
  r.should = 1;
  const std::string x = ssec::live::to_junit({r}, {"t"});
  EXPECT_NE(x.find("message=\"3 findings: AGENT-DONE-LAST, AGENT-FIELD-TYPE\""), std::string::npos) << x;
  EXPECT_NE(x.find("<system-out>AGENT-STEPID-PRESENT (should) at frame 2, byte 40: no stepId"), std::string::npos) << x;
  // Only the producer case has findings: the other two pass, self-closed.
  EXPECT_NE(x.find("name=\"response\" time=\"0.000000\"/>"), std::string::npos) << x;
}

}  // namespace
