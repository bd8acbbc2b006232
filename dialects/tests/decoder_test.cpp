// Decoding of every event type, every default, and the unknown / plain-text /
// error handling of the dialect decoders. Expectations come from the protocol
// documents (chat:N = chat-and-code-sessions.txt line N, agent:N =
// agent-service.txt line N) and spec/DECISIONS.md.
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sse/chunking.hpp"
#include "sse/dialect/decoder.hpp"

namespace {

using nlohmann::json;
using sse::dialect::event;
using sse::dialect::event_kind;

const sse::dialect::catalog& builtin() {
  const auto& loaded = sse::dialect::builtin_catalog();
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return *loaded.value;
}

const sse::dialect::dialect_spec& dialect(std::string_view name) {
  const auto* d = builtin().dialect(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

event decode(std::string_view dialect_name, std::string_view data, std::string_view wire_type = "message") {
  sse::dialect::decoder dec(dialect(dialect_name));
  return dec.decode_event(sse::dialect::frame{data, wire_type, "", 0});
}

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

// ---------------------------------------------------------------------------
// Flat objects (every member a string, an integer, true, false or null) are
// read without a DOM; everything else goes through simdjson. Both must give
// what a JSON parser gives: the members, their values and their number class.
// The expectations come from nlohmann_json, an independent parser, on frames
// of an undeclared type (so no defaults are added).

// The fields of `data` decoded as an unknown agent event, as JSON text, or
// "plain_text".
std::string fields_text(sse::dialect::decoder& dec, std::string_view data) {
  const event e = sse::dialect::to_event(dec.decode({data}));
  if (e.kind == event_kind::plain_text) return "plain_text";
  return e.fields.dump();
}

// What a JSON parser makes of `data`: its dump when it is an object with a
// string `type`, else "plain_text".
std::string expected_text(std::string_view data) {
  const json j = json::parse(data, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) return "plain_text";
  return j.dump();
}

TEST(decoder, flat_objects_decode_as_a_json_parser_reads_them) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::vector<std::string> frames = {
      R"({"type":"zz","a":"x"})",
      R"({"type":"zz"})",
      R"( { "type" : "zz" , "a" : 1 , "b" : -1 } )",
      "{\"type\":\"zz\",\t\"a\":\r\n\"x\"}\n",
      R"({"type":"zz","s":"tab\tquote\" slash\/ back\\ nl\n cr\r bs\b ff\f"})",
      R"({"type":"zz","s":"\"","t":"\\\\","u":""})",
      R"({"type":"zz","a":"one\\two","b":"three\"four","c":"plain"})",
      R"({"type":"zz","u":"\u00e9\ud83d\ude00","k":"x"})",
      R"({"t\u0079pe":"zz","a":1})",
      R"({"type":"zz","n":0,"m":-0,"big":9223372036854775807,"neg":-9223372036854775808})",
      R"({"type":"zz","u":9223372036854775808,"max":18446744073709551615})",
      R"({"type":"zz","over":18446744073709551616})",
      R"({"type":"zz","twenty":10000000000000000000,"nineteen":9999999999999999999})",
      R"({"type":"zz","twentyone":100000000000000000000})",
      R"({"type":"zz","neg19":-999999999999999999,"neg20":-1000000000000000000})",
      R"({"type":"zz","negbig":-10000000000000000000})",
      R"({"type":"zz","under":-9223372036854775809})",
      R"({"type":"zz","f":1.5,"e":1e3,"E":2E-2,"z":0.0})",
      R"({"type":"zz","t":true,"f":false,"n":null})",
      R"({"type":"zz","a":1,"a":"two","type":"zz2"})",
      R"({"type":"zz","nested":{"a":[1,2]}})",
      "{\"type\":\"zz\",\"utf8\":\"caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD\"}",
      "{\"type\":\"zz\",\"bad\":\"caf\xC3\"}",
      "{\"type\":\"zz\",\"bad\":\"\xED\xA0\x80\"}",
      "{\"type\":\"zz\",\"a\":1}\xC3\xA9",
      R"({"type":7})",
      R"({"a":"no type"})",
      R"({})",
      R"({"type":"zz",})",
      R"({"type":"zz" "a":1})",
      R"({"type":"zz","a":01})",
      R"({"type":"zz","a":00,"b":1})",
      R"({"type":"zz","a":0.5,"b":7e1,"c":12E1})",
      R"({"type":"zz","a":12)",
      R"({"type":"zz","a":0)",
      R"({"type":"zz","a":1234567890123456789,"b":0})",
      R"({"type":"zz","a":-})",
      R"({"type":"zz","a":1.})",
      R"({"type":"zz","a":tru})",
      R"({"type":"zz","a":nul})",
      R"({"type":"zz","a":"unterminated})",
      R"({"type":"zz","a":"bad escape \q"})",
      R"({"type":"zz","a":"short \u12"})",
      R"({"type":"zz","a":"x"} trailing)",
      R"({"type":"zz","a":"x"}})",
      R"({"type":"zz","a":"x")",
      R"({"type":"zz",)",
      R"({"type")",
      R"({)",
      "{\"type\":\"zz\",\"ctl\":\"a\x01b\"}",
      "{\"type\":\"zz\",\"nl\":\"a\nb\"}",
      "{\"type\":\"zz\",\"a\":\"x\"}\x0B",
      R"([{"type":"zz"}])",
  };
  for (const auto& f : frames) EXPECT_EQ(fields_text(dec, f), expected_text(f)) << f;
}

