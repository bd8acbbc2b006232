// SPDX-License-Identifier: MIT
// The live part of check: reading a response with the reference parser
// counting events, so a read can stop at --max-events.
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

capture fetch(const http::stream_request& req, std::size_t max_events, const sse::limits& lim) {
  capture cap;
  cap.source = req.url;
  event_counter counter(lim);
  const auto result = http::stream(req, [&](std::string_view bytes, double at) {
    cap.pieces.push_back(piece{std::string(bytes), at});
    const std::size_t n = counter.feed(bytes);
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

capture fetch_sampled(http::stream_request req, std::size_t max_events, double max_time_s, const sse::limits& lim) {
  const bool sampling = max_time_s > 0 && (req.timeout_s <= 0 || max_time_s < req.timeout_s);
  if (sampling) req.timeout_s = max_time_s;
  capture cap = fetch(req, max_events, lim);
  if (sampling && cap.end == "timeout") cap.end = "max_time";  // the sample the user asked for, not a failure
  return cap;
}

}  // namespace ssec::live
