// SPDX-License-Identifier: MIT
// Scenario files (tools/docs/scenario-format.md): the loader's schema errors with line and column,
// its budgets, and the expectation checks.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "agent_streams.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/scenario.hpp"

namespace {

using agent_streams::agent_with_ids;
using ssec::live::check_report;
using ssec::live::load_scenario_text;

std::string errors_of(const ssec::load_result<ssec::live::scenario_file>& r) { return r.error_text(); }

// --- the loader ----------------------------------------------------------------

constexpr const char* valid_file =
    "version: 1\n"
    "defaults:\n"
    "  dialect: agent\n"
    "  headers:\n"
    "    Authorization: Bearer ${SSEC_SCENARIO_TEST_TOKEN}\n"
    "  limits: {timeout_s: 20, idle_timeout_s: 5}\n"
    "scenarios:\n"
    "  - name: tool call\n"
    "    requests:\n"
    "      - name: start\n"
    "        url: ${SSEC_SCENARIO_TEST_BASE}/runs\n"
    "        method: POST\n"
    "        headers:\n"
    "          Content-Type: application/json\n"
    "        body: '{\"prompt\":\"weather?\",\"$schema\":\"x\"}'\n"
    "        limits: {max_events: 100, timeout_s: 30}\n"
    "        resume: true\n"
    "        expect:\n"
    "          sequence: [run_started, tool_started, tool_completed, done]\n"
    "          includes: [message_chunk]\n"
    "          excludes: [error, run_failed]\n"
    "      - name: plain\n"
    "        url: http://127.0.0.1:1/x\n"
    "        dialect: wire\n"
    "        expect: {includes: [message, ping]}\n";

class scenario_loader : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("SSEC_SCENARIO_TEST_TOKEN", "tok-123456", 1);
    ::setenv("SSEC_SCENARIO_TEST_BASE", "http://127.0.0.1:9", 1);
  }
  // The single error of loading `text`, as "line:column: message".
  static std::string only_error(const std::string& text) {
    const auto r = load_scenario_text(text, "s.yaml", ".");
    if (r.errors.size() != 1) return "expected one error, got:\n" + r.error_text();
    const auto& e = r.errors.front();
    return std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
  }
};

TEST_F(scenario_loader, loads_requests_with_defaults_and_expanded_variables) {
  const auto r = load_scenario_text(valid_file, "s.yaml", ".");
  ASSERT_TRUE(r.ok()) << errors_of(r);
  ASSERT_EQ(r.value.scenarios.size(), 1u);
  const auto& s = r.value.scenarios[0];
  EXPECT_EQ(s.name, "tool call");
  EXPECT_EQ(s.line, 8u);
  ASSERT_EQ(s.requests.size(), 2u);
  const auto& q = s.requests[0];
  EXPECT_EQ(q.line, 10u);
  EXPECT_EQ(q.url, "http://127.0.0.1:9/runs");
  EXPECT_EQ(q.shown_url, "${SSEC_SCENARIO_TEST_BASE}/runs");
  EXPECT_EQ(q.method, "POST");
  EXPECT_EQ(q.body, "{\"prompt\":\"weather?\",\"$schema\":\"x\"}");  // a lone $ stays as written
  const std::vector<std::string> headers{"Authorization: Bearer tok-123456", "Content-Type: application/json"};
  EXPECT_EQ(q.headers, headers);
  EXPECT_EQ(q.dialect, "agent");
  ASSERT_NE(q.spec, nullptr);
  EXPECT_DOUBLE_EQ(q.limits.timeout_s, 30);      // the request's own
  EXPECT_DOUBLE_EQ(q.limits.idle_timeout_s, 5);  // from defaults
  EXPECT_EQ(q.limits.max_events, 100u);
  EXPECT_TRUE(q.resume);
  EXPECT_EQ(q.expect.sequence, (std::vector<std::string>{"run_started", "tool_started", "tool_completed", "done"}));
  EXPECT_EQ(q.expect.excludes, (std::vector<std::string>{"error", "run_failed"}));
  const auto& w = s.requests[1];
  EXPECT_EQ(w.dialect, "wire");
  EXPECT_EQ(w.spec, nullptr);
  EXPECT_FALSE(w.resume);
  EXPECT_EQ(w.expect.includes, (std::vector<std::string>{"message", "ping"}));  // any SSE type with wire
  EXPECT_NE(std::find(r.value.secrets.begin(), r.value.secrets.end(), "tok-123456"), r.value.secrets.end());
}