// The decoder's own table of types finds what the catalog's index finds:
// every type, and strings one byte off (longer, shorter, the last byte
// changed, of every length up to the longest type), in every dialect.
TEST(decoder, type_lookup_agrees_with_the_catalog) {
  for (const auto& d : builtin().dialects()) {
    sse::dialect::decoder dec(*d);
    std::vector<std::string> types;
    std::size_t longest = 0;
    for (const auto& e : d->events) {
      types.push_back(e.type);
      types.push_back(e.type + "x");
      types.push_back(e.type.substr(0, e.type.size() - 1));
      types.push_back(e.type.substr(0, e.type.size() - 1) + "#");
      longest = std::max(longest, e.type.size());
    }
    for (std::size_t n = 0; n <= longest + 1; ++n) types.emplace_back(n, 'a');
    for (const auto& t : types) {
      const std::string data = json{{"type", t}}.dump();
      const auto& v = dec.decode({data});
      EXPECT_EQ(v.spec, d->event(t)) << d->name << " " << t;
      EXPECT_EQ(v.kind, d->event(t) != nullptr ? event_kind::structured : event_kind::unknown) << d->name << " " << t;
    }
  }
}

TEST(decoder, flat_strings_longer_than_a_vector_step) {
  sse::dialect::decoder dec(dialect("agent"));
  // Quotes, escapes and control characters at every position of 16- and 32-byte blocks.
  for (std::size_t at = 0; at < 40; ++at) {
    for (const std::string_view special : {"\\\"", "\\n", "\\\\", "\x01", "\"", "\xC3\xA9"}) {
      std::string value(40, 'a');
      value.insert(at, special);
      const std::string data = R"({"type":"zz","pad":")" + std::string(at % 7, 'p') + R"(","v":")" + value + "\"}";
      EXPECT_EQ(fields_text(dec, data), expected_text(data)) << data;
    }
  }
}

TEST(decoder, flat_views_of_escaped_strings_stay_valid_together) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode({R"({"type":"zz","a":"1\n2","b":"3\t4","c":"5\"6"})"});
  ASSERT_EQ(v.kind, event_kind::unknown);
  EXPECT_EQ(v.find("a")->value.as_string(), "1\n2");
  EXPECT_EQ(v.find("b")->value.as_string(), "3\t4");
  EXPECT_EQ(v.find("c")->value.as_string(), "5\"6");
  EXPECT_EQ(v.find("a")->value.to_json(), json("1\n2"));
  // A longer frame after a shorter one: the escape buffer grows without
  // breaking the new frame's views.
  const std::string long_value(300, 'x');
  const std::string longer = R"({"type":"zz","a":"\n)" + long_value + R"(","b":"\t"})";
  const auto& w = dec.decode({longer});
  EXPECT_EQ(w.find("a")->value.as_string(), "\n" + long_value);
  EXPECT_EQ(w.find("b")->value.as_string(), "\t");
}

