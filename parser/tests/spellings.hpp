// SPDX-License-Identifier: MIT
// Readable spellings the wire parser's rule tests share (parser_test.cpp,
// parser_lifecycle_test.cpp): the multi-byte characters their inputs use and
// the expectations they write most.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "harness.hpp"

// A string literal must be closed after a \x escape when a hex digit follows.
#define U_FFFD "\xEF\xBF\xBD"  // REPLACEMENT CHARACTER
#define U_FEFF "\xEF\xBB\xBF"  // ZERO WIDTH NO-BREAK SPACE, the BOM

namespace sse_test {

/// An event of the default type "message" dispatched at `offset`.
inline event_record message(std::string data, std::uint64_t offset, std::string id = "") {
  return {"message", std::move(data), std::move(id), offset};
}

/// The diagnostic for an unfinished block dropped at the end of the stream.
inline diag_record discarded(std::uint64_t offset, std::string partial_line = "") {
  return {sse::diag::discarded_at_eof, offset, std::move(partial_line)};
}

/// `s` written `n` times.
inline std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace sse_test