TEST_F(scenario_loader, unknown_key_names_line_and_column) {
  EXPECT_EQ(only_error("version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n"
                       "        dialect: wire\n        timeout: 5\n"),
            "8:9: unknown key `timeout` in a request (allowed: name, url, method, headers, body, body_file, dialect, "
            "limits, resume, expect)");
  EXPECT_EQ(only_error("version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n"
                       "        dialect: wire\n        limits: {timeout_s: 1, max_evnts: 3}\n"),
            "8:32: unknown key `max_evnts` in `limits` (allowed: timeout_s, idle_timeout_s, max_time_s, max_bytes, "
            "max_events, max_line, max_event_data)");
}

// The scenario loader reads through the shared YAML reader,
// so an alias bomb (here in request headers, nine levels: 10^9 copies) is
// refused at the alias that crosses the limit, before any node is copied.
TEST_F(scenario_loader, an_alias_bomb_is_refused_at_its_line) {
  std::string text = "version: 1\nbomb:\n  - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    text += "  - &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k > 0 ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  const std::string e = only_error(text);
  EXPECT_TRUE(e.starts_with("7:") || e.starts_with("8:") || e.starts_with("9:")) << e;
  EXPECT_NE(e.find("aliases repeat over 4 MiB"), std::string::npos) << e;
}

// A `body_file` is bounded before it is read. A device would be read
// without end (/dev/zero until memory runs out), a FIFO would block the
// load, and a file larger than the file's budget would be read whole.
TEST_F(scenario_loader, a_body_file_must_be_a_regular_file_within_the_budget) {
  const std::string head =
      "version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n"
      "        dialect: wire\n        body_file: ";
  const auto dir = std::filesystem::temp_directory_path() / ("ssec-scenario-body-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto error_of = [&](const std::string& file) {
    const auto r = load_scenario_text(head + file + "\n", "s.yaml", dir);
    return r.errors.size() == 1 ? std::to_string(r.errors[0].line) + ":" + std::to_string(r.errors[0].column) + ": " +
                                      r.errors[0].message
                                : "expected one error, got:\n" + r.error_text();
  };
  EXPECT_EQ(error_of("/dev/zero"),
            "8:20: `body_file`: /dev/zero is not a regular file (a device, a FIFO or a directory cannot be a request "
            "body)");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(error_of("fifo"), "8:20: `body_file`: " + (dir / "fifo").string() +
                                  " is not a regular file (a device, a FIFO or a directory cannot be a request body)");
  // 17 MiB, sparse: more than the budget of the whole file (16 MiB).
  std::ofstream(dir / "big.bin").close();
  std::filesystem::resize_file(dir / "big.bin", std::uint64_t{17} << 20);
  const std::string big = error_of("big.bin");
  EXPECT_TRUE(
      big.starts_with("8:20: `body_file` " + (dir / "big.bin").string() + " would build 17 MiB, more than the "))
      << big;
  EXPECT_TRUE(big.ends_with(" left of this file's budget of 16 MiB (repeats multiplied, aliases expanded)")) << big;
  std::ofstream(dir / "small.json") << "{\"prompt\": \"hi\"}";
  const auto ok = load_scenario_text(head + "small.json\n", "s.yaml", dir);
  ASSERT_TRUE(ok.ok()) << errors_of(ok);
  EXPECT_EQ(ok.value.scenarios[0].requests[0].body, "{\"prompt\": \"hi\"}");
  std::filesystem::remove_all(dir);
}

// Every request copies the defaults' headers, so a file of short
// requests (or aliases of them) under one long default header builds many
// times its size; what the requests build is booked against the file's
// budget first. Here 1 MiB of header copied into 20 requests.
TEST_F(scenario_loader, requests_copying_the_defaults_are_bounded_by_the_budget) {
  std::string text = "version: 1\ndefaults:\n  dialect: wire\n  headers:\n    X-Big: " + std::string(1 << 20, 'h') +
                     "\nscenarios:\n  - name: a\n    requests:\n";
  for (int i = 0; i < 20; ++i) text += "      - {name: r" + std::to_string(i) + ", url: 'http://x'}\n";
  const auto r = load_scenario_text(text, "s.yaml", ".");
  ASSERT_EQ(r.errors.size(), 1u) << "20 copies of a 1 MiB header were built, or the refusal repeated:\n"
                                 << r.error_text();
  const auto& e = r.errors.front();
  EXPECT_GT(e.line, 8u);
  EXPECT_TRUE(e.message.starts_with("this request would build 10")) << e.to_string();
  EXPECT_NE(e.message.find("of this file's budget of 16 MiB"), std::string::npos) << e.to_string();
}

