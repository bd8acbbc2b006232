// SPDX-License-Identifier: MIT
// Every producer rule of the catalogs, with one stream that keeps it (and
// breaks nothing) and one that breaks it (and exactly the rules listed), and the frames each rule judges.
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sse/dialect/validator.hpp"
#include "validator_test_support.hpp"

namespace {

using validator_test_support::agent;
using validator_test_support::agent_ok;
using validator_test_support::chat_ok;
using validator_test_support::chunk;
using validator_test_support::describe;
using validator_test_support::dialect;
using validator_test_support::every_type_stream;
using validator_test_support::f;
using validator_test_support::rules_broken;
using validator_test_support::workflow_ok;

struct rule_case {
  std::string rule;
  std::string dialect;
  std::string keeps;   // a conforming stream that exercises the rule
  std::string breaks;  // breaks `rule` and exactly the rules in `also`
  std::vector<std::string> also = {};
  std::optional<std::string> keeps_content_type = {};  // the HTTP header, where the rule needs one
  std::optional<std::string> breaks_content_type = {};
};

void PrintTo(const rule_case& c, std::ostream* os) { *os << c.rule << " (" << c.dialect << ")"; }

std::vector<rule_case> rule_cases() {
  const std::string invalid_utf8 = f("{\"type\":\"content\",\"text\":\"caf\xC3\"}");
  return {
      // --- chat / code / workflow -------------------------------------------------
      {"CHAT-CONTENT-TYPE", "chat", chat_ok, chat_ok, {}, "text/event-stream; charset=utf-8", "text/plain"},
      {"CHAT-UTF8", "chat", chat_ok, chat_ok + invalid_utf8},
      {"CHAT-FRAME-TERMINATED", "chat", chat_ok, chat_ok + R"(data: {"type":"content","text":"cut")"},
      {"CHAT-TYPE-STRING", "chat", chat_ok, chat_ok + f(R"({"text":"no type"})")},
      {"CHAT-TYPE-KNOWN", "chat", chat_ok, chat_ok + f(R"({"type":"brand_new","x":1})")},
      {"CHAT-FIELD-REQUIRED", "chat", chat_ok, chat_ok + f(R"({"type":"file_change","path":"a.cpp"})")},
      {"CHAT-FIELD-TYPE", "chat", chat_ok,
       chat_ok + f(R"({"type":"checkpoint","id":"k","label":"l","fileCount":"3"})")},
      {"CHAT-KEY-CASING", "chat", chat_ok,
       chat_ok + f(R"({"type":"tool_result","id":"c1","name":"search","content":"x","is_error":true})")},
      {"CHAT-TYPE-KEY-CASING", "chat", chat_ok, chat_ok + f(R"({"Type":"content","text":"x"})")},
      {"CHAT-FIELD-UNDECLARED", "chat", chat_ok, chat_ok + f(R"({"type":"content","text":"a","color":"red"})")},
      {"CHAT-JSON-UNIQUE-KEYS", "chat", chat_ok, chat_ok + f(R"({"type":"content","text":"a","text":"b"})")},
      {"CHAT-APPROVAL-ID", "chat", chat_ok, chat_ok + f(R"({"type":"approval_request","name":"rm","arguments":{}})")},
      {"CHAT-QUESTION-TOOLCALLID", "chat", chat_ok, chat_ok + f(R"({"type":"question","data":{"prompt":"?"}})")},
      {"CHAT-APPROVAL-QUESTION-DISTINCT", "chat", chat_ok,
       chat_ok + f(R"({"type":"approval_request","id":"c3","toolCallId":"c1","name":"rm","arguments":{}})")},
      {"CHAT-TOOL-RESULT-REFERS", "chat", chat_ok,
       chat_ok + f(R"({"type":"tool_result","id":"c9","name":"x","content":""})")},
      {"CHAT-TOOLCALLID-REFERS", "chat", chat_ok, chat_ok + f(R"({"type":"plan","toolCallId":"c9","data":{}})")},
      {"CHAT-TOOL-CALL-ID-UNIQUE", "chat", chat_ok,
       chat_ok + f(R"({"type":"tool_call","id":"c1","name":"search","arguments":{}})")},
      {"CHAT-NO-DONE-FRAME", "chat", chat_ok, chat_ok + f(R"({"type":"done"})")},
      {"WORKFLOW-RUN-STARTED-FIRST", "workflow", workflow_ok,
       f(R"({"type":"node_started","runId":"w1","nodeId":"n0"})") + workflow_ok},
      {"WORKFLOW-RUN-END-LAST", "workflow", workflow_ok,
       workflow_ok + f(R"({"type":"node_started","runId":"w1","nodeId":"n3"})")},
      {"WORKFLOW-NODE-PAIR", "workflow", workflow_ok,
       f(R"({"type":"run_started","runId":"w1"})") + f(R"({"type":"node_completed","runId":"w1","nodeId":"n7"})")},
      {"WORKFLOW-RUNID-CONSTANT", "workflow", workflow_ok,
       f(R"({"type":"run_started","runId":"w1"})") + f(R"({"type":"run_completed","runId":"w2"})")},
      // --- agent ------------------------------------------------------------------
      {"AGENT-CONTENT-TYPE", "agent", agent_ok, agent_ok, {}, "Text/Event-Stream", "application/json"},
      {"AGENT-UTF8", "agent", agent_ok,
       agent({f("{\"type\":\"message_chunk\",\"content\":\"caf\xC3\",\"runId\":\"r1\",\"stepId\":\"s1\"}")})},
      {"AGENT-FRAME-TERMINATED", "agent", agent_ok,
       agent_ok + R"(data: {"type":"message_chunk","content":"late")"
                  "\n"},
      {"AGENT-FRAME-LF", "agent", agent_ok,
       agent({"data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\r\n\r\n"})},
      {"AGENT-FRAME-ONE-LINE", "agent", agent_ok,
       agent({"data: {\"type\":\"message_chunk\",\ndata: \"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"})},
      {"AGENT-FRAME-DATA-ONLY", "agent", agent_ok, agent({"id: 7\n" + chunk})},
      {"AGENT-FRAME-DATA-SPACE", "agent", agent_ok,
       agent({"data:{\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"})},
      {"AGENT-FRAME-DATA-NAME", "agent", agent_ok,
       agent({"Data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"})},
      {"AGENT-FRAME-JSON", "agent", agent_ok, agent({f("Hello")})},
      {"AGENT-TYPE-KNOWN", "agent", agent_ok, agent({f(R"({"type":"brand_new","runId":"r1","stepId":"s1"})")})},
      {"AGENT-FIELD-REQUIRED", "agent", agent_ok, agent({f(R"({"type":"message_chunk","runId":"r1","stepId":"s1"})")})},
      {"AGENT-FIELD-TYPE", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":42,"runId":"r1","stepId":"s1"})")})},
      {"AGENT-KEY-CASING", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1","Sequence":1})")})},
      {"AGENT-FIELD-UNDECLARED", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1","role":"assistant"})")})},
      {"AGENT-JSON-UNIQUE-KEYS", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"H","content":"Hi","runId":"r1","stepId":"s1"})")})},
      {"AGENT-RUNID-PRESENT", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"Hi","stepId":"s1"})")})},
      {"AGENT-STEPID-PRESENT", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"Hi","runId":"r1"})")})},
      {"AGENT-STEP-STEPID", "agent", agent_ok,
       f(R"({"type":"run_started","runId":"r1"})") + f(R"({"type":"step_started","runId":"r1"})") +
           f(R"({"type":"step_completed","runId":"r1"})") + f(R"({"type":"done","runId":"r1"})")},
      {"AGENT-ERROR-MESSAGE", "agent",
       f(R"({"type":"run_started","runId":"r1"})") +
           f(R"({"type":"error","runId":"r1","stepId":"s1","error":"boom"})") + f(R"({"type":"done","runId":"r1"})"),
       f(R"({"type":"run_started","runId":"r1"})") + f(R"({"type":"error","runId":"r1","stepId":"s1"})") +
           f(R"({"type":"done","runId":"r1"})")},
      {"AGENT-DONE-RUNID", "agent", agent_ok, agent({}, R"({"type":"done"})")},
      {"AGENT-RUNID-CONSTANT", "agent", agent_ok,
       agent({f(R"({"type":"message_chunk","content":"Hi","runId":"r2","stepId":"s1"})")})},
      {"AGENT-SEQUENCE-INCREASING", "agent",
       agent({f(R"({"type":"message_chunk","content":"a","runId":"r1","stepId":"s1","sequence":1})"), chunk,
              f(R"({"type":"message_chunk","content":"b","runId":"r1","stepId":"s1","sequence":5})")}),
       agent({f(R"({"type":"message_chunk","content":"a","runId":"r1","stepId":"s1","sequence":2})"),
              f(R"({"type":"message_chunk","content":"b","runId":"r1","stepId":"s1","sequence":2})")})},
      {"AGENT-STEP-PAIR", "agent", agent_ok, agent({f(R"({"type":"step_completed","runId":"r1","stepId":"s9"})")})},
      {"AGENT-STEP-CLOSED", "agent", agent_ok, agent({f(R"({"type":"step_started","runId":"r1","stepId":"s2"})")})},
      {"AGENT-TOOL-PAIR", "agent", agent_ok,
       agent({f(R"({"type":"tool_result","runId":"r1","stepId":"s1","data":{}})")})},
      {"AGENT-TOOL-CLOSED", "agent", agent_ok, agent({f(R"({"type":"tool_started","runId":"r1","stepId":"s1"})")})},
      {"AGENT-SUBAGENT-PAIR", "agent", agent_ok,
       agent({f(R"({"type":"subagent_completed","runId":"r1","stepId":"s1"})")})},
      {"AGENT-SUBAGENT-CLOSED", "agent", agent_ok,
       agent({f(R"({"type":"subagent_started","runId":"r1","stepId":"s1"})")})},
      {"AGENT-RUN-STARTED-FIRST", "agent", agent_ok,
       f(R"({"type":"step_started","runId":"r1","stepId":"s1"})") +
           f(R"({"type":"step_completed","runId":"r1","stepId":"s1"})") + f(R"({"type":"done","runId":"r1"})")},
      {"AGENT-RUN-END-ONCE",
       "agent",
       agent_ok,
       agent({f(R"({"type":"run_failed","runId":"r1","stepId":"s1","error":"x"})")}),
       {"AGENT-RUN-END-THEN-DONE"}},
      {"AGENT-RUN-END-THEN-DONE", "agent", agent_ok, agent({}, "") + chunk + f(R"({"type":"done","runId":"r1"})")},
      {"AGENT-ERROR-THEN-DONE", "agent",
       f(R"({"type":"run_started","runId":"r1"})") +
           f(R"({"type":"error","runId":"r1","stepId":"s1","error":"boom"})") + f(R"({"type":"done","runId":"r1"})"),
       f(R"({"type":"run_started","runId":"r1"})") +
           f(R"({"type":"error","runId":"r1","stepId":"s1","error":"boom"})") +
           f(R"({"type":"message_chunk","content":"more","runId":"r1","stepId":"s1"})") +
           f(R"({"type":"done","runId":"r1"})")},
      {"AGENT-DONE-LAST", "agent", agent_ok, agent_ok + chunk, {"AGENT-RUN-END-THEN-DONE"}},
      {"AGENT-DONE-ONCE", "agent", agent_ok, agent_ok + f(R"({"type":"done","runId":"r1"})"), {"AGENT-DONE-LAST"}},
  };
}

