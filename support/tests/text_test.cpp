// SPDX-License-Identifier: MIT
#include "ssec/support/text.hpp"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace {

TEST(join, separates_items) {
  const std::vector<std::string> words{"a", "b", "c"};
  EXPECT_EQ(ssec::join(words), "a, b, c");
  EXPECT_EQ(ssec::join(words, "|"), "a|b|c");
  EXPECT_EQ(ssec::join(std::vector<std::string_view>{}), "");
}

TEST(fnv1a, matches_the_published_test_vectors) {
  // FNV-1a 64-bit reference values: generated case ids depend on them.
  EXPECT_EQ(ssec::fnv1a(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ(ssec::fnv1a("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ(ssec::fnv1a("foobar"), 0x85944171F73967E8ULL);
}

TEST(utf8, sequence_lengths_reject_what_is_not_utf8) {
  EXPECT_EQ(ssec::utf8_sequence_length("a", 0), 1u);
  EXPECT_EQ(ssec::utf8_sequence_length("\xC3\xA9", 0), 2u);
  EXPECT_EQ(ssec::utf8_sequence_length("\xC3", 0), 0u);
  EXPECT_EQ(ssec::utf8_sequence_length("\xED\xA0\x80", 0), 0u);  // a surrogate
}

TEST(append_repeated, builds_exact_repetitions) {
  std::string out = "x";
  ssec::append_repeated(out, "ab", 3);
  EXPECT_EQ(out, "xababab");
  ssec::append_repeated(out, "", 5);
  EXPECT_EQ(out, "xababab");
}

TEST(trim, drops_the_blanks_around_a_value_and_keeps_those_inside) {
  EXPECT_EQ(ssec::trim(" \t text/event-stream \t"), "text/event-stream");
  EXPECT_EQ(ssec::trim("a b"), "a b");
  EXPECT_EQ(ssec::trim(" \t "), "");
  EXPECT_EQ(ssec::trim(""), "");
  // The default is HTTP's optional white space only: a CR or LF stays.
  EXPECT_EQ(ssec::trim("\rx\n"), "\rx\n");
  EXPECT_EQ(ssec::trim("\r x \n", " \r\n"), "x");
}

}  // namespace
