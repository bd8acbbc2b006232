// SPDX-License-Identifier: MIT
// The AVX2 UTF-8 checker, shared by the validator (utf8.cpp) and the line
// scan (scan.cpp), which checks a short line in the blocks it has already
// loaded. Private to the parser library.
#pragma once

// On x86-64 with GCC or Clang, AVX2 code is compiled beside the baseline code
// and picked at run time, so the library stays baseline x86-64. This is the
// one place that says where.
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define SSEC_PARSER_AVX2 1

#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "sse/utf8.hpp"

// Thirty-two bytes per step, whatever their mix of ASCII and not, after the
// "lookup" method of Keiser and Lemire ("Validating UTF-8 in less than one
// instruction per byte", 2021). Each byte is classified by three 16-entry
// tables, indexed by the high and low nibbles of the byte before it and the
// high nibble of the byte itself; every error bit that survives the AND of
// the three is an ill-formed pair. Third and fourth bytes of a sequence are
// checked by position (two or three bytes after a lead byte E0..FF).
namespace sse::utf8::avx2 {

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

__attribute__((target("avx2"))) inline __m256i load(const char* at) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
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
    add_any(input);
  }

  // add() without its shortcut for an all-ASCII block: the same result, and
  // no branch, for a caller whose blocks are mixed or whose mix is unknown.
  __attribute__((target("avx2"))) void add_any(__m256i input) noexcept {
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

  // Adds the first `length` (< 64) of the 64 bytes `low`, `high` and NUL for
  // the rest, so a sequence cut at `length` is an error, as at the end of any
  // input. No branch: the line scan adds the blocks where it found a line's end.
  __attribute__((target("avx2"))) void add_prefix(__m256i low, __m256i high, unsigned length) noexcept {
    // 0xFF where a byte is kept: the mask of the first `length` bytes starts
    // `length` bytes before the end of the run of 0xFF.
    alignas(64) static constexpr std::array<char, 128> keep = [] {
      std::array<char, 128> bytes{};
      for (std::size_t i = 0; i < 64; ++i) bytes[i] = static_cast<char>(0xFF);
      return bytes;
    }();
    add_any(_mm256_and_si256(low, load(keep.data() + 64 - length)));
    add_any(_mm256_and_si256(high, load(keep.data() + 96 - length)));
  }

  __attribute__((target("avx2"))) bool valid_at_end() const noexcept {
    const __m256i all = _mm256_or_si256(error, previous_incomplete);
    return _mm256_testz_si256(all, all) != 0;
  }
};

// One block is the public utf8::block_size, which the parser widens short checks to.
static_assert(block_size == sizeof(__m256i));

}  // namespace sse::utf8::avx2

#endif
