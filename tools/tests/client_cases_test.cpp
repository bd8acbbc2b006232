// SPDX-License-Identifier: MIT
// The client cases (conformance/clients/, tools/docs/client-cases.md) run as
// a user runs them: `run --layer client` against the reference adapter, which
// passes every case, and against a toy client with one known bug per variant,
// which fails exactly the cases that name its bug and passes the others.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;

class client_cases : public tool_test {
 protected:
  client_cases() : tool_test("ssec-client-") {}

  // `run --layer client` against `impl`: the outcome of each case by path.
  std::map<std::string, std::string> outcomes(const std::string& impl, const std::string& select = "") {
    const auto r = shell(quote(tool) + " run --layer client --jobs 2 -q --impl " + quote(impl) + " " + select +
                         " --json " + quote((dir_ / "r.json").string()));
    EXPECT_LE(r.status, 1) << r.err;
    std::map<std::string, std::string> out;
    const auto j = nlohmann::json::parse(read_file(dir_ / "r.json"), nullptr, false);
    if (!j.is_object() || !j.contains("cases")) {
      ADD_FAILURE() << "no report: " << r.out << r.err;
      return out;
    }
    for (const auto& c : j["cases"]) out[c["id"].get<std::string>()] = c["outcome"].get<std::string>();
    return out;
  }
};

TEST_F(client_cases, the_reference_client_passes_every_case) {
  const auto got = outcomes(tool + " adapter");
  ASSERT_GE(got.size(), 24u);
  for (const auto& [path, outcome] : got) EXPECT_EQ(outcome, "pass") << path;
}

// Each bug is caught by the case that names it; the toy without a quirk is
// the reference client behind a minimal adapter and passes them too.
TEST_F(client_cases, each_known_client_bug_fails_the_case_that_names_it) {
  struct bug {
    const char* quirk;
    std::vector<std::string> caught_by;
  };
  const std::vector<bug> bugs{
      {"no-last-event-id", {"client/last-event-id/C8LA", "client/last-event-id/C8LE"}},
      {"ignore-retry", {"client/reconnect/C7RD", "client/reconnect/C7RF"}},
      {"reconnect-on-failure", {"client/http/C9HA", "client/http/C9HB", "client/http/C9HC"}},
      {"no-redirects", {"client/http/C9HE", "client/http/C9HG"}},
  };
  for (const auto& b : bugs) {
    std::string select;
    for (const auto& path : b.caught_by) select += " --run " + quote(path);
    const auto correct = outcomes(TOY_CLIENT_ADAPTER, select);
    const auto buggy = outcomes(std::string(TOY_CLIENT_ADAPTER) + " --quirk " + b.quirk, select);
    ASSERT_EQ(buggy.size(), b.caught_by.size()) << b.quirk;
    for (const auto& path : b.caught_by) {
      EXPECT_EQ(correct.at(path), "pass") << path << " without a quirk";
      // A MUST case fails; a SHOULD case (the redirects) is non-strict: FAIL in every report.
      const std::string& got = buggy.at(path);
      EXPECT_TRUE(got == "fail" || got == "non-strict") << path << " should catch " << b.quirk << ": " << got;
    }
  }
}

}  // namespace
