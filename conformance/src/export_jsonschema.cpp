// SPDX-License-Identifier: MIT
// The JSON Schema export, and export_catalog() that picks the format.
#include <algorithm>
#include <map>

#include "export_parts.hpp"

namespace ssec::conformance {

nlohmann::ordered_json json_schema(const sse::dialect::catalog& cat, const sse::dialect::dialect_spec& d,
                                   std::vector<export_gap>& gaps) {
  auto defs = detail::event_schemas(cat, d, export_format::jsonschema, "#/$defs/");
  const std::string top = detail::union_name(d);
  nlohmann::ordered_json out{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                             {"$id", "urn:sse-conform:schema:" + d.name}};
  for (auto& [k, v] : defs[top].items()) out[k] = v;
  defs.erase(top);
  out["$defs"] = std::move(defs);
  detail::collect_gaps(d, export_format::jsonschema, gaps);
  return out;
}

namespace {

constexpr auto replace = nlohmann::json::error_handler_t::replace;

// "chat.schema.json": the dialect's name as one path segment (no `/`, no
// `..`), so a hostile name cannot write outside the output folder.
std::string json_schema_file_name(const sse::dialect::dialect_spec& d) { return d.name + ".schema.json"; }

}  // namespace

export_output export_catalog(const sse::dialect::catalog& cat, export_format format,
                             std::span<const sse::dialect::dialect_spec* const> dialects, bool one_document) {
  // Each dialect once (`--dialect chat --dialect chat` would declare every name twice).
  std::vector<const sse::dialect::dialect_spec*> all;
  if (dialects.empty()) {
    for (const auto& d : cat.dialects()) all.push_back(d.get());
  } else {
    for (const auto* d : dialects) {
      if (std::find(all.begin(), all.end(), d) == all.end()) all.push_back(d);
    }
  }
  dialects = all;
  export_output out;
  // Every name a dialect declares, with the first dialect to declare it.
  std::map<std::string, std::string, std::less<>> owner;
  for (const auto* d : dialects) {
    auto names = detail::dialect_names(*d);
    for (auto& n : detail::event_names(*d)) names.push_back(std::move(n));
    if (format == export_format::jsonschema) names.push_back(json_schema_file_name(*d));
    for (const auto& n : names) {
      const auto [it, fresh] = owner.emplace(n, d->name);
      if (!fresh && it->second != d->name) {
        out.conflicts.push_back("dialects " + nlohmann::json(it->second).dump(-1, ' ', true, replace) + " and " +
                                nlohmann::json(d->name).dump(-1, ' ', true, replace) + " both declare " + n +
                                ": rename one of them");
      }
    }
  }
  if (!out.conflicts.empty()) return out;
  switch (format) {
    case export_format::jsonschema:
      if (one_document && dialects.size() > 1) {
        // A compound schema document (JSON Schema 2020-12, "bundling"): each
        // embedded schema keeps its $id, so its #/$defs/... refer inside it.
        nlohmann::ordered_json bundle{
            {"$schema", "https://json-schema.org/draft/2020-12/schema"},
            {"$id", "urn:sse-conform:schemas"},
            {"description",
             "The structured frame of each dialect, one embedded schema per dialect: refer to "
             "urn:sse-conform:schema:<dialect> (or #/$defs/<dialect>)."},
            {"$defs", nlohmann::ordered_json::object()}};
        for (const auto* d : dialects) {
          auto schema = json_schema(cat, *d, out.gaps);
          schema.erase("$schema");
          bundle["$defs"][d->name] = std::move(schema);
        }
        out.files.push_back({"sse-conform.schemas.json", bundle.dump(2, ' ', false, replace) + "\n"});
        break;
      }
      for (const auto* d : dialects) {
        out.files.push_back(
            {json_schema_file_name(*d), json_schema(cat, *d, out.gaps).dump(2, ' ', false, replace) + "\n"});
      }
      break;
    case export_format::openapi:
      out.files.push_back(
          {"sse-conform.openapi.json", openapi_document(cat, dialects, out.gaps).dump(2, ' ', false, replace) + "\n"});
      break;
    case export_format::typescript: {
      auto ts = typescript_declarations(cat, dialects, out.gaps);
      // Catalog text lives in comments and string literals only; a bug that
      // let it out would write code, so such an export is refused.
      if (const auto v = typescript_shape_violation(ts)) {
        out.conflicts.push_back("the TypeScript export is not declarations only (" + *v +
                                "): refused; please report the catalog that causes it");
        return out;
      }
      out.files.push_back({"sse-conform.ts", std::move(ts)});
    } break;
  }
  return out;
}

}  // namespace ssec::conformance
