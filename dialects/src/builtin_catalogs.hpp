// SPDX-License-Identifier: MIT
// The built-in catalogs as the build compiles them in (spec/compile_catalogs.cpp
// writes the definition): each one's text, and its YAML tree already read.
#pragma once

#include <span>
#include <string_view>

namespace sse::dialect::detail {

struct builtin_catalog_source {
  std::string_view name;      ///< Its path in the repository (errors read spec/chat.yaml:12:3).
  std::string_view text;      ///< The file's bytes.
  std::string_view compiled;  ///< ssec::yaml::compile_document of the text.
};

std::span<const builtin_catalog_source> builtin_catalog_sources() noexcept;

}  // namespace sse::dialect::detail
