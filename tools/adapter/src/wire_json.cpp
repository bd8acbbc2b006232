// SPDX-License-Identifier: MIT
#include "ssec/adapter/wire_json.hpp"

#include "ssec/support/escape.hpp"

namespace ssec {

nlohmann::ordered_json to_json(const sse::event_view& e) {
  return nlohmann::ordered_json{{"type", e.type}, {"data", e.data}, {"lastEventId", e.last_event_id}};
}

nlohmann::ordered_json to_json(const sse::event& e) {
  return nlohmann::ordered_json{{"type", e.type}, {"data", e.data}, {"lastEventId", e.last_event_id}};
}

result<sse::event> wire_event_from_json(const nlohmann::json& j) {
  const auto fail = [](std::string reason) -> result<sse::event> { return error{std::move(reason)}; };
  if (!j.is_object()) return fail("an event must be a JSON object");
  sse::event e;
  for (const auto& [key, value] : j.items()) {
    std::string* slot = key == "type"          ? &e.type
                        : key == "data"        ? &e.data
                        : key == "lastEventId" ? &e.last_event_id
                                               : nullptr;
    if (!slot) return fail("unexpected member \"" + key + "\" in an event");
    if (!value.is_string()) return fail("member \"" + key + "\" must be a string");
    *slot = value.get<std::string>();
  }
  // An event without `data` is one with empty data (an API that leaves the
  // member out for an empty buffer); the other two members are required.
  for (const char* key : {"type", "lastEventId"}) {
    if (!j.contains(key)) return fail(std::string("event lacks member \"") + key + "\"");
  }
  return e;
}

std::string dump_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string dump_line(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string describe_diagnostic(const sse::diagnostic& d) {
  std::string out = "byte " + std::to_string(d.offset) + ": " + std::string(sse::to_string(d.code));
  if (!d.detail.empty()) out += " " + quote_clipped(d.detail, diagnostic_quote_bytes);
  return out;
}

std::string describe_error(sse::errc code, std::uint64_t offset) {
  return std::string(sse::to_string(code)) + " at byte " + std::to_string(offset);
}

}  // namespace ssec
