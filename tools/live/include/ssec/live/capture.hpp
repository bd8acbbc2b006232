// SPDX-License-Identifier: MIT
// The capture format (tools/docs/capture-format.md, version 1): the raw bytes
// of a response with their arrival boundaries and times, plus the response's
// status and headers, so `check --file` and `run` can replay a live stream
// exactly as it arrived.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/support/result.hpp"

namespace ssec::live {

/// One received piece: the bytes of one read, and when it arrived (seconds
/// since the request started).
struct piece {
  std::string bytes;
  double at_seconds = 0;
};

/// A response as received. `status` 0 means "no HTTP response" (a plain file
/// or standard input): the response checks are skipped for it.
struct capture {
  std::string source;                          ///< URL or file name, already redacted.
  long status = 0;                             ///< HTTP status, 0 when not HTTP.
  std::map<std::string, std::string> headers;  ///< Lower-cased names.
  std::vector<piece> pieces;                   ///< In arrival order.
  std::string end = "complete";                ///< ssec::http::to_string(stream_end), e.g. "reset".
  std::string error;                           ///< Transport error text, or empty.
  std::string redirect_url;                    ///< Where a 3xx pointed, or empty.
  std::string protocol;                        ///< "HTTP/1.1", "HTTP/2", ...; empty when not HTTP or unknown.
  double seconds_to_first_byte = -1;           ///< -1 when unknown / no byte.
  double seconds_total = 0;
  bool timed = true;  ///< False for an untimed input (a plain file): no timing checks.

  /// All pieces concatenated.
  std::string bytes() const;
  std::uint64_t size() const;
};

/// The capture as text: JSON Lines, a header line, one line per piece, an end line.
std::string write_capture(const capture& c);

/// True when `text` starts like a capture (its first line is the header).
bool looks_like_capture(std::string_view text) noexcept;

/// Reads a capture written by write_capture (or by hand, following the
/// format document). Unknown members are ignored (the format only gains
/// members); a missing end line means the capture was cut short and reads as
/// end "truncated". An error names `display` and the 1-based line.
result<capture> read_capture(std::string_view text, std::string_view display = {});

/// read_capture as the text arrives, line by line: only the line in
/// progress is held, and each piece is handed to `on_piece` once its line is
/// whole (without a sink, the pieces are kept in the capture finish() gives),
/// so a caller that streams the body never holds the capture. With
/// `max_bytes` > 0 the body stops there: the piece that crosses it is cut,
/// the capture ends "max_bytes" at that piece's time, and nothing more is
/// read; a line longer than a piece within the limit can be written is
/// refused, naming its line, before it is held whole.
class capture_reader {
 public:
  /// Takes each piece in order; false: read no further.
  using piece_sink = std::function<bool(piece&&)>;

  explicit capture_reader(std::string display, std::uint64_t max_bytes = 0, piece_sink on_piece = {});
  /// More of the text; false once no more is wanted (an error, the limit, or the sink).
  bool feed(std::string_view text);
  /// The capture (its pieces only without a sink), or the first error.
  result<capture> finish();
  /// The header line's members (source, status, headers, timed), once it was read.
  const capture* head() const noexcept { return have_head_ ? &c_ : nullptr; }

 private:
  bool take_line(std::string_view line);

  std::string display_;
  std::uint64_t max_bytes_;
  std::size_t max_line_;
  piece_sink on_piece_;
  capture c_;
  std::string line_;  // the line in progress
  std::size_t line_no_ = 0;
  bool have_head_ = false;
  bool have_end_ = false;
  bool stopped_ = false;  // the limit or the sink ended the reading
  double last_t_ = 0;
  std::uint64_t kept_ = 0;  // body bytes handed on
  std::optional<error> error_;
};

/// How reports name a capture read from `path`: "<path> (capture of <source>)".
std::string capture_name(std::string_view path, std::string_view source);

/// A file to check: read as a capture when it looks like one (its source
/// then "<path> (capture of <source>)"), else as the untimed bytes of a
/// stream (source `path`). With `max_bytes` > 0, the body is cut there and
/// the capture ends "max_bytes" (a sample): neither is read beyond it.
result<capture> load_capture_or_stream(const std::string& path, std::uint64_t max_bytes = 0);

}  // namespace ssec::live
