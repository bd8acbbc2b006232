// SPDX-License-Identifier: MIT
// The oracle for check's unterminated_block (tools/live/src/check_internal.hpp),
// shared by its unit test and its fuzz harness (fuzz/sse_check_body_fuzzer.cc):
// the same answer found by brute force, a search for every separator, where
// the function under test makes one backward scan.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ssec::live::oracle {

/// Where the last block begins when `bytes` do not end on a blank line (the
/// end of the last separator of any kind, 0 if none), or nullopt when they
/// do or are empty.
inline std::optional<std::uint64_t> unterminated_by_search(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  for (const std::string_view end : {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n", "\r\n\n"}) {
    if (bytes.ends_with(end)) return std::nullopt;
  }
  std::size_t last = 0;
  for (const std::string_view separator : {"\n\n", "\r\n\r\n", "\r\r"}) {
    const auto at = bytes.rfind(separator);
    if (at != std::string_view::npos) last = std::max(last, at + separator.size());
  }
  return last;
}

}  // namespace ssec::live::oracle
