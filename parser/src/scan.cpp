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

}  // namespace sse::detail
