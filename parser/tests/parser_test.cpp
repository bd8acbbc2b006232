#include <gtest/gtest.h>
#include "sse/recording.hpp"
#include "sse/chunking.hpp"
TEST(smoke, basic) {
  auto r = sse::record_parse(std::string_view("data: a\r\n\r\ndata: b\n\n"));
  ASSERT_EQ(r.events.size(), 2u);
}
