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
/// nothing stripped) and `void on_diagnostic(const diagnostic&)`. A visitor
/// must not call back into the parser that is calling it.
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

/// A line end found and, in the same pass, how far its bytes are ASCII.
/// (Two pointers: small enough to come back in registers.)
struct line_scan {
  const char* eol;        ///< First CR or LF in [p, end), or end.
  const char* ascii_end;  ///< First byte >= 0x80 before eol, or eol: [p, ascii_end) is ASCII.
};
/// find_line_end that also finds the first non-ASCII byte, so UTF-8
/// validation skips pure-ASCII lines (most of a typical stream) and the ASCII
/// head of the others. AVX2 when the CPU has it, else SSE2, else bytewise.
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

 private:
  enum class data_state : std::uint8_t { empty, view, owned };

  bool fail(errc code, std::uint64_t at) noexcept {
    error_ = code;
    error_offset_ = at;
    return false;
  }

  void report(diag code, std::uint64_t at, std::string_view detail) {
    if constexpr (requires(Visitor& v, const diagnostic& d) { v.on_diagnostic(d); }) {
      visitor_->on_diagnostic(diagnostic{code, at, detail});
    }
  }

  // Returns `raw` when it is valid UTF-8, else its repair in scratch_. The
  // first `ascii_prefix` bytes are known to be ASCII and are not checked again.
  std::string_view repaired(std::string_view raw, std::uint64_t at, std::size_t ascii_prefix = 0) {
    if (ascii_prefix >= raw.size() || utf8::is_valid(raw.substr(ascii_prefix))) return raw;
    scratch_.clear();
    utf8::append_repaired(scratch_, raw);
    report(diag::invalid_utf8, at, raw);
    return scratch_;
  }

  bool process_line(std::string_view line, std::uint64_t at, bool line_outlives_call, std::size_t ascii_prefix);
  bool append_data(std::string_view raw, std::uint64_t at, bool line_outlives_call, std::size_t ascii_prefix);
  bool dispatch();
  void own_data();

  Visitor* visitor_;
  limits limits_;

  std::string line_;  // the unterminated line carried over from earlier chunks
  std::uint64_t line_offset_ = 0;
  std::size_t line_ascii_prefix_ = 0;  // leading bytes of line_ known to be ASCII
  bool skip_lf_ = false;  // the previous chunk ended in CR: a leading LF belongs to it
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

// ---------------------------------------------------------------------------
// Implementation.

