// SPDX-License-Identifier: MIT
// The definitions of sse::parser's members (sse/parser.hpp holds the
// declarations and their contracts). Included only by sse/parser.hpp.
// Transitions cite the WHATWG rules:
// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
#pragma once

#include "sse/parser.hpp"

namespace sse {

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
    const bool ok = blank ? dispatch(at(p)) : process_line(line, at(p), true, ascii_prefix);
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
  // What the line scan already found in and before `part`, a piece of `line`
  // that runs to its end (a piece starts after an ASCII colon or space, so a
  // line found well formed leaves every piece of it well formed).
  const auto ascii_of = [&](std::string_view part) -> known_ascii {
    const auto from = static_cast<std::size_t>(part.data() - line.data());
    if (ascii_prefix < from) return {};
    return {ascii_prefix - from, from};
  };
  // "If the line is empty (a blank line): Dispatch the event."
  if (line.empty()) return dispatch(at);
  // "If the line starts with a U+003A COLON character (:): Ignore the line."
  if (line.front() == ':') {
    if constexpr (requires(Visitor & v, std::string_view s, std::uint64_t o) { v.on_comment(s, o); }) {
      const std::string_view text = line.substr(1);
      visitor_->on_comment(repaired(text, at, ascii_of(text)), at);
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
  if (name == "data") return append_data(value, at, line_outlives_call, ascii_of(value));
  if (name == "event") {
    event_type_.assign(repaired(value, at, ascii_of(value)));
    return true;
  }
  if (name == "id") {
    if (value.find('\0') != std::string_view::npos) {
      report(diag::id_has_nul, at, value);
      return true;
    }
    id_buffer_.assign(repaired(value, at, ascii_of(value)));
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
      if constexpr (requires(Visitor & v) { v.on_retry(std::uint64_t{}); }) visitor_->on_retry(ms);
    }
    return true;
  }
  report(diag::unknown_field, at, name);
  return true;
}

template <visitor Visitor>
bool parser<Visitor>::append_data(std::string_view raw, std::uint64_t at, bool line_outlives_call, known_ascii known) {
  // "Append the field value to the data buffer, then append a single U+000A
  // LINE FEED (LF) character to the data buffer."
  const std::string_view value = repaired(raw, at, known);
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
bool parser<Visitor>::dispatch(std::uint64_t blank_at) {
  // Step 1: the last event ID string takes the buffer, even for an empty event.
  if (id_dirty_) {
    last_event_id_ = id_buffer_;
    id_dirty_ = false;
  }
  const std::uint64_t block_at = block_offset_;
  const bool had_fields = block_started_;
  block_started_ = false;
  // Step 2: an empty data buffer dispatches nothing and resets the type.
  if (data_state_ == data_state::empty) {
    event_type_.clear();
    if constexpr (requires(Visitor & v) { v.on_no_dispatch(std::uint64_t{}, bool{}); }) {
      visitor_->on_no_dispatch(had_fields ? block_at : blank_at, had_fields);
    }
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
