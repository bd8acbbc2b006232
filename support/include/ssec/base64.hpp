// SPDX-License-Identifier: MIT
// Base64 (RFC 4648, standard alphabet, padded) for the adapter protocol's chunks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ssec {

/// Encodes `bytes` with padding.
std::string base64_encode(std::string_view bytes);

/// Decodes padded or unpadded standard base64; nullopt on any other character
/// or on a length no encoder produces. Whitespace is not accepted.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace ssec
