// SPDX-License-Identifier: MIT
// The catalog diff beyond single rules: semver, fingerprints, counterexamples
// and the generated cases that pin a change.
#include <gtest/gtest.h>

#include "catalog_diff_fixture.hpp"

namespace ssec::conformance {
namespace {

TEST(catalog_diff, semver_parses) {
  EXPECT_TRUE(parse_semver("1.2.3"));
  EXPECT_FALSE(parse_semver("1.2"));
}

}  // namespace
}  // namespace ssec::conformance
#include "ssec/conformance/generator.hpp"
#include "ssec/conformance/loader.hpp"
using namespace ssec::conformance;
TEST(catalog_diff, debug_gen) {
  auto c = ssec::conformance::diff_fixture::load_text(std::string(ssec::conformance::diff_fixture::base_catalog));
  for (auto& f : generate_cases(*c, {})) {
    std::cout << f.name << "\n" << f.text.substr(0, 1500) << "\n";
  }
}
