// SPDX-License-Identifier: MIT
// The stream validator: a whole stream through the parser, the decoder and
// the producer validator, with the bytes of each frame kept only as long as
// the findings need them (sse/dialect/validator.hpp).
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "sse/dialect/validator.hpp"
#include "ssec/support/escape.hpp"
#include "validator_parts.hpp"

namespace sse::dialect {

using detail::line_end;

namespace {
// block_at, but the usual frame, one `data: ` line and an LF blank line, is
// found without a scan when the parser handed over its data in place:
// `data` then views the line's own bytes, so it holds no line end.
std::string_view frame_block(std::string_view stream, std::size_t at, std::string_view data) noexcept {
  const std::size_t usual = data.size() + 8;
  if (at <= stream.size() && stream.size() - at >= usual && data.data() == stream.data() + at + 6 &&
      stream.compare(at, 6, "data: ") == 0 && stream[at + usual - 2] == '\n' && stream[at + usual - 1] == '\n') {
    return stream.substr(at, usual);
  }
  return block_at(stream, at);
}
}  // namespace

std::string_view block_at(std::string_view stream, std::uint64_t offset) noexcept {
  if (offset >= stream.size()) return {};
  const std::size_t start = static_cast<std::size_t>(offset);
  std::size_t p = start;
  while (p < stream.size()) {
    const std::size_t eol = line_end(stream, p);
    if (eol == std::string_view::npos) return stream.substr(start);
    const bool blank = eol == p;
    p = eol + 1;
    if (stream[eol] == '\r' && p < stream.size() && stream[p] == '\n') ++p;
    if (blank) break;
  }
  return stream.substr(start, p - start);
}

struct stream_validator::impl {
  struct visitor {
    impl* self = nullptr;
    action on_event(const sse::event_view& e) {
      const event_view& ev = self->dec.decode(frame{e});
      // The block's bytes, unless it began before what is kept (an overlong block).
      const std::string_view block =
          e.offset >= self->base
              ? frame_block(self->window, static_cast<std::size_t>(e.offset - self->window_base), e.data)
              : std::string_view();
      self->val.on_frame(ev, block);
      return action::proceed;
    }
    void on_diagnostic(const diagnostic& d) {
      self->val.on_diagnostic(d);
      if (d.code == diag::discarded_at_eof) self->tail_offset = d.offset;
    }
  };

  impl(const dialect_spec& d, limits lim, std::size_t cap)
      : dec(d), val(d, cap), v{this}, p(v, lim), max_kept(lim.max_line + lim.max_event_data) {}

  // The next bytes of the stream: judged where they are when nothing is
  // kept from before them, or from their first blank line on (one `\n\n`,
  // found before the bytes are copied); else, and for what is left of the
  // frame in progress, copied into buf. The report is the same either way.
  bool take(std::string_view bytes) {
    if (!buf.empty() && bytes.size() >= in_place_min) {
      const std::size_t blank = bytes.find("\n\n");
      if (blank == std::string_view::npos) return append_and_judge(bytes);
      if (!append_and_judge(bytes.substr(0, blank + 2))) return false;
      bytes.remove_prefix(blank + 2);
    }
    if (!buf.empty() || bytes.size() < in_place_min) return append_and_judge(bytes);
    window = bytes;
    window_base = base;
    in_place = true;
    const bool ok = judge_received(false);
    in_place = false;
    if (ok) buf.assign(window.substr(static_cast<std::size_t>(base - window_base)));
    window = buf;
    window_base = base;
    return ok;
  }
  // Copies the next bytes into buf, which the window then views; judged later.
  void append(std::string_view bytes) {
    buf.append(bytes);
    window = buf;
    window_base = base;
  }
  bool append_and_judge(std::string_view bytes) {
    append(bytes);
    return judge_received(false);
  }

  // Parses what the window holds past `fed`, so the report is the same
  // however the stream is cut into feeds: a final CR is held back until the
  // next byte (or the end) says whether an LF follows it, so a frame ending
  // there is judged with the same block either way; and the parser is fed
  // up to each multiple of validation_slice apart, where alone a block longer
  // than what is kept loses its start. `at_end`: no byte follows.
  bool judge_received(bool at_end) {
    std::uint64_t until = window_base + window.size();
    if (!at_end && until > fed && window.back() == '\r') --until;
    while (fed < until) {
      const std::uint64_t slice_end = (fed / validation_slice + 1) * validation_slice;
      const std::uint64_t stop = std::min(until, slice_end);
      const auto r =
          p.feed(window.substr(static_cast<std::size_t>(fed - window_base), static_cast<std::size_t>(stop - fed)));
      if (is_fatal(r.status)) {
        status = r.status;
        error_offset = p.error_offset();
        return false;
      }
      fed = stop;
      if (fed == slice_end) drop_judged(true);
    }
    drop_judged(at_end);
    return true;
  }

