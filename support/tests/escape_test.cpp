// SPDX-License-Identifier: MIT
#include "ssec/support/escape.hpp"

#include <gtest/gtest.h>

namespace {

using namespace std::string_literals;

TEST(escape, keeps_printable_ascii_and_names_line_breaks) {
  EXPECT_EQ(ssec::escape("data: a"), "data: a");
  EXPECT_EQ(ssec::escape("a\r\n\tb\\\"c"), "a\\r\\n\\tb\\\\\\\"c");
  EXPECT_EQ(ssec::escape("\0"s), "\\0");
}

TEST(escape, writes_other_controls_and_code_points_as_unicode_escapes) {
  EXPECT_EQ(ssec::escape("\x1B"), "\\u001B");  // never a decimal value after \x
  EXPECT_EQ(ssec::escape("\x7F"), "\\u007F");
  EXPECT_EQ(ssec::escape("\xEF\xBB\xBF"), "\\uFEFF");
  EXPECT_EQ(ssec::escape("\xF0\x9F\x98\x80"), "\\U0001F600");
}

TEST(escape, writes_bytes_that_are_not_utf8_as_hex) {
  EXPECT_EQ(ssec::escape("\xFF"), "\\xFF");
  EXPECT_EQ(ssec::escape("a\xE2\x82"), "a\\xE2\\x82");  // a sequence cut short
}

TEST(quote, wraps_in_double_quotes_and_folds_long_runs) {
  EXPECT_EQ(ssec::quote(""), "\"\"");
  EXPECT_EQ(ssec::quote("x"), "\"x\"");
  EXPECT_EQ(ssec::quote(std::string(100, 'a')), "\"a\"*100");
  EXPECT_EQ(ssec::quote("data: " + std::string(100, 'a') + "\n"), "\"data: \" + \"a\"*100 + \"\\n\"");
}

// A run is folded from 64 bytes on, wherever it ends; 63 are written out.
TEST(quote, folds_a_run_of_64_bytes_at_the_end_and_not_one_of_63) {
  EXPECT_EQ(ssec::quote(std::string(64, 'a')), "\"a\"*64");
  EXPECT_EQ(ssec::quote("x" + std::string(64, 'a')), "\"x\" + \"a\"*64");
  EXPECT_EQ(ssec::quote(std::string(63, 'a')), "\"" + std::string(63, 'a') + "\"");
  EXPECT_EQ(ssec::quote("x" + std::string(63, 'a')), "\"x" + std::string(63, 'a') + "\"");
  std::string ab;
  for (int i = 0; i < 32; ++i) ab += "ab";
  EXPECT_EQ(ssec::quote("x" + ab), "\"x\" + \"ab\"*32");
  EXPECT_EQ(ssec::quote("x" + ab.substr(1)), "\"x" + ab.substr(1) + "\"");
}

TEST(quote_clipped, says_how_much_it_left_out) {
  EXPECT_EQ(ssec::quote_clipped("abc", 10), "\"abc\"");
  EXPECT_EQ(ssec::quote_clipped("abcdefghij", 4), "\"abcd\"... (6 more bytes)");
  // Never inside a UTF-8 sequence: "é" is C3 A9.
  EXPECT_EQ(ssec::quote_clipped("a\xC3\xA9"
                                "b",
                                2),
            "\"a\"... (3 more bytes)");
}

// Of a value only the start of which is at hand: the same text as of the
// whole value, for every size of the start from max_bytes + 1 on.
TEST(quote_clipped, of_a_start_counts_what_the_whole_value_leaves_out) {
  const std::string whole = "ab\xC3\xA9" + std::string(50, 'x');  // the cut at 3 falls inside "é"
  for (std::size_t have = 4; have <= whole.size(); ++have) {
    EXPECT_EQ(ssec::quote_clipped(std::string_view(whole).substr(0, have), 3, whole.size()),
              ssec::quote_clipped(whole, 3))
        << have;
  }
  EXPECT_EQ(ssec::quote_clipped("abc", 3, 3), "\"abc\"");
  EXPECT_EQ(ssec::quote_clipped("abcdef", 10, 4), "\"abcd\"");
}

}  // namespace
