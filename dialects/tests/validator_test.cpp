// Every producer rule of the catalogs, with one stream that keeps it (and
// breaks nothing) and one that breaks it (and exactly the rules listed).
// Streams are written from the documents (chat:N, agent:N) and
// spec/DECISIONS.md; a test checks that no catalog rule lacks a case.
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"

namespace {

using nlohmann::json;

const sse::dialect::dialect_spec& dialect(std::string_view name) {
  const auto& loaded = sse::dialect::builtin_catalog();
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  const auto* d = loaded.value->dialect(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

// One SSE frame: a data line and the blank line after it.
std::string f(std::string_view data) { return "data: " + std::string(data) + "\n\n"; }

std::string joined(std::initializer_list<std::string> frames) {
  std::string out;
  for (const auto& fr : frames) out += fr;
  return out;
}

// --- conforming baselines ---------------------------------------------------

// chat: body text, a tool call and its result, a question tied to it, usage.
const std::string chat_ok = joined({
    f(R"({"type":"thinking","text":"Let me look."})"),
    f(R"({"type":"tool_call","id":"c1","name":"search","arguments":{"q":"sse"}})"),
    f(R"({"type":"tool_result","id":"c1","name":"search","content":"2 hits"})"),
    f(R"({"type":"question","toolCallId":"c1","data":{"prompt":"Which one?"}})"),
    f(R"({"type":"approval_request","id":"c2","name":"rm","arguments":{"path":"/tmp/x"}})"),
    f(R"({"type":"content","text":"Done."})"),
    "data: plain text from a proxy\n\n",
    f("[ERROR] upstream timeout"),
    f(R"({"type":"usage","promptTokens":10,"completionTokens":5})"),
});

const std::string workflow_ok = joined({
    f(R"({"type":"run_started","runId":"w1"})"),
    f(R"({"type":"node_started","runId":"w1","nodeId":"n1"})"),
    f(R"({"type":"agent_tool_call","runId":"w1","nodeId":"n1","name":"search","arguments":{}})"),
    f(R"({"type":"node_completed","runId":"w1","nodeId":"n1","data":{"ok":true}})"),
    f(R"({"type":"node_started","runId":"w1","nodeId":"n2"})"),
    f(R"({"type":"node_failed","runId":"w1","nodeId":"n2","error":"timeout"})"),
    f(R"({"type":"run_completed","runId":"w1","custom":"open events take any field"})"),
});

// agent: a full run with a step, a tool call, a subagent, as agent:12-16 show.
std::string agent(std::initializer_list<std::string> middle, std::string_view end = R"({"type":"done","runId":"r1"})") {
  std::string out =
      f(R"({"type":"run_started","runId":"r1"})") + f(R"({"type":"step_started","runId":"r1","stepId":"s1"})");
  for (const auto& m : middle) out += m;
  out += f(R"({"type":"step_completed","runId":"r1","stepId":"s1"})");
  out += f(R"({"type":"run_completed","runId":"r1","stepId":"s1"})");
  if (!end.empty()) out += f(end);
  return out;
}
const std::string chunk = f(R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1"})");
const std::string agent_ok = agent({
    chunk,
    f(R"({"type":"tool_started","runId":"r1","stepId":"s1","payload":{"tool":"search"}})"),
    f(R"({"type":"tool_result","runId":"r1","stepId":"s1","data":{"hits":2}})"),
    f(R"({"type":"tool_completed","runId":"r1","stepId":"s1"})"),
    f(R"({"type":"subagent_started","runId":"r1","stepId":"s1","payload":{"name":"critic"}})"),
    f(R"({"type":"subagent_completed","runId":"r1","stepId":"s1","data":{"ok":true}})"),
    f(R"({"type":"resume_update","runId":"r1","stepId":"s1","data":{"name":"A"},"payload":{"resume":{"name":"A"}}})"),
});

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

std::set<std::string> rules_broken(const sse::dialect::validation_report& r) {
  std::set<std::string> ids;
  for (const auto& fnd : r.findings) ids.insert(fnd.rule->id);
  return ids;
}

std::string describe(const sse::dialect::validation_report& r) {
  std::string out;
  for (const auto& fnd : r.findings) out += "  " + to_json(fnd).dump() + "\n";
  return out;
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

// Where a finding points: frame index and byte offset of the frame's block.
TEST(validator, findings_name_frame_and_offset) {
  const std::string first = f(R"({"type":"run_started","runId":"r1"})");
  const std::string second = f(R"({"type":"message_chunk","runId":"r1","stepId":"s1"})");  // no content
  const std::string stream = first + ": comment\n\n" + second;
  const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
  ASSERT_EQ(report.frames, 2u);
  std::map<std::string, sse::dialect::finding> by_rule;
  for (const auto& fnd : report.findings) by_rule.emplace(fnd.rule->id, fnd);
  ASSERT_TRUE(by_rule.contains("AGENT-FIELD-REQUIRED")) << describe(report);
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].frame, 1u);
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].offset, first.size() + std::string(": comment\n\n").size());
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].seen, "no content");
  // End-of-stream findings point past the last frame.
  ASSERT_TRUE(by_rule.contains("AGENT-DONE-LAST"));
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].frame, 2u);
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].offset, stream.size());
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].seen, "the stream ends after a message_chunk frame");
  EXPECT_FALSE(report.conforming());
}

