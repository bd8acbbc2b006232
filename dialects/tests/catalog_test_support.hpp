// SPDX-License-Identifier: MIT
// What the dialect tests share about catalogs: the built-in catalog and its
// dialects (a catalog that does not load, or a dialect it lacks, is a test
// failure), and editing a catalog text into the variant a test needs.
#pragma once

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "sse/dialect/catalog.hpp"

namespace catalog_test_support {

inline const sse::dialect::catalog& builtin() {
  const auto& loaded = sse::dialect::builtin_catalog();
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return *loaded.value;
}

inline const sse::dialect::dialect_spec& dialect(std::string_view name) {
  const auto* d = builtin().dialect(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

/// `text` with the first `from` replaced by `to`; a `from` that is not
/// there fails the test (an edit that does nothing would prove nothing).
inline std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace catalog_test_support
