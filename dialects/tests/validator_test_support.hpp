// SPDX-License-Identifier: MIT
// What the validator's tests share: frames and conforming baseline streams
// of each dialect, and views of a report to compare.
#pragma once

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "catalog_test_support.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"

namespace validator_test_support {

using catalog_test_support::builtin;
using catalog_test_support::dialect;

// One SSE frame: a data line and the blank line after it.
inline std::string f(std::string_view data) { return "data: " + std::string(data) + "\n\n"; }

inline std::string joined(std::initializer_list<std::string> frames) {
  std::string out;
  for (const auto& fr : frames) out += fr;
  return out;
}

// --- conforming baselines ---------------------------------------------------

// chat: body text, a tool call and its result, a question tied to it, usage.
inline const std::string chat_ok = joined({
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

inline const std::string workflow_ok = joined({
    f(R"({"type":"run_started","runId":"w1"})"),
    f(R"({"type":"node_started","runId":"w1","nodeId":"n1"})"),
    f(R"({"type":"agent_tool_call","runId":"w1","nodeId":"n1","name":"search","arguments":{}})"),
    f(R"({"type":"node_completed","runId":"w1","nodeId":"n1","data":{"ok":true}})"),
    f(R"({"type":"node_started","runId":"w1","nodeId":"n2"})"),
    f(R"({"type":"node_failed","runId":"w1","nodeId":"n2","error":"timeout"})"),
    f(R"({"type":"run_completed","runId":"w1","custom":"open events take any field"})"),
});

// agent: a full run with a step, a tool call, a subagent, as agent:12-16 show.
inline std::string agent(std::initializer_list<std::string> middle,
                         std::string_view end = R"({"type":"done","runId":"r1"})") {
  std::string out =
      f(R"({"type":"run_started","runId":"r1"})") + f(R"({"type":"step_started","runId":"r1","stepId":"s1"})");
  for (const auto& m : middle) out += m;
  out += f(R"({"type":"step_completed","runId":"r1","stepId":"s1"})");
  out += f(R"({"type":"run_completed","runId":"r1","stepId":"s1"})");
  if (!end.empty()) out += f(end);
  return out;
}

inline const std::string chunk = f(R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1"})");

inline const std::string agent_ok = agent({
    chunk,
    f(R"({"type":"tool_started","runId":"r1","stepId":"s1","payload":{"tool":"search"}})"),
    f(R"({"type":"tool_result","runId":"r1","stepId":"s1","data":{"hits":2}})"),
    f(R"({"type":"tool_completed","runId":"r1","stepId":"s1"})"),
    f(R"({"type":"subagent_started","runId":"r1","stepId":"s1","payload":{"name":"critic"}})"),
    f(R"({"type":"subagent_completed","runId":"r1","stepId":"s1","data":{"ok":true}})"),
    f(R"({"type":"resume_update","runId":"r1","stepId":"s1","data":{"name":"A"},"payload":{"resume":{"name":"A"}}})"),
});

inline std::set<std::string> rules_broken(const sse::dialect::validation_report& r) {
  std::set<std::string> ids;
  for (const auto& fnd : r.findings) ids.insert(fnd.rule->id);
  return ids;
}

inline std::string describe(const sse::dialect::validation_report& r) {
  std::string out;
  for (const auto& fnd : r.findings) out += "  " + to_json(fnd).dump() + "\n";
  return out;
}

inline const std::string run_started = f(R"({"type":"run_started","runId":"r1"})");

// 300 seeded frames of the dialect's catalog types in random order, with
// unknown types and plain frames among them, whose ids repeat: they break
// the cross-frame rules (pairs, references, unique values) many times over.
inline std::string every_type_stream(const sse::dialect::dialect_spec& d, std::uint64_t seed) {
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

}  // namespace validator_test_support
