// SPDX-License-Identifier: MIT
// The one JUnit writer (ssec/report/junit.hpp) with text no XML can carry as
// it is: bytes that are not UTF-8, noncharacters, control characters. The
// written document must parse with a real XML parser (Python's), as CI
// servers read it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "sse/utf8.hpp"
#include "ssec/report/junit.hpp"

namespace {

// Every byte that can follow a valid prefix, plus what a server may reflect.
const std::string hostile =
    "Latin-1 caf\xE9 | cut \xE2\x82 | lone \x80 | \xFF\xFE | nonchars \xEF\xBF\xBE\xEF\xBF\xBF | ctl \x01\x1B[31m "
    "| cr \r | fine \xE2\x82\xAC \xF0\x9F\x98\x80 | <&\"'>";

TEST(report_junit, xml_escape_writes_well_formed_utf8_for_any_bytes) {
  const auto out = ssec::xml_escape(hostile);
  EXPECT_TRUE(sse::utf8::is_valid(out)) << out;
  EXPECT_NE(out.find("caf\\xE9"), std::string::npos) << out;
  EXPECT_NE(out.find("lone \\x80"), std::string::npos) << out;
  EXPECT_NE(out.find("\\uFFFE\\uFFFF"), std::string::npos) << out;
  // Valid characters stay as they are.
  EXPECT_NE(out.find("fine \xE2\x82\xAC \xF0\x9F\x98\x80"), std::string::npos) << out;
  EXPECT_NE(out.find("&lt;&amp;&quot;&#39;&gt;"), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1B'), std::string::npos);
}

TEST(report_junit, a_document_of_hostile_text_parses_as_xml) {
  ssec::junit::document d;
  d.attributes = {{"name", hostile}};
  ssec::junit::testcase c{{{"name", hostile}, {"classname", "header"}}, {{"failure", {{"message", hostile}}, hostile}}};
  d.suites.push_back({{{"name", "check"}}, {c}});
  const auto path = std::filesystem::temp_directory_path() / ("ssec-junit-" + std::to_string(::getpid()) + ".xml");
  std::ofstream(path, std::ios::binary) << ssec::junit::write(d);
  const std::string cmd =
      "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
      "print(len(r.findall('.//failure')))\" '" +
      path.string() + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (const auto n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    EXPECT_EQ(::pclose(p), 0) << out;
  }
  std::filesystem::remove(path);
  EXPECT_EQ(out, "1\n");
}

}  // namespace
