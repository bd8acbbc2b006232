// SPDX-License-Identifier: MIT
#include <cstring>

#include "sse/parser.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

line_scan scan_line(const char* p, const char* end) noexcept {
  const char* ascii_end = nullptr;  // set at the first byte >= 0x80
#if defined(__SSE2__)
  // The same sixteen-byte loads serve both questions: movemask of the block
  // itself gives the high bits.
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto eol_mask =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, cr), _mm_cmpeq_epi8(block, lf))));
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

}  // namespace sse::detail