TEST(decoder, flat_invalid_utf8_is_plain_text) {
  sse::dialect::decoder dec(dialect("agent"));
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\"}"}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xED\xA0\x80\"}"}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\xA9\"}"}).kind, event_kind::unknown);
}

// The flat path checks UTF-8 with simdjson's validator: valid and invalid
// sequences (overlong, surrogate, above U+10FFFF, cut short, a stray
// continuation byte) at every position of a 64-byte vector block, decoded as a
// JSON parser reads them.
TEST(decoder, flat_utf8_is_checked_as_a_json_parser_checks_it) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::string_view sequences[] = {"\xC3\xA9",
                                        "\xE2\x80\x94",
                                        "\xF0\x9F\x99\x82",
                                        "\xF4\x8F\xBF\xBF",
                                        "\xC0\xAF",
                                        "\xE0\x80\xAF",
                                        "\xED\xA0\x80",
                                        "\xF4\x90\x80\x80",
                                        "\xF5\x80\x80\x80",
                                        "\xC3",
                                        "\xE2\x80",
                                        "\xF0\x9F\x99",
                                        "\x80",
                                        "\xBF\xBF",
                                        "\xFF"};
  for (std::size_t at = 0; at < 70; ++at) {
    for (const std::string_view seq : sequences) {
      std::string value(80, 'a');
      value.insert(at, seq);
      const std::string data = R"({"type":"zz","v":")" + value + "\"}";
      EXPECT_EQ(fields_text(dec, data), expected_text(data)) << at << " " << testing::PrintToString(std::string(seq));
    }
  }
}

