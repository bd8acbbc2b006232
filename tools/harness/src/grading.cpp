// SPDX-License-Identifier: MIT
#include "ssec/harness/grading.hpp"

#include <cmath>

#include "ssec/adapter/protocol.hpp"
#include "ssec/adapter/wire_json.hpp"

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

conf::answer decode_answer(std::string_view line, std::string_view expected_id, bool wire_layer) {
  conf::answer out;
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
    auto ev = wire_event_from_json(e);
    if (!ev) {
      out.malformed = "event " + std::to_string(r.events.size()) + " is malformed: " + ev.error().message;
      return out;
    }
    r.events.push_back(std::move(ev).value());
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

}  // namespace ssec::harness
