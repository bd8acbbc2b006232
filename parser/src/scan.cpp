// SPDX-License-Identifier: MIT
#include <atomic>
#include <cstdint>
#include <cstring>

#include "sse/parser.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "utf8_avx2.hpp"

namespace sse::detail {

const char* find_line_end(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
  // Sixteen bytes per step: compare against CR and LF at once.
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, cr), _mm_cmpeq_epi8(block, lf)));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && *p != '\r' && *p != '\n') ++p;
  return p;
}

namespace {

// Line ends and the first high byte from `p` on, [start of line, p) having
// held no line end and its first byte >= 0x80, if any, at `ascii_end`
// (nullptr: none). Sixteen bytes per step with SSE2.
inline line_scan scan_line_rest(const char* p, const char* end, const char* ascii_end) noexcept {
#if defined(__SSE2__)
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto eol_mask =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, cr), _mm_cmpeq_epi8(block, lf))));
    // movemask of the block itself gives the high bits: one load serves both.
    const auto high_mask = static_cast<unsigned>(_mm_movemask_epi8(block));
    if (eol_mask != 0) {
      const int at = __builtin_ctz(eol_mask);
      const unsigned high_before_eol = high_mask & ((1u << at) - 1u);
      if (ascii_end == nullptr && high_before_eol != 0) ascii_end = p + __builtin_ctz(high_before_eol);
      return {p + at, ascii_end != nullptr ? ascii_end : p + at};
    }
    if (ascii_end == nullptr && high_mask != 0) ascii_end = p + __builtin_ctz(high_mask);
    p += 16;
  }
#endif
  for (; p < end && *p != '\r' && *p != '\n'; ++p) {
    if (ascii_end == nullptr && static_cast<unsigned char>(*p) >= 0x80) ascii_end = p;
  }
  return {p, ascii_end != nullptr ? ascii_end : p};
}

#if defined(SSEC_PARSER_AVX2)
// Sixty-four bytes per step, as two 32-byte blocks whose masks are joined
// before any branch: a line of 32-63 bytes (most multi-line data) takes one
// predictable branch instead of a loop exit that mispredicts on its length.
// The last bytes go through the SSE2 loop.
//
// From its first block with a high byte on, a line is also checked for UTF-8
// here, in the blocks already loaded: when it ends within the 64-byte steps
// and is well formed, ascii_end is its end, and the parser checks none of its
// values again (a short line with a high byte, as in the data lines of a
// multi-line event in most languages, cost a call to the validator each).
__attribute__((target("avx2"))) line_scan scan_line_avx2(const char* p, const char* end) noexcept {
  const char* ascii_end = nullptr;
  const __m256i cr = _mm256_set1_epi8('\r');
  const __m256i lf = _mm256_set1_epi8('\n');
  const auto eol_mask = [&](__m256i block) __attribute__((target("avx2"))) {
    return static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(block, cr), _mm256_cmpeq_epi8(block, lf))));
  };
  const auto high_mask = [](__m256i block) __attribute__((target("avx2"))) {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(block));
  };
  utf8::avx2::checker check;  // started at the line's first high byte
  while (end - p >= 64) {
    const __m256i low = utf8::avx2::load(p);
    const __m256i high = utf8::avx2::load(p + 32);
    const std::uint64_t eol = eol_mask(low) | std::uint64_t{eol_mask(high)} << 32;
    const std::uint64_t high_bytes = high_mask(low) | std::uint64_t{high_mask(high)} << 32;
    if (eol != 0) {
      const int at = __builtin_ctzll(eol);
      const std::uint64_t high_before_eol = high_bytes & ((std::uint64_t{1} << at) - 1u);  // at <= 63: a defined shift
      if (ascii_end == nullptr) {
        if (high_before_eol == 0) return {p + at, p + at};
        ascii_end = p + __builtin_ctzll(high_before_eol);
        check.start();
      }
      check.add_prefix(low, high, static_cast<unsigned>(at));
      return {p + at, check.valid_at_end() ? p + at : ascii_end};
    }
    if (ascii_end == nullptr) {
      if (high_bytes == 0) {
        p += 64;
        continue;
      }
      ascii_end = p + __builtin_ctzll(high_bytes);
      check.start();
    }
    check.add(low);
    check.add(high);
    p += 64;
  }
  // Fewer than 64 bytes left in the chunk: the line end, if any, and the
  // first high byte, without the check.
  if (end - p >= 32) {
    const __m256i block = utf8::avx2::load(p);
    const std::uint32_t eol = eol_mask(block);
    const std::uint32_t high = high_mask(block);
    if (eol != 0) {
      const int at = __builtin_ctz(eol);
      const std::uint32_t high_before_eol = high & ((1u << at) - 1u);
      if (ascii_end == nullptr && high_before_eol != 0) ascii_end = p + __builtin_ctz(high_before_eol);
      return {p + at, ascii_end != nullptr ? ascii_end : p + at};
    }
    if (ascii_end == nullptr && high != 0) ascii_end = p + __builtin_ctz(high);
    p += 32;
  }
  return scan_line_rest(p, end, ascii_end);
}
#endif

line_scan scan_line_baseline(const char* p, const char* end) noexcept { return scan_line_rest(p, end, nullptr); }

using scan_function = line_scan (*)(const char*, const char*) noexcept;

line_scan scan_line_first_call(const char* p, const char* end) noexcept;

// The implementation for this CPU. It starts as the resolver below, which
// replaces itself on the first call: constant-initialized, so a static
// initializer elsewhere may call scan_line() before this file's own run, and
// the pointer written is the same whichever thread writes it first.
std::atomic<scan_function> chosen_scan_line{scan_line_first_call};

line_scan scan_line_first_call(const char* p, const char* end) noexcept {
  scan_function chosen = scan_line_baseline;
#if defined(SSEC_PARSER_AVX2)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) chosen = scan_line_avx2;
#endif
  chosen_scan_line.store(chosen, std::memory_order_relaxed);
  return chosen(p, end);
}

}  // namespace

line_scan scan_line(const char* p, const char* end) noexcept {
  // A short span (a tiny chunk, a chunk's last bytes) is not worth a vector
  // loop's set-up: with one-byte chunks, this is every call.
  if (end - p < 16) return scan_line_rest(p, end, nullptr);
  return chosen_scan_line.load(std::memory_order_relaxed)(p, end);
}

}  // namespace sse::detail