TEST(decoder, flat_numbers_keep_their_class) {
  sse::dialect::decoder dec(dialect("agent"));
  const event e = sse::dialect::to_event(
      dec.decode({R"({"type":"zz","i":-3,"p":3,"u":18446744073709551615,"m":9223372036854775807})"}));
  EXPECT_TRUE(e.fields["i"].is_number_integer());
  EXPECT_EQ(e.fields["i"].get<std::int64_t>(), -3);
  EXPECT_TRUE(e.fields["p"].is_number_integer());
  EXPECT_EQ(e.fields["u"].get<std::uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(e.fields["m"].get<std::int64_t>(), 9223372036854775807LL);
  const auto& v = dec.decode({R"({"type":"zz","i":-3})"});
  EXPECT_TRUE(v.find("i")->value.is_integral());
  EXPECT_EQ(v.find("i")->value.as_number(), -3);
}

// ---------------------------------------------------------------------------
// Fields built when first asked (flat frames): the same as a JSON parser's
// reading, whenever they are asked, on many seeded frames.

// A frame of JSON members from `rng`: mostly flat (strings with and without
// escapes and high bytes, integers, literals), sometimes with what only the
// DOM path reads (\u escapes, fractions, nested values), repeated keys, a
// `type` that is a string, a number or missing. `repeated`: a key repeats.
std::string seeded_frame(std::mt19937_64& rng, bool& repeated) {
  const auto pick = [&](auto const& list) { return list[rng() % std::size(list)]; };
  static const std::string_view keys[] = {"type", "content", "runId", "a", "b", "sequence", "ab", "ba", ""};
  static const std::string_view pieces[] = {"hi",           " ",     "\\n",     "\\\"",
                                            "\\\\",         "\\/",   "\\t",     "caf\xC3\xA9",
                                            "\xE4\xBD\xA0", "x y z", "\\u00e9", "0123456789abcdef"};
  static const std::string_view types[] = {"\"zz\"", "\"message_chunk\"", "\"run_started\"", "\"z\\tz\"", "7", "null"};
  static const std::string_view others[] = {
      "true", "false",       "null", "0", "-1", "42", "18446744073709551615", "-9223372036854775808",
      "1.5",  "{\"n\":[1]}", "[]",   "-0"};
  std::string out = rng() % 4 == 0 ? " {" : "{";
  std::set<std::string_view> used;
  repeated = false;
  const std::size_t members = rng() % 8;
  for (std::size_t i = 0; i < members; ++i) {
    const std::string_view key = pick(keys);
    repeated |= !used.insert(key).second;
    if (i > 0) out += rng() % 5 == 0 ? " , " : ",";
    out.append("\"").append(key).append(rng() % 6 == 0 ? "\" : " : "\":");
    if (key == "type") {
      out += pick(types);
    } else if (rng() % 3 == 0) {
      out += pick(others);
    } else {
      out += '"';
      for (std::size_t n = rng() % 6; n > 0; --n) out += pick(pieces);
      out += '"';
    }
  }
  out += rng() % 4 == 0 ? "}\n" : "}";
  return out;
}

TEST(decoder, fields_asked_late_equal_a_json_parsers_reading) {
  sse::dialect::decoder dec(dialect("agent"));
  std::mt19937_64 rng(17);
  for (int i = 0; i < 20000; ++i) {
    bool repeated = false;
    const std::string data = seeded_frame(rng, repeated);
    for (const bool vouched : {false, true}) {
      sse::dialect::frame f{data};
      f.data_is_utf8 = vouched;
      const auto& v = dec.decode(f);
      // What a caller reading the kind only sees, before any field is asked.
      const event_kind kind = v.kind;
      const std::string type(v.type);
      const bool duplicates = v.duplicate_keys;
      const json j = json::parse(data, nullptr, false);
      const bool typed = !j.is_discarded() && j.is_object() && j.contains("type") && j["type"].is_string();
      ASSERT_EQ(kind == event_kind::structured || kind == event_kind::unknown, typed) << data;
      if (!typed) continue;
      EXPECT_EQ(type, j["type"].get<std::string>()) << data;
      EXPECT_EQ(duplicates, repeated) << data;
      // Asked late, twice, and through a copy of the view: the same fields.
      const sse::dialect::event_view copy = v;
      const event e = sse::dialect::to_event(copy);
      json present = e.fields;
      for (const auto& key : e.defaulted) present.erase(key);
      EXPECT_EQ(present, j) << data;
      EXPECT_EQ(sse::dialect::to_event(v).fields, e.fields) << data;
      EXPECT_EQ(v.fields.size(), copy.fields.size()) << data;
      EXPECT_EQ(v.duplicate_keys, duplicates) << data;
      EXPECT_EQ(v.type, type) << data;  // the type's view outlives the fields' unescaping
    }
  }
}

TEST(decoder, fields_of_a_flat_frame_are_built_once_and_stay_valid) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode({R"({"type":"z\tz","a":"1\n2","b":7,"a":"3\"4"})"});
  ASSERT_EQ(v.kind, event_kind::unknown);
  EXPECT_EQ(v.type, "z\tz");
  EXPECT_TRUE(v.duplicate_keys);
  const auto* a = v.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value.as_string(), "3\"4");
  const std::span<const sse::dialect::field_view> fields = v.fields;
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(&fields[1], a);  // not rebuilt: the same storage
  EXPECT_EQ(fields[0].key, "type");
  EXPECT_EQ(fields[2].value.as_number(), 7);
  EXPECT_EQ(v.type, "z\tz");
}

