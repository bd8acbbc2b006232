// SPDX-License-Identifier: MIT
// The writer: events back into wire bytes that every conforming parser reads
// back unchanged (the round trip the tests and the round-trip fuzzer check).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sse/errc.hpp"
#include "sse/event.hpp"

namespace sse {

/// Serializes events of one stream. Stateful only in the id it last wrote, so
/// an `id:` line appears when, and only when, the last event ID changes.
/// Not thread-safe: one writer per stream.
class writer {
 public:
  /// Appends `e` as one block: `event:` unless the type is "message" (or
  /// empty), `id:` when the id differs from the last one written, one `data:`
  /// line per LF-separated piece of the data, then a blank line. Returns
  /// errc::ok, or value_has_line_break (CR or LF in the type or id, CR in the
  /// data), id_has_nul, or invalid_utf8; on error `out` is left unchanged.
  errc write_event(std::string& out, const event& e);

  /// Appends `text` as comment lines (one per LF-separated piece). Returns
  /// errc::ok, value_has_line_break for a CR, or invalid_utf8.
  errc write_comment(std::string& out, std::string_view text) const;

  /// Appends `retry: <ms>` followed by a blank line, which dispatches nothing.
  void write_retry(std::string& out, std::uint64_t ms) const;

  /// The id the stream carries after what was written so far.
  std::string_view last_event_id() const noexcept { return last_id_; }

 private:
  std::string last_id_;
};

}  // namespace sse