class producer_rule : public ::testing::TestWithParam<rule_case> {};

TEST_P(producer_rule, stream_that_keeps_it_is_conforming) {
  const rule_case& c = GetParam();
  const auto report = sse::dialect::validate_stream(dialect(c.dialect), c.keeps, {}, c.keeps_content_type);
  EXPECT_TRUE(report.findings.empty()) << describe(report);
  EXPECT_TRUE(report.conforming());
}

TEST_P(producer_rule, stream_that_breaks_it_is_reported) {
  const rule_case& c = GetParam();
  const auto report = sse::dialect::validate_stream(dialect(c.dialect), c.breaks, {}, c.breaks_content_type);
  std::set<std::string> expected(c.also.begin(), c.also.end());
  expected.insert(c.rule);
  EXPECT_EQ(rules_broken(report), expected) << describe(report);
  const auto* rule = sse::dialect::builtin_catalog().value->rule(c.rule);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(report.conforming(), rule->level == sse::dialect::severity::should &&
                                     std::all_of(c.also.begin(), c.also.end(), [](const std::string& id) {
                                       return sse::dialect::builtin_catalog().value->rule(id)->level ==
                                              sse::dialect::severity::should;
                                     }));
  for (const auto& fnd : report.findings) {
    EXPECT_FALSE(fnd.expected.empty());
    EXPECT_FALSE(fnd.seen.empty());
    EXPECT_LE(fnd.offset, c.breaks.size());
    EXPECT_LE(fnd.frame, report.frames);
  }
}

