// SPDX-License-Identifier: MIT
#include "ssec/adapter_protocol.hpp"

#include "ssec/base64.hpp"

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

nlohmann::json to_json(const parse_request& r) {
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto& c : r.chunks) chunks.push_back(base64_encode(c));
  return nlohmann::json{{"op", "parse"}, {"id", r.id}, {"layer", r.layer}, {"chunks", std::move(chunks)}};
}

}  // namespace ssec
