// SPDX-License-Identifier: MIT
// Small text helpers every layer above the parser shares: UTF-8 sequences,
// repetition, joining, hashing. UTF-8 validity itself is decided by
// sse::utf8, the parser's one definition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sse/utf8.hpp"

namespace ssec {

/// `s` without the leading and trailing bytes that are in `blanks`; by
/// default HTTP's optional white space, SP and HTAB (RFC 9110, 5.6.3).
inline std::string_view trim(std::string_view s, std::string_view blanks = " \t") {
  const std::size_t first = s.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

/// Length of the well-formed UTF-8 sequence starting at s[i], or 0 when the
/// bytes there are not one.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  const std::size_t n = lead < 0x80                    ? 1
                        : lead >= 0xC2 && lead <= 0xDF ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  if (n == 0 || i + n > s.size() || !sse::utf8::is_valid(s.substr(i, n))) return 0;
  return n;
}

/// The code point of one well-formed sequence.
inline std::uint32_t decode_utf8(std::string_view seq) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(seq[k])); };
  switch (seq.size()) {
    case 1: return b(0);
    case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
  }
}

/// Appends the UTF-8 encoding of a Unicode scalar value.
inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

/// Appends `times` copies of `piece` with O(log times) copies of memory:
/// repeats of several MB are built at load time by every test process.
inline void append_repeated(std::string& out, std::string_view piece, std::uint64_t times) {
  if (piece.empty() || times == 0) return;
  const std::size_t start = out.size();
  const std::size_t total = piece.size() * static_cast<std::size_t>(times);
  out.reserve(start + total);
  out.append(piece);
  while (out.size() - start < total) {
    const std::size_t have = out.size() - start;
    out.append(out, start, std::min(have, total - have));
  }
}

/// The items separated by `separator` ("a, b, c").
template <class Range>
std::string join(const Range& items, std::string_view separator = ", ") {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += separator;
    first = false;
    out += std::string_view(item);
  }
  return out;
}

/// "1 finding", "3 findings": the count and the noun, singular for exactly
/// one. `many` defaults to `one` + "s".
inline std::string counted(std::uint64_t n, std::string_view one, std::string_view many = {}) {
  std::string out = std::to_string(n) + ' ';
  if (n == 1) out += one;
  else if (!many.empty()) out += many;
  else (out += one) += 's';
  return out;
}

/// 64-bit FNV-1a of the bytes: stable across runs, platforms and versions,
/// so ids and seeds derived from it never change (generated case ids do).
constexpr std::uint64_t fnv1a(std::string_view text) noexcept {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ULL;
  }
  return h;
}

/// `s` as one URL component (RFC 3986): every byte but ALPHA, DIGIT and
/// `-._~` as %XX, so nothing in the result is a delimiter of a URL or can end
/// a header line.
inline std::string percent_encode(std::string_view s) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out.push_back(ch);
    } else {
      out += {'%', digits[c >> 4], digits[c & 15]};
    }
  }
  return out;
}

}  // namespace ssec