// spec/DECISIONS.md, frames-after-done: every frame after done is reported, the first at its own offset.
TEST(validator, frames_after_done) {
  const std::string stream = agent_ok + chunk + chunk;
  const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
  std::vector<std::uint64_t> offsets;
  for (const auto& fnd : report.findings) {
    if (fnd.rule->id == "AGENT-DONE-LAST") offsets.push_back(fnd.offset);
  }
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{agent_ok.size(), agent_ok.size() + chunk.size()}));
}

// An empty agent stream has no done.
TEST(validator, empty_stream) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), "");
  EXPECT_EQ(rules_broken(report), (std::set<std::string>{"AGENT-DONE-LAST"}));
  EXPECT_EQ(report.findings.front().seen, "an empty stream");
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("chat"), "").findings.empty());
}

// The documents' own example streams (agent:12-16) keep every MUST rule.
TEST(validator, document_examples) {
  const std::string example =
      "data: {\"type\":\"run_started\",\"runId\":\"clx...\"}\n\n"
      "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"clx...\",\"stepId\":\"stp...\"}\n\n"
      "data: {\"type\":\"done\",\"runId\":\"clx...\"}\n\n";
  const auto report = sse::dialect::validate_stream(dialect("agent"), example);
  EXPECT_TRUE(report.findings.empty()) << describe(report);
}

// Comments and blank lines after done are not frames (spec/DECISIONS.md, frames-after-done).
TEST(validator, comments_after_done_are_fine) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent_ok + ": bye\n\n\n");
  EXPECT_TRUE(report.findings.empty()) << describe(report);
  // An unterminated comment at the end is not a cut frame either.
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("agent"), agent_ok + ": bye").findings.empty());
}

// The forbidden `id` on a question is reported once, as the interchange rule.
TEST(validator, question_with_id_instead_of_tool_call_id) {
  const auto report =
      sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"question","id":"c1","data":{}})"));
  EXPECT_EQ(rules_broken(report),
            (std::set<std::string>{"CHAT-APPROVAL-QUESTION-DISTINCT", "CHAT-QUESTION-TOOLCALLID"}))
      << describe(report);
}

// A key variant beside the mapped key loses nothing (the frontend maps the
// exact key, which is there): an extra field, so CHAT-FIELD-UNDECLARED (should),
// not CHAT-KEY-CASING (must). Instead of the mapped key it is the MUST
// (spec/DECISIONS.md, chat-key-casing).
TEST(validator, key_variant_beside_the_mapped_key_is_an_undeclared_field) {
  const auto beside =
      sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"content","text":"a","Text":"a"})"));
  EXPECT_EQ(rules_broken(beside), (std::set<std::string>{"CHAT-FIELD-UNDECLARED"})) << describe(beside);
  EXPECT_TRUE(beside.conforming()) << describe(beside);
  const auto instead = sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"content","Text":"a"})"));
  EXPECT_EQ(rules_broken(instead), (std::set<std::string>{"CHAT-KEY-CASING", "CHAT-FIELD-REQUIRED"}))
      << describe(instead);
  EXPECT_FALSE(instead.conforming());
}

// Each finding as "RULE severity frame N byte M": which rule, how grave, and where.
std::vector<std::string> located(const sse::dialect::validation_report& r) {
  std::vector<std::string> out;
  for (const auto& x : r.findings) {
    out.push_back(x.rule->id + " " + std::string(sse::dialect::to_string(x.rule->level)) + " frame " +
                  std::to_string(x.frame) + " byte " + std::to_string(x.offset));
  }
  return out;
}

// located() of `stream` fed to a stream validator whole, byte by byte and in
// seeded random pieces: the same every way (a test failure otherwise).
std::vector<std::string> located_under_every_chunking(const sse::dialect::dialect_spec& d, const std::string& stream) {
  const auto fed = [&](const std::vector<std::string_view>& pieces) {
    sse::dialect::stream_validator v(d);
    for (const auto piece : pieces) v.feed(piece);
    return located(v.finish());
  };
  auto whole = located(sse::dialect::validate_stream(d, stream));
  EXPECT_EQ(fed(sse::chunking::whole(stream)), whole);
  EXPECT_EQ(fed(sse::chunking::bytes(stream)), whole) << "byte by byte";
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    EXPECT_EQ(fed(sse::chunking::random(stream, seed)), whole) << "seed " << seed;
  }
  return whole;
}

