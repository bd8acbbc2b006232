// SPDX-License-Identifier: MIT
// The public catalog load functions. The grammar is in catalog_grammar.cpp,
// the cross-file resolution in catalog_builder.cpp. Every exception (the YAML
// reader lets none of yaml-cpp's out) is caught here and becomes an
// ssec::error, so nothing escapes the library API.
#include "builtin_catalogs.hpp"
#include "catalog_grammar.hpp"
#include "ssec/support/input.hpp"

namespace sse::dialect {

namespace {

using catalog_result = ssec::load_result<std::shared_ptr<const catalog>>;

// `load()`, with any exception (only allocation failure or a surprise can
// raise one) turned into an error.
template <class Load>
catalog_result say_why_not(Load load) {
  try {
    return load();
  } catch (const std::exception& e) {
    catalog_result out;
    out.errors.push_back(ssec::error{std::string("catalog loader failed: ") + e.what()});
    return out;
  }
}

}  // namespace

ssec::load_result<std::shared_ptr<const catalog>> load_catalogs(std::span<const catalog_source> sources) {
  return say_why_not([&] { return detail::build_catalogs(sources); });
}

ssec::load_result<std::shared_ptr<const catalog>> load_catalog_files(std::span<const std::string> paths) {
  std::vector<catalog_source> sources;
  for (const auto& path : paths) {
    auto text = ssec::read_document(path);
    if (!text) {
      ssec::load_result<std::shared_ptr<const catalog>> out;
      out.errors.push_back(text.error());
      return out;
    }
    sources.push_back(catalog_source{path, std::move(text).value()});
  }
  return load_catalogs(sources);
}

const ssec::load_result<std::shared_ptr<const catalog>>& builtin_catalog() {
  static const catalog_result loaded = say_why_not([]() -> catalog_result {
    std::vector<catalog_source> sources;
    std::vector<ssec::yaml::node> documents;
    for (const auto& builtin : detail::builtin_catalog_sources()) {
      sources.push_back(catalog_source{std::string(builtin.name), std::string(builtin.text)});
      auto document = ssec::yaml::load_compiled(builtin.compiled, sources.back().name);
      if (!document) {
        catalog_result broken;
        broken.errors.push_back(document.error());
        return broken;
      }
      documents.push_back(*std::move(document));
    }
    return detail::build_catalogs(sources, documents);
  });
  return loaded;
}

const dialect_spec* builtin_dialect(std::string_view name) noexcept {
  const auto& loaded = builtin_catalog();
  return loaded.ok() ? loaded.value->dialect(name) : nullptr;
}

std::vector<std::string> builtin_dialect_names() {
  std::vector<std::string> names;
  if (const auto& loaded = builtin_catalog(); loaded.ok()) {
    for (const auto& d : loaded.value->dialects()) names.push_back(d->name);
  }
  return names;
}

}  // namespace sse::dialect
