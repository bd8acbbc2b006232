// SPDX-License-Identifier: MIT
// The public catalog load functions. The grammar is in catalog_grammar.cpp,
// the cross-file resolution in catalog_builder.cpp. Every exception (the YAML
// reader lets none of yaml-cpp's out) is caught here and becomes an
// ssec::error, so nothing escapes the library API.
#include "catalog_grammar.hpp"
#include "ssec/input.hpp"

namespace sse::dialect {

ssec::load_result<std::shared_ptr<const catalog>> load_catalogs(std::span<const catalog_source> sources) {
  try {
    return detail::build_catalogs(sources);
  } catch (const std::exception& e) {
    // Only allocation failure or a surprise can land here.
    ssec::load_result<std::shared_ptr<const catalog>> out;
    out.errors.push_back(ssec::error{std::string("catalog loader failed: ") + e.what()});
    return out;
  }
}

ssec::load_result<std::shared_ptr<const catalog>> load_catalog_files(std::span<const std::string> paths) {
  std::vector<catalog_source> sources;
  for (const auto& path : paths) {
    auto text = ssec::read_all(path);
    if (!text) {
      ssec::load_result<std::shared_ptr<const catalog>> out;
      out.errors.push_back(text.error());
      return out;
    }
    sources.push_back(catalog_source{path, std::move(text).value()});
  }
  return load_catalogs(sources);
}

namespace detail {
std::span<const std::pair<std::string_view, std::string_view>> builtin_catalog_sources() noexcept;
}  // namespace detail

const ssec::load_result<std::shared_ptr<const catalog>>& builtin_catalog() {
  static const ssec::load_result<std::shared_ptr<const catalog>> loaded = [] {
    std::vector<catalog_source> sources;
    for (const auto& [name, text] : detail::builtin_catalog_sources()) {
      sources.push_back(catalog_source{std::string(name), std::string(text)});
    }
    return load_catalogs(sources);
  }();
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
