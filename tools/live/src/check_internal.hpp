// SPDX-License-Identifier: MIT
// Helpers the check engine's files share (check_analysis.cpp, resume.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ssec/live/check.hpp"

namespace ssec::live::detail {

std::string lower(std::string s);

/// Offset of the start of the unterminated last block, or nullopt when the
/// bytes end on a frame boundary (a blank line) or are empty.
std::optional<std::uint64_t> unterminated_block(std::string_view bytes);

/// Adds a finding and counts it as must or should.
void add(check_report& r, check_finding f);

}  // namespace ssec::live::detail
