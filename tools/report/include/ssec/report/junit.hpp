// SPDX-License-Identifier: MIT
// The one JUnit XML writer and the one XML/HTML escaper of the tools: `run`
// (ssec/harness/reports.hpp) and `check` (ssec/live/check_report.hpp) build
// a junit::document and write it here, the HTML report escapes with
// xml_escape.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssec {

/// Escapes text for XML / HTML element content and attribute values:
/// & < > " ' as entities; a control character other than line feed and tab
/// (XML 1.0 cannot carry most of them, even as references) as its case-log
/// escape (ssec::escape: 0x1B is `\u001B`, a carriage return `\r`); bytes
/// that are not UTF-8 (a server's Latin-1 header) and U+FFFE / U+FFFF,
/// which XML cannot carry either, as `\xNN` and `\uFFFE`: the output is
/// always well-formed UTF-8 that an XML parser reads.
std::string xml_escape(std::string_view s);

namespace junit {

/// Attributes in the order they are written; values are escaped by write().
using attributes = std::vector<std::pair<std::string, std::string>>;

/// What a testcase holds besides passing: <failure>, <error>, <skipped> or
/// <system-out>, with attributes and text (an element without text is
/// written self-closed).
struct result {
  std::string tag;
  junit::attributes attributes;
  std::string text;
};

struct testcase {
  junit::attributes attributes;        ///< classname, name, file, line, time... as the caller wants them.
  std::vector<junit::result> results;  ///< None: passed (written self-closed).
};

struct testsuite {
  junit::attributes attributes;  ///< name, tests, failures...
  std::vector<testcase> cases;
};

struct document {
  junit::attributes attributes;  ///< Of <testsuites>; may be empty.
  std::vector<testsuite> suites;
};

/// The document as XML, two spaces of indentation per level, a line feed after each element.
std::string write(const document& d);

}  // namespace junit
}  // namespace ssec