INSTANTIATE_TEST_SUITE_P(rules, producer_rule, ::testing::ValuesIn(rule_cases()),
                         [](const ::testing::TestParamInfo<rule_case>& info) {
                           std::string name = info.param.rule;
                           for (auto& ch : name) {
                             if (ch == '-') ch = '_';
                           }
                           return name;
                         });

// Every rule of the catalogs has a case above.
TEST(validator, every_rule_has_a_case) {
  std::set<std::string> covered;
  for (const auto& c : rule_cases()) covered.insert(c.rule);
  for (const auto& r : sse::dialect::builtin_catalog().value->rules()) EXPECT_TRUE(covered.contains(r->id)) << r->id;
}

// The chat rules hold for the code profile too (they name it), on the same streams.
TEST(validator, code_profile_runs_the_chat_rules) {
  for (const auto& c : rule_cases()) {
    if (c.dialect != "chat") continue;
    const auto* rule = sse::dialect::builtin_catalog().value->rule(c.rule);
    const bool applies = std::find(rule->dialects.begin(), rule->dialects.end(), "code") != rule->dialects.end();
    EXPECT_TRUE(applies) << c.rule;
    const auto report = sse::dialect::validate_stream(dialect("code"), c.breaks, {}, c.breaks_content_type);
    EXPECT_TRUE(rules_broken(report).contains(c.rule)) << c.rule;
    EXPECT_TRUE(sse::dialect::validate_stream(dialect("code"), c.keeps, {}, c.keeps_content_type).findings.empty())
        << c.rule;
  }
}

