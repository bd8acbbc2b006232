// SPDX-License-Identifier: MIT
// The live part of check: reading a response with the reference parser
// counting events, so a read can stop at --max-events; over HTTP or from a
// file descriptor (standard input).
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "page_hints.hpp"
#include "sse/dialect/decoder.hpp"
#include "ssec/live/check.hpp"

namespace ssec::live {

struct event_counter::impl {
  struct counting {
    std::size_t events = 0;
    sse::action on_event(const sse::event_view&) {
      ++events;
      return sse::action::proceed;
    }
  };
  counting v;
  sse::parser<counting> p;
  bool failed = false;
  explicit impl(sse::limits lim) : p(v, lim) {}
};

event_counter::event_counter(sse::limits lim) : impl_(std::make_unique<impl>(lim)) {}
event_counter::~event_counter() = default;
std::size_t event_counter::feed(std::string_view bytes) {
  if (sse::is_fatal(impl_->p.feed(bytes).status)) impl_->failed = true;
  return impl_->v.events;
}
std::size_t event_counter::events() const noexcept { return impl_->v.events; }
bool event_counter::failed() const noexcept { return impl_->failed; }
std::string event_counter::last_event_id() const { return std::string(impl_->p.last_event_id()); }

namespace {
// A read's bytes, kept in the capture: fresh memory, its pages faulted in at once.
std::string piece_bytes(std::string_view read) {
  std::string out;
  out.reserve(read.size());
  detail::populate_pages(out.data(), read.size());
  out.append(read);
  return out;
}

void note(read_progress* progress, std::string_view bytes, std::size_t events, double at) {
  if (progress == nullptr) return;
  progress->bytes += bytes.size();
  progress->events = events;
  progress->last_byte_s = at;
  if (progress->on_bytes) progress->on_bytes(bytes);
}
}  // namespace

struct live_findings::impl {
  struct visitor {
    impl* self = nullptr;
    sse::action on_event(const sse::event_view& e) {
      const auto& ev = self->dec.decode(sse::dialect::frame(e));
      const std::uint64_t at = e.offset - self->base;
      const std::string_view block = sse::dialect::block_at(self->buf, at);
      self->val.on_frame(ev, block);
      self->keep_from = e.offset + block.size();
      return sse::action::proceed;
    }
    void on_diagnostic(const sse::diagnostic& d) { self->val.on_diagnostic(d); }
  };
  sse::dialect::decoder dec;
  sse::dialect::validator val;
  visitor v;
  sse::parser<visitor> p;
  std::string buf;         // the stream from `base` on: the frame in progress
  std::uint64_t base = 0;  // stream offset of buf[0]
  std::uint64_t keep_from = 0;
  std::size_t reported = 0;
  bool stopped = false;
  impl(const sse::dialect::dialect_spec& d, sse::limits lim) : dec(d), val(d), v{this}, p(v, lim) {}
};

live_findings::live_findings(const sse::dialect::dialect_spec& d, sse::limits lim)
    : impl_(std::make_unique<impl>(d, lim)) {}
live_findings::~live_findings() = default;

std::vector<sse::dialect::finding> live_findings::feed(std::string_view bytes) {
  auto& m = *impl_;
  if (m.stopped) return {};
  m.buf.append(bytes);
  if (sse::is_fatal(m.p.feed(bytes).status)) m.stopped = true;
  // Blocks already judged are dropped: only the frame in progress is kept.
  if (m.keep_from > m.base) {
    m.buf.erase(0, static_cast<std::size_t>(m.keep_from - m.base));
    m.base = m.keep_from;
  }
  const auto& all = m.val.findings();
  std::vector<sse::dialect::finding> fresh(all.begin() + static_cast<std::ptrdiff_t>(m.reported), all.end());
  m.reported = all.size();
  return fresh;
}

capture fetch(const http::stream_request& req, std::size_t max_events, const sse::limits& lim,
              read_progress* progress) {
  capture cap;
  cap.source = req.url;
  event_counter counter(lim);
  const auto result = http::stream(req, [&](std::string_view bytes, double at) {
    cap.pieces.push_back(piece{piece_bytes(bytes), at});
    const std::size_t n = counter.feed(bytes);
    note(progress, bytes, n, at);
    return (max_events == 0 || n < max_events) && !counter.failed();
  });
  cap.status = result.status;
  cap.headers = result.headers;
  cap.end = std::string(http::to_string(result.end));
  cap.error = result.error;
  cap.redirect_url = result.redirect_url;
  cap.seconds_to_first_byte = result.seconds_to_first_byte;
  cap.seconds_total = result.seconds_total;
  return cap;
}

capture fetch_sampled(http::stream_request req, std::size_t max_events, double max_time_s, const sse::limits& lim,
                      read_progress* progress) {
  const bool sampling = max_time_s > 0 && (req.timeout_s <= 0 || max_time_s < req.timeout_s);
  if (sampling) req.timeout_s = max_time_s;
  capture cap = fetch(req, max_events, lim, progress);
  if (sampling && cap.end == "timeout") cap.end = "max_time";  // the sample the user asked for, not a failure
  return cap;
}

capture read_descriptor(int fd, std::string source, const read_limits& o) {
  capture cap;
  cap.source = std::move(source);
  event_counter counter(o.limits);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const double limit_s = o.max_time_s > 0 ? o.max_time_s : o.timeout_s;
  std::uint64_t total = 0;
  std::string buf(64 * 1024, '\0');
  for (;;) {
    double wait_s = o.idle_timeout_s > 0 ? o.idle_timeout_s : 3600;
    if (limit_s > 0) wait_s = std::min(wait_s, limit_s - elapsed());
    if (wait_s <= 0) {
      cap.end = o.max_time_s > 0 ? "max_time" : "timeout";
      break;
    }
    pollfd pfd{fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(wait_s * 1000) + 1);
    if (ready == 0) {
      if (limit_s > 0 && elapsed() >= limit_s) cap.end = o.max_time_s > 0 ? "max_time" : "timeout";
      else cap.end = "idle_timeout";
      break;
    }
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      cap.end = "other_error";
      cap.error = "reading standard input failed";
      break;
    }
    if (n == 0) {
      cap.end = "complete";
      break;
    }
    std::size_t take = static_cast<std::size_t>(n);
    if (o.max_bytes > 0 && total + take > o.max_bytes) take = static_cast<std::size_t>(o.max_bytes - total);
    cap.pieces.push_back({piece_bytes(std::string_view(buf.data(), take)), elapsed()});
    if (cap.seconds_to_first_byte < 0) cap.seconds_to_first_byte = cap.pieces.back().at_seconds;
    total += take;
    const std::size_t events = counter.feed(cap.pieces.back().bytes);
    note(o.progress, cap.pieces.back().bytes, events, cap.pieces.back().at_seconds);
    if (o.max_bytes > 0 && total >= o.max_bytes) {
      cap.end = "max_bytes";
      break;
    }
    if (counter.failed()) {
      cap.end = "stopped";  // the reference hit a limit: reading on is pointless
      break;
    }
    if (o.max_events > 0 && events >= o.max_events) {
      cap.end = "stopped";
      break;
    }
  }
  cap.seconds_total = elapsed();
  return cap;
}

}  // namespace ssec::live