// A caller that does not vouch for the data's UTF-8 still has it checked; the
// wire parser's events (vouched for) are repaired UTF-8, and decode the same as
// their repaired data checked again.
TEST(decoder, utf8_is_checked_unless_the_caller_vouches) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::string invalid = "{\"type\":\"zz\",\"a\":\"\xC3\"}";
  EXPECT_EQ(dec.decode({invalid}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\xA9\"}"}).kind, event_kind::unknown);
  const sse::event_view wire{"message", "{\"type\":\"zz\"}", "", 0};
  EXPECT_TRUE(sse::dialect::frame{wire}.data_is_utf8);
  EXPECT_FALSE(sse::dialect::frame{invalid}.data_is_utf8);

  std::mt19937_64 rng(71);
  static const std::string_view bad[] = {"\xC3", "\xED\xA0\x80", "\xFF", "\xF0\x9F\x99", "\x80"};
  std::string stream;
  for (int i = 0; i < 300; ++i) {
    bool repeated = false;
    std::string data = seeded_frame(rng, repeated);
    if (rng() % 3 == 0) data.insert(data.size() / 2, bad[rng() % std::size(bad)]);
    std::erase(data, '\n');
    stream.append("data: ").append(data).append("\n\n");
  }
  const auto whole = sse::dialect::decode_stream(dialect("agent"), stream);
  ASSERT_EQ(whole.events.size(), 300u);
  sse::dialect::decoder checking(dialect("agent"));
  for (const auto& e : whole.events) {
    EXPECT_EQ(checking.decode_event(sse::dialect::frame{e.raw}), e) << e.raw;
  }
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto pieces = sse::chunking::random(stream, seed);
    EXPECT_EQ(sse::dialect::decode_stream(dialect("agent"), std::span<const std::string_view>(pieces)).events,
              whole.events)
        << "seed " << seed;
  }
  const auto by_bytes = sse::chunking::bytes(stream);
  EXPECT_EQ(sse::dialect::decode_stream(dialect("agent"), std::span<const std::string_view>(by_bytes)).events,
            whole.events);
}

// ---------------------------------------------------------------------------
// The view API.

TEST(decoder, view_api) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode(
      {R"({"type":"resume_update","runId":"r1","stepId":"s1","data":{"name":"A","years":3},"payload":{"resume":{"name":"A"}}})",
       "message", "7", 42});
  EXPECT_EQ(v.kind, event_kind::structured);
  ASSERT_NE(v.spec, nullptr);
  EXPECT_EQ(v.spec->type, "resume_update");
  EXPECT_EQ(v.offset, 42u);
  EXPECT_EQ(v.wire_type, "message");
  const auto* data = v.find("data");
  ASSERT_NE(data, nullptr);
  ASSERT_NE(data->spec, nullptr);
  EXPECT_EQ(data->value.type(), sse::dialect::json_type::object);
  EXPECT_EQ(data->value.member("name")->as_string(), "A");
  EXPECT_EQ(data->value.member("years")->as_number(), 3);
  EXPECT_TRUE(data->value.member("years")->is_integral());
  EXPECT_FALSE(data->value.member("missing"));
  EXPECT_EQ(data->value.members().size(), 2u);
  EXPECT_EQ(data->value.to_json(), json::parse(R"({"name":"A","years":3})"));
  EXPECT_EQ(v.find("payload")->value.member("resume")->member("name")->as_string(), "A");
  EXPECT_EQ(v.find("nope"), nullptr);
  // Undeclared fields have no spec.
  const auto& u = dec.decode({R"({"type":"done","runId":"r1","extra":true})"});
  ASSERT_NE(u.find("extra"), nullptr);
  EXPECT_EQ(u.find("extra")->spec, nullptr);
  EXPECT_TRUE(u.find("extra")->value.as_bool());
}

// ---------------------------------------------------------------------------
// The JSON form (spec/FORMAT.md section 2).

TEST(decoder, json_form) {
  EXPECT_EQ(
      to_json(decode("chat", R"({"type":"usage","promptTokens":12})")).dump(),
      R"({"kind":"structured","type":"usage","fields":{"cachedTokens":0,"completionTokens":0,"latencyMs":0,"promptTokens":12,"totalTokens":0,"type":"usage"},"raw":"{\"type\":\"usage\",\"promptTokens\":12}"})");
  EXPECT_EQ(
      to_json(decode("chat", R"({"type":"brand_new","x":1})")).dump(),
      R"({"kind":"unknown","type":"brand_new","fields":{"type":"brand_new","x":1},"raw":"{\"type\":\"brand_new\",\"x\":1}"})");
  EXPECT_EQ(to_json(decode("chat", "Hello")).dump(), R"({"kind":"plain_text","text":"Hello","raw":"Hello"})");
  EXPECT_EQ(to_json(decode("chat", "[ERROR] Rate limited")).dump(),
            R"({"kind":"error","text":"Rate limited","raw":"[ERROR] Rate limited"})");
}

