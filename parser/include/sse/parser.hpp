// SPDX-License-Identifier: MIT
// The reference Server-Sent Events wire parser: an incremental push parser that
// follows the WHATWG HTML rules for interpreting an event stream, exactly.
// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sse/errc.hpp"
#include "sse/utf8.hpp"

namespace sse {

/// What a visitor callback asks the parser to do next.
enum class action : std::uint8_t {
  proceed = 0,  ///< Go on parsing.
  pause = 1,    ///< Return from feed() right after the current line; feed the rest to resume.
  abort = 2,    ///< Stop with the fatal errc::aborted until reset().
};

/// Memory bounds. Both are fatal when exceeded, so a parser never holds more
/// than about max_line + max_event_data bytes (plus a value repaired to U+FFFD).
struct limits {
  /// Longest line, in raw bytes without its terminator. The default admits the
  /// multi-megabyte frames that real LLM backends send (whole files, images).
  std::size_t max_line = std::size_t{32} << 20;
  /// Largest data buffer of one event (the values of its data lines, each
  /// followed by LF), in bytes after UTF-8 repair.
  std::size_t max_event_data = std::size_t{64} << 20;
};

/// One dispatched event. NOTE lifetime: every view is valid only during the
/// on_event callback; copy what you keep (sse::event does).
struct event_view {
  std::string_view type;           ///< The event type; "message" when the block set none.
  std::string_view data;           ///< The data buffer without its final LF. Valid UTF-8.
  std::string_view last_event_id;  ///< The last event ID string at dispatch. Valid UTF-8.
  std::uint64_t offset;            ///< Stream offset of the first byte of the event's block.
};

/// A tolerated oddity; see sse::diag. The detail view lives only during the call.
struct diagnostic {
  diag code;
  std::uint64_t offset;     ///< Stream offset of the line (or byte) it concerns.
  std::string_view detail;  ///< The field name, the rejected value, or empty.
};

/// The one hook a visitor must have. The others are optional and found by
/// name: `void on_retry(std::uint64_t ms)`, `void on_comment(std::string_view
/// text, std::uint64_t offset)` (text is UTF-8-repaired, after the colon, with
/// nothing stripped), `void on_diagnostic(const diagnostic&)` and `void
/// on_no_dispatch(std::uint64_t offset, bool had_fields)`: a blank line found
/// the data buffer empty, so step 2 of "dispatch the event" dispatched
/// nothing; `offset` is the first field line of that block when it had one
/// (`had_fields`: an `event`, `id`, `retry` or unknown field without `data`),
/// else the blank line itself (a blank line after nothing or comments only).
/// A visitor must not call back into the parser that is calling it.
template <class V>
concept visitor = requires(V& v, const event_view& e) {
  { v.on_event(e) } -> std::same_as<action>;
};

/// Result of feed() and finish().
struct feed_result {
  std::size_t consumed;  ///< Bytes of this chunk taken: all of it unless paused or fatal.
  errc status;           ///< ok, paused, or the sticky fatal code.
};

namespace detail {
/// First CR or LF in [p, end), or end. SSE2 where available.
const char* find_line_end(const char* p, const char* end) noexcept;

/// A line end found and, in the same pass, how far its bytes need no UTF-8
/// check. (Two pointers: small enough to come back in registers.)
struct line_scan {
  const char* eol;  ///< First CR or LF in [p, end), or end.
  /// [p, ascii_end) needs no UTF-8 check. Either ascii_end is the first byte
  /// >= 0x80 before eol (or eol when there is none), and [p, ascii_end) is
  /// ASCII; or ascii_end == eol < end and the whole line [p, eol) was found
  /// to be well-formed UTF-8 as it was scanned.
  const char* ascii_end;
};
/// find_line_end that also finds how much of the line needs no UTF-8 check,
/// so validation skips pure-ASCII lines (most of a typical stream), the
/// ASCII head of the others, and the lines the scan checked itself. AVX2
/// when the CPU has it (which checks a line from its first high byte in the
/// blocks it loads), else SSE2, else bytewise.
line_scan scan_line(const char* p, const char* end) noexcept;
}  // namespace detail

/// Incremental parser. Feed any chunking of a stream; the events, retries,
/// comments and diagnostics are the same whatever the chunk boundaries.
/// Work is linear in the bytes fed: no byte is scanned twice for a line end,
/// and a line that spans chunks is appended to one buffer once.
/// Not thread-safe: one parser per stream.
template <visitor Visitor>
class parser {
 public:
  explicit parser(Visitor& v, limits lim = {}) : visitor_(&v), limits_(lim) {}

  /// Parses `chunk`. NOTE lifetime: keeps no pointer into `chunk` after it
  /// returns. Returns the bytes consumed and errc::ok, errc::paused (resume by
  /// feeding chunk.substr(consumed)), or a fatal code (line_too_long,
  /// event_too_large, aborted, finished) that every later call repeats until
  /// reset(), consuming nothing. error_offset() says where it struck, the
  /// same whatever the chunking: line_too_long at the line's start +
  /// limits::max_line (consumed then stops at that byte, or at the chunk's
  /// end if the byte lies beyond it); event_too_large at the start of the data
  /// line that overflowed; aborted at the start of the aborted event's block
  /// (consumed includes the dispatching line).
  feed_result feed(std::string_view chunk);

