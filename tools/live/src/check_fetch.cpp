// SPDX-License-Identifier: MIT
// The live part of check: reading a response with the reference parser
// counting events, so a read can stop at --max-events; over HTTP or from a
// file descriptor (standard input).
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "check_internal.hpp"
#include "page_hints.hpp"
#include "rules_follower.hpp"
#include "sse/dialect/decoder.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/input.hpp"

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
}
}  // namespace

http::stream_request event_stream_request(std::string url, std::string method, std::vector<std::string> headers,
                                          std::string body) {
  http::stream_request req;
  req.url = std::move(url);
  req.method = !method.empty() ? std::move(method) : (body.empty() ? "GET" : "POST");
  const bool has_accept = std::any_of(headers.begin(), headers.end(), [](const std::string& h) {
    constexpr std::string_view name = "accept:";
    return h.size() >= name.size() && detail::lower(h.substr(0, name.size())) == name;
  });
  req.headers = std::move(headers);
  if (!has_accept) req.headers.emplace_back("Accept: text/event-stream");
  req.body = std::move(body);
  return req;
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
  cap.protocol = result.protocol;
  cap.seconds_to_first_byte = result.seconds_to_first_byte;
  cap.seconds_total = result.seconds_total;
  return cap;
}

namespace {
// A sampling time shorter than the request's timeout becomes its timeout;
// true when it did (a "timeout" end is then the sample, "max_time").
bool sample_for(http::stream_request& req, double max_time_s) {
  const bool sampling = max_time_s > 0 && (req.timeout_s <= 0 || max_time_s < req.timeout_s);
  if (sampling) req.timeout_s = max_time_s;
  return sampling;
}
}  // namespace

capture fetch_sampled(http::stream_request req, std::size_t max_events, double max_time_s, const sse::limits& lim,
                      read_progress* progress) {
  const bool sampling = sample_for(req, max_time_s);
  capture cap = fetch(req, max_events, lim, progress);
  if (sampling && cap.end == "timeout") cap.end = "max_time";  // the sample the user asked for, not a failure
  return cap;
}

namespace {

// The read size: a pipe's buffer (64 KiB by default) per read.
constexpr std::size_t read_size = std::size_t{64} << 10;

// What a read loop's caller counted with the reference parser after a read.
struct read_counts {
  std::size_t events = 0;
  bool failed = false;  // the parser stopped at a fatal error (a limit)
};

// The read loop of read_descriptor and check_descriptor: waits for `fd`
// under `o`'s timeouts, reads at most read_size bytes (never past
// o.max_bytes) into sink.space(n), and hands each read to sink.take(bytes,
// at), which returns what it counted. Sets cap's end and times.
template <class Sink>
void read_loop(int fd, const read_limits& o, capture& cap, Sink& sink) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const double limit_s = o.max_time_s > 0 ? o.max_time_s : o.timeout_s;
  std::uint64_t total = 0;
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
    std::size_t want = read_size;
    if (o.max_bytes > 0) want = static_cast<std::size_t>(std::min<std::uint64_t>(want, o.max_bytes - total));
    char* into = sink.space(want);
    const ssize_t n = ::read(fd, into, want);
    if (n < 0) {
      cap.end = "other_error";
      cap.error = "reading standard input failed";
      break;
    }
    if (n == 0) {
      cap.end = "complete";
      break;
    }
    const std::string_view bytes(into, static_cast<std::size_t>(n));
    const double at = elapsed();
    if (cap.seconds_to_first_byte < 0) cap.seconds_to_first_byte = at;
    total += bytes.size();
    const read_counts c = sink.take(bytes, at);
    note(o.progress, bytes, c.events, at);
    if (o.max_bytes > 0 && total >= o.max_bytes) {
      cap.end = "max_bytes";
      break;
    }
    if (c.failed) {
      cap.end = "stopped";  // the reference hit a limit: reading on is pointless
      break;
    }
    if (o.max_events > 0 && c.events >= o.max_events) {
      cap.end = "stopped";
      break;
    }
  }
  cap.seconds_total = elapsed();
}

// read_descriptor's reads: each one copied into its own piece.
struct piece_sink {
  capture& cap;
  event_counter counter;
  std::string buf = std::string(read_size, '\0');
  char* space(std::size_t) { return buf.data(); }
  read_counts take(std::string_view bytes, double at) {
    cap.pieces.push_back({piece_bytes(bytes), at});
    const std::size_t events = counter.feed(cap.pieces.back().bytes);
    return {events, counter.failed()};
  }
};

// The capture --record saves: `meta`, with the pieces the follower kept.
void record_capture(capture* record, capture meta) {
  if (record == nullptr) return;
  meta.pieces = std::move(record->pieces);
  *record = std::move(meta);
}