// The budget is the caller's to give (the fuzzing harness gives 1 MiB): the
// same booking refuses sooner under a smaller one.
TEST_F(scenario_loader, a_smaller_budget_refuses_sooner) {
  std::string text = "version: 1\ndefaults:\n  dialect: wire\n  headers:\n    X-Big: " + std::string(1 << 20, 'h') +
                     "\nscenarios:\n  - name: a\n    requests:\n";
  for (int i = 0; i < 3; ++i) text += "      - {name: r" + std::to_string(i) + ", url: 'http://x'}\n";
  ASSERT_TRUE(load_scenario_text(text, "s.yaml", ".").ok());
  const auto r = load_scenario_text(text, "s.yaml", ".", nullptr, std::uint64_t{2} << 20);
  ASSERT_EQ(r.errors.size(), 1u) << r.error_text();
  // The defaults' header took 1 MiB of the 2; the first request's copy of it crosses.
  EXPECT_EQ(r.errors.front().line, 9u) << r.error_text();
  EXPECT_NE(r.errors.front().message.find("of this file's budget of 2 MiB"), std::string::npos) << r.error_text();
}

TEST_F(scenario_loader, wrong_types_name_line_and_column) {
  const std::string head =
      "version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n"
      "        dialect: wire\n";
  EXPECT_EQ(only_error(head + "        limits:\n          timeout_s: \"10\"\n"),
            "9:22: `timeout_s` must be a number of seconds, 0 or more (unquoted)");
  EXPECT_EQ(only_error(head + "        limits: {max_events: -1}\n"),
            "8:30: `max_events` must be an integer, 0 or more (unquoted)");
  EXPECT_EQ(only_error(head + "        resume: yes\n"), "8:17: `resume` must be true or false");
  EXPECT_EQ(only_error(head + "        expect: {includes: message}\n"),
            "8:28: `includes` must be a list of event types, e.g. [run_started, done]");
  EXPECT_EQ(only_error(head + "        headers: [X-A]\n"), "8:18: `headers` must be a mapping (key: value lines)");
  EXPECT_EQ(only_error("version: one\nscenarios: []\n"), "1:10: `version` must be an integer, 0 or more (unquoted)");
}

TEST_F(scenario_loader, missing_fields_name_the_mapping) {
  EXPECT_EQ(only_error("version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        dialect: wire\n"),
            "5:9: missing required key `url` in a request");
  EXPECT_EQ(only_error("version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n"),
            "5:9: a request is missing `dialect` (give it here or in `defaults`: wire, chat, code, workflow, agent)");
  EXPECT_EQ(only_error("scenarios: []\n"), "1:1: missing required key `version` in the file");
}

TEST_F(scenario_loader, dialect_types_variables_and_versions_are_checked) {
  const std::string head =
      "version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n        url: http://x\n";
  EXPECT_EQ(only_error(head + "        dialect: agent\n        expect: {excludes: [tool_complete]}\n"),
            "8:29: `tool_complete` is not an event type of dialect agent (see its catalog in spec/; frames that are "
            "not structured events are (plain_text) and (error_frame))");
  EXPECT_EQ(only_error(head + "        dialect: agnet\n"),
            "7:18: unknown dialect `agnet` (known: wire, chat, code, workflow, agent)");
  EXPECT_EQ(only_error("version: 1\nscenarios:\n  - name: a\n    requests:\n      - name: r\n"
                       "        url: ${SSEC_SCENARIO_TEST_UNSET}/x\n        dialect: wire\n"),
            "6:14: `url` uses ${SSEC_SCENARIO_TEST_UNSET}, which is not set in the environment");
  EXPECT_EQ(only_error("version: 2\nscenarios: []\n"),
            "1:10: unsupported scenario format version 2 (this sse-conform reads version 1)");
  EXPECT_EQ(only_error(head + "        dialect: wire\n        body: a\n        body_file: b.json\n"),
            "9:9: give `body` or `body_file`, not both");
  const auto missing_file = load_scenario_text(head + "        dialect: wire\n        body_file: no-such.json\n",
                                               "s.yaml", "/nonexistent-dir");
  ASSERT_EQ(missing_file.errors.size(), 1u);
  EXPECT_EQ(missing_file.errors[0].line, 8u);
  EXPECT_NE(missing_file.errors[0].message.find("no-such.json"), std::string::npos) << missing_file.errors[0].message;
  EXPECT_EQ(only_error(head + "        dialect: agent\n        expect: {includes: [done], excludes: [done]}\n"),
            "8:17: `done` is both required and excluded");
}

TEST_F(scenario_loader, malformed_yaml_and_duplicates_are_errors) {
  const auto bad = load_scenario_text("version: 1\nscenarios: [\n", "s.yaml", ".");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.errors[0].message.find("malformed YAML"), std::string::npos);
  EXPECT_EQ(bad.errors[0].file, "s.yaml");
  EXPECT_EQ(only_error("version: 1\nversion: 1\nscenarios: []\n"),
            "2:1: duplicate key `version` in the file (first at line 1)");
  const auto twice = load_scenario_text(
      "version: 1\nscenarios:\n  - name: a\n    requests: [{name: r, url: 'http://x', dialect: wire}]\n"
      "  - name: a\n    requests: [{name: r, url: 'http://x', dialect: wire}]\n",
      "s.yaml", ".");
  ASSERT_EQ(twice.errors.size(), 1u) << errors_of(twice);
  EXPECT_EQ(twice.errors[0].to_string(), "s.yaml:5: duplicate scenario name `a` (first at line 3)");
}

