// SPDX-License-Identifier: MIT
#include "ssec/support/base64.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace ssec {
namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int16_t, 256> make_reverse() {
  std::array<std::int16_t, 256> table{};
  for (auto& v : table) v = -1;
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int16_t>(i);
  return table;
}
constexpr auto reverse = make_reverse();

}  // namespace

void base64_append(std::string& out, std::string_view bytes) {
  // Sized once and written through a pointer: the harness encodes every chunk
  // of every request (millions of them for a byte-by-byte case).
  const std::size_t at = out.size();
  out.resize(at + (bytes.size() + 2) / 3 * 4);
  char* p = out.data() + at;
  const auto byte = [&bytes](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i]));
  };
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    *p++ = alphabet[(n >> 18) & 63];
    *p++ = alphabet[(n >> 12) & 63];
    *p++ = alphabet[(n >> 6) & 63];
    *p++ = alphabet[n & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = byte(i) << 16;
    if (rest == 2) n |= byte(i + 1) << 8;
    *p++ = alphabet[(n >> 18) & 63];
    *p++ = alphabet[(n >> 12) & 63];
    *p++ = rest == 2 ? alphabet[(n >> 6) & 63] : '=';
    *p = '=';
  }
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  base64_append(out, bytes);
  return out;
}

namespace {

// The text without its padding and the size it decodes to; nullopt for a
// length no encoder produces.
std::optional<std::pair<std::string_view, std::size_t>> unpadded(std::string_view text) {
  if (text.size() % 4 == 0 && text.ends_with("==")) text.remove_suffix(2);
  else if (text.size() % 4 == 0 && text.ends_with('=')) text.remove_suffix(1);
  const std::size_t rest = text.size() % 4;
  if (rest == 1) return std::nullopt;
  return std::pair{text, text.size() / 4 * 3 + (rest == 0 ? 0 : rest - 1)};
}

// Decodes unpadded `text` into `p` (room for its size); false on a character
// outside the alphabet. Whole groups of four give three bytes; a last group of
// two or three gives one or two (its leftover bits ignored, as an accumulating
// decoder does).
bool decode_to(std::string_view text, char* p) {
  const std::size_t groups = text.size() / 4, rest = text.size() % 4;
  std::size_t i = 0;
  for (std::size_t g = 0; g < groups; ++g, i += 4) {
    const int a = reverse[static_cast<unsigned char>(text[i])], b = reverse[static_cast<unsigned char>(text[i + 1])],
              c = reverse[static_cast<unsigned char>(text[i + 2])],
              d = reverse[static_cast<unsigned char>(text[i + 3])];
    if ((a | b | c | d) < 0) return false;
    const auto n = static_cast<std::uint32_t>((a << 18) | (b << 12) | (c << 6) | d);
    *p++ = static_cast<char>(n >> 16);
    *p++ = static_cast<char>((n >> 8) & 0xFF);
    *p++ = static_cast<char>(n & 0xFF);
  }
  if (rest > 0) {
    std::uint32_t n = 0;
    for (std::size_t k = 0; k < rest; ++k) {
      const int v = reverse[static_cast<unsigned char>(text[i + k])];
      if (v < 0) return false;
      n |= static_cast<std::uint32_t>(v) << (18 - 6 * k);
    }
    *p++ = static_cast<char>(n >> 16);
    if (rest == 3) *p = static_cast<char>((n >> 8) & 0xFF);
  }
  return true;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  const auto body = unpadded(text);
  if (!body) return std::nullopt;
  std::string out(body->second, '\0');
  if (!decode_to(body->first, out.data())) return std::nullopt;
  return out;
}

bool base64_decode_append(std::string_view text, std::vector<char>& out) {
  const auto body = unpadded(text);
  if (!body) return false;
  const std::size_t at = out.size();
  out.resize(at + body->second);
  if (decode_to(body->first, out.data() + at)) return true;
  out.resize(at);
  return false;
}

}  // namespace ssec