  // Drops the bytes no frame still to come can start in (the parser says
  // where they end: it has just read every line end of them). Then, at a
  // slice's end or the stream's, if the frame in progress outgrows what any
  // block within the limits holds, its start too.
  void drop_judged(bool cut_overlong) {
    std::uint64_t keep = p.pending_offset();
    if (cut_overlong && fed - keep > max_kept) keep = fed - max_kept;
    if (keep <= base) return;
    base = keep;
    if (in_place) return;  // the window is the caller's: take() keeps what is left
    buf.erase(0, static_cast<std::size_t>(std::min<std::uint64_t>(keep - window_base, buf.size())));
    window = buf;
    window_base = base;
  }

  // Below this, bytes are copied whatever is kept: the copy costs less than
  // looking for a blank line.
  static constexpr std::size_t in_place_min = 4096;
  // validate_pieces judges small pieces this many bytes at a time.
  static constexpr std::size_t gather_size = std::size_t{64} << 10;

  decoder dec;
  validator val;
  visitor v;
  parser<visitor> p;
  std::uint64_t max_kept;
  // What is kept of the stream: from `base` on (the frame in progress, and
  // a CR held back), in buf; or, while take() judges bytes where they are,
  // in the caller's bytes. `window` views whichever holds it, from stream
  // offset window_base (bytes before `base` in it count as dropped).
  std::string buf;
  std::string_view window;
  std::uint64_t window_base = 0;
  bool in_place = false;
  std::uint64_t base = 0;  // stream offset of the first byte kept
  std::uint64_t fed = 0;   // bytes fed to the parser
  std::optional<std::uint64_t> tail_offset;
  errc status = errc::ok;
  std::uint64_t error_offset = 0;
};

stream_validator::stream_validator(const dialect_spec& d, limits lim, std::optional<std::string_view> content_type,
                                   std::size_t max_findings_per_rule)
    : impl_(std::make_unique<impl>(d, lim, max_findings_per_rule)) {
  if (content_type) impl_->val.on_content_type(*content_type);
}
stream_validator::~stream_validator() = default;

bool stream_validator::feed(std::string_view bytes) {
  auto& m = *impl_;
  if (is_fatal(m.status)) return false;
  return m.take(bytes);
}

std::uint64_t stream_validator::size() const noexcept {
  return is_fatal(impl_->status) ? impl_->error_offset : impl_->window_base + impl_->window.size();
}

const std::vector<finding>& stream_validator::findings() const noexcept { return impl_->val.findings(); }

validation_report stream_validator::finish(bool read_to_end) {
  auto& m = *impl_;
  validation_report report;
  report.dialect = m.dec.dialect().name;
  // A CR held back is fed now: nothing follows it.
  if (!is_fatal(m.status) && m.judge_received(true)) m.p.finish();
  if (is_fatal(m.status)) {
    report.wire_status = m.status;
    report.wire_error_offset = m.error_offset;
  }
  // What a limit stopped reading, or a sample left unread, is not graded.
  report.end_graded = read_to_end && report.wire_status == errc::ok;
  if (report.end_graded) {
    std::string_view tail;
    if (m.tail_offset && *m.tail_offset >= m.base && *m.tail_offset < m.base + m.buf.size())
      tail = std::string_view(m.buf).substr(static_cast<std::size_t>(*m.tail_offset - m.base));
    m.val.finish(m.fed, m.tail_offset.value_or(m.fed), tail);
  }
  report.frames = m.val.frames();
  report.findings = m.val.take_findings();
  report.must = m.val.must();
  report.should = m.val.should();
  report.decision = m.val.decision();
  report.not_shown = m.val.not_stored();
  report.bytes = size();
  return report;
}

validation_report validate_stream(const dialect_spec& d, std::string_view bytes, limits lim,
                                  std::optional<std::string_view> content_type, bool read_to_end,
                                  std::size_t max_findings_per_rule) {
  return validate_pieces(d, std::span<const std::string_view>(&bytes, 1), lim, content_type, read_to_end,
                         max_findings_per_rule);
}

validation_report validate_pieces(const dialect_spec& d, std::span<const std::string_view> pieces, limits lim,
                                  std::optional<std::string_view> content_type, bool read_to_end,
                                  std::size_t max_findings_per_rule) {
  stream_validator v(d, lim, content_type, max_findings_per_rule);
  auto& m = *v.impl_;
  // Small pieces (a capture's reads) are gathered into the validator's
  // buffer and judged together, in fewer, larger feeds; a large one is fed
  // as it is. The report is the same however the stream is cut.
  bool reading = true;
  std::size_t gathered = 0;
  for (const std::string_view piece : pieces) {
    if (!reading) break;
    if (piece.size() >= stream_validator::impl::in_place_min) {
      if (gathered > 0) reading = m.judge_received(false);
      gathered = 0;
      reading = reading && m.take(piece);
      continue;
    }
    m.append(piece);
    gathered += piece.size();
    if (gathered >= stream_validator::impl::gather_size) {
      reading = m.judge_received(false);
      gathered = 0;
    }
  }
  if (reading && gathered > 0) m.judge_received(false);
  return v.finish(read_to_end);
}

}  // namespace sse::dialect