// A body judged read by read as it arrives (check_descriptor, check_request,
// check_capture_file): each read is parsed as it comes (the arrival pass
// and the whole-body checks), then handed to the producer rules; the body
// is not held, unless `record` asks for the capture.
class body_follower {
 public:
  body_follower(const check_options& o, capture* record)
      : opt_(o),
        rules_(o.dialect, o.limits, o.on_finding),
        body_(o.limits, o.chunking_seeds, false),
        arrived_(o.limits, rd_),
        record_(record) {
    if (record_ != nullptr) *record_ = capture{};
  }
  body_follower(const body_follower&) = delete;
  body_follower& operator=(const body_follower&) = delete;

  // Room for the next read's `n` bytes; take() them once written there.
  char* space(std::size_t n) { return rules_.space(n); }
  read_counts take(std::string_view bytes, double at) {
    rd_.add(body_.size(), at);
    arrived_.feed(rd_.count - 1, bytes);
    body_.feed(bytes);
    if (record_ != nullptr) record_->pieces.push_back({piece_bytes(bytes), at});
    rules_.commit(bytes.size());
    return {arrived_.events(), arrived_.stopped()};
  }
  // The report of the response `meta` (its pieces were the reads taken):
  // the wire and the producer rules are judged only when it is a stream.
  check_report finish(capture meta, bool stream) {
    if (stream && !arrived_.stopped()) arrived_.finish();
    body_.finish();
    check_report report = detail::judge(meta, body_, rd_, stream ? &arrived_ : nullptr, opt_);
    // The producer rules followed the body from its first byte; their report
    // counts only when it was a stream.
    const auto produced = rules_.finish(!detail::is_sample(meta));
    if (stream && produced) detail::add_producer(*produced, report);
    record_capture(record_, std::move(meta));
    return report;
  }

 private:
  const check_options& opt_;
  detail::rules_follower rules_;
  detail::body_pass body_;
  detail::reads rd_;  // before arrived_, which reads it
  detail::arrival_pass arrived_;
  capture* record_;
};

}  // namespace

capture read_descriptor(int fd, std::string source, const read_limits& o) {
  capture cap;
  cap.source = std::move(source);
  piece_sink sink{cap, event_counter(o.limits)};
  read_loop(fd, o, cap, sink);
  return cap;
}

check_report check_descriptor(int fd, std::string source, const read_limits& lim, const check_options& opt,
                              capture* record) {
  check_options o = opt;
  o.limits = lim.limits;
  capture meta;
  meta.source = std::move(source);
  // A descriptor is always a stream (no HTTP status): the producer rules run whenever there is a dialect.
  body_follower follower(o, record);
  read_loop(fd, lim, meta, follower);
  return follower.finish(std::move(meta), true);
}

check_report check_request(http::stream_request req, std::string source, std::size_t max_events, double max_time_s,
                           const check_options& opt, read_progress* progress, capture* record) {
  const bool sampling = sample_for(req, max_time_s);
  capture meta;
  meta.source = std::move(source);
  body_follower follower(opt, record);
  const auto result = http::stream(req, [&](std::string_view bytes, double at) {
    char* into = follower.space(bytes.size());
    std::copy(bytes.begin(), bytes.end(), into);
    const read_counts c = follower.take(std::string_view(into, bytes.size()), at);
    note(progress, bytes, c.events, at);
    return (max_events == 0 || c.events < max_events) && !c.failed;
  });
  meta.status = result.status;
  meta.headers = result.headers;
  meta.end = std::string(http::to_string(result.end));
  meta.error = result.error;
  meta.redirect_url = result.redirect_url;
  meta.protocol = result.protocol;
  meta.seconds_to_first_byte = result.seconds_to_first_byte;
  meta.seconds_total = result.seconds_total;
  if (sampling && meta.end == "timeout") meta.end = "max_time";
  const bool stream = detail::is_stream(meta);
  return follower.finish(std::move(meta), stream);
}

result<std::optional<check_report>> check_capture_file(const std::string& path, std::uint64_t max_bytes,
                                                       const check_options& opt) {
  std::optional<body_follower> follower;
  std::optional<capture_reader> reader;
  bool first = true;
  const auto read = read_pieces(path, std::size_t{1} << 16, [&](std::string_view text) {
    if (first) {
      first = false;
      if (!looks_like_capture(text)) return false;
      follower.emplace(opt, nullptr);
      // Every piece is taken, whatever the reference makes of it: analyze
      // reads the whole capture, and so does this.
      reader.emplace(path, max_bytes, [&](piece&& p) {
        char* into = follower->space(p.bytes.size());
        std::copy(p.bytes.begin(), p.bytes.end(), into);
        follower->take(std::string_view(into, p.bytes.size()), p.at_seconds);
        return true;
      });
    }
    return reader->feed(text);
  });
  if (!read) return read.error();
  if (!reader) return std::optional<check_report>();
  auto meta = reader->finish();
  if (!meta) return meta.error();
  meta.value().source = capture_name(path, meta.value().source);
  const bool stream = detail::is_stream(meta.value());
  return std::optional<check_report>(follower->finish(std::move(meta).value(), stream));
}

}  // namespace ssec::live
