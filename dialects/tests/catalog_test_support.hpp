// SPDX-License-Identifier: MIT
// What the catalog tests share: editing a catalog text into the variant a
// test needs.
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace catalog_test_support {

/// `text` with the first `from` replaced by `to`; a `from` that is not
/// there fails the test (an edit that does nothing would prove nothing).
inline std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace catalog_test_support