// The loader's index of each catalog type against the rules
// (dialect_spec::rules_by_event) judges as the rules' own type lists do: the
// same dialect without the index (each frame's type then worked out against
// every rule) gives the same report, on seeded streams of every catalog type
// in random order, with unknown types and plain frames among them.
TEST(validator, the_loaders_per_type_rule_index_judges_as_the_rules_type_lists) {
  const auto report_text = [](const sse::dialect::validation_report& r) {
    std::string out = std::to_string(r.must) + " must, " + std::to_string(r.should) + " should\n";
    for (const auto& x : r.findings) out += sse::dialect::to_json(x).dump() + "\n";
    return out;
  };
  for (const auto& name : sse::dialect::builtin_dialect_names()) {
    const auto& indexed = dialect(name);
    ASSERT_EQ(indexed.rules_by_event.size(), indexed.events.size()) << name;
    for (const auto& entry : indexed.rules_by_event) ASSERT_EQ(entry.roles.size(), indexed.rules.size()) << name;
    sse::dialect::dialect_spec unindexed = indexed;
    unindexed.rules_by_event.clear();
    unindexed.event_index.clear();  // views into the copy's own events
    for (const auto& e : unindexed.events) unindexed.event_index.emplace(e.type, &e);
    std::size_t findings = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const std::string stream = every_type_stream(indexed, seed);
      const std::string with_index = report_text(sse::dialect::validate_stream(indexed, stream));
      EXPECT_EQ(report_text(sse::dialect::validate_stream(unindexed, stream)), with_index) << name << " seed " << seed;
      findings += sse::dialect::validate_stream(indexed, stream).findings.size();
    }
    EXPECT_GT(findings, 0U) << name << ": the streams must break cross-frame rules for the comparison to mean anything";
  }
}

}  // namespace