const std::string run_started = f(R"({"type":"run_started","runId":"r1"})");
const std::string run_done = f(R"({"type":"done","runId":"r1"})");
const std::string chunk_json = R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1"})";

// agent:8: a frame is `data: ` and its JSON object. A line under any other
// field name is ignored by every reader (WHATWG compares names literally), so
// a frame made of one is dispatched by none: AGENT-FRAME-DATA-NAME (must) at
// the line, with the index the frame would have had (the next frame's). In a
// frame that is dispatched, the line is that rule's too, not DATA-ONLY's.
// Blocks of comments or known fields alone carry no event and are no frames
// (spec/DECISIONS.md, agent-frame-data-name, agent-frame-data-only).
TEST(validator, a_data_line_under_another_field_name_is_a_lost_frame) {
  const std::string at = std::to_string(run_started.size());
  for (const std::string& line : {"Data: " + chunk_json, "DATA:" + chunk_json, "data : " + chunk_json,
                                  " data: " + chunk_json, "dta: " + chunk_json, chunk_json}) {
    const std::string stream = run_started + line + "\n\n" + run_done;
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), stream),
              (std::vector<std::string>{"AGENT-FRAME-DATA-NAME must frame 1 byte " + at}))
        << line;
    const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
    EXPECT_EQ(report.frames, 2u) << line;
    EXPECT_FALSE(report.conforming()) << line;
    ASSERT_EQ(report.findings.size(), 1u);
    EXPECT_NE(report.findings.front().seen.find("which every reader ignores"), std::string::npos)
        << report.findings.front().seen;
  }
  // Beside the frame's data line: only the misnamed line's rule, at that line.
  const std::string data_line = "data: " + chunk_json + "\n";
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + data_line + "Data: more\n\n" + run_done),
            (std::vector<std::string>{"AGENT-FRAME-DATA-NAME must frame 1 byte " +
                                      std::to_string(run_started.size() + data_line.size())}));
  // With an id line as well: that one is DATA-ONLY's, at the frame's block.
  EXPECT_EQ(
      located_under_every_chunking(dialect("agent"), run_started + data_line + "id: 7\nData: more\n\n" + run_done),
      (std::vector<std::string>{
          "AGENT-FRAME-DATA-NAME must frame 1 byte " + std::to_string(run_started.size() + data_line.size() + 6),
          "AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}));
  // Kept: a keepalive comment, a retry, an id and an event type, each a block
  // of its own, dispatch nothing and lose nothing.
  EXPECT_TRUE(located_under_every_chunking(dialect("agent"), run_started + ": keepalive\n\nretry: 1000\n\nid: 3\n\n" +
                                                                 "event: ping\n\n" + run_done + ": bye\n\n")
                  .empty());
}

// agent:8 read once for every line of a frame: an id, event, retry or comment
// line beside the data line breaks it as a second data line does (both MUST,
// spec/DECISIONS.md, agent-frame-data-only), at the frame's block. A comment
// before the frame's first field line starts no block and is not judged.
TEST(validator, a_line_beside_the_data_line_is_a_must_finding) {
  const std::string at = std::to_string(run_started.size());
  const std::string data_line = "data: " + chunk_json + "\n";
  for (const std::string extra : {"id: 7", "event: chunk", "retry: 1000", ": note"}) {
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + data_line + extra + "\n\n" + run_done),
              (std::vector<std::string>{"AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}))
        << extra << " after the data line";
  }
  for (const std::string extra : {"id: 7", "event: chunk", "retry: 1000"}) {
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + extra + "\n" + data_line + "\n" + run_done),
              (std::vector<std::string>{"AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}))
        << extra << " before the data line";
  }
  EXPECT_TRUE(
      located_under_every_chunking(dialect("agent"), run_started + ": note\n" + data_line + "\n" + run_done).empty());
  const auto report =
      sse::dialect::validate_stream(dialect("agent"), run_started + "id: 7\n" + data_line + "\n" + run_done);
  EXPECT_FALSE(report.conforming());
}

// chat:48 holds for the key the frontend dispatches on: `Type` (or any
// spelling of `type` up to case and `_`/`-`) instead of `type` is
// CHAT-TYPE-KEY-CASING (must) in chat, code and workflow, and not also
// CHAT-TYPE-STRING. Beside `type` it is an extra field; a `type` that is not a
// string is CHAT-TYPE-STRING's (spec/DECISIONS.md, chat-type-key-casing).
TEST(validator, a_miscased_type_key_is_a_must_casing_finding) {
  const std::string workflow_start = f(R"({"type":"run_started","runId":"w1"})");
  const std::string workflow_end = f(R"({"type":"run_completed","runId":"w1"})");
  const std::size_t chat_frames = sse::dialect::validate_stream(dialect("chat"), chat_ok).frames;
  for (const std::string variant : {R"({"Type":"content","text":"x"})", R"({"TYPE":"content","text":"x"})",
                                    R"({"ty_pe":"content","text":"x"})", R"({"text":"x","Type":5})"}) {
    for (const char* name : {"chat", "code"}) {
      EXPECT_EQ(located_under_every_chunking(dialect(name), chat_ok + f(variant)),
                (std::vector<std::string>{"CHAT-TYPE-KEY-CASING must frame " + std::to_string(chat_frames) + " byte " +
                                          std::to_string(chat_ok.size())}))
          << name << " " << variant;
    }
    EXPECT_EQ(
        located_under_every_chunking(dialect("workflow"), workflow_start + f(variant) + workflow_end),
        (std::vector<std::string>{"CHAT-TYPE-KEY-CASING must frame 1 byte " + std::to_string(workflow_start.size())}))
        << variant;
    EXPECT_FALSE(sse::dialect::validate_stream(dialect("chat"), chat_ok + f(variant)).conforming());
  }
  const auto seen = sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"Type":"content","text":"x"})"));
  ASSERT_EQ(seen.findings.size(), 1u);
  EXPECT_EQ(seen.findings.front().seen, R"(key "Type")");
  // Beside the key: an extra field (should); a non-string type: the type rule (should).
  EXPECT_EQ(
      located_under_every_chunking(dialect("chat"), chat_ok + f(R"({"type":"content","Type":"content","text":"x"})")),
      (std::vector<std::string>{"CHAT-FIELD-UNDECLARED should frame " + std::to_string(chat_frames) + " byte " +
                                std::to_string(chat_ok.size())}));
  EXPECT_EQ(located_under_every_chunking(dialect("chat"), chat_ok + f(R"({"type":5,"Type":"content"})")),
            (std::vector<std::string>{"CHAT-TYPE-STRING should frame " + std::to_string(chat_frames) + " byte " +
                                      std::to_string(chat_ok.size())}));
  // In agent a frame without `type` is already not a JSON object with a string type (must).
  EXPECT_EQ(located_under_every_chunking(dialect("agent"),
                                         run_started + f(R"({"Type":"message_chunk","content":"Hi"})") + run_done),
            (std::vector<std::string>{"AGENT-FRAME-JSON must frame 1 byte " + std::to_string(run_started.size())}));
}

// agent:29: an `error` frame carries `error`: AGENT-ERROR-MESSAGE (must) at
// its frame. run_failed's `error` is a key field only: AGENT-FIELD-REQUIRED
// (should). A misspelt `Error` is a casing slip and still no message
// (spec/DECISIONS.md, agent-error-message).
TEST(validator, an_error_frame_without_its_message_is_a_must_finding) {
  const std::string at = std::to_string(run_started.size());
  const auto with = [&](const std::string& frame) { return run_started + f(frame) + run_done; };
  EXPECT_TRUE(
      located_under_every_chunking(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1","error":"x"})"))
          .empty());
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1"})")),
            (std::vector<std::string>{"AGENT-ERROR-MESSAGE must frame 1 byte " + at}));
  EXPECT_EQ(located_under_every_chunking(dialect("agent"),
                                         with(R"({"type":"error","runId":"r1","stepId":"s1","Error":"x"})")),
            (std::vector<std::string>{"AGENT-ERROR-MESSAGE must frame 1 byte " + at,
                                      "AGENT-KEY-CASING should frame 1 byte " + at}));
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), with(R"({"type":"run_failed","runId":"r1","stepId":"s1"})")),
            (std::vector<std::string>{"AGENT-FIELD-REQUIRED should frame 1 byte " + at}));
  EXPECT_FALSE(sse::dialect::validate_stream(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1"})"))
                   .conforming());
}

