// SPDX-License-Identifier: MIT
// Arbitrary YAML through the catalog loader and, when it loads, through every
// export. Properties: no crash and no exception escapes; the TypeScript export
// is declarations only (catalog text never becomes code); the JSON exports
// parse back; a JSON Schema's allOf selects one definition per event type by
// its `type` const, each its own, and the unknown type keeps a definition.
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_check.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/export.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const sse::dialect::catalog_source source{"fuzz.yaml", std::string(reinterpret_cast<const char*>(bytes), size)};
  const auto loaded = sse::dialect::load_catalogs(std::span<const sse::dialect::catalog_source>(&source, 1));
  if (!loaded.ok()) return 0;
  const auto& cat = *loaded.value;
  using ssec::conformance::export_format;

  const auto ts = ssec::conformance::export_catalog(cat, export_format::typescript);
  for (const auto& c : ts.conflicts) {
    SSEC_FUZZ_CHECK(!c.starts_with("the TypeScript export is not declarations only"), c);
  }
  if (ts.conflicts.empty()) {
    SSEC_FUZZ_CHECK(ts.files.size() == 1);
    const auto v = ssec::conformance::typescript_shape_violation(ts.files[0].text);
    SSEC_FUZZ_CHECK(!v, *v);
  }

  const auto api = ssec::conformance::export_catalog(cat, export_format::openapi);
  for (const auto& f : api.files) SSEC_FUZZ_CHECK(nlohmann::json::accept(f.text), f.name);

  const auto js = ssec::conformance::export_catalog(cat, export_format::jsonschema);
  SSEC_FUZZ_CHECK(js.conflicts.empty() == (js.files.size() == cat.dialects().size()));
  for (std::size_t i = 0; i < js.files.size(); ++i) {
    const auto schema = nlohmann::json::parse(js.files[i].text, nullptr, false);
    SSEC_FUZZ_CHECK(!schema.is_discarded(), js.files[i].name);
    const auto& d = *cat.dialects()[i];
    SSEC_FUZZ_CHECK(schema["allOf"].size() == d.events.size(), js.files[i].name);
    std::set<std::string> refs;
    for (std::size_t e = 0; e < d.events.size(); ++e) {
      const auto& branch = schema["allOf"][e];
      SSEC_FUZZ_CHECK(branch["if"]["properties"]["type"]["const"] == d.events[e].type, js.files[i].name);
      const std::string ref = branch["then"]["$ref"];
      refs.insert(ref);
      const std::string name = ref.substr(std::string("#/$defs/").size());
      SSEC_FUZZ_CHECK(schema["$defs"].contains(name), ref);
      SSEC_FUZZ_CHECK(schema["$defs"][name]["properties"]["type"]["const"] == d.events[e].type, ref);
    }
    SSEC_FUZZ_CHECK(refs.size() == d.events.size(), "a definition shadows another");
    std::size_t unknown = 0;
    for (const auto& [name, def] : schema["$defs"].items()) unknown += def.contains("x-sse-conform-unknown-type");
    SSEC_FUZZ_CHECK(unknown == 1, js.files[i].name);
  }
  return 0;
}