// --- expectations ----------------------------------------------------------------

std::vector<ssec::live::typed_event> typed(const std::vector<std::string>& types) {
  std::vector<ssec::live::typed_event> out;
  out.reserve(types.size());
  for (const auto& t : types) out.push_back({t, out.size(), out.size() * 10, 0});
  return out;
}

TEST(scenario_expect, sequence_is_an_ordered_subsequence) {
  ssec::live::scenario_expect x;
  x.sequence = {"run_started", "tool_started", "tool_completed", "done"};
  check_report ok;
  ssec::live::check_expectations(
      x,
      typed({"run_started", "message_chunk", "tool_started", "tool_result", "tool_completed", "message_chunk", "done"}),
      ok);
  EXPECT_TRUE(ok.findings.empty());
  // tool_completed before tool_started: out of order, reported at its own frame.
  check_report order;
  ssec::live::check_expectations(x, typed({"run_started", "tool_completed", "tool_started", "done"}), order);
  ASSERT_EQ(order.findings.size(), 1u);
  EXPECT_EQ(order.findings[0].rule, "SCENARIO-ORDER");
  EXPECT_EQ(order.findings[0].frame, std::optional<std::size_t>(1));
  EXPECT_EQ(order.findings[0].offset, 10u);
  EXPECT_EQ(order.must, 1u);
  // A type that never came: one finding per missing type, the rest still matched.
  check_report missing;
  missing.bytes = 999;
  ssec::live::check_expectations(x, typed({"run_started", "done"}), missing);
  ASSERT_EQ(missing.findings.size(), 2u);
  EXPECT_EQ(missing.findings[0].rule, "SCENARIO-REQUIRED-TYPE");
  EXPECT_NE(missing.findings[0].message.find("`tool_started`"), std::string::npos);
  EXPECT_EQ(missing.findings[0].offset, 999u);  // the end of the stream: where it was still missing
  EXPECT_NE(missing.findings[1].message.find("`tool_completed`"), std::string::npos);
  EXPECT_EQ(missing.findings[0].seen, "none in 2 events");
  // One event is "1 event".
  check_report lone;
  ssec::live::check_expectations(x, typed({"done"}), lone);
  ASSERT_FALSE(lone.findings.empty());
  EXPECT_EQ(lone.findings[0].seen, "none in 1 event");
}

TEST(scenario_expect, includes_and_excludes) {
  ssec::live::scenario_expect x;
  x.includes = {"message_chunk", "tool_started"};
  x.excludes = {"error", "run_failed"};
  check_report r;
  ssec::live::check_expectations(x, typed({"run_started", "message_chunk", "error", "error", "done"}), r);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].rule, "SCENARIO-REQUIRED-TYPE");
  EXPECT_NE(r.findings[0].message.find("`tool_started`"), std::string::npos);
  EXPECT_EQ(r.findings[1].rule, "SCENARIO-FORBIDDEN-TYPE");
  EXPECT_EQ(r.findings[1].frame, std::optional<std::size_t>(2));
  EXPECT_EQ(r.findings[1].seen, "2 (first shown)");
  EXPECT_FALSE(r.conforming());
}

TEST(scenario_expect, event_types_follow_the_dialect) {
  const auto agent = ssec::live::event_types(agent_with_ids, sse::dialect::builtin_dialect("agent"), {});
  ASSERT_EQ(agent.size(), 8u);
  EXPECT_EQ(agent[2].type, "tool_started");
  EXPECT_EQ(agent[2].offset, agent_with_ids.find("id: 3"));
  const auto chat =
      ssec::live::event_types("data: hello\n\ndata: [ERROR] boom\n\ndata: {\"type\":\"content\",\"text\":\"a\"}\n\n",
                              sse::dialect::builtin_dialect("chat"), {});
  ASSERT_EQ(chat.size(), 3u);
  EXPECT_EQ(chat[0].type, "(plain_text)");
  EXPECT_EQ(chat[1].type, "(error_frame)");
  EXPECT_EQ(chat[2].type, "content");
  const auto wire = ssec::live::event_types("event: ping\ndata: a\n\ndata: b\n\n", nullptr, {});
  ASSERT_EQ(wire.size(), 2u);
  EXPECT_EQ(wire[0].type, "ping");
  EXPECT_EQ(wire[1].type, "message");
}

}  // namespace
