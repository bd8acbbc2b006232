#include <gtest/gtest.h>
#include "sse/dialect/catalog.hpp"
TEST(catalog, builtin_loads) {
  const auto& r = sse::dialect::builtin_catalog();
  ASSERT_TRUE(r) << r.error_text();
}