// agent:24 and agent:40 are each too weak for a MUST, and together they are
// a reading: a step event without stepId is AGENT-STEP-STEPID, a should
// finding, and the run conforms (spec/DECISIONS.md, agent-step-stepid).
TEST(validator, step_events_without_step_id_are_a_should_finding) {
  const std::string started = f(R"({"type":"step_started","runId":"r1"})");
  const std::string stream = run_started + started + f(R"({"type":"step_completed","runId":"r1"})") + run_done;
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), stream),
            (std::vector<std::string>{
                "AGENT-STEP-STEPID should frame 1 byte " + std::to_string(run_started.size()),
                "AGENT-STEP-STEPID should frame 2 byte " + std::to_string(run_started.size() + started.size())}));
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("agent"), stream).conforming());
}

// Unknown agent types still carry the envelope (spec/DECISIONS.md, unknown-types).
TEST(validator, unknown_agent_type_keeps_envelope_rules) {
  const auto report =
      sse::dialect::validate_stream(dialect("agent"), agent({f(R"({"type":"brand_new","RunId":"r1"})")}));
  EXPECT_EQ(rules_broken(report), (std::set<std::string>{"AGENT-TYPE-KNOWN", "AGENT-RUNID-PRESENT",
                                                         "AGENT-STEPID-PRESENT", "AGENT-KEY-CASING"}))
      << describe(report);
}

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

