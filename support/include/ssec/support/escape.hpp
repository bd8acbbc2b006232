// SPDX-License-Identifier: MIT
// The one byte escaper: bytes as a string value of the case log syntax
// (conformance/README.md, "The event log"). Everything that shows bytes to a
// person uses it (the event log, case generation, producer findings, fuzz
// crash reports, test failures), so what a tool prints pastes into a case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssec {

/// The bytes escaped, without quotes: printable ASCII as is; `\"` `\\` `\n`
/// `\r` `\t` `\0`; other control characters and code points as `\uXXXX` or
/// `\UXXXXXXXX`; bytes that are not UTF-8 as `\xNN` (display only: the log
/// parser rejects them, a case carries such bytes as a `hex:` chunk).
std::string escape(std::string_view bytes);

/// A string value in log syntax: escape() in double quotes, with long
/// repetitions written as `"ab"*1000` pieces joined by ` + `.
std::string quote(std::string_view bytes);

/// quote() of at most the first `max_bytes` bytes (cut back to a UTF-8
/// character boundary), followed by "... (N more bytes)" when anything was
/// left out: for messages about values of any size.
std::string quote_clipped(std::string_view bytes, std::size_t max_bytes);

/// quote_clipped of a value of `total_size` bytes of which only the start,
/// `head`, is at hand (at least max_bytes + 1 of its bytes, or all of it):
/// the same text, counting the bytes left out of the whole value.
std::string quote_clipped(std::string_view head, std::size_t max_bytes, std::uint64_t total_size);

/// Text for one line of a terminal, a log or a CI annotation: printable
/// characters as they are (non-ASCII included, so names stay readable), and
/// escape()'s form for what a terminal would act on or a reader could not
/// see: control characters (C0 but not tab, DEL, C1: an ESC sequence cannot
/// recolour or retitle the terminal, a line feed cannot start a `::error::`
/// workflow command), U+2028/U+2029, the bidirectional overrides and
/// isolates (U+202A-U+202E, U+2066-U+2069), and bytes that are not UTF-8.
std::string printable(std::string_view text);

}  // namespace ssec
