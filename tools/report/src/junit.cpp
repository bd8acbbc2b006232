// SPDX-License-Identifier: MIT
#include "ssec/report/junit.hpp"

#include "ssec/support/escape.hpp"

namespace ssec {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
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
