// SPDX-License-Identifier: MIT
#include "ssec/adapter/protocol.hpp"

#include <simdjson.h>

#include "ssec/support/base64.hpp"

namespace ssec {

result<parse_request> parse_request_from_json(const nlohmann::json& j) {
  const auto fail = [](std::string reason) -> result<parse_request> { return error{std::move(reason)}; };
  if (!j.is_object()) return fail("a parse request must be a JSON object");
  if (!j.contains("id") || !j["id"].is_string()) return fail("parse request lacks a string \"id\"");
  if (!j.contains("layer") || !j["layer"].is_string()) return fail("parse request lacks a string \"layer\"");
  if (!j.contains("chunks") || !j["chunks"].is_array()) return fail("parse request lacks an array \"chunks\"");
  parse_request r{j["id"].get<std::string>(), j["layer"].get<std::string>(), {}};
  r.chunks.reserve(j["chunks"].size());
  for (std::size_t i = 0; i < j["chunks"].size(); ++i) {
    const auto& c = j["chunks"][i];
    auto bytes = c.is_string() ? base64_decode(c.get_ref<const std::string&>()) : std::nullopt;
    if (!bytes) return fail("chunks[" + std::to_string(i) + "] is not a base64 string");
    r.chunks.push_back(std::move(*bytes));
  }
  return r;
}

std::optional<packed_parse_request> read_parse_request_line(std::string_view line) {
  namespace od = simdjson::ondemand;
  // simdjson reads up to SIMDJSON_PADDING bytes past the text: one reused,
  // padded copy per thread (a copy is far cheaper than the DOM it replaces).
  thread_local od::parser parser;
  thread_local std::string padded;
  padded.assign(line);
  padded.append(simdjson::SIMDJSON_PADDING, '\0');
  od::document doc;
  if (parser.iterate(padded.data(), line.size(), padded.size()).get(doc) != simdjson::SUCCESS) return std::nullopt;
  od::object object;
  if (doc.get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  packed_parse_request r;
  // Decoded chunks are never longer than their text in the line: with this
  // much room the buffer never moves, so the views taken as it fills hold.
  r.bytes.reserve(line.size() / 4 * 3 + 3);
  bool op = false, id = false, layer = false, chunks = false;
  // Each known member once, and nothing else: an unknown member's value is
  // skipped, not validated, by the on-demand API, so only the general path
  // may accept it (or call the line invalid JSON).
  const auto take_string = [](od::value v, bool& seen, std::string& into) {
    std::string_view text;
    if (seen || v.get_string().get(text) != simdjson::SUCCESS) return false;
    seen = true;
    into.assign(text);
    return true;
  };
  for (auto field : object) {
    std::string_view key;
    od::value value;
    if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(value) != simdjson::SUCCESS) {
      return std::nullopt;
    }
    if (key == "op") {
      std::string name;
      if (!take_string(value, op, name) || name != "parse") return std::nullopt;
    } else if (key == "id") {
      if (!take_string(value, id, r.id)) return std::nullopt;
    } else if (key == "layer") {
      if (!take_string(value, layer, r.layer)) return std::nullopt;
    } else if (key == "chunks" && !chunks) {
      chunks = true;
      od::array array;
      if (value.get_array().get(array) != simdjson::SUCCESS) return std::nullopt;
      std::size_t count = 0;  // one pass over the structure, so the views are never moved
      if (array.count_elements().get(count) != simdjson::SUCCESS) return std::nullopt;
      r.chunks.reserve(count);
      for (auto element : array) {
        std::string_view text;
        const std::size_t at = r.bytes.size();
        if (element.get_string().get(text) != simdjson::SUCCESS || !base64_decode_append(text, r.bytes)) {
          return std::nullopt;
        }
        r.chunks.emplace_back(r.bytes.data() + at, r.bytes.size() - at);
      }
    } else {
      return std::nullopt;
    }
  }
  // Something after the object: current_location is in bounds only then.
  const char* trailing = nullptr;
  if (!op || !id || !layer || !chunks || doc.current_location().get(trailing) == simdjson::SUCCESS) return std::nullopt;
  return r;
}

nlohmann::json to_json(const parse_request& r) {
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto& c : r.chunks) chunks.push_back(base64_encode(c));
  return nlohmann::json{{"op", "parse"}, {"id", r.id}, {"layer", r.layer}, {"chunks", std::move(chunks)}};
}

}  // namespace ssec
