// SPDX-License-Identifier: MIT
#include "ssec/report/markdown.hpp"

#include <algorithm>
#include <cctype>

#include "ssec/support/escape.hpp"

namespace ssec {
namespace {

std::size_t longest_backtick_run(std::string_view s) {
  std::size_t longest = 0, run = 0;
  for (const char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string md_text(std::string_view s) {
  // Inline markup (emphasis, code, links, images, tables, strikethrough,
  // HTML) is escaped everywhere; block markup (headings, list items, quotes,
  // rules) only where it could start: the first character.
  const std::string text = printable(s);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else {
      const bool inline_markup = std::string_view("\\`*_[]|!~").find(c) != std::string_view::npos;
      const bool block_start = i == 0 && std::string_view("#+-=").find(c) != std::string_view::npos;
      const bool ordered_item = i > 0 && (c == '.' || c == ')') && (i + 1 == text.size() || text[i + 1] == ' ') &&
                                std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i),
                                            [](char d) { return std::isdigit(static_cast<unsigned char>(d)) != 0; });
      if (inline_markup || block_start || ordered_item) out += '\\';
      out += c;
    }
  }
  return out;
}

std::string md_code(std::string_view s) {
  std::string body;
  for (const char c : printable(s)) {
    if (c == '|') body += '\\';
    body += c;
  }
  const std::string fence(longest_backtick_run(body) + 1, '`');
  // A space on each side keeps a leading or trailing backtick off the fence.
  const bool pad = body.empty() || body.front() == '`' || body.back() == '`';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string md_block(std::string_view s, std::string_view lang) {
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(s) + 1), '`');
  std::string out = fence + std::string(lang) + "\n" + std::string(s);
  if (!s.empty() && s.back() != '\n') out += '\n';
  return out + fence + "\n";
}

std::string safe_href(std::string_view url) {
  // Browsers drop tabs and line breaks anywhere in a URL and C0 controls and
  // spaces around it ("java\tscript:" runs): judge the URL they would see.
  std::string seen;
  for (const char c : url) {
    if (c != '\t' && c != '\n' && c != '\r') seen += c;
  }
  const auto first =
      std::find_if(seen.begin(), seen.end(), [](char c) { return static_cast<unsigned char>(c) > 0x20; });
  const std::string_view cleaned = std::string_view(seen).substr(static_cast<std::size_t>(first - seen.begin()));
  if (cleaned.empty()) return std::string(url);
  // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
  const auto colon = cleaned.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::string(url);
  const auto scheme = cleaned.substr(0, colon);
  const bool is_scheme = std::isalpha(static_cast<unsigned char>(scheme.front())) != 0 &&
                         std::all_of(scheme.begin(), scheme.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
                         });
  if (!is_scheme) return std::string(url);
  std::string lower(scheme);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  if (lower == "http" || lower == "https") return std::string(url);
  return "./" + std::string(url);
}

}  // namespace ssec
