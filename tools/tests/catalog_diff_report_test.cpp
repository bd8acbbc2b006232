// SPDX-License-Identifier: MIT
// The catalog diff reports (ssec/catalog_diff/report.hpp) on diffs built in
// the test: the markdown stays within a pull-request comment, GitHub
// workflow commands are escaped, JUnit marks ignored changes skipped.
#include "ssec/catalog_diff/report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ssec {
namespace {

using conformance::catalog_change;
using conformance::catalog_diff;
using conformance::change_level;
using conformance::diff_role;

catalog_diff many_changes(std::size_t n) {
  catalog_diff d;
  d.old_version = "1.0.0";
  d.new_version = "1.1.0";
  for (std::size_t i = 0; i < n; ++i) {
    catalog_change c;
    c.rule = "EVENT_ADDED";
    c.dialect = "chat";
    c.event = "type_" + std::to_string(i);
    c.reader = change_level::warn;
    c.writer = change_level::info;
    c.message = "chat: event type `" + c.event + "` added";
    c.fingerprint = conformance::change_fingerprint(c.rule, c.dialect, c.event, "", "");
    c.new_where = {"spec/chat.yaml", static_cast<int>(10 + i), 9};
    c.example = conformance::counterexample{"reader",
                                            "chat",
                                            {std::string(400, 'x')},
                                            "[\"" + std::string(400, 'x') + "\"]",
                                            "A strict reader rejects it."};
    d.changes.push_back(std::move(c));
  }
  return d;
}

TEST(catalog_diff_report, markdown_fits_a_pull_request_comment) {
  const auto d = many_changes(1000);
  const auto j = conformance::judge_diff(d, diff_role::both, change_level::err, {});
  const auto md = render_catalog_diff(d, j, diff_format::markdown);
  EXPECT_LT(md.size(), 65536u);
  EXPECT_NE(md.find("… and 900 more changes"), std::string::npos);
  EXPECT_NE(md.find("… and 980 more counterexamples"), std::string::npos);
  // The JSON has every change.
  EXPECT_EQ(catalog_diff_json(d, j)["changes"].size(), 1000u);
}

TEST(catalog_diff_report, github_commands_are_escaped) {
  auto d = many_changes(1);
  d.changes[0].message = "line one\nline two 100%";
  d.changes[0].new_where.file = "spec/a,b:c.yaml";
  const auto j = conformance::judge_diff(d, diff_role::reader, change_level::warn, {});
  const auto gh = render_catalog_diff(d, j, diff_format::github_actions);
  EXPECT_EQ(
      gh.rfind("::warning file=spec/a%2Cb%3Ac.yaml,line=10,col=9,title=EVENT_ADDED (WARN)::line one%0Aline two 100%25",
               0),
      0u)
      << gh;
  EXPECT_NE(gh.find("\n::error::1 change;"), std::string::npos) << gh;  // the summary fails: WARN for readers
}

TEST(catalog_diff_report, junit_marks_failures_and_ignored_changes) {
  const auto d = many_changes(2);
  const std::vector<conformance::ignore_entry> ignores{{d.changes[0].fingerprint, "our frontend ignores it", 1}};
  const auto j = conformance::judge_diff(d, diff_role::reader, change_level::warn, ignores);
  const auto xml = render_catalog_diff(d, j, diff_format::junit);
  EXPECT_NE(xml.find("tests=\"2\" failures=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"ignored: our frontend ignores it\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"chat: event type `type_1` added\" type=\"WARN\""), std::string::npos) << xml;
}

TEST(catalog_diff_report, catalog_text_renders_as_text_in_markdown_and_on_a_terminal) {
  auto d = many_changes(1);
  d.old_version = "1.0.0`<img src=x onerror=alert(1)>";
  d.changes[0].event = "<script>alert(1)</script>";
  d.changes[0].message = "chat: event type `<b>x</b>` [click](javascript:alert(1)) | cell\n::error::forged";
  d.changes[0].example->input = "```\n<script>alert(2)</script>";
  const auto j = conformance::judge_diff(d, diff_role::reader, change_level::warn, {});
  const auto md = render_catalog_diff(d, j, diff_format::markdown);
  // HTML only inside a code span or a fenced block, where it is text; no
  // link, no table cell, no line that starts a workflow command.
  for (const char* raw : {"<b>", "<script>alert(1)", "[click](", "\n::error::"}) {
    EXPECT_EQ(md.find(raw), std::string::npos) << raw << " in\n" << md;
  }
  EXPECT_NE(md.find("``1.0.0`<img src=x onerror=alert(1)>``"), std::string::npos) << md;
  EXPECT_NE(md.find(R"(&lt;b&gt;x&lt;/b&gt;\` \[click\](javascript:alert(1)) \| cell\\n::error)"), std::string::npos)
      << md;
  // The counterexample's fence is longer than the backticks of its input.
  EXPECT_NE(md.find("````yaml\ninput: ```"), std::string::npos) << md;
  const auto text = render_catalog_diff(d, j, diff_format::text);
  EXPECT_EQ(text.find("\n::error::"), std::string::npos) << text;
  EXPECT_NE(text.find("\\n::error::forged"), std::string::npos) << text;
}

}  // namespace
}  // namespace ssec
