// SPDX-License-Identifier: MIT
#include "ssec/report/junit.hpp"

#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    if (static_cast<unsigned char>(ch) >= 0x80) {
      // XML text is well-formed UTF-8 without U+FFFE and U+FFFF: anything
      // else (a server's header in Latin-1, a cut sequence) is escaped, so
      // the report still parses.
      const std::size_t n = utf8_sequence_length(s, i);
      const std::string_view seq = s.substr(i, n == 0 ? 1 : n);
      if (n == 0 || seq == "\xEF\xBF\xBE" || seq == "\xEF\xBF\xBF") out += escape(seq);
      else out += seq;
      i += seq.size();
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') {
          out += escape(std::string_view(&ch, 1));
        } else {
          out.push_back(ch);
        }
    }
    ++i;
  }
  return out;
}

namespace junit {

namespace {

std::string open_tag(std::string_view tag, const attributes& attrs) {
  std::string out = "<" + std::string(tag);
  for (const auto& [name, value] : attrs) out += " " + name + "=\"" + xml_escape(value) + "\"";
  return out;
}

}  // namespace

std::string write(const document& d) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + open_tag("testsuites", d.attributes) + ">\n";
  for (const auto& suite : d.suites) {
    out += "  " + open_tag("testsuite", suite.attributes) + ">\n";
    for (const auto& c : suite.cases) {
      out += "    " + open_tag("testcase", c.attributes);
      if (c.results.empty()) {
        out += "/>\n";
        continue;
      }
      out += ">\n";
      for (const auto& r : c.results) {
        out += "      " + open_tag(r.tag, r.attributes);
        out += r.text.empty() ? "/>\n" : ">" + xml_escape(r.text) + "</" + r.tag + ">\n";
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace junit
}  // namespace ssec
