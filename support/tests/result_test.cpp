// SPDX-License-Identifier: MIT
#include "ssec/support/result.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {

TEST(error, prints_only_the_parts_it_knows) {
  EXPECT_EQ((ssec::error{"bad", "f.yaml", 3, 7}.to_string()), "f.yaml:3:7: bad");
  EXPECT_EQ((ssec::error{"bad", "f.yaml", 3, 0}.to_string()), "f.yaml:3: bad");
  EXPECT_EQ((ssec::error{"bad", "f.yaml", 0, 7}.to_string()), "f.yaml: bad");
  EXPECT_EQ((ssec::error{"bad"}.to_string()), "bad");
}

TEST(error, a_list_prints_one_error_per_line) {
  const std::vector<ssec::error> errors{{"one", "a", 1, 1}, {"two"}};
  EXPECT_EQ(ssec::to_string(errors), "a:1:1: one\ntwo\n");
  EXPECT_EQ(ssec::to_string(std::vector<ssec::error>{}), "");
}

TEST(result, holds_a_value_or_an_error) {
  ssec::result<std::string> good(std::string("bytes"));
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(*good, "bytes");
  EXPECT_EQ(good->size(), 5u);

  ssec::result<std::string> bad(ssec::error{"no such file", "x"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().to_string(), "x: no such file");
}

TEST(result, moves_its_value_out) {
  ssec::result<std::unique_ptr<int>> r(std::make_unique<int>(7));
  std::unique_ptr<int> owned = std::move(r).value();
  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 7);
}

TEST(result, void_is_success_or_an_error) {
  const ssec::result<void> fine;
  EXPECT_TRUE(fine.ok());
  const ssec::result<void> broken(ssec::error{"refused"});
  EXPECT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message, "refused");
}

TEST(load_result, any_error_is_a_failure_and_keeps_what_loaded) {
  ssec::load_result<std::vector<int>> r;
  r.value = {1, 2};
  EXPECT_TRUE(r.ok());
  r.errors.push_back({"duplicate id", "cases.yaml", 4, 3});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.value.size(), 2u);
  EXPECT_EQ(r.error_text(), "cases.yaml:4:3: duplicate id\n");
}

}  // namespace