// Fed piece by piece, at any piece size, the stream validator finds what
// validate_stream finds on the whole stream, and a sample cut anywhere in a
// conforming stream breaks no rule, in every dialect (the end-of-stream rules
// are not run on it).
TEST(validator, the_stream_validator_agrees_with_the_whole_stream_and_samples_break_nothing) {
  const std::pair<const char*, const std::string*> streams[] = {
      {"chat", &chat_ok}, {"workflow", &workflow_ok}, {"agent", &agent_ok}};
  for (const auto& [name, stream] : streams) {
    const auto whole = sse::dialect::validate_stream(dialect(name), *stream);
    EXPECT_EQ(whole.must + whole.should, 0u) << name << describe(whole);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
      sse::dialect::stream_validator v(dialect(name));
      for (std::size_t at = 0; at < stream->size(); at += piece) v.feed(std::string_view(*stream).substr(at, piece));
      const auto fed = v.finish();
      EXPECT_EQ(fed.frames, whole.frames) << name;
      EXPECT_EQ(fed.must + fed.should, 0u) << name << " pieces of " << piece << describe(fed);
    }
    for (std::size_t cut = 0; cut <= stream->size(); ++cut) {
      const auto sample = sse::dialect::validate_stream(dialect(name), std::string_view(*stream).substr(0, cut), {},
                                                        std::nullopt, false);
      EXPECT_EQ(sample.must + sample.should, 0u) << name << " cut at " << cut << describe(sample);
    }
  }
}

// Block checks need the frame's bytes: the stream validator keeps the frame
// in progress across pieces (a CR line end split from its LF included).
TEST(validator, the_stream_validator_keeps_blocks_across_pieces) {
  const std::string crlf = "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\r\n\r\n";
  const auto whole = sse::dialect::validate_stream(dialect("agent"), crlf);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-LF")) << describe(whole);
  sse::dialect::stream_validator v(dialect("agent"));
  for (const char c : crlf) v.feed(std::string_view(&c, 1));
  EXPECT_EQ(rules_broken(v.finish()), rules_broken(whole));
}

// The stream validator finds frame boundaries from line end to line end: with
// LF, CRLF and CR line ends, blank lines of each kind, comments and fields
// other than data, every finding (rule, frame, byte) is the same fed whole,
// byte by byte and in seeded random pieces. (What was seen is not compared: a
// frame is judged when the CR of its blank line arrives, so fed in pieces its
// excerpt can lack the LF after that CR.)
TEST(validator, the_stream_validator_finds_blocks_under_every_chunking) {
  const std::string r1 = R"({"type":"run_started","runId":"r1"})";
  const std::string chunk_frame = R"({"type":"message_chunk","runId":"r1","stepId":"s1","content":"x"})";
  const std::string stream = "data: " + r1 + "\r\n\r\n" + ": a comment\n\n" + "data: " + chunk_frame + "\r\r" +
                             "event: chunk\ndata: " + chunk_frame + "\n\n" + "data:" + chunk_frame + "\r\n\n" +
                             "id: 7\r\ndata: " + chunk_frame + "\n\r\n" + "\r\n\n\r" + "data: " + chunk_frame +
                             "\r\n\r\n" + "data: " + R"({"type":"done","runId":"r1"})" + "\n\n";
  const auto findings_of = [](const sse::dialect::validation_report& r) {
    std::vector<std::string> out;
    for (const auto& x : r.findings)
      out.push_back(x.rule->id + " frame " + std::to_string(x.frame) + " byte " + std::to_string(x.offset));
    return out;
  };
  const auto whole = sse::dialect::validate_stream(dialect("agent"), stream);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-LF")) << describe(whole);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-DATA-ONLY")) << describe(whole);
  const auto fed = [&](const std::vector<std::string_view>& pieces) {
    sse::dialect::stream_validator v(dialect("agent"));
    for (const auto piece : pieces) v.feed(piece);
    return findings_of(v.finish());
  };
  EXPECT_EQ(fed(sse::chunking::bytes(stream)), findings_of(whole));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    EXPECT_EQ(fed(sse::chunking::random(stream, seed)), findings_of(whole)) << "seed " << seed;
  }
}

