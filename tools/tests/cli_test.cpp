// SPDX-License-Identifier: MIT
// The command line of `sse-conform validate` and `sse-conform parse --layer`
// (tools/docs/cli.md), run as a user runs them: exit statuses, the rule id,
// frame and byte offset of each finding, the JSON shapes, and errors that name
// what was wrong. Expectations come from the agent-service document and
// spec/agent.yaml's producer rules.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;  // the tool, its outcome, read_file, quote, the fixture

class cli : public tool_test {
 protected:
  cli() : tool_test("ssec-cli-") {}

  // Runs the tool with `args` (already shell-quoted where needed).
  outcome run(const std::string& args) const { return shell(quote(tool) + " " + args); }
};

// The document's own example run, with a `role` field added to a message_chunk:
// conforming (no MUST broken), but the extra field is AGENT-FIELD-UNDECLARED
// (should) at its frame's start.
TEST_F(cli, validate_reports_should_findings_with_frame_and_byte_and_exits_zero) {
  const fs::path example = source_dir / "tools/examples/agent-run.sse";
  const std::string bytes = read_file(example);
  const std::size_t role_frame = bytes.find("data: {\"type\":\"message_chunk\",\"content\":\" there\",\"role\"");
  ASSERT_NE(role_frame, std::string::npos);
  const auto r = run("validate --dialect agent '" + example.string() + "'");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("frame 4, byte " + std::to_string(role_frame) + ": AGENT-FIELD-UNDECLARED (should)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": conforming"), std::string::npos) << r.out;
}

// A run without its terminal done breaks AGENT-DONE-LAST (a MUST): exit 1, and
// the JSON form carries the same finding at the end of the stream.
TEST_F(cli, validate_a_missing_done_is_a_must_finding_and_exits_one) {
  const std::string stream =
      "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
      "data: {\"type\":\"run_completed\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n";
  const fs::path file = write("no-done.sse", stream);
  const auto text = run("validate --dialect agent '" + file.string() + "'");
  EXPECT_EQ(text.status, 1) << text.out << text.err;
  EXPECT_NE(text.out.find("AGENT-DONE-LAST (must)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("NOT conforming"), std::string::npos) << text.out;

  const auto json = run("validate --dialect agent --json - < '" + file.string() + "'");
  EXPECT_EQ(json.status, 1) << json.err;
  const auto report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report.at("dialect"), "agent");
  EXPECT_EQ(report.at("frames"), 2);
  EXPECT_EQ(report.at("summary").at("conforming"), false);
  EXPECT_EQ(report.at("summary").at("must"), 1);
  bool found = false;
  for (const auto& f : report.at("findings")) {
    if (f.at("rule") != "AGENT-DONE-LAST") continue;
    found = true;
    EXPECT_EQ(f.at("severity"), "must");
    EXPECT_LE(f.at("offset").get<std::size_t>(), stream.size());
    EXPECT_FALSE(f.at("text").get<std::string>().empty());
  }
  EXPECT_TRUE(found) << json.out;
}

// Content type is checked when given: the agent service serves text/event-stream.
TEST_F(cli, validate_checks_the_content_type_when_given) {
  const fs::path example = source_dir / "tools/examples/agent-run.sse";
  const auto wrong = run("validate --dialect agent --json --content-type application/json '" + example.string() + "'");
  const auto report = nlohmann::json::parse(wrong.out);
  bool found = false;
  for (const auto& f : report.at("findings")) found = found || f.at("rule") == "AGENT-CONTENT-TYPE";
  EXPECT_TRUE(found) << wrong.out;
  const auto right = run("validate --dialect agent --json --content-type 'text/event-stream; charset=utf-8' '" +
                         example.string() + "'");
  EXPECT_EQ(right.out.find("AGENT-CONTENT-TYPE"), std::string::npos) << right.out;
}

TEST_F(cli, validate_usage_errors_exit_two_and_say_what_is_wrong) {
  const auto dialect = run("validate --dialect klingon -");
  EXPECT_EQ(dialect.status, 2);
  EXPECT_NE(dialect.err.find("unknown dialect 'klingon'"), std::string::npos) << dialect.err;
  EXPECT_NE(dialect.err.find("agent"), std::string::npos) << dialect.err;

  const std::string missing = (dir_ / "no-such.sse").string();
  const auto file = run("validate --dialect agent '" + missing + "'");
  EXPECT_EQ(file.status, 2);
  EXPECT_NE(file.err.find(missing), std::string::npos) << file.err;

  // A broken catalog names its file and line.
  const fs::path catalog = write("broken.yaml", "format_version: 1\ncatalog_version: 1.0.0\nbogus_key: 3\n");
  const auto broken = run("validate --dialect agent --catalog '" + catalog.string() + "' -  < /dev/null");
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.err.find(catalog.string() + ":"), std::string::npos) << broken.err;
}

// parse --layer agent prints one dialect event per frame, in order, keeping
// each frame's raw bytes (the protocols promise content is never dropped).
TEST_F(cli, parse_layer_agent_prints_typed_events_with_their_raw_frames) {
  const std::string stream =
      "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
      "data: not json at all\n\n"
      "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n";
  const fs::path file = write("run.sse", stream);
  const auto r = run("parse --layer agent '" + file.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> events;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) events.push_back(nlohmann::json::parse(line));
  }
  ASSERT_EQ(events.size(), 3u) << r.out;
  EXPECT_EQ(events[0].at("kind"), "structured");
  EXPECT_EQ(events[0].at("type"), "run_started");
  EXPECT_EQ(events[0].at("fields").at("runId"), "r1");
  EXPECT_EQ(events[1].at("raw"), "not json at all");
  EXPECT_NE(events[1].at("kind"), "structured");
  EXPECT_EQ(events[2].at("type"), "done");

  // The same events whatever the chunking.
  const auto bytes = run("parse --layer agent --chunk 1 '" + file.string() + "'");
  EXPECT_EQ(bytes.out, r.out);
  const auto random = run("parse --layer agent --split-seed 7 '" + file.string() + "'");
  EXPECT_EQ(random.out, r.out);
}

TEST_F(cli, parse_unknown_layer_exits_two) {
  const auto r = run("parse --layer klingon - < /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown layer `klingon` (known: wire, chat, code, workflow, agent)"), std::string::npos)
      << r.err;
}

}  // namespace
