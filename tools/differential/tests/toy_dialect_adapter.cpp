// SPDX-License-Identifier: MIT
// A deliberately simple dialect decoder behind the adapter protocol
// (tools/docs/adapter-protocol.md), written for the fuzzer's tests: the
// reference wire parser gives the events, and this file classifies each
// frame as spec/FORMAT.md (sections 1 and 2) says: an error frame (the
// dialect's prefix, or its error wire event), a JSON object with a string
// `type` (structured when the catalog knows the type, with its defaults
// applied; unknown otherwise), or else plain text. The built-in catalog gives
// the dialects. With `--bug NAME` it has exactly one bug, one line below:
//   no-error-prefix   the error prefix is not recognised (the frame is plain text)
//   drop-non-object   a frame whose JSON is not an object is dropped, its content lost
//   error-space       the space after the error prefix is kept in the message
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/recording.hpp"
#include "ssec/support/base64.hpp"

namespace {

using nlohmann::json;

std::string bug;

// JSON is parsed only when its first non-space character opens an object, as
// the reference decoder does (spec/DECISIONS.md, json-definition).
bool opens_object(std::string_view data) {
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && data[first] == '{';
}

// One frame as a dialect event, or null when (with a bug) it is dropped.
json decode(const sse::dialect::dialect_spec& d, const sse::event& e) {
  const std::string& data = e.data;
  const std::string& prefix = d.error_prefix;
  const bool wire_error = !d.error_wire_event.empty() && e.type == d.error_wire_event;
  const bool prefixed = !prefix.empty() && data.starts_with(prefix) && bug != "no-error-prefix";
  if (wire_error || prefixed) {
    std::string text = data;
    if (data.starts_with(prefix)) {
      text = data.substr(prefix.size());
      if (text.starts_with(' ') && bug != "error-space") text.erase(0, 1);
    }
    return {{"kind", "error"}, {"text", text}, {"raw", data}};
  }
  const json j = json::parse(data, nullptr, false);
  if (bug == "drop-non-object" && !j.is_discarded() && !j.is_object()) return nullptr;
  if (opens_object(data) && j.is_object() && j.contains("type") && j["type"].is_string()) {
    const std::string type = j["type"].get<std::string>();
    const auto* spec = d.event(type);
    json fields = j;
    if (spec != nullptr) {
      for (const auto& f : spec->fields) {
        if (f.default_value && !fields.contains(f.key)) fields[f.key] = *f.default_value;
      }
    }
    return {{"kind", spec != nullptr ? "structured" : "unknown"}, {"type", type}, {"fields", fields}, {"raw", data}};
  }
  return {{"kind", "plain_text"}, {"text", data}, {"raw", data}};
}

json answer(const json& request, const sse::dialect::catalog& cat) {
  const std::string id = request.value("id", "");
  const auto* dialect = cat.dialect(request.value("layer", ""));
  if (dialect == nullptr) return {{"id", id}, {"error", "layer not supported"}};
  std::vector<std::string> chunks;
  for (const auto& chunk : request.value("chunks", json::array()))
    chunks.push_back(ssec::base64_decode(chunk.get<std::string>()).value_or(""));
  const std::vector<std::string_view> views(chunks.begin(), chunks.end());
  const sse::recording rec = sse::record_parse(views);
  if (sse::is_fatal(rec.status)) return {{"id", id}, {"error", "the stream hit a limit"}};
  json events = json::array();
  for (const auto& e : rec.events) {
    json event = decode(*dialect, e);
    if (!event.is_null()) events.push_back(std::move(event));
  }
  return {{"id", id}, {"events", events}};
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--bug") bug = argv[i + 1];
  }
  const auto& loaded = sse::dialect::builtin_catalog();
  if (!loaded.ok()) return 2;
  const sse::dialect::catalog& cat = *loaded.value;
  json layers = json::array();
  for (const auto& d : cat.dialects()) layers.push_back(d->name);
  std::string request;
  while (std::getline(std::cin, request)) {
    const json j = json::parse(request, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      std::cout << json{{"error", "not JSON"}}.dump() << std::endl;
      continue;
    }
    const std::string op = j.value("op", "");
    if (op == "bye") return 0;
    if (op == "hello") {
      std::cout << json{{"op", "hello"},
                        {"protocol", 1},
                        {"name", bug.empty() ? "toy-dialect" : "toy-dialect-" + bug},
                        {"version", "1.0"},
                        {"layers", layers}}
                       .dump()
                << std::endl;
      continue;
    }
    std::cout << answer(j, cat).dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  }
  return 0;
}
