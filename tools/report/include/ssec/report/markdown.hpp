// SPDX-License-Identifier: MIT
// The one markdown escaper of the reports that become pull-request comments
// (`certify --markdown`, `catalog diff --format markdown`, the `run` matrix).
// Their text comes from catalogs, profiles, adapters and servers: escaped
// here, it renders as the text it is, never as a link, an image, a table
// cell, an HTML element or a workflow command. `fuzz/sse_report_fuzzer.cc`
// holds these promises (and xml_escape's and ssec::printable's) over
// arbitrary bytes.
#pragma once

#include <string>
#include <string_view>

namespace ssec {

/// Text for a paragraph, a list item or a table cell: one line
/// (ssec::printable), `&` `<` `>` as entities, the characters of inline
/// markup (\ ` * _ [ ] | ! ~) backslash-escaped, and a first character that
/// would start a heading, list item or rule (# + - =, "1." "1)") too.
std::string md_text(std::string_view s);

/// An inline code span showing `s` as it is: fenced with one backtick more
/// than its longest run of backticks, one line (ssec::printable), and `|`
/// escaped as GitHub's tables require (the table removes the backslash).
std::string md_code(std::string_view s);

/// A fenced code block with info string `lang`: its fence is longer than any
/// run of backticks in `s`, so the content cannot close it.
std::string md_block(std::string_view s, std::string_view lang);

/// A URL for an HTML href or a markdown link taken from a file or folder
/// name: a relative reference stays as it is, but anything that would parse
/// as a scheme other than http: and https: (`javascript:`, `data:`) gets
/// "./" in front, so it is a path again.
std::string safe_href(std::string_view url);

}  // namespace ssec