// Every member of a report and every finding's text, to compare two reports.
std::string report_text(const sse::dialect::validation_report& r) {
  std::string out = std::to_string(r.frames) + " frames, " + std::to_string(r.bytes) + " bytes, must " +
                    std::to_string(r.must) + ", should " + std::to_string(r.should) + ", decision " +
                    std::to_string(r.decision) + ", not shown " + std::to_string(r.not_shown) + ", wire " +
                    std::string(sse::to_string(r.wire_status)) + " at " + std::to_string(r.wire_error_offset) +
                    (r.end_graded ? ", graded\n" : ", not graded\n");
  for (const auto& x : r.findings) out += sse::dialect::to_json(x).dump() + "\n";
  return out;
}

// validate_pieces (check's producer rules over the reads of a live stream)
// gives validate_stream's report of the concatenation, every member and
// every finding's text: whole, byte by byte and in seeded random pieces, on
// streams past the validator's 1 MiB slices, whose frames break rules and
// whose blank lines (CR, CRLF, LF) fall on slice and piece boundaries.
TEST(validator, validate_pieces_is_validate_stream_of_the_concatenation) {
  const std::string ends[] = {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n"};
  for (std::uint64_t stream_seed = 1; stream_seed <= 3; ++stream_seed) {
    sse::chunking::splitmix64 rng(stream_seed);
    std::string stream = f(R"({"type":"run_started","runId":"r1"})");
    std::size_t sequence = 0;
    while (stream.size() < (std::size_t{5} << 19)) {  // 2.5 MiB: three slices
      const std::uint64_t pick = rng.next() % 16;
      const std::string end = ends[rng.next() % 4];
      if (pick == 0) stream += "data: not json" + end;
      else if (pick == 1) stream += ": a comment" + end;
      else if (pick == 2) stream += "data: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s9\"}" + end;
      else
        stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r" + std::to_string(pick % 3) +
                  "\",\"stepId\":\"s1\",\"content\":\"" + std::string(rng.next() % 300, 'x') +
                  "\",\"sequence\":" + std::to_string(sequence++) + "}" + end;
    }
    stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r1\"";  // cut off: an end-of-stream finding
    for (const bool read_to_end : {true, false}) {
      const std::string whole =
          report_text(sse::dialect::validate_stream(dialect("agent"), stream, {}, std::nullopt, read_to_end));
      const auto pieces_text = [&](const std::vector<std::string_view>& pieces) {
        return report_text(sse::dialect::validate_pieces(dialect("agent"), pieces, {}, std::nullopt, read_to_end));
      };
      EXPECT_EQ(pieces_text({stream}), whole);
      EXPECT_EQ(pieces_text(sse::chunking::fixed(stream, 65536)), whole);
      EXPECT_EQ(pieces_text(sse::chunking::fixed(stream, 1000003)), whole);
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        EXPECT_EQ(pieces_text(sse::chunking::random(stream, seed)), whole) << "seed " << seed;
      }
    }
    if (stream_seed == 1) {
      EXPECT_EQ(report_text(sse::dialect::validate_pieces(dialect("agent"), sse::chunking::bytes(stream))),
                report_text(sse::dialect::validate_stream(dialect("agent"), stream)));
    }
  }
}

