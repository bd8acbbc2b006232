// SPDX-License-Identifier: MIT
// Base64 (RFC 4648, standard alphabet, padded) for the adapter protocol's chunks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssec {

/// Encodes `bytes` with padding.
std::string base64_encode(std::string_view bytes);

/// Appends the encoding of `bytes` (with padding) to `out`.
void base64_append(std::string& out, std::string_view bytes);

/// Decodes padded or unpadded standard base64; nullopt on any other character
/// or on a length no encoder produces. Whitespace is not accepted.
std::optional<std::string> base64_decode(std::string_view text);

/// Decodes as base64_decode does, appending the bytes to `out`; false, with
/// `out` as it was, where base64_decode gives nullopt. `out` reallocates only
/// when its capacity is short.
bool base64_decode_append(std::string_view text, std::vector<char>& out);

}  // namespace ssec
