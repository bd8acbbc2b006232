// SPDX-License-Identifier: MIT
// Arbitrary bytes (a catalog's text, an adapter's name, a server's header)
// through every escaper the reports are written with. Properties, each
// checked on the output alone, as the reader of the report would meet it:
// printable() leaves nothing a terminal acts on; md_text() leaves no markup
// and no line break; md_code() and md_block() cannot be closed by their
// content; safe_href() never yields a URL a browser runs as a scheme other
// than http(s); xml_escape() and the JUnit writer give well-formed UTF-8 that
// the bytes add no element to.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "sse/utf8.hpp"
#include "ssec/report/junit.hpp"
#include "ssec/report/markdown.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace {

// The code points of `s` (valid UTF-8), each with the property `bad`: the
// first that has it, or none.
template <typename Bad>
bool any_code_point(std::string_view s, Bad bad) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = ssec::utf8_sequence_length(s, i);
    if (n == 0) return true;  // not UTF-8
    if (bad(ssec::decode_utf8(s.substr(i, n)))) return true;
    i += n;
  }
  return false;
}

bool acts_on_a_terminal(std::uint32_t cp) {
  return (cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void check_printable(std::string_view s) {
  const std::string p = ssec::printable(s);
  SSEC_FUZZ_CHECK(sse::utf8::is_valid(p), p);
  SSEC_FUZZ_CHECK(!any_code_point(p, acts_on_a_terminal), p);
}

// Every backslash escapes one character that markdown could read as markup;
// no such character stands unescaped; & < > only as entities.
void check_md_text(std::string_view s) {
  const std::string t = ssec::md_text(s);
  SSEC_FUZZ_CHECK(sse::utf8::is_valid(t), t);
  SSEC_FUZZ_CHECK(!any_code_point(t, acts_on_a_terminal), t);
  constexpr std::string_view markup = "\\`*_[]|!~";
  constexpr std::string_view escapable = "\\`*_[]|!~#+-=.)";
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\') {
      SSEC_FUZZ_CHECK(i + 1 < t.size() && escapable.find(t[i + 1]) != std::string_view::npos, t);
      ++i;
      continue;
    }
    SSEC_FUZZ_CHECK(markup.find(c) == std::string_view::npos, t);
    SSEC_FUZZ_CHECK(c != '<' && c != '>', t);
    if (c == '&') {
      const std::string_view rest = std::string_view(t).substr(i);
      SSEC_FUZZ_CHECK(rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;"), t);
    }
    if (i == 0) SSEC_FUZZ_CHECK(std::string_view("#+-=").find(c) == std::string_view::npos, t);
  }
}

std::size_t longest_run(std::string_view s, char c) {
  std::size_t longest = 0, run = 0;
  for (const char d : s) {
    run = d == c ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

void check_md_code(std::string_view s) {
  const std::string c = ssec::md_code(s);
  const std::size_t fence = std::find_if(c.begin(), c.end(), [](char d) { return d != '`'; }) - c.begin();
  SSEC_FUZZ_CHECK(fence >= 1 && c.size() >= 2 * fence, c);
  SSEC_FUZZ_CHECK(c.ends_with(std::string(fence, '`')), c);
  const std::string_view inside = std::string_view(c).substr(fence, c.size() - 2 * fence);
  SSEC_FUZZ_CHECK(longest_run(inside, '`') < fence, c);
  SSEC_FUZZ_CHECK(!inside.starts_with("`") && !inside.ends_with("`"), c);
  SSEC_FUZZ_CHECK(!any_code_point(inside, acts_on_a_terminal), c);
  for (std::size_t i = 0; i < inside.size(); ++i) {
    if (inside[i] == '|') SSEC_FUZZ_CHECK(i > 0 && inside[i - 1] == '\\', c);
  }
}

void check_md_block(std::string_view s) {
  const std::string b = ssec::md_block(s, "text");
  const std::size_t fence = std::find_if(b.begin(), b.end(), [](char d) { return d != '`'; }) - b.begin();
  SSEC_FUZZ_CHECK(fence >= 3 && b.substr(fence).starts_with("text\n"), b);
  SSEC_FUZZ_CHECK(b.ends_with("\n" + std::string(fence, '`') + "\n"), b);
  const std::string_view content = std::string_view(b).substr(fence + 5, b.size() - (fence + 5) - fence - 1);
  SSEC_FUZZ_CHECK(longest_run(content, '`') < fence, b);
}

// What a browser makes of an href: tabs and line breaks dropped anywhere, C0
// controls and spaces dropped in front; then a scheme, if it starts with one.
void check_safe_href(std::string_view s) {
  const std::string h = ssec::safe_href(s);
  std::string seen;
  for (const char c : h) {
    if (c != '\t' && c != '\n' && c != '\r') seen += c;
  }
  const std::size_t start =
      std::find_if(seen.begin(), seen.end(), [](char c) { return static_cast<unsigned char>(c) > 0x20; }) -
      seen.begin();
  const std::string_view url = std::string_view(seen).substr(start);
  const std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return;
  std::string scheme(url.substr(0, colon));
  const bool is_scheme =
      std::isalpha(static_cast<unsigned char>(scheme[0])) != 0 && std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
      });
  if (!is_scheme) return;
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  SSEC_FUZZ_CHECK(scheme == "http" || scheme == "https", h);
}

bool xml_cannot_carry(std::uint32_t cp) {
  return (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0xFFFE || cp == 0xFFFF;
}

void check_xml(std::string_view s) {
  const std::string x = ssec::xml_escape(s);
  SSEC_FUZZ_CHECK(sse::utf8::is_valid(x), x);
  SSEC_FUZZ_CHECK(!any_code_point(x, xml_cannot_carry), x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    SSEC_FUZZ_CHECK(x[i] != '<' && x[i] != '>' && x[i] != '"' && x[i] != '\'', x);
    if (x[i] == '&') {
      const std::string_view rest = std::string_view(x).substr(i);
      SSEC_FUZZ_CHECK(rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;") ||
                          rest.starts_with("&quot;") || rest.starts_with("&apos;") || rest.starts_with("&#"),
                      x);
    }
  }
  // In every place the JUnit writer puts text, the bytes add no markup.
  const auto document = [](std::string_view text) {
    const std::string t(text);
    ssec::junit::document d;
    d.attributes = {{"name", t}};
    ssec::junit::testcase c{{{"classname", t}, {"name", t}}, {{"failure", {{"message", t}}, t}}};
    d.suites.push_back({{{"name", t}}, {c}});
    return ssec::junit::write(d);
  };
  const std::string written = document(s);
  SSEC_FUZZ_CHECK(sse::utf8::is_valid(written), written);
  // An element without text is written self-closed: compare with the same emptiness.
  const std::string plain = document(s.empty() ? "" : "x");
  SSEC_FUZZ_CHECK(std::count(written.begin(), written.end(), '<') == std::count(plain.begin(), plain.end(), '<'),
                  written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(bytes), size);
  check_printable(s);
  check_md_text(s);
  check_md_code(s);
  check_md_block(s);
  check_safe_href(s);
  check_xml(s);
  return 0;
}
