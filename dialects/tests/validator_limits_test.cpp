// SPDX-License-Identifier: MIT
// What a report holds when reading stops early or findings pile up: wire
// limits, samples, and each rule's cap on the findings it stores.
#include <limits>
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "sse/dialect/validator.hpp"
#include "validator_test_support.hpp"

namespace {

using validator_test_support::agent_ok;
using validator_test_support::describe;
using validator_test_support::dialect;
using validator_test_support::every_type_stream;
using validator_test_support::f;
using validator_test_support::rules_broken;

// A wire limit stops the check where it struck and is not conforming.
TEST(validator, wire_limit) {
  sse::limits lim;
  lim.max_line = 16;
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent_ok, lim);
  EXPECT_EQ(report.wire_status, sse::errc::line_too_long);
  EXPECT_FALSE(report.conforming());
}

// A limit of the tool that stops reading does not blame the producer for the
// tail it never read: no end-of-stream finding, and the report says so.
TEST(validator, a_wire_limit_leaves_the_end_of_the_stream_ungraded) {
  sse::limits lim;
  lim.max_line = 10;
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent_ok, lim);
  EXPECT_FALSE(report.end_graded);
  EXPECT_FALSE(rules_broken(report).contains("AGENT-DONE-LAST")) << describe(report);
  EXPECT_TRUE(report.findings.empty()) << describe(report);
}

// A sample (the caller stopped reading) is graded for what it holds only.
TEST(validator, a_sample_is_not_graded_at_its_end) {
  const std::string first = f(R"({"type":"run_started","runId":"r1"})");
  const auto sample = sse::dialect::validate_stream(dialect("agent"), first, {}, std::nullopt, false);
  EXPECT_FALSE(sample.end_graded);
  EXPECT_TRUE(sample.findings.empty()) << describe(sample);
  const auto whole = sse::dialect::validate_stream(dialect("agent"), first);
  EXPECT_TRUE(whole.end_graded);
  EXPECT_TRUE(rules_broken(whole).contains("AGENT-DONE-LAST")) << describe(whole);
}

// Findings of one rule beyond the cap are counted, not stored; the counts
// and the verdict include them.
TEST(validator, findings_beyond_a_rules_cap_are_counted_not_stored) {
  std::string bad;
  for (int i = 0; i < 1000; ++i) bad += f("not json");
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent_ok + bad);
  std::map<std::string, std::size_t> per_rule;
  for (const auto& x : report.findings) ++per_rule[x.rule->id];
  ASSERT_FALSE(per_rule.empty());
  for (const auto& [rule, n] : per_rule) EXPECT_LE(n, sse::dialect::default_max_findings_per_rule) << rule;
  EXPECT_GT(report.not_shown, 0u);
  EXPECT_EQ(report.must + report.should, report.findings.size() + report.not_shown);
  EXPECT_GE(report.must, 1000u);  // every bad frame breaks AGENT-FRAME-JSON (a MUST)
  EXPECT_FALSE(report.conforming());
}

// A rule's cap keeps its first findings, with the texts they have without
// the cap, and counts the rest (their texts are never built): for every
// dialect and cap, the capped report is the uncapped one with each rule's
// findings past the cap left out, and the same counts.
TEST(validator, a_rules_cap_stores_its_first_findings_and_counts_the_rest) {
  const auto validate = [](const sse::dialect::dialect_spec& d, const std::string& stream, std::size_t cap) {
    sse::dialect::stream_validator v(d, {}, std::nullopt, cap);
    v.feed(stream);
    return v.finish();
  };
  for (const auto& name : sse::dialect::builtin_dialect_names()) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const std::string stream = every_type_stream(dialect(name), seed);
      const auto all = validate(dialect(name), stream, std::numeric_limits<std::size_t>::max());
      ASSERT_EQ(all.not_shown, 0U);
      for (const std::size_t cap : {std::size_t{1}, std::size_t{3}}) {
        const auto capped = validate(dialect(name), stream, cap);
        std::map<std::string, std::size_t> per_rule;
        std::string expected;
        for (const auto& x : all.findings) {
          if (++per_rule[x.rule->id] <= cap) expected += sse::dialect::to_json(x).dump() + "\n";
        }
        std::string seen;
        for (const auto& x : capped.findings) seen += sse::dialect::to_json(x).dump() + "\n";
        EXPECT_EQ(seen, expected) << name << " seed " << seed << " cap " << cap;
        EXPECT_EQ(capped.must, all.must);
        EXPECT_EQ(capped.should, all.should);
        EXPECT_EQ(capped.decision, all.decision);
        EXPECT_EQ(capped.not_shown, all.findings.size() - capped.findings.size()) << name << " cap " << cap;
        EXPECT_GT(capped.not_shown, 0U) << name << " seed " << seed << ": the stream must break a rule past the cap";
      }
    }
  }
}

}  // namespace
