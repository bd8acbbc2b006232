// SPDX-License-Identifier: MIT
// Error and diagnostic codes of the reference SSE parser and writer.
#pragma once

#include <cstdint>
#include <string_view>

namespace sse {

/// Status of a parser or writer call. The numbers are part of the public
/// contract (adapters and logs print them): append only, never renumber.
enum class errc : std::uint8_t {
  ok = 0,                    ///< No error.
  paused = 1,                ///< The visitor asked to pause; feed the rest of the chunk again to resume. Not an error.
  line_too_long = 2,         ///< Fatal: a line grew past limits::max_line bytes.
  event_too_large = 3,       ///< Fatal: an event's data grew past limits::max_event_data bytes.
  aborted = 4,               ///< Fatal: the visitor returned action::abort.
  finished = 5,              ///< Fatal: feed() or finish() called after finish() without reset().
  value_has_line_break = 6,  ///< Writer: a type, id or comment holds CR or LF, or data holds CR; it cannot be framed.
  id_has_nul = 7,            ///< Writer: an id holds U+0000, which every conforming parser ignores.
  invalid_utf8 = 8,          ///< Writer: a value is not valid UTF-8, so a parser would not read it back unchanged.
};

/// Stable snake_case name of a code ("line_too_long"); "unknown" for values
/// outside the enum.
std::string_view to_string(errc code) noexcept;

/// True for the codes that stop the parser until reset().
constexpr bool is_fatal(errc code) noexcept {
  return code == errc::line_too_long || code == errc::event_too_large || code == errc::aborted ||
         code == errc::finished;
}

/// Something the WHATWG rules tolerate (the parser goes on exactly as the
/// rules say) but that a conformance report wants to show. Append only.
enum class diag : std::uint8_t {
  unknown_field = 1,       ///< A field name other than data, event, id, retry; the line is ignored.
  invalid_retry = 2,       ///< A retry value that is empty or not all ASCII digits; ignored.
  retry_out_of_range = 3,  ///< A retry value of digits that does not fit in 64 bits; ignored.
  id_has_nul = 4,          ///< An id value holding U+0000; the field is ignored.
  invalid_utf8 = 5,        ///< Bytes that are not UTF-8; each maximal subpart became U+FFFD.
  discarded_at_eof = 6,    ///< finish() dropped an unterminated line or an undispatched event.
};

/// Stable snake_case name of a diagnostic code; "unknown" outside the enum.
std::string_view to_string(diag code) noexcept;

}  // namespace sse