template <visitor Visitor>
feed_result parser<Visitor>::feed(std::string_view chunk) {
  if (finished_ && error_ == errc::ok) fail(errc::finished, offset_);
  if (error_ != errc::ok) return {0, error_};
  const char* const begin = chunk.data();
  const char* const end = begin + chunk.size();
  const char* p = begin;
  const auto at = [&](const char* q) { return offset_ + static_cast<std::uint64_t>(q - begin); };
  // Every exit goes through here, so no view into `chunk` survives the call.
  const auto leave = [&](const char* q, errc status) -> feed_result {
    own_data();
    offset_ += static_cast<std::uint64_t>(q - begin);
    return {static_cast<std::size_t>(q - begin), status};
  };

  // One leading BOM is stripped, and only at stream start; it may arrive split.
  // https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
  if (!bom_done_) {
    static constexpr char bom[] = "\xEF\xBB\xBF";
    while (p < end && bom_matched_ < 3 && *p == bom[bom_matched_]) {
      ++p;
      ++bom_matched_;
    }
    if (bom_matched_ == 3) {
      bom_done_ = true;
    } else if (p < end) {
      // Not a BOM after all: the bytes held back start the first line.
      line_.assign(bom, bom_matched_);
      line_offset_ = 0;
      line_ascii_prefix_ = 0;
      bom_done_ = true;
    } else {
      return leave(p, errc::ok);
    }
  }

  if (skip_lf_ && p < end) {
    skip_lf_ = false;
    if (*p == '\n') ++p;
  }

  // Finish a line begun in an earlier chunk; scan only the new bytes.
  if (!line_.empty()) {
    const detail::line_scan scan = detail::scan_line(p, end);
    const char* eol = scan.eol;
    const std::size_t room = limits_.max_line - line_.size();
    if (static_cast<std::size_t>(eol - p) > room) {
      fail(errc::line_too_long, line_offset_ + limits_.max_line);
      return leave(p + room, error_);
    }
    if (line_ascii_prefix_ == line_.size()) line_ascii_prefix_ += static_cast<std::size_t>(scan.ascii_end - p);
    line_.append(p, static_cast<std::size_t>(eol - p));
    if (eol == end) return leave(end, errc::ok);
    const bool ok = process_line(line_, line_offset_, false, line_ascii_prefix_);
    line_.clear();
    p = eol + 1;
    if (*eol == '\r') {
      if (p == end) skip_lf_ = true;
      else if (*p == '\n') ++p;
    }
    if (!ok) return leave(p, error_);
    if (pause_requested_) {
      pause_requested_ = false;
      return leave(p, errc::paused);
    }
  }

  // Lines wholly inside this chunk: zero copies.
  while (p < end) {
    // A blank line (every other line of a typical stream) needs no scan.
    const bool blank = *p == '\n' || *p == '\r';
    const detail::line_scan scan = blank ? detail::line_scan{p, p} : detail::scan_line(p, end);
    const char* eol = scan.eol;
    if (static_cast<std::size_t>(eol - p) > limits_.max_line) {
      fail(errc::line_too_long, at(p) + limits_.max_line);
      return leave(p + limits_.max_line, error_);
    }
    const auto ascii_prefix = static_cast<std::size_t>(scan.ascii_end - p);
    if (eol == end) {
      line_offset_ = at(p);
      line_ascii_prefix_ = ascii_prefix;
      line_.assign(p, static_cast<std::size_t>(end - p));
      return leave(end, errc::ok);
    }
    const std::string_view line(p, static_cast<std::size_t>(eol - p));
    const bool ok = blank ? dispatch() : process_line(line, at(p), true, ascii_prefix);
    p = eol + 1;
    if (*eol == '\r') {
      if (p == end) skip_lf_ = true;
      else if (*p == '\n') ++p;
    }
    if (!ok) return leave(p, error_);
    if (pause_requested_) {
      pause_requested_ = false;
      return leave(p, errc::paused);
    }
  }
  return leave(end, errc::ok);
}

template <visitor Visitor>
errc parser<Visitor>::finish() {
  if (finished_ && error_ == errc::ok) fail(errc::finished, offset_);
  if (error_ != errc::ok) return error_;
  finished_ = true;
  // "If the file ends in the middle of an event, before the final empty line,
  // the incomplete event is not dispatched."
  // Bytes of a BOM still held back at stream start are the partial line.
  const std::string_view held_bom(bom_done_ ? "" : "\xEF\xBB\xBF", bom_done_ ? 0 : bom_matched_);
  const std::string_view partial = line_.empty() ? held_bom : std::string_view(line_);
  if (!partial.empty() || block_started_) {
    const std::uint64_t at = block_started_ ? block_offset_ : line_offset_;
    report(diag::discarded_at_eof, at, partial);
  }
  return errc::ok;
}

template <visitor Visitor>
void parser<Visitor>::reset() noexcept {
  line_.clear();
  line_offset_ = 0;
  line_ascii_prefix_ = 0;
  skip_lf_ = false;
  bom_matched_ = 0;
  bom_done_ = false;
  data_state_ = data_state::empty;
  data_view_ = {};
  data_.clear();
  data_size_ = 0;
  event_type_.clear();
  id_buffer_.clear();
  id_dirty_ = !last_event_id_.empty();
  block_offset_ = 0;
  block_started_ = false;
  offset_ = 0;
  error_ = errc::ok;
  error_offset_ = 0;
  finished_ = false;
  pause_requested_ = false;
}

// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
template <visitor Visitor>
bool parser<Visitor>::process_line(std::string_view line, std::uint64_t at, bool line_outlives_call,
                                   std::size_t ascii_prefix) {
  // How many leading bytes of `part` (a piece of `line`) the line scan already
  // found to be ASCII.
  const auto known_ascii = [&](std::string_view part) -> std::size_t {
    const auto from = static_cast<std::size_t>(part.data() - line.data());
    return ascii_prefix > from ? ascii_prefix - from : 0;
  };
  // "If the line is empty (a blank line): Dispatch the event."
  if (line.empty()) return dispatch();
  // "If the line starts with a U+003A COLON character (:): Ignore the line."
  if (line.front() == ':') {
    if constexpr (requires(Visitor& v, std::string_view s, std::uint64_t o) { v.on_comment(s, o); }) {
      const std::string_view text = line.substr(1);
      visitor_->on_comment(repaired(text, at, known_ascii(text)), at);
    }
    return true;
  }
  // A block starts at its first field line; comments alone leave nothing pending.
  if (!block_started_) {
    block_started_ = true;
    block_offset_ = at;
  }
  // "If the line contains a U+003A COLON character (:)": name before it, value
  // after it with one leading U+0020 SPACE removed; otherwise the whole line is
  // the name and the value is empty.
  std::string_view name = line;
  std::string_view value;
  // "data:" is tested first: it starts most lines of a stream, and its colon
  // is the first one, so the answer is the same as find's.
  if (const auto colon = line.starts_with("data:") ? 4 : line.find(':'); colon != std::string_view::npos) {
    name = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  // Field names are compared byte for byte: case-sensitive, as the rules say.
  if (name == "data") return append_data(value, at, line_outlives_call, known_ascii(value));
  if (name == "event") {
    event_type_.assign(repaired(value, at, known_ascii(value)));
    return true;
  }
  if (name == "id") {
    if (value.find('\0') != std::string_view::npos) {
      report(diag::id_has_nul, at, value);
      return true;
    }
    id_buffer_.assign(repaired(value, at, known_ascii(value)));
    id_dirty_ = true;
    return true;
  }
  if (name == "retry") {
    // "If the field value consists of only ASCII digits": an empty value does
    // not (see spec/DECISIONS.md, retry-empty).
    std::uint64_t ms = 0;
    bool digits = !value.empty();
    bool overflow = false;
    for (const char c : value) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (ms > (UINT64_MAX - d) / 10) overflow = true;
      else ms = ms * 10 + d;
    }
    if (!digits) {
      report(diag::invalid_retry, at, value);
    } else if (overflow) {
      report(diag::retry_out_of_range, at, value);
    } else {
      retry_ = ms;
      if constexpr (requires(Visitor& v) { v.on_retry(std::uint64_t{}); }) visitor_->on_retry(ms);
    }
    return true;
  }
  report(diag::unknown_field, at, name);
  return true;
}

template <visitor Visitor>
bool parser<Visitor>::append_data(std::string_view raw, std::uint64_t at, bool line_outlives_call,
                                  std::size_t ascii_prefix) {
  // "Append the field value to the data buffer, then append a single U+000A
  // LINE FEED (LF) character to the data buffer."
  const std::string_view value = repaired(raw, at, ascii_prefix);
  if (value.size() + 1 > limits_.max_event_data - data_size_) {
    return fail(errc::event_too_large, at);
  }
  const bool borrowable = line_outlives_call && value.data() == raw.data();
  if (data_state_ == data_state::empty && borrowable) {
    data_view_ = value;
    data_state_ = data_state::view;
  } else {
    own_data();
    data_.append(value);
    data_.push_back('\n');
    data_state_ = data_state::owned;
  }
  data_size_ += value.size() + 1;
  return true;
}

// Moves a borrowed data value into data_ before the chunk it lives in goes away.
template <visitor Visitor>
void parser<Visitor>::own_data() {
  if (data_state_ != data_state::view) return;
  data_.assign(data_view_);
  data_.push_back('\n');
  data_view_ = {};
  data_state_ = data_state::owned;
}

// https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage
template <visitor Visitor>
bool parser<Visitor>::dispatch() {
  // Step 1: the last event ID string takes the buffer, even for an empty event.
  if (id_dirty_) {
    last_event_id_ = id_buffer_;
    id_dirty_ = false;
  }
  const std::uint64_t block_at = block_offset_;
  block_started_ = false;
  // Step 2: an empty data buffer dispatches nothing and resets the type.
  if (data_state_ == data_state::empty) {
    event_type_.clear();
    return true;
  }
  // Step 3: one trailing LF removed (implicit for a borrowed single value).
  std::string_view data = data_view_;
  if (data_state_ == data_state::owned) data = std::string_view(data_).substr(0, data_.size() - 1);
  // Step 5: the type defaults to "message".
  const std::string_view type = event_type_.empty() ? std::string_view("message") : std::string_view(event_type_);
  const action next = visitor_->on_event(event_view{type, data, last_event_id_, block_at});
  data_state_ = data_state::empty;
  data_view_ = {};
  data_.clear();
  data_size_ = 0;
  event_type_.clear();
  if (next == action::abort) return fail(errc::aborted, block_at);
  if (next == action::pause) pause_requested_ = true;
  return true;
}

}  // namespace sse
