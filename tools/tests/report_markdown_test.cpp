// SPDX-License-Identifier: MIT
// The markdown escaper of the pull-request reports and the href guard of the
// HTML and markdown links (ssec/report/markdown.hpp), and ssec::printable,
// the one sanitiser of text bound for a terminal or a CI log.
#include <gtest/gtest.h>

#include <string>

#include "ssec/report/markdown.hpp"
#include "ssec/support/escape.hpp"

namespace {

TEST(report_markdown, md_text_leaves_no_markup_html_or_line_break) {
  const std::string hostile =
      "<img src=x onerror=alert(1)> [link](javascript:alert(1)) ![i](http://x/i.png) **b** | cell |\n"
      "::error::forged `code` &amp; # heading";
  const auto out = ssec::md_text(hostile);
  for (const char* raw : {"<", ">", "[link](", "![", "**", "\n", " | ", "&amp;amp"}) {
    if (std::string(raw) == "&amp;amp") {
      EXPECT_NE(out.find(raw), std::string::npos) << out;  // & itself became &amp;
      continue;
    }
    EXPECT_EQ(out.find(raw), std::string::npos) << raw << " in " << out;
  }
  EXPECT_NE(out.find(R"(\\n::error::forged)"), std::string::npos) << out;
  EXPECT_EQ(ssec::md_text("sse-conform reference 0.1.0 (a: b)"), "sse-conform reference 0.1.0 (a: b)");
  // Block markup only where it could start.
  EXPECT_EQ(ssec::md_text("# h"), "\\# h");
  EXPECT_EQ(ssec::md_text("- item"), "\\- item");
  EXPECT_EQ(ssec::md_text("12. item"), "12\\. item");
  EXPECT_EQ(ssec::md_text("0.1.0"), "0.1.0");
  EXPECT_EQ(ssec::md_text("a_b*c"), "a\\_b\\*c");
}

TEST(report_markdown, md_code_and_md_block_cannot_be_closed_by_their_content) {
  EXPECT_EQ(ssec::md_code("x"), "`x`");
  EXPECT_EQ(ssec::md_code("a`b"), "``a`b``");
  EXPECT_EQ(ssec::md_code("`a"), "`` `a ``");
  EXPECT_EQ(ssec::md_code("a|b"), "`a\\|b`");
  EXPECT_EQ(ssec::md_code("a\nb"), "`a\\nb`");
  EXPECT_EQ(ssec::md_block("x", "yaml"), "```yaml\nx\n```\n");
  EXPECT_EQ(ssec::md_block("a ```` b\n", "yaml"), "`````yaml\na ```` b\n`````\n");
}

TEST(report_markdown, safe_href_keeps_paths_and_web_links_and_defuses_other_schemes) {
  EXPECT_EQ(ssec::safe_href("conformance/cases/ours/a.yaml#L3"), "conformance/cases/ours/a.yaml#L3");
  EXPECT_EQ(ssec::safe_href("/abs/a.yaml"), "/abs/a.yaml");
  EXPECT_EQ(ssec::safe_href("https://github.com/o/r/blob/main/a.yaml"), "https://github.com/o/r/blob/main/a.yaml");
  EXPECT_EQ(ssec::safe_href("cases/a:b.yaml"), "cases/a:b.yaml");  // the colon is after a slash: a path
  for (const std::string bad : {"javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)",
                                " \x01javascript:alert(1)", "data:text/html,<script>", "vbscript:x"}) {
    EXPECT_EQ(ssec::safe_href(bad), "./" + bad) << bad;
  }
}

TEST(printable, escapes_what_a_terminal_acts_on_and_keeps_readable_text) {
  EXPECT_EQ(ssec::printable("caf\xC3\xA9 \xF0\x9F\x98\x80 tab\there"), "caf\xC3\xA9 \xF0\x9F\x98\x80 tab\there");
  EXPECT_EQ(ssec::printable("\x1B]0;title\x07"), "\\u001B]0;title\\u0007");
  EXPECT_EQ(ssec::printable("a\nb\rc"), "a\\nb\\rc");
  EXPECT_EQ(ssec::printable("\xC2\x9B"
                            "31m"),
            "\\u009B31m");  // C1 CSI
  EXPECT_EQ(ssec::printable("\xE2\x80\xAE"
                            "evil"),
            "\\u202Eevil");  // right-to-left override
  EXPECT_EQ(ssec::printable("\xE2\x80\xA8"), "\\u2028");
  EXPECT_EQ(ssec::printable("\xFF"), "\\xFF");
  EXPECT_EQ(ssec::printable("\x7F"), "\\u007F");
}

}  // namespace
