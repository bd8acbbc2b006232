// SPDX-License-Identifier: MIT
// The event log: the implementation-neutral expected output of a conformance
// case, one line per observable, and the one comparison that both the
// GoogleTest runner (against the reference) and the harness (against external
// adapters) use. The grammar is documented in conformance/README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sse/errc.hpp"
#include "sse/event.hpp"
#include "sse/recording.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// `event type="..." data="..." last_id="..."`: one dispatched event.
struct log_event {
  sse::event event;
  friend bool operator==(const log_event&, const log_event&) = default;
};

/// `retry 3000`: a valid retry field set the reconnection time.
struct log_retry {
  std::uint64_t milliseconds = 0;
  friend bool operator==(const log_retry&, const log_retry&) = default;
};

/// `comment " text"`: a comment line, the text after the colon (reference only).
struct log_comment {
  std::string text;
  friend bool operator==(const log_comment&, const log_comment&) = default;
};

/// `diag unknown_field off=12`: a tolerated oddity the reference reports (reference only).
struct log_diag {
  sse::diag code{};
  std::uint64_t offset = 0;
  friend bool operator==(const log_diag&, const log_diag&) = default;
};

/// `error line_too_long off=16`: the reference's fatal status (reference only).
struct log_error {
  sse::errc code{};
  std::uint64_t offset = 0;
  friend bool operator==(const log_error&, const log_error&) = default;
};

/// `rejected`: an external implementation rejected the stream. Never written
/// in case files; the external view of an expected `error` line. Any two
/// rejections compare equal (the reason is kept for the report only).
struct log_rejected {
  std::string reason;
  friend bool operator==(const log_rejected&, const log_rejected&) { return true; }
};

/// `last_id "7"`: the last event ID string when the stream ended (reference only).
struct log_last_id {
  std::string id;
  friend bool operator==(const log_last_id&, const log_last_id&) = default;
};

using log_line = std::variant<log_event, log_retry, log_comment, log_diag, log_error, log_rejected, log_last_id>;
using event_log = std::vector<log_line>;

/// A log read from text, with the 0-based text line of every entry (for
/// file:line in messages).
struct parsed_log {
  event_log lines;
  std::vector<std::size_t> text_lines;
  std::uint64_t bytes = 0;  ///< Bytes of the values read, repeats multiplied (what the log built).
};

/// Parses the log grammar of conformance/README.md ("The event log"). Blank
/// lines and lines starting with `#` are skipped. Also checks the shape: at
/// most one `error` (followed by nothing but `last_id`), at most one
/// `last_id` (the last line). `rejected` is not accepted: it is not written.
/// On failure the error has no file, and its 1-based line and column within
/// `text` (the column counts bytes, leading spaces included). The values of
/// all lines together build at most `max_bytes` (repeats multiplied),
/// checked before each repeat is built: "the log's values would build more
/// than N" at the value that would cross it.
ssec::result<parsed_log> parse_log(std::string_view text, std::uint64_t max_bytes = std::uint64_t{256} << 20);

/// A string value in log syntax (ssec/support/escape.hpp, the one escaper).
using ssec::quote;

/// One line in canonical form (what parse_log reads back to the same value).
std::string format_line(const log_line& line);

/// The lines joined by LF, each prefixed by `indent`.
std::string format_log(const event_log& log, std::string_view indent = "");

// --- The two views a case is compared in -----------------------------------

/// What an external implementation answers under adapter protocol version 1:
/// the events and the final reconnection time, or a rejection.
struct external_result {
  std::vector<sse::event> events;
  std::optional<std::uint64_t> retry;  ///< The reconnection time the stream last set, if any.
  std::optional<std::string> error;    ///< Set when the implementation rejected the stream.
};

/// The reference's full recording as a log: events, retries, comments,
/// diagnostics, the fatal error if any, and the final last event ID, in that
/// order (sse::recording keeps one sequence per kind; see compare_logs).
event_log reference_log(const sse::recording& rec);

/// An external answer as a log: its events then `retry N` for the final
/// reconnection time; or just `rejected` when it rejected the stream.
event_log external_log(const external_result& result);

/// The expected log as the reference must reproduce it: the case's lines, and
/// when no `last_id` line is written, the implied one (the last event's
/// last_id, or "" when there is no event).
event_log reference_view(const event_log& expected);

/// The expected log as an external implementation must reproduce it: the
/// events then one `retry` line with the last retry value (if any); when the
/// case expects a fatal `error`, just `rejected`.
event_log external_view(const event_log& expected);

/// Where two logs first differ.
struct log_difference {
  std::size_t index = 0;      ///< 0-based line of the arranged logs.
  std::string expected_line;  ///< Canonical line, or "(end of log)".
  std::string got_line;       ///< Canonical line, or "(end of log)".
  std::string detail;         ///< For two events: which member differs and where; may be empty.
  event_log got_arranged;     ///< The got log in the expected log's order, for display.
};

/// Compares two logs kind by kind: the events must match in order, and so
/// must the retries, the comments, the diagnostics, the error and the final
/// last_id; how lines of different kinds interleave is not compared (no
/// recording keeps it). The got lines are arranged in the expected log's
/// interleaving, so that when the logs agree they are identical line by line
/// and when they differ the first differing line is meaningful.
/// Returns nullopt when they agree.
std::optional<log_difference> compare_logs(const event_log& expected, const event_log& got);

/// compare_logs(reference_view(expected), reference_log(rec)).
std::optional<log_difference> compare_reference(const event_log& expected, const sse::recording& rec);

/// compare_logs(external_view(expected), external_log(result)).
std::optional<log_difference> compare_external(const event_log& expected, const external_result& result);

/// A difference as text: the first differing line expected vs got, the
/// detail, then both logs (a window around the difference when they are long).
std::string describe(const log_difference& diff, const event_log& expected_view);

}  // namespace ssec::conformance
