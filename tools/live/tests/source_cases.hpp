// SPDX-License-Identifier: MIT
// The source tree's case files, as the live tests load them: a tag list or
// a case tree that does not load is a test failure (and an empty list).
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ssec/conformance/loader.hpp"

namespace source_cases {

/// Every case under SSEC_SOURCE_DIR/`tree` ("conformance/cases", "conformance/clients").
inline std::vector<ssec::conformance::test_case> load(const std::string& tree) {
  std::vector<ssec::error> errors;
  const auto tags = ssec::conformance::load_tags(SSEC_SOURCE_DIR "/spec/tags.yaml", "spec/tags.yaml", errors);
  EXPECT_TRUE(errors.empty()) << ssec::to_string(errors);
  auto loaded = ssec::conformance::load_case_tree(std::string(SSEC_SOURCE_DIR "/") + tree, tree, tags);
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return std::move(loaded.value);
}

}  // namespace source_cases
