// SPDX-License-Identifier: MIT
#include "sse/utf8.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "utf8_avx2.hpp"

namespace sse::utf8 {
namespace {

constexpr std::uint64_t high_bits = 0x8080808080808080ULL;

// Bounds of the second byte of a sequence, per lead byte (Unicode Table 3-7).
// The later continuation bytes are always 0x80..0xBF.
struct lead_info {
  int length;  // 0 = the byte can never start a sequence
  unsigned char second_lo;
  unsigned char second_hi;
};

constexpr lead_info classify(unsigned char lead) noexcept {
  if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
  if (lead == 0xE0) return {3, 0xA0, 0xBF};
  if (lead == 0xED) return {3, 0x80, 0x9F};
  if (lead >= 0xE1 && lead <= 0xEF) return {3, 0x80, 0xBF};
  if (lead == 0xF0) return {4, 0x90, 0xBF};
  if (lead >= 0xF1 && lead <= 0xF3) return {4, 0x80, 0xBF};
  if (lead == 0xF4) return {4, 0x80, 0x8F};
  return {0, 0, 0};
}

// Length of the well-formed sequence starting at `p`, or the negated length of
// the maximal subpart to replace with one U+FFFD (at least 1 byte).
inline int sequence_at(const unsigned char* p, const unsigned char* end) noexcept {
  const lead_info info = classify(*p);
  if (info.length == 0) return -1;
  if (end - p < 2 || p[1] < info.second_lo || p[1] > info.second_hi) return -1;
  for (int i = 2; i < info.length; ++i) {
    if (end - p <= i || (p[i] & 0xC0) != 0x80) return -i;
  }
  return info.length;
}

// Skips the ASCII bytes from `p` on, in the input [begin, end): sixteen at a
// time with SSE2, landing on the first high byte directly, and a short tail
// read as the input's last sixteen bytes when it has that many (the bits of
// the bytes before `p` shifted out); else eight at a time.
inline const unsigned char* skip_ascii(const unsigned char* begin, const unsigned char* p,
                                       const unsigned char* end) noexcept {
#if defined(__SSE2__)
  // Thirty-two bytes per step while they are all ASCII; the sixteen-byte loop
  // then finds the high byte.
  while (end - p >= 32) {
    const __m128i low_half = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i high_half = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    if (_mm_movemask_epi8(_mm_or_si128(low_half, high_half)) != 0) break;
    p += 32;
  }
  while (end - p >= 16) {
    const int high = _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    if (high != 0) return p + __builtin_ctz(static_cast<unsigned>(high));
    p += 16;
  }
  if (p < end && end - begin >= 16) {
    const unsigned char* last16 = end - 16;
    const unsigned high =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(last16)))) >>
        (p - last16);
    return high != 0 ? p + __builtin_ctz(high) : end;
  }
#else
  (void)begin;
#endif
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    if (word & high_bits) break;
    p += 8;
  }
  while (p < end && *p < 0x80) ++p;
  return p;
}

// classify() as one load, for the validation fast path.
constexpr std::array<lead_info, 256> lead_table = [] {
  std::array<lead_info, 256> table{};
  for (unsigned byte = 0; byte < 256; ++byte) table[byte] = classify(static_cast<unsigned char>(byte));
  return table;
}();

bool is_valid_scalar(std::string_view bytes) noexcept {
  const auto* begin = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* p = begin;
  const auto* end = p + bytes.size();
  for (;;) {
    p = skip_ascii(begin, p, end);
    if (p == end) return true;
    // Non-ASCII characters come in runs (CJK, Cyrillic, accents): check them
    // back to back. The same test as sequence_at() > 0, branch for branch.
    do {
      const lead_info info = lead_table[*p];
      if (info.length == 0 || end - p < info.length) return false;
      if (p[1] < info.second_lo || p[1] > info.second_hi) return false;
      if (info.length > 2 && (p[2] & 0xC0) != 0x80) return false;
      if (info.length > 3 && (p[3] & 0xC0) != 0x80) return false;
      p += info.length;
    } while (p != end && *p >= 0x80);
  }
}

#if defined(SSEC_PARSER_AVX2)
// At least one block (is_valid below sends shorter input to the scalar check).
__attribute__((target("avx2"))) bool is_valid_avx2(std::string_view bytes) noexcept {
  using avx2::checker;
  using avx2::load;
  const char* const begin = bytes.data();
  const char* p = begin;
  const char* const end = p + bytes.size();
  checker check;
  check.start();
  constexpr std::ptrdiff_t block = block_size;
  for (; end - p >= block; p += block) check.add(load(p));
  if (p != end) {
    // The tail as the last block, overlapping bytes already checked: a byte
    // checked again with the same bytes before it adds no new error, so the
    // checker is put back to the block before that one (a copy of a
    // variable-length tail cost a mispredicted branch in memcpy per short
    // input). Before the input's start those bytes are NUL, as in start().
    const char* const last = end - block;
    if (last - begin >= block) {
      check.follow(load(last - block));
    } else {
      alignas(32) char before[2 * block_size] = {};
      std::memcpy(before + block, begin, block_size);
      check.follow(load(before + (last - begin)));
    }
    check.add(load(last));
  }
  return check.valid_at_end();
}

using validate_function = bool (*)(std::string_view) noexcept;

bool is_valid_first_call(std::string_view bytes) noexcept;

// The validator for inputs of a block or more on this CPU: the resolver
// replaces itself on the first call (constant-initialized, as in scan.cpp).
std::atomic<validate_function> chosen_is_valid{is_valid_first_call};

bool is_valid_first_call(std::string_view bytes) noexcept {
  __builtin_cpu_init();
  const validate_function chosen = __builtin_cpu_supports("avx2") ? is_valid_avx2 : is_valid_scalar;
  chosen_is_valid.store(chosen, std::memory_order_relaxed);
  return chosen(bytes);
}
#endif

}  // namespace

bool is_valid(std::string_view bytes) noexcept {
#if defined(SSEC_PARSER_AVX2)
  // Short values go the scalar way: mostly ASCII, done in a step or two.
  if (bytes.size() >= block_size) return chosen_is_valid.load(std::memory_order_relaxed)(bytes);
#endif
  return is_valid_scalar(bytes);
}

std::size_t append_repaired(std::string& out, std::string_view bytes) {
  static constexpr std::string_view replacement = "\xEF\xBF\xBD";
  const auto* begin = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* p = begin;
  const auto* end = p + bytes.size();
  const auto* run = p;  // start of the well-formed run not yet copied
  std::size_t replaced = 0;
  for (;;) {
    p = skip_ascii(begin, p, end);
    if (p == end) break;
    const int n = sequence_at(p, end);
    if (n > 0) {
      p += n;
      continue;
    }
    out.append(bytes.data() + (run - begin), static_cast<std::size_t>(p - run));
    out.append(replacement);
    ++replaced;
    p += -n;
    run = p;
  }
  out.append(bytes.data() + (run - begin), static_cast<std::size_t>(end - run));
  return replaced;
}

}  // namespace sse::utf8
