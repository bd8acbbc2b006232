// SPDX-License-Identifier: MIT
#include "sse/utf8.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// On x86-64 with GCC or Clang, an AVX2 validator is compiled beside the
// scalar one and picked at run time (the library stays baseline x86-64).
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define SSEC_UTF8_AVX2 1
#include <immintrin.h>
#endif

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

#if defined(SSEC_UTF8_AVX2)
// Thirty-two bytes per step, whatever their mix of ASCII and not, after the
// "lookup" method of Keiser and Lemire ("Validating UTF-8 in less than one
// instruction per byte", 2021). Each byte is classified by three 16-entry
// tables, indexed by the high and low nibbles of the byte before it and the
// high nibble of the byte itself; every error bit that survives the AND of
// the three is an ill-formed pair. Third and fourth bytes of a sequence are
// checked by position (two or three bytes after a lead byte E0..FF).
namespace avx2 {

// Error classes of a byte pair (previous byte, this byte).
constexpr std::uint8_t too_short = 1 << 0;          // lead byte then ASCII or another lead
constexpr std::uint8_t too_long = 1 << 1;           // ASCII then a continuation byte
constexpr std::uint8_t overlong_3 = 1 << 2;         // E0 80..9F
constexpr std::uint8_t too_large = 1 << 3;          // F4 90..BF, or F5..FF then a continuation
constexpr std::uint8_t surrogate = 1 << 4;          // ED A0..BF
constexpr std::uint8_t overlong_2 = 1 << 5;         // C0..C1 then a continuation
constexpr std::uint8_t too_large_1000 = 1 << 6;     // F5..FF 80..8F
constexpr std::uint8_t overlong_4 = 1 << 6;         // F0 80..8F
constexpr std::uint8_t two_continuations = 1 << 7;  // a continuation then a continuation
constexpr std::uint8_t carry = too_short | too_long | two_continuations;

// The same sixteen entries in both lanes: vpshufb looks up within a lane.
__attribute__((target("avx2"))) inline __m256i table16(const std::array<std::uint8_t, 16>& entries) noexcept {
  __m128i lane;
  std::memcpy(&lane, entries.data(), sizeof lane);
  return _mm256_broadcastsi128_si256(lane);
}

// Trivially constructible (a constructor would need the target attribute);
// start() zeroes it.
struct checker {
  __m256i error;
  __m256i previous;             // the block before, for the pairs across blocks
  __m256i previous_incomplete;  // its last bytes started sequences it did not finish

  __attribute__((target("avx2"))) void start() noexcept {
    error = _mm256_setzero_si256();
    previous = _mm256_setzero_si256();
    previous_incomplete = _mm256_setzero_si256();
  }

  __attribute__((target("avx2"))) static __m256i high_nibbles(__m256i v) noexcept {
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
  }

  __attribute__((target("avx2"))) void add(__m256i input) noexcept {
    if (_mm256_movemask_epi8(input) == 0) {
      // All ASCII: fine unless the block before left a sequence open.
      error = _mm256_or_si256(error, previous_incomplete);
      previous_incomplete = _mm256_setzero_si256();
      previous = input;
      return;
    }
    // The 32 bytes shifted by one, two and three, the gap filled from the block before.
    const __m256i carried = _mm256_permute2x128_si256(previous, input, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(input, carried, 15);
    const __m256i prev2 = _mm256_alignr_epi8(input, carried, 14);
    const __m256i prev3 = _mm256_alignr_epi8(input, carried, 13);

    const __m256i byte_1_high = _mm256_shuffle_epi8(
        table16({too_long, too_long, too_long, too_long, too_long, too_long, too_long, too_long,  // 0_______
                 two_continuations, two_continuations, two_continuations, two_continuations,      // 10______
                 too_short | overlong_2,                                                          // 1100____
                 too_short,                                                                       // 1101____
                 too_short | overlong_3 | surrogate,                                              // 1110____
                 too_short | too_large | too_large_1000 | overlong_4}),                           // 1111____
        high_nibbles(prev1));
    const __m256i byte_1_low = _mm256_shuffle_epi8(
        table16({carry | overlong_3 | overlong_2 | overlong_4,  // ____0000
                 carry | overlong_2,                            // ____0001
                 carry, carry,                                  // ____001_
                 carry | too_large,                             // ____0100
                 carry | too_large | too_large_1000, carry | too_large | too_large_1000,
                 carry | too_large | too_large_1000, carry | too_large | too_large_1000,
                 carry | too_large | too_large_1000, carry | too_large | too_large_1000,
                 carry | too_large | too_large_1000, carry | too_large | too_large_1000,    // ____0101 .. ____1100
                 carry | too_large | too_large_1000 | surrogate,                            // ____1101
                 carry | too_large | too_large_1000, carry | too_large | too_large_1000}),  // ____111_
        _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)));
    const __m256i byte_2_high = _mm256_shuffle_epi8(
        table16({too_short, too_short, too_short, too_short, too_short, too_short, too_short, too_short,  // 0_______
                 too_long | overlong_2 | two_continuations | overlong_3 | too_large_1000 | overlong_4,    // 1000____
                 too_long | overlong_2 | two_continuations | overlong_3 | too_large,                      // 1001____
                 too_long | overlong_2 | two_continuations | surrogate | too_large,                       // 101_____
                 too_long | overlong_2 | two_continuations | surrogate | too_large, too_short, too_short, too_short,
                 too_short}),  // 11______
        high_nibbles(input));
    const __m256i special_cases = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);

    // A third or fourth byte must be a continuation: two_continuations is set
    // exactly where that is so, and must be set nowhere else.
    const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
    const __m256i must_continue =
        _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
    error = _mm256_or_si256(error, _mm256_xor_si256(must_continue, special_cases));

    follow(input);
  }

  // Makes `block` the one before the next add(), as if it had been added.
  __attribute__((target("avx2"))) void follow(__m256i block) noexcept {
    // A lead byte in the last three positions needs bytes from the next block.
    const __m256i max_complete = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, static_cast<char>(0xF0 - 1), static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
    previous_incomplete = _mm256_subs_epu8(block, max_complete);
    previous = block;
  }

  __attribute__((target("avx2"))) bool valid_at_end() const noexcept {
    const __m256i all = _mm256_or_si256(error, previous_incomplete);
    return _mm256_testz_si256(all, all) != 0;
  }
};

// One block is the public utf8::block_size, which the parser widens short checks to.
static_assert(block_size == sizeof(__m256i));

__attribute__((target("avx2"))) inline __m256i load(const char* at) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

// At least one block (is_valid below sends shorter input to the scalar check).
__attribute__((target("avx2"))) bool is_valid(std::string_view bytes) noexcept {
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

}  // namespace avx2

using validate_function = bool (*)(std::string_view) noexcept;

bool is_valid_first_call(std::string_view bytes) noexcept;

// The validator for inputs of a block or more on this CPU: the resolver
// replaces itself on the first call (constant-initialized, as in scan.cpp).
std::atomic<validate_function> chosen_is_valid{is_valid_first_call};

bool is_valid_first_call(std::string_view bytes) noexcept {
  __builtin_cpu_init();
  const validate_function chosen = __builtin_cpu_supports("avx2") ? avx2::is_valid : is_valid_scalar;
  chosen_is_valid.store(chosen, std::memory_order_relaxed);
  return chosen(bytes);
}
#endif

}  // namespace

bool is_valid(std::string_view bytes) noexcept {
#if defined(SSEC_UTF8_AVX2)
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
