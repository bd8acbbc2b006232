// SPDX-License-Identifier: MIT
// Decoding of every event type and default, unknown types, plain text, error frames and JSON details, as the
// documents (chat:N, agent:N = line N of chat-and-code-sessions.txt, agent-service.txt) and spec/DECISIONS.md say.
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "decoder_test_support.hpp"
#include "sse/dialect/decoder.hpp"

namespace {

using decoder_test_support::decode;
using decoder_test_support::dialect;
using nlohmann::json;
using sse::dialect::event;
using sse::dialect::event_kind;

// ---------------------------------------------------------------------------
// Every event type of every dialect decodes as structured, with its fields.

struct typed_case {
  std::string dialect;
  std::string frame;     // the frame's data, a full frame with every documented field
  std::string expected;  // the expected fields (defaults applied), as JSON
};

// One full frame per event type, written from the documents' tables.
const std::vector<typed_case>& typed_cases() {
  static const std::vector<typed_case> cases = {
      // chat:17-32
      {"chat", R"({"type":"content","text":"Hello"})", ""},
      {"chat", R"({"type":"thinking","text":"Let me check."})", ""},
      {"chat", R"({"type":"tool_call","id":"c1","name":"search","arguments":{"q":"sse"},"hidden":false})", ""},
      {"chat",
       R"({"type":"tool_result","id":"c1","name":"search","content":"3 hits","isError":false,"collapsed":true,"hidden":false})",
       ""},
      {"chat", R"({"type":"approval_request","id":"c2","name":"rm","arguments":"{\"path\":\"/tmp\"}"})", ""},
      {"chat", R"({"type":"question","toolCallId":"c3","data":{"prompt":"Which file?"}})", ""},
      {"chat", R"({"type":"todo","data":[{"task":"write tests","done":false}]})", ""},
      {"chat", R"({"type":"plan","toolCallId":"c4","data":{"steps":["a","b"]}})", ""},
      {"chat",
       R"({"type":"usage","promptTokens":10,"completionTokens":5,"cachedTokens":2,"totalTokens":15,"latencyMs":830})",
       ""},
      {"chat", R"({"type":"file_change","path":"src/a.cpp","action":"modified"})", ""},
      {"chat", R"({"type":"checkpoint","id":"cp1","label":"before refactor","fileCount":3})", ""},
      {"chat",
       R"({"type":"subagent","id":"sa1","description":"review","stage":"running","tool":"grep","steps":2,"message":"looking"})",
       ""},
      {"chat", R"({"type":"search_results","results":[{"title":"t","url":"u"}]})", ""},
      {"chat", R"({"type":"knowledge_results","results":[]})", ""},
      {"chat", R"({"type":"memory_results","results":[{"text":"likes tea"}]})", ""},
      {"chat", R"({"type":"notice","kind":"context_compacted","text":"Context compacted"})", ""},
      {"chat", R"({"type":"steering","text":"focus on tests"})", ""},
      {"chat", R"({"type":"debug","text":"cache miss"})", ""},
      {"chat", R"({"type":"done"})", ""},
      // chat:36 (fields: spec/DECISIONS.md, workflow-fields)
      {"workflow", R"({"type":"run_started","runId":"w1"})", ""},
      {"workflow", R"({"type":"node_started","runId":"w1","nodeId":"n1"})", ""},
      {"workflow", R"({"type":"node_completed","runId":"w1","nodeId":"n1","data":{"out":1}})", ""},
      {"workflow", R"({"type":"node_failed","runId":"w1","nodeId":"n2","error":"timeout"})", ""},
      {"workflow", R"({"type":"human_approval_required","runId":"w1","nodeId":"n3","data":{"q":"ok?"}})", ""},
      {"workflow", R"({"type":"agent_tool_call","runId":"w1","nodeId":"n4","name":"search","arguments":{}})", ""},
      {"workflow", R"({"type":"run_completed","runId":"w1","data":null})", ""},
      {"workflow", R"({"type":"run_failed","runId":"w1","error":"node n2 failed"})", ""},
      // agent:35-53
      {"agent", R"({"type":"run_started","runId":"r1"})", ""},
      {"agent", R"({"type":"agent_plan","runId":"r1","stepId":"s1","payload":{"steps":["read","write"]}})", ""},
      {"agent", R"({"type":"plan_update","runId":"r1","stepId":"s1","payload":{"done":["read"]}})", ""},
      {"agent", R"({"type":"skill_loaded","runId":"r1","stepId":"s1","payload":{"skill":"pdf"}})", ""},
      {"agent",
       R"({"type":"subagent_started","runId":"r1","stepId":"s1","payload":{"name":"critic"},"data":{"task":"review"}})",
       ""},
      {"agent",
       R"({"type":"subagent_completed","runId":"r1","stepId":"s1","payload":{"name":"critic"},"data":{"verdict":"ok"}})",
       ""},
      {"agent", R"({"type":"step_started","runId":"r1","stepId":"s1"})", ""},
      {"agent", R"({"type":"step_completed","runId":"r1","stepId":"s1"})", ""},
      {"agent", R"({"type":"llm_started","runId":"r1","stepId":"s1","payload":{"model":"m"}})", ""},
      {"agent", R"({"type":"llm_usage","runId":"r1","stepId":"s1","payload":{"inputTokens":5,"outputTokens":7}})", ""},
      {"agent", R"({"type":"tool_started","runId":"r1","stepId":"s1","payload":{"tool":"search"},"data":{"q":"x"}})",
       ""},
      {"agent", R"({"type":"tool_result","runId":"r1","stepId":"s1","payload":{"tool":"search"},"data":{"hits":2}})",
       ""},
      {"agent", R"({"type":"tool_completed","runId":"r1","stepId":"s1","payload":{"tool":"search"},"data":null})", ""},
      {"agent", R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1","sequence":4})", ""},
      {"agent",
       R"({"type":"resume_patch","runId":"r1","stepId":"s1","payload":{"section":"skills"},"data":{"add":["C++"]}})",
       ""},
      {"agent",
       R"({"type":"resume_update","runId":"r1","stepId":"s1","data":{"name":"A"},"payload":{"resume":{"name":"A"}}})",
       ""},
      {"agent",
       R"({"type":"resume_analysis","runId":"r1","stepId":"s1","payload":{"target":"job"},"data":{"score":0.8}})", ""},
      {"agent", R"({"type":"translation_result","runId":"r1","stepId":"s1","data":{"text":"Bonjour"}})", ""},
      {"agent", R"({"type":"interview_question","runId":"r1","stepId":"s1","payload":{"question":"Why?"}})", ""},
      {"agent",
       R"({"type":"critique","runId":"r1","stepId":"s1","payload":{"text":"too long"},"data":{"severity":"minor"}})",
       ""},
      {"agent", R"({"type":"suggestion","runId":"r1","stepId":"s1","payload":{"text":"shorten"},"data":{"edits":[]}})",
       ""},
      {"agent", R"({"type":"run_completed","runId":"r1","stepId":"s1"})", ""},
      {"agent", R"({"type":"run_failed","runId":"r1","stepId":"s1","error":"model overloaded"})", ""},
      {"agent", R"({"type":"done","runId":"r1"})", ""},
      {"agent", R"({"type":"error","runId":"r1","stepId":"s1","error":"stream broke"})", ""},
  };
  return cases;
}

TEST(decoder, every_event_type) {
  for (const auto& c : typed_cases()) {
    SCOPED_TRACE(c.dialect + " " + c.frame);
    const event e = decode(c.dialect, c.frame);
    const json object = json::parse(c.frame);
    EXPECT_EQ(e.kind, event_kind::structured);
    EXPECT_EQ(e.type, object["type"].get<std::string>());
    // A full frame needs no defaults: the fields are the object as sent, `type` included.
    EXPECT_EQ(e.fields, c.expected.empty() ? object : json::parse(c.expected));
    EXPECT_TRUE(e.defaulted.empty());
    EXPECT_EQ(e.raw, c.frame);
  }
}

// The table above covers every type the catalogs list, and the catalogs list
// exactly the documents' types.
TEST(decoder, every_event_type_is_covered) {
  for (const std::string name : {"chat", "workflow", "agent"}) {
    std::set<std::string> in_table;
    for (const auto& c : typed_cases()) {
      if (c.dialect == name) in_table.insert(json::parse(c.frame)["type"].get<std::string>());
    }
    std::set<std::string> in_catalog;
    for (const auto& e : dialect(name).events) in_catalog.insert(e.type);
    EXPECT_EQ(in_table, in_catalog) << name;
  }
}

// The code profile decodes every chat type as chat does (chat:38-44 list no
// decoding difference except error frames and latencyMs).
TEST(decoder, code_profile_decodes_every_chat_type) {
  for (const auto& c : typed_cases()) {
    if (c.dialect != "chat") continue;
    SCOPED_TRACE(c.frame);
    EXPECT_EQ(decode("code", c.frame), decode("chat", c.frame));
  }
}

// ---------------------------------------------------------------------------
// Defaults: "Missing usage fields fall back to 0" (chat:50).

TEST(decoder, usage_counters_default_to_zero) {
  const event e = decode("chat", R"({"type":"usage"})");
  EXPECT_EQ(e.kind, event_kind::structured);
  EXPECT_EQ(
      e.fields,
      json::parse(
          R"({"type":"usage","promptTokens":0,"completionTokens":0,"cachedTokens":0,"totalTokens":0,"latencyMs":0})"));
  EXPECT_THAT(e.defaulted, ::testing::UnorderedElementsAre("promptTokens", "completionTokens", "cachedTokens",
                                                           "totalTokens", "latencyMs"));
}

TEST(decoder, each_usage_default_alone) {
  const std::vector<std::string> counters = {"promptTokens", "completionTokens", "cachedTokens", "totalTokens",
                                             "latencyMs"};
  for (const auto& missing : counters) {
    SCOPED_TRACE(missing);
    json sent = {{"type", "usage"}};
    for (const auto& c : counters) {
      if (c != missing) sent[c] = 7;
    }
    const event e = decode("chat", sent.dump());
    json expected = sent;
    expected[missing] = 0;
    EXPECT_EQ(e.fields, expected);
    EXPECT_THAT(e.defaulted, ::testing::ElementsAre(missing));
  }
}

// A value that is sent, even 0 or of the wrong type, is never replaced by the default.
TEST(decoder, sent_values_are_kept) {
  const event e = decode("chat", R"({"type":"usage","promptTokens":"12","totalTokens":0})");
  EXPECT_EQ(e.fields["promptTokens"], "12");
  EXPECT_EQ(e.fields["totalTokens"], 0);
  EXPECT_THAT(e.defaulted, ::testing::UnorderedElementsAre("completionTokens", "cachedTokens", "latencyMs"));
}

// chat:50 "in code sessions latencyMs is computed client-side" (spec/DECISIONS.md, code-latency).
TEST(decoder, code_latency_has_no_default) {
  const event e = decode("code", R"({"type":"usage","promptTokens":3})");
  EXPECT_EQ(e.fields,
            json::parse(R"({"type":"usage","promptTokens":3,"completionTokens":0,"cachedTokens":0,"totalTokens":0})"));
  EXPECT_FALSE(e.fields.contains("latencyMs"));
  const event sent = decode("code", R"({"type":"usage","latencyMs":12.5})");
  EXPECT_EQ(sent.fields["latencyMs"], 12.5);
}

// spec/DECISIONS.md, flags-optional: no default where the documents give none.
TEST(decoder, flags_have_no_default) {
  const event e = decode("chat", R"({"type":"tool_result","id":"c1","name":"n","content":"x"})");
  EXPECT_EQ(e.fields, json::parse(R"({"type":"tool_result","id":"c1","name":"n","content":"x"})"));
  EXPECT_TRUE(e.defaulted.empty());
  // The agent catalog gives no default at all.
  EXPECT_TRUE(decode("agent", R"({"type":"message_chunk"})").defaulted.empty());
}

// ---------------------------------------------------------------------------
// Unknown types (chat:12, agent:55; spec/DECISIONS.md, unknown-types).

TEST(decoder, unknown_type_keeps_fields) {
  for (const std::string name : {"chat", "code", "workflow", "agent"}) {
    SCOPED_TRACE(name);
    const std::string frame = R"({"type":"brand_new","x":1,"nested":{"a":[1,2]},"promptTokens":null})";
    const event e = decode(name, frame);
    EXPECT_EQ(e.kind, event_kind::unknown);
    EXPECT_EQ(e.type, "brand_new");
    EXPECT_EQ(e.fields, json::parse(frame));
    EXPECT_TRUE(e.defaulted.empty());
    EXPECT_EQ(e.raw, frame);
  }
  // A chat type is unknown to workflow (its own names, chat:36), and the other way round.
  EXPECT_EQ(decode("workflow", R"({"type":"content","text":"x"})").kind, event_kind::unknown);
  EXPECT_EQ(decode("chat", R"({"type":"node_started"})").kind, event_kind::unknown);
  // The empty string is a string type, unknown.
  EXPECT_EQ(decode("chat", R"({"type":""})").kind, event_kind::unknown);
}

// ---------------------------------------------------------------------------
// Plain text: "Not JSON ... content is never dropped" (chat:9), and JSON that
// is not an object with a string type (spec/DECISIONS.md, json-without-type).

TEST(decoder, plain_text_is_kept_whole) {
  const std::vector<std::string> frames = {"Hello",
                                           "",
                                           "  spaced out  ",
                                           "two\nlines",
                                           "42",
                                           "true",
                                           "null",
                                           "\"quoted\"",
                                           "[1,2]",
                                           "{\"text\":\"hi\"}",
                                           "{\"type\":5}",
                                           "{\"type\":null}",
                                           "{broken",
                                           "{\"type\":\"content\"} trailing",
                                           "\xEF\xBB\xBF{\"type\":\"content\"}",
                                           "\t{\"type\":[\"content\"]}"};
  for (const std::string name : {"chat", "code", "workflow", "agent"}) {
    for (const auto& f : frames) {
      SCOPED_TRACE(name + " " + f);
      const event e = decode(name, f);
      EXPECT_EQ(e.kind, event_kind::plain_text);
      EXPECT_EQ(e.text, f);
      EXPECT_EQ(e.raw, f);
      EXPECT_TRUE(e.fields.is_null());
    }
  }
}

TEST(decoder, chat_json_without_type_is_plain_text) {
  sse::dialect::decoder dec(dialect("chat"));
  const auto& object = dec.decode({R"({"text":"hi"})"});
  EXPECT_EQ(object.kind, event_kind::plain_text);
  EXPECT_TRUE(object.json_object);
  const auto& scalar = dec.decode({"42"});
  EXPECT_EQ(scalar.kind, event_kind::plain_text);
  EXPECT_FALSE(scalar.json_object);
}

// agent:8 says every frame is a JSON object; what is not still decodes, losslessly
// (spec/DECISIONS.md, agent-not-json), and the error shape is a chat feature.
TEST(decoder, agent_non_json_is_plain_text) {
  for (const std::string f : {"Hello", "[ERROR] boom", "{\"content\":\"x\"}"}) {
    const event e = decode("agent", f);
    EXPECT_EQ(e.kind, event_kind::plain_text) << f;
    EXPECT_EQ(e.text, f);
  }
}

// ---------------------------------------------------------------------------
// Error frames: "Starts with `[ERROR]`" (chat:10; spec/DECISIONS.md, error-prefix).

TEST(decoder, chat_error_frames) {
  struct c {
    std::string frame, text;
  };
  for (const auto& [frame, text] : std::vector<c>{{"[ERROR] Rate limited", "Rate limited"},
                                                  {"[ERROR]Rate limited", "Rate limited"},
                                                  {"[ERROR]  two spaces", " two spaces"},
                                                  {"[ERROR]", ""},
                                                  {"[ERROR] ", ""},
                                                  {"[ERROR] line one\nline two", "line one\nline two"},
                                                  {"[ERROR] {\"type\":\"content\"}", "{\"type\":\"content\"}"}}) {
    for (const std::string name : {"chat", "code", "workflow"}) {
      SCOPED_TRACE(name + " " + frame);
      const event e = decode(name, frame);
      EXPECT_EQ(e.kind, event_kind::error);
      EXPECT_EQ(e.text, text);
      EXPECT_EQ(e.raw, frame);
    }
  }
  for (const std::string frame : {"[error] x", " [ERROR] x", "ERROR: x", "[ERROR", "\xEF\xBB\xBF[ERROR] x"}) {
    EXPECT_EQ(decode("chat", frame).kind, event_kind::plain_text) << frame;
  }
}

// chat:41, spec/DECISIONS.md, code-error-prefix.
TEST(decoder, code_error_from_wire_event_type) {
  const event e = decode("code", "Sandbox crashed", "error");
  EXPECT_EQ(e.kind, event_kind::error);
  EXPECT_EQ(e.text, "Sandbox crashed");
  EXPECT_EQ(e.raw, "Sandbox crashed");
  // Re-applying the prefix is idempotent.
  const event prefixed = decode("code", "[ERROR] Sandbox crashed", "error");
  EXPECT_EQ(prefixed.kind, event_kind::error);
  EXPECT_EQ(prefixed.text, "Sandbox crashed");
  // Even JSON is the message when the wire says error.
  EXPECT_EQ(decode("code", R"({"type":"content","text":"x"})", "error").kind, event_kind::error);
  // In chat the wire type plays no part.
  EXPECT_EQ(decode("chat", "Sandbox crashed", "error").kind, event_kind::plain_text);
}

// spec/DECISIONS.md, wire-event-type.
TEST(decoder, wire_type_is_ignored_in_chat) {
  const event e = decode("chat", R"({"type":"content","text":"x"})", "thinking");
  EXPECT_EQ(e.kind, event_kind::structured);
  EXPECT_EQ(e.type, "content");
  EXPECT_EQ(decode("agent", R"({"type":"done","runId":"r"})", "error").kind, event_kind::structured);
}

// ---------------------------------------------------------------------------
// JSON details (spec/DECISIONS.md, json-definition, multiline-json, duplicate-keys).

TEST(decoder, multiline_json_is_structured) {
  const std::string data = "{\"type\":\"content\",\n\"text\":\"hi\"}";
  const event e = decode("chat", data);
  EXPECT_EQ(e.kind, event_kind::structured);
  EXPECT_EQ(e.fields, json::parse(R"({"type":"content","text":"hi"})"));
  EXPECT_EQ(e.raw, data);
}

TEST(decoder, duplicate_keys_last_wins) {
  sse::dialect::decoder dec(dialect("chat"));
  const auto& v = dec.decode({R"({"type":"content","text":"a","text":"b"})"});
  EXPECT_TRUE(v.duplicate_keys);
  ASSERT_NE(v.find("text"), nullptr);
  EXPECT_EQ(v.find("text")->value.as_string(), "b");
  EXPECT_EQ(sse::dialect::to_event(v).fields, json::parse(R"({"type":"content","text":"b"})"));
  // The last type counts too.
  const event e = decode("chat", R"({"type":"content","type":"thinking","text":"x"})");
  EXPECT_EQ(e.type, "thinking");
}

TEST(decoder, json_edge_cases) {
  // Whitespace around the object is JSON.
  EXPECT_EQ(decode("chat", " \t\r\n{\"type\":\"content\",\"text\":\"x\"} \n").kind, event_kind::structured);
  // An escaped key is its unescaped text.
  EXPECT_EQ(decode("chat", R"({"t\u0079pe":"content","text":"x"})").type, "content");
  // Lone surrogates are not text.
  EXPECT_EQ(decode("chat", R"({"type":"content","text":"\ud800"})").kind, event_kind::plain_text);
  // A surrogate pair is.
  EXPECT_EQ(decode("chat", R"({"type":"content","text":"\ud83d\ude00"})").fields["text"], "\xF0\x9F\x98\x80");
  // Integers beyond 64 bits are JSON, kept as doubles.
  const event big = decode("chat", R"({"type":"usage","promptTokens":123456789012345678901234567890})");
  EXPECT_EQ(big.kind, event_kind::structured);
  EXPECT_DOUBLE_EQ(big.fields["promptTokens"].get<double>(), 1.2345678901234568e29);
  EXPECT_EQ(big.fields["completionTokens"], 0);
  // Beyond the double range is not.
  EXPECT_EQ(decode("chat", R"({"type":"usage","promptTokens":1e400})").kind, event_kind::plain_text);
  // Nesting: 1024 levels are JSON, deeper is not.
  const auto nested = [](int depth) {
    std::string s = R"({"type":"todo","data":)";
    s += std::string(static_cast<std::size_t>(depth - 1), '[') + std::string(static_cast<std::size_t>(depth - 1), ']');
    return s + "}";
  };
  EXPECT_EQ(decode("chat", nested(1024)).kind, event_kind::structured);
  EXPECT_EQ(decode("chat", nested(1025)).kind, event_kind::plain_text);
  // Numbers keep their spelling class: 3 stays an integer, 3.5 a double.
  const event n =
      decode("chat", R"({"type":"checkpoint","id":"c","label":"l","fileCount":3,"x":3.5,"u":18446744073709551615})");
  EXPECT_TRUE(n.fields["fileCount"].is_number_integer());
  EXPECT_TRUE(n.fields["x"].is_number_float());
  EXPECT_EQ(n.fields["u"].get<std::uint64_t>(), 18446744073709551615ULL);
}

}  // namespace
