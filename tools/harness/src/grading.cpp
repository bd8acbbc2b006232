// SPDX-License-Identifier: MIT
#include "ssec/harness/grading.hpp"

#include <algorithm>
#include <cmath>

#include "sse/dialect/decoder.hpp"
#include "ssec/adapter_protocol.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using nlohmann::json;

namespace {
constexpr double two_to_the_64 = 18446744073709551616.0;

std::optional<unsigned> hex4(std::string_view s, std::size_t at) {
  if (at + 4 > s.size()) return std::nullopt;
  unsigned v = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char ch = s[i];
    const int d = ch >= '0' && ch <= '9'   ? ch - '0'
                  : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                  : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                           : -1;
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<unsigned>(d);
  }
  return v;
}

// Rewrites every `\uXXXX` escape of a lone surrogate inside a JSON string as
// `\uFFFD` (same length). Returns "\ud83d at byte N" for the first, or "".
// Anything else malformed is left for the JSON parser to report.
std::string replace_lone_surrogates(std::string& line) {
  std::string first;
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (!in_string) {
      in_string = ch == '"';
      continue;
    }
    if (ch == '"') {
      in_string = false;
      continue;
    }
    if (ch != '\\' || i + 1 >= line.size()) continue;
    if (line[i + 1] != 'u') {
      ++i;  // a two-character escape such as \\ or \"
      continue;
    }
    const auto unit = hex4(line, i + 2);
    if (!unit) continue;
    bool lone = false;
    if (*unit >= 0xD800 && *unit <= 0xDBFF) {
      const bool pair = i + 12 <= line.size() && line[i + 6] == '\\' && line[i + 7] == 'u' &&
                        hex4(line, i + 8).value_or(0) >= 0xDC00 && hex4(line, i + 8).value_or(0) <= 0xDFFF;
      if (pair) {
        i += 11;
        continue;
      }
      lone = true;
    } else {
      lone = *unit >= 0xDC00 && *unit <= 0xDFFF;
    }
    if (lone) {
      if (first.empty()) first = line.substr(i, 6) + " at byte " + std::to_string(i);
      line.replace(i + 2, 4, "FFFD");
    }
    i += 5;
  }
  return first;
}
}  // namespace

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
  std::string text(line);
  const std::string lone_surrogate = replace_lone_surrogates(text);
  const json j = json::parse(text, nullptr, false);
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
  out.lone_surrogate = lone_surrogate;
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
    const json& retry = j["retry"];
    if (!retry.is_number()) {
      out.malformed = "\"retry\" is neither a number nor null: " + retry.dump().substr(0, 200);
      return out;
    }
    if (retry.is_number_unsigned()) {
      r.retry = retry.get<std::uint64_t>();
    } else if (retry.is_number_float() && retry.get<double>() >= 0 && retry.get<double>() < two_to_the_64 &&
               std::floor(retry.get<double>()) == retry.get<double>()) {
      r.retry = static_cast<std::uint64_t>(retry.get<double>());  // exact: an integer below 2^64
    } else {
      out.inexact_retry = retry.dump();  // negative, fractional or >= 2^64: the implementation's value
    }
  }
  out.wire = std::move(r);
  return out;
}

namespace {

// An answer whose retry no log line can hold (decoded_answer::inexact_retry):
// a difference in the events comes first, as compare_external orders them;
// otherwise the difference is the retry line itself.
mismatch compare_inexact_retry(const conf::test_case& c, const conf::external_result& got, const std::string& retry) {
  const conf::event_log expected = conf::external_view(c.events);
  std::optional<std::uint64_t> expected_retry;
  for (const auto& line : expected) {
    if (const auto* r = std::get_if<conf::log_retry>(&line)) expected_retry = r->milliseconds;
  }
  const std::string got_retry_line = "retry " + retry + "   (not an integer from 0 to 2^64-1)";
  mismatch m;
  m.expected = conf::format_log(expected);
  m.received = conf::format_log(conf::external_log(got));
  m.received += (m.received.empty() ? "" : "\n") + got_retry_line;
  // The events, with the retry the case expects: whatever differs there comes first.
  conf::external_result events_only = got;
  events_only.retry = expected_retry;
  if (const auto diff = conf::compare_external(c.events, events_only)) {
    m.first_difference = conf::describe(*diff, expected);
    return m;
  }
  const std::size_t retry_index = got.events.size();  // the external view: the events, then the retry
  m.first_difference = "first difference at log line " + std::to_string(retry_index + 1) + ":\n  expected: " +
                       (expected_retry ? "retry " + std::to_string(*expected_retry) : std::string("(end of log)")) +
                       "\n  got:      " + got_retry_line + "\n";
  return m;
}

// The comparison proper; compare_answer adds the lone-surrogate rule.
std::optional<mismatch> compare_decoded(const conf::test_case& c, const decoded_answer& answer) {
  if (c.layer == conf::layer::wire) {
    const conf::event_log expected = conf::external_view(c.events);
    if (answer.inexact_retry && !answer.wire->error) return compare_inexact_retry(c, *answer.wire, *answer.inexact_retry);
    const conf::external_result& got = *answer.wire;
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

}  // namespace

std::optional<mismatch> compare_answer(const conf::test_case& c, const decoded_answer& answer) {
  auto m = compare_decoded(c, answer);
  if (answer.lone_surrogate.empty()) return m;
  // No expected value holds a surrogate: shown as U+FFFD, it must not match.
  const std::string note = "the answer's events hold a lone UTF-16 surrogate (" + answer.lone_surrogate +
                           " of the answer line), which is no Unicode character; shown as U+FFFD, it never matches";
  if (m) {
    m->first_difference += "\n" + note;
    return m;
  }
  mismatch forced;
  forced.first_difference = note;
  if (c.layer == conf::layer::wire) {
    forced.expected = conf::format_log(conf::external_view(c.events));
    forced.received = conf::format_log(conf::external_log(*answer.wire));
  } else {
    for (const auto& e : c.dialect_events) forced.expected += e.dump() + "\n";
    for (const auto& e : *answer.dialect) forced.received += e.dump() + "\n";
  }
  return forced;
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
