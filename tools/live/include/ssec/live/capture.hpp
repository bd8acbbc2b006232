// SPDX-License-Identifier: MIT
// The capture format (tools/docs/capture-format.md, version 1): the raw bytes
// of a response with their arrival boundaries and times, plus the response's
// status and headers, so `check --file` and `run` can replay a live stream
// exactly as it arrived.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/result.hpp"

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

/// A file to check: read as a capture when it looks like one (its source
/// then "<path> (capture of <source>)"), else as the untimed bytes of a
/// stream (source `path`). With `max_bytes` > 0, the body is cut there and
/// the capture ends "max_bytes" (a sample): a raw stream is not read beyond
/// it; a capture is read whole, then cut.
result<capture> load_capture_or_stream(const std::string& path, std::uint64_t max_bytes = 0);

}  // namespace ssec::live
