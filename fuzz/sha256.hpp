// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4), only to name corpus files after their content.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssec::fuzz {

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace ssec::fuzz
