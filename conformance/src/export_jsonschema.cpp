// SPDX-License-Identifier: MIT
// The JSON Schema export, and export_catalog() that picks the format.
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

export_output export_catalog(const sse::dialect::catalog& cat, export_format format,
                             std::span<const sse::dialect::dialect_spec* const> dialects) {
  std::vector<const sse::dialect::dialect_spec*> all;
  if (dialects.empty()) {
    for (const auto& d : cat.dialects()) all.push_back(d.get());
    dialects = all;
  }
  export_output out;
  switch (format) {
    case export_format::jsonschema:
      for (const auto* d : dialects) {
        out.files.push_back({d->name + ".schema.json", json_schema(cat, *d, out.gaps).dump(2) + "\n"});
      }
      break;
    case export_format::openapi:
      out.files.push_back({"sse-conform.openapi.json", openapi_document(cat, dialects, out.gaps).dump(2) + "\n"});
      break;
    case export_format::typescript:
      out.files.push_back({"sse-conform.d.ts", typescript_declarations(cat, dialects, out.gaps)});
      break;
  }
  return out;
}

}  // namespace ssec::conformance