// A stream_validator's report does not hang on where its feeds stop, which
// `check` (each read as it comes) and `validate` (64 KiB reads) rely on to
// give validate_stream's report. Two things would otherwise depend on it: a
// frame whose blank line ends in CR at the end of a feed (held back until the
// next byte says whether an LF follows, so its block and the line ends it
// names are the same), and a block longer than what is kept (its start cut
// only at each MiB of the stream, not at the end of a feed). Here: small
// limits (768 bytes kept), blocks of unread fields' lines past that across the
// 1 MiB slices, CR, CRLF and LF line ends, fed whole, in fixed and seeded
// random pieces.
TEST(validator, a_stream_validator_reports_the_same_however_it_is_fed) {
  sse::limits lim;
  lim.max_line = 256;
  lim.max_event_data = 512;
  const auto fed = [&](const std::vector<std::string_view>& pieces, bool read_to_end) {
    sse::dialect::stream_validator v(dialect("agent"), lim);
    for (const auto piece : pieces) v.feed(piece);
    return report_text(v.finish(read_to_end));
  };
  // The smallest case of each: the LF of a CRLF blank line in the next feed.
  const std::string crlf_blank = "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\r\r\n";
  EXPECT_EQ(fed({std::string_view(crlf_blank).substr(0, crlf_blank.size() - 1),
                 std::string_view(crlf_blank).substr(crlf_blank.size() - 1)},
                true),
            report_text(sse::dialect::validate_stream(dialect("agent"), crlf_blank, lim)));
  EXPECT_NE(fed({crlf_blank}, true).find("CRLF line ends"), std::string::npos) << fed({crlf_blank}, true);

  const std::string ends[] = {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n", "\r\r\n"};
  sse::chunking::splitmix64 rng(7);
  std::string stream;
  std::size_t overlong = 0;
  while (stream.size() < (std::size_t{5} << 19)) {  // 2.5 MiB: three slices
    const std::string end = ends[rng.next() % 5];
    const std::uint64_t pick = rng.next() % 8;
    if (pick == 0) {
      // A block longer than what is kept: lines of a field no client reads
      // (comments start no block), then a frame's line.
      const std::size_t lines = 4 + rng.next() % 12;
      for (std::size_t i = 0; i < lines; ++i) stream += "pad: " + std::string(100 + rng.next() % 150, 'c') + "\r\n";
      stream += "data:{\"type\":\"run_started\"}" + end;
      ++overlong;
    } else if (pick == 1) {
      stream += "event: x\rdata: not json" + end;
    } else {
      stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r1\",\"stepId\":\"s1\",\"content\":\"" +
                std::string(rng.next() % 150, 'x') + "\"}" + end;
    }
  }
  ASSERT_GT(overlong, 500u);
  for (const bool read_to_end : {true, false}) {
    const std::string whole =
        report_text(sse::dialect::validate_stream(dialect("agent"), stream, lim, std::nullopt, read_to_end));
    EXPECT_EQ(fed({stream}, read_to_end), whole);
    EXPECT_EQ(fed(sse::chunking::fixed(stream, 65536), read_to_end), whole);
    EXPECT_EQ(fed(sse::chunking::fixed(stream, 4093), read_to_end), whole);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      EXPECT_EQ(fed(sse::chunking::random(stream, seed), read_to_end), whole) << "seed " << seed;
    }
  }
}

// findings() (check's "as it arrives" lines) has a frame's findings once its
// blank line has arrived, fed byte by byte; a blank line ending in CR, once
// the next byte shows whether an LF belongs to it, or at finish. The end's
// rules wait for finish.
TEST(validator, a_frames_findings_are_stored_once_its_blank_line_is_known) {
  const std::string ok = f(R"({"type":"run_started","runId":"r1"})");
  const std::string bad = R"(data: {"type":"message_chunk","content":"Hi","stepId":"s1"})";
  for (const std::string end : {"\n\n", "\r\r"}) {
    for (const bool more : {true, false}) {
      const std::string stream = ok + bad + end + (more ? ok : "");
      sse::dialect::stream_validator v(dialect("agent"));
      std::size_t found_at = 0;
      for (std::size_t i = 0; i < stream.size() && found_at == 0; ++i) {
        v.feed(std::string_view(stream).substr(i, 1));
        if (!v.findings().empty()) found_at = i + 1;
      }
      const std::size_t frame_end = ok.size() + bad.size() + end.size();
      if (end == "\n\n") EXPECT_EQ(found_at, frame_end);
      else EXPECT_EQ(found_at, more ? frame_end + 1 : 0) << "a CR at the end waits for finish";
      for (const auto& x : v.findings()) EXPECT_NE(x.rule->id, "AGENT-DONE-LAST");
      const auto report = v.finish();
      std::set<std::string> rules;
      for (const auto& x : report.findings) {
        rules.insert(x.rule->id);
        if (x.rule->id != "AGENT-DONE-LAST") {
          EXPECT_EQ(x.frame, 1u);
          EXPECT_EQ(x.offset, ok.size());
        }
      }
      EXPECT_TRUE(rules.contains("AGENT-RUNID-PRESENT")) << describe(report);
      EXPECT_TRUE(rules.contains("AGENT-DONE-LAST")) << describe(report);
    }
  }
}

// Truncated JSON is named as JSON that does not parse, with where it stops.
TEST(validator, truncated_json_is_reported_as_json_that_does_not_parse) {
  const std::string cut = R"({"type":"message_chunk","runId":"r1","stepId")";
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent({f(cut)}));
  bool named = false;
  for (const auto& fnd : report.findings) {
    if (fnd.seen.find("JSON that does not parse (stops at byte " + std::to_string(cut.size()) + " of the data)") !=
        std::string::npos)
      named = true;
    EXPECT_EQ(fnd.seen.find("plain text"), std::string::npos) << describe(report);
  }
  EXPECT_TRUE(named) << describe(report);
  // Text that is not JSON-like stays plain text.
  const auto plain = sse::dialect::validate_stream(dialect("agent"), agent({f("hello")}));
  bool plain_named = false;
  for (const auto& fnd : plain.findings) plain_named |= fnd.seen.find("plain text") != std::string::npos;
  EXPECT_TRUE(plain_named) << describe(plain);
}