  /// Ends the stream: an unterminated line and an undispatched event are
  /// discarded, as the rules say, and reported as diag::discarded_at_eof.
  /// Returns errc::ok or the sticky fatal code.
  errc finish();

  /// Starts a new stream on the same parser (a reconnect): buffers, BOM state,
  /// offsets and any fatal error are cleared; the last event ID string and
  /// the reconnection time are kept, as an EventSource keeps them (send the
  /// former as Last-Event-ID). The new stream's last event ID buffer starts
  /// empty, as the rules say of every parsed stream, so its first dispatch
  /// without an `id` field sets the string to "" (spec/DECISIONS.md,
  /// reset-id-buffer).
  void reset() noexcept;

  /// The last event ID string: the id committed by the latest blank line.
  std::string_view last_event_id() const noexcept { return last_event_id_; }
  /// The reconnection time set by the latest valid retry field, if any.
  std::optional<std::uint64_t> retry() const noexcept { return retry_; }
  /// The sticky fatal code, or errc::ok.
  errc error() const noexcept { return error_; }
  /// Stream offset where the fatal error struck (meaningful when error() != ok).
  std::uint64_t error_offset() const noexcept { return error_offset_; }
  /// Bytes fed and consumed since the stream began.
  std::uint64_t offset() const noexcept { return offset_; }
  /// Stream offset of the first byte a later event can still come from: the
  /// first field line of the block in progress, else the start of a line not
  /// yet ended, else offset(). What a caller keeps of the stream for the
  /// blocks still to come (each event's offset is its block's start) starts
  /// here; 0 while a BOM may still be arriving.
  std::uint64_t pending_offset() const noexcept {
    if (!bom_done_) return 0;
    if (block_started_) return block_offset_;
    return line_.empty() ? offset_ : line_offset_;
  }

 private:
  enum class data_state : std::uint8_t { empty, view, owned };

  bool fail(errc code, std::uint64_t at) noexcept {
    error_ = code;
    error_offset_ = at;
    return false;
  }

  void report(diag code, std::uint64_t at, std::string_view detail) {
    if constexpr (requires(Visitor & v, const diagnostic& d) { v.on_diagnostic(d); }) {
      visitor_->on_diagnostic(diagnostic{code, at, detail});
    }
  }

  // What the line scan found of a value that runs to its line's end: its
  // first `prefix` bytes are ASCII, and so are the `before` bytes of the line
  // just before it; or, when `prefix` covers the whole value, the value needs
  // no check at all (the scan found its line well formed).
  struct known_ascii {
    std::size_t prefix = 0;
    std::size_t before = 0;
  };

  // Returns `raw` when it is valid UTF-8, else its repair in scratch_. The
  // bytes `known` says are ASCII are not checked again, except that a short
  // rest is widened back over them to one vector block of the check (ASCII
  // before a sequence does not change whether it is valid): per line, that
  // is one branch-free block instead of the byte-by-byte check.
  std::string_view repaired(std::string_view raw, std::uint64_t at, known_ascii known = {}) {
    if (known.prefix >= raw.size()) return raw;
    std::string_view unchecked = raw.substr(known.prefix);
    if (unchecked.size() < utf8::block_size && raw.size() + known.before >= utf8::block_size) {
      unchecked = std::string_view(raw.data() + raw.size() - utf8::block_size, utf8::block_size);
    }
    if (utf8::is_valid(unchecked)) return raw;
    scratch_.clear();
    utf8::append_repaired(scratch_, raw);
    report(diag::invalid_utf8, at, raw);
    return scratch_;
  }

  bool process_line(std::string_view line, std::uint64_t at, bool line_outlives_call, std::size_t ascii_prefix);
  bool append_data(std::string_view raw, std::uint64_t at, bool line_outlives_call, known_ascii known);
  bool dispatch(std::uint64_t blank_at);
  void own_data();

  Visitor* visitor_;
  limits limits_;

  std::string line_;  // the unterminated line carried over from earlier chunks
  std::uint64_t line_offset_ = 0;
  std::size_t line_ascii_prefix_ = 0;  // leading bytes of line_ that need no UTF-8 check (line_scan::ascii_end)
  bool skip_lf_ = false;               // the previous chunk ended in CR: a leading LF belongs to it
  std::uint8_t bom_matched_ = 0;
  bool bom_done_ = false;

  data_state data_state_ = data_state::empty;
  std::string_view data_view_;  // data_state::view: the one data value, in the current chunk
  std::string data_;            // data_state::owned: values, each followed by LF
  std::size_t data_size_ = 0;   // logical data buffer size, LFs included
  std::string event_type_;
  std::string id_buffer_;
  bool id_dirty_ = false;
  std::string last_event_id_;
  std::uint64_t block_offset_ = 0;
  bool block_started_ = false;
  std::optional<std::uint64_t> retry_;
  std::string scratch_;

  std::uint64_t offset_ = 0;
  errc error_ = errc::ok;
  std::uint64_t error_offset_ = 0;
  bool finished_ = false;
  bool pause_requested_ = false;
};

}  // namespace sse

// The member definitions: templates, so they live in a header, but apart
// from the declarations above, which are the contract.
#include "sse/detail/parser_impl.hpp"  // IWYU pragma: export
