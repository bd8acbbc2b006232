// SPDX-License-Identifier: MIT
#include "ssec/harness/grading.hpp"

#include <algorithm>

#include "sse/dialect/decoder.hpp"
#include "ssec/adapter_protocol.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using nlohmann::json;

std::string_view to_string(outcome o) noexcept {
  switch (o) {
    case outcome::pass: return "pass";
    case outcome::fail: return "fail";
    case outcome::non_strict: return "non-strict";
    case outcome::informational: return "informational";
    case outcome::skip: return "skip";
    case outcome::error: return "error";
    case outcome::timeout: return "timeout";
  }
  return "error";
}

std::optional<outcome> outcome_from_string(std::string_view s) noexcept {
  for (const outcome o : all_outcomes()) {
    if (to_string(o) == s) return o;
  }
  return std::nullopt;
}

const std::vector<outcome>& all_outcomes() {
  static const std::vector<outcome> all{outcome::pass,  outcome::fail,  outcome::non_strict, outcome::informational,
                                        outcome::skip,  outcome::error, outcome::timeout};
  return all;
}

outcome mismatch_outcome(conf::verdict v, bool strict) noexcept {
  switch (v) {
    case conf::verdict::must: return outcome::fail;
    case conf::verdict::should: return strict ? outcome::fail : outcome::non_strict;
    case conf::verdict::impl: return outcome::informational;
  }
  return outcome::fail;
}

decoded_answer decode_answer(std::string_view line, std::string_view expected_id, bool wire_layer) {
  decoded_answer out;
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded()) {
    out.malformed = "the answer is not valid JSON";
    return out;
  }
  if (!j.is_object()) {
    out.malformed = "the answer is not a JSON object";
    return out;
  }
  if (!j.contains("id") || !j["id"].is_string()) {
    out.malformed = "the answer has no string \"id\"";
    return out;
  }
  if (j["id"].get<std::string>() != expected_id) {
    out.malformed = "the answer's id " + j["id"].dump() + " is not the request's \"" + std::string(expected_id) + "\"";
    return out;
  }
  if (j.contains("error")) {
    if (!j["error"].is_string()) {
      out.malformed = "the answer's \"error\" is not a string";
      return out;
    }
    if (wire_layer) {
      conf::external_result r;
      r.error = j["error"].get<std::string>();
      out.wire = std::move(r);
    } else {
      out.dialect_rejection = j["error"].get<std::string>();
    }
    return out;
  }
  if (!j.contains("events") || !j["events"].is_array()) {
    out.malformed = "the answer has neither an \"events\" array nor an \"error\" string";
    return out;
  }
  if (!wire_layer) {
    std::vector<json> events;
    for (const auto& e : j["events"]) {
      if (!e.is_object()) {
        out.malformed = "dialect event " + std::to_string(events.size()) + " is not an object";
        return out;
      }
      events.push_back(e);
    }
    out.dialect = std::move(events);
    return out;
  }
  conf::external_result r;
  for (const auto& e : j["events"]) {
    std::string why;
    auto ev = wire_event_from_json(e, &why);
    if (!ev) {
      out.malformed = "event " + std::to_string(r.events.size()) + " is malformed: " + why;
      return out;
    }
    r.events.push_back(std::move(*ev));
  }
  if (j.contains("retry") && !j["retry"].is_null()) {
    if (!j["retry"].is_number_unsigned()) {
      out.malformed = "\"retry\" is neither a non-negative integer nor null: " + j["retry"].dump();
      return out;
    }
    r.retry = j["retry"].get<std::uint64_t>();
  }
  out.wire = std::move(r);
  return out;
}

std::optional<mismatch> compare_answer(const conf::test_case& c, const decoded_answer& answer) {
  if (c.layer == conf::layer::wire) {
    const conf::external_result& got = *answer.wire;
    const conf::event_log expected = conf::external_view(c.events);
    const auto diff = conf::compare_external(c.events, got);
    if (!diff) return std::nullopt;
    mismatch m;
    m.first_difference = conf::describe(*diff, expected);
    m.expected = conf::format_log(expected);
    m.received = conf::format_log(conf::external_log(got));
    if (got.error) m.received += "\n(rejected: " + *got.error + ")";
    return m;
  }
  // Dialect layers: both sides become sse::dialect events and are compared
  // with their operator==, as conformance::check_dialect_reference does.
  const auto join = [](const std::vector<json>& events) {
    std::string s;
    for (const auto& e : events) s += e.dump() + "\n";
    return s;
  };
  mismatch m;
  m.expected = join(c.dialect_events);
  if (answer.dialect_rejection) {
    m.received = "(rejected: " + *answer.dialect_rejection + ")";
    m.first_difference = "the adapter rejected the stream";
    return m;
  }
  const auto& got = *answer.dialect;
  m.received = join(got);
  std::size_t i = 0;
  for (; i < got.size() && i < c.dialect_events.size(); ++i) {
    std::string why;
    const auto want = sse::dialect::event_from_json(c.dialect_events[i], &why);
    const auto have = sse::dialect::event_from_json(got[i], &why);
    if (!have) {
      m.first_difference = "event " + std::to_string(i + 1) + " is not a dialect event: " + why;
      return m;
    }
    if (!want || !(*want == *have)) break;
  }
  if (i == got.size() && i == c.dialect_events.size()) return std::nullopt;
  m.first_difference = "first difference at event " + std::to_string(i + 1) + ":\n  expected: " +
                       (i < c.dialect_events.size() ? c.dialect_events[i].dump() : "(end of events)") +
                       "\n  got:      " + (i < got.size() ? got[i].dump() : "(end of events)");
  return m;
}

std::vector<std::string> missing_capabilities(const conf::test_case& c,
                                              const std::optional<std::vector<std::string>>& has) {
  std::vector<std::string> missing;
  if (!has) return missing;
  for (const auto& need : conf::required_capabilities(c)) {
    if (std::find(has->begin(), has->end(), need) == has->end()) missing.push_back(need);
  }
  return missing;
}

}  // namespace ssec::harness