TEST(decoder, json_form_round_trip) {
  for (const std::string f : {R"({"type":"usage"})", R"({"type":"x","y":[1]})", "plain", "[ERROR] e"}) {
    const event e = decode("chat", f);
    const auto back = sse::dialect::event_from_json(json::parse(to_json(e).dump()));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, e);
  }
  // Fields compare as JSON values: 1 and 1.0 are equal.
  auto a = sse::dialect::event_from_json(json::parse(R"({"kind":"structured","type":"t","fields":{"n":1},"raw":"r"})"));
  auto b =
      sse::dialect::event_from_json(json::parse(R"({"kind":"structured","type":"t","fields":{"n":1.0},"raw":"r"})"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

TEST(decoder, json_form_rejects_malformed) {
  for (const std::string j :
       {R"([])", R"({"raw":"x"})", R"({"kind":"nope","raw":"x"})", R"({"kind":"plain_text","raw":"x"})",
        R"({"kind":"plain_text","text":"x"})", R"({"kind":"plain_text","text":"x","raw":"x","type":"t"})",
        R"({"kind":"structured","type":"t","raw":"r"})", R"({"kind":"structured","type":"t","fields":[],"raw":"r"})",
        R"({"kind":"error","text":1,"raw":"r"})"}) {
    const auto e = sse::dialect::event_from_json(json::parse(j));
    ASSERT_FALSE(e) << j;
    EXPECT_FALSE(e.error().message.empty()) << j;
  }
}

// ---------------------------------------------------------------------------
// Whole streams: one dialect event per wire event, whatever the chunking.

TEST(decoder, stream_under_every_chunking) {
  const std::string stream =
      ": hello\n\n"
      "data: {\"type\":\"content\",\"text\":\"Hi \\u00e9\"}\n\n"
      "data: plain text\r\ndata: on two lines\r\n\r\n"
      "event: error\ndata: [ERROR] boom\n\n"
      "data: {\"type\":\"usage\",\"promptTokens\":1}\n\n"
      "data: {\"type\":\"mystery\"}\n\n"
      "data: cut off at the end";
  const auto whole = sse::dialect::decode_stream(dialect("chat"), stream);
  ASSERT_EQ(whole.status, sse::errc::ok);
  ASSERT_EQ(whole.events.size(), 5u);
  EXPECT_EQ(whole.events[0].fields["text"], "Hi \xC3\xA9");
  EXPECT_EQ(whole.events[1].kind, event_kind::plain_text);
  EXPECT_EQ(whole.events[1].text, "plain text\non two lines");
  EXPECT_EQ(whole.events[2].kind, event_kind::error);
  EXPECT_EQ(whole.events[3].fields["latencyMs"], 0);
  EXPECT_EQ(whole.events[4].kind, event_kind::unknown);

  const auto by_bytes = sse::chunking::bytes(stream);
  EXPECT_EQ(sse::dialect::decode_stream(dialect("chat"), std::span<const std::string_view>(by_bytes)).events,
            whole.events);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto pieces = sse::chunking::random(stream, seed);
    EXPECT_EQ(sse::dialect::decode_stream(dialect("chat"), std::span<const std::string_view>(pieces)).events,
              whole.events)
        << "seed " << seed;
  }
}

// A decoder reuses its buffers; events of earlier calls must not be needed later.
TEST(decoder, views_are_replaced_by_the_next_decode) {
  sse::dialect::decoder dec(dialect("agent"));
  std::vector<event> kept;
  for (int i = 0; i < 100; ++i) {
    const std::string f =
        R"({"type":"message_chunk","content":"t)" + std::to_string(i) + R"(","runId":"r","stepId":"s"})";
    kept.push_back(dec.decode_event({f}));
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(kept[static_cast<std::size_t>(i)].fields["content"], "t" + std::to_string(i));
}

}  // namespace
