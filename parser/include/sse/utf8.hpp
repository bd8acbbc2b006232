// SPDX-License-Identifier: MIT
// UTF-8 checking and WHATWG-exact repair, used by the parser on every value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sse::utf8 {

/// True when `bytes` is well-formed UTF-8 (no surrogates, no overlongs, no
/// code point above U+10FFFF). Pure ASCII takes a word-at-a-time fast path.
bool is_valid(std::string_view bytes) noexcept;

/// Inputs of at least this many bytes are checked a vector block at a time
/// where the CPU allows; shorter ones byte by byte.
inline constexpr std::size_t block_size = 32;

/// Appends `bytes` to `out`, replacing each maximal subpart of an ill-formed
/// sequence with U+FFFD, exactly as the WHATWG Encoding standard's UTF-8
/// decoder does (https://encoding.spec.whatwg.org/#utf-8-decoder). An
/// incomplete sequence at the end of `bytes` is replaced too: callers pass
/// whole values, and a value never continues past a line end.
/// Returns the number of U+FFFD characters written for ill-formed input.
std::size_t append_repaired(std::string& out, std::string_view bytes);

}  // namespace sse::utf8