// The JSON form of a finding (spec/FORMAT.md section 3).
TEST(validator, finding_json_form) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), f(R"({"type":"done","runId":"r1"})") + chunk);
  ASSERT_FALSE(report.findings.empty());
  const auto j = to_json(report.findings.front());
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"rule", "severity", "basis", "grounds", "frame", "offset", "expected",
                                            "seen", "text"}));
}

// 300 seeded frames of the dialect's catalog types in random order, with
// unknown types and plain frames among them, whose ids repeat: they break
// the cross-frame rules (pairs, references, unique values) many times over.
std::string every_type_stream(const sse::dialect::dialect_spec& d, std::uint64_t seed) {
  sse::chunking::splitmix64 rng(seed);
  std::string stream;
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t pick = rng.next() % (d.events.size() + 2);
    const std::string key = std::to_string(rng.next() % 3);
    if (pick == d.events.size()) {
      stream += f(R"({"type":"brand_new","runId":"r1"})");
    } else if (pick > d.events.size()) {
      stream += f("plain text");
    } else {
      stream += f(R"({"type":")" + d.events[pick].type + R"(","id":"c)" + key + R"(","runId":"r1",)" +
                  R"("stepId":"s)" + key + R"(","nodeId":"n)" + key + R"(","toolCallId":"c)" + key + R"("})");
    }
  }
  return stream;
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

// Pairs are matched oldest first per key: on seeded streams of step_started
// and step_completed over three stepIds, with many steps of one id open at
// once and closed in runs, AGENT-STEP-PAIR names exactly the completions
// with none open, and AGENT-STEP-CLOSED exactly the frames of the steps
// still open at the end (by stepId, oldest first), as a plain queue per id
// says.
TEST(validator, pairs_close_oldest_first_per_key_as_a_queue_does) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    sse::chunking::splitmix64 rng(seed);
    std::string stream = f(R"({"type":"run_started","runId":"r1"})");
    std::map<std::string, std::deque<std::size_t>> open;  // stepId -> frames, oldest first
    std::vector<std::size_t> unmatched;                   // completions with none open
    std::size_t frame = 1;
    for (int i = 0; i < 2000; ++i, ++frame) {
      const std::string id = "s" + std::to_string(rng.next() % 3);
      // Runs of opens then runs of closes, so a queue grows and empties.
      const bool opens = (i / 40) % 2 == 0 ? rng.next() % 4 != 0 : rng.next() % 4 == 0;
      stream += f(R"({"type":")" + std::string(opens ? "step_started" : "step_completed") +
                  R"(","runId":"r1","stepId":")" + id + R"("})");
      if (opens) {
        open[id].push_back(frame);
      } else if (open[id].empty()) {
        unmatched.push_back(frame);
      } else {
        open[id].pop_front();
      }
    }
    stream += f(R"({"type":"done","runId":"r1"})");
    std::vector<std::size_t> still_open;
    for (const auto& [id, frames] : open) still_open.insert(still_open.end(), frames.begin(), frames.end());
    sse::dialect::stream_validator v(dialect("agent"), {}, std::nullopt, std::numeric_limits<std::size_t>::max());
    v.feed(stream);
    const auto report = v.finish();
    std::vector<std::size_t> pair_frames;
    std::vector<std::size_t> closed_frames;
    for (const auto& x : report.findings) {
      if (x.rule->id == "AGENT-STEP-PAIR") pair_frames.push_back(x.frame);
      if (x.rule->id == "AGENT-STEP-CLOSED") closed_frames.push_back(x.frame);
    }
    EXPECT_EQ(pair_frames, unmatched) << "seed " << seed;
    EXPECT_EQ(closed_frames, still_open) << "seed " << seed;
    EXPECT_FALSE(unmatched.empty()) << "seed " << seed << ": the stream must close steps that are not open";
    EXPECT_GT(still_open.size(), 10U) << "seed " << seed << ": the stream must leave steps open";
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

// block_at: the frame's lines through the blank line, whatever the line ends.
TEST(validator, block_at) {
  EXPECT_EQ(sse::dialect::block_at("data: a\n\ndata: b\n\n", 0), "data: a\n\n");
  EXPECT_EQ(sse::dialect::block_at("data: a\n\ndata: b\n\n", 9), "data: b\n\n");
  EXPECT_EQ(sse::dialect::block_at("id: 1\r\ndata: a\r\n\r\nx", 0), "id: 1\r\ndata: a\r\n\r\n");
  EXPECT_EQ(sse::dialect::block_at("data: a\r\rdata: b", 0), "data: a\r\r");
  EXPECT_EQ(sse::dialect::block_at("data: a", 0), "data: a");
  EXPECT_EQ(sse::dialect::block_at("abc", 7), "");
}

}  // namespace
