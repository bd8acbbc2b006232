// SPDX-License-Identifier: MIT
#include "ssec/live/event_source.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <thread>

#include "sse/parser.hpp"
#include "ssec/http/client.hpp"
#include "ssec/support/text.hpp"

namespace ssec::live {

namespace {
using clock = std::chrono::steady_clock;

// Collects the events; pauses the parser once close() is due.
struct collector {
  event_source_run* out;
  std::size_t close_after;
  bool reached = false;
  sse::action on_event(const sse::event_view& e) {
    out->events.emplace_back(e);
    if (close_after != 0 && out->events.size() >= close_after) {
      reached = true;
      return sse::action::pause;
    }
    return sse::action::proceed;
  }
};

// The media type of a Content-Type value, lower-case ("text/event-stream").
std::string media_type(const std::map<std::string, std::string>& headers) {
  const auto it = headers.find("content-type");
  if (it == headers.end()) return {};
  std::string media(ssec::trim(std::string_view(it->second).substr(0, it->second.find(';'))));
  std::transform(media.begin(), media.end(), media.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return media;
}

bool stopped(const event_source_options& o) { return o.stop != nullptr && o.stop->load() != 0; }

}  // namespace

event_source_run run_event_source(const event_source_options& o) {
  event_source_run out;
  const auto after = [](double ms) {
    return clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(ms));
  };
  const clock::time_point deadline = after(o.limit_ms);
  collector v{&out, o.close_after_events};
  sse::parser<collector> p(v);
  double reconnection_ms = o.default_reconnection_ms;
  for (bool first = true;; first = false) {
    const double left_s = std::chrono::duration<double>(deadline - clock::now()).count();
    if (left_s <= 0 || stopped(o)) {
      out.ended = "limit";
      return out;
    }
    if (!first) p.reset();  // a new stream: the last event ID string and the reconnection time stay
    http::stream_request req;
    req.url = o.url;
    req.headers = {"Accept: text/event-stream", "Cache-Control: no-cache"};
    if (!p.last_event_id().empty() && !o.quirks.no_last_event_id) {
      req.headers.push_back("Last-Event-ID: " + std::string(p.last_event_id()));
    }
    req.follow_redirects = !o.quirks.no_redirects;
    req.timeout_s = left_s;
    req.idle_timeout_s = 0;  // the limit bounds the run
    req.stop = o.stop;
    bool failed = false;
    const auto head = [&](long status, const std::map<std::string, std::string>& headers) {
      // "if res's status is not 200, or if res's `Content-Type` is not
      // `text/event-stream`, then fail the connection."
      failed = status != 200 || media_type(headers) != "text/event-stream";
      return !failed;
    };
    const auto data = [&](std::string_view bytes, double) {
      while (!bytes.empty()) {
        const auto fed = p.feed(bytes);
        bytes.remove_prefix(fed.consumed);
        if (v.reached) return false;
        if (fed.status != sse::errc::ok && fed.status != sse::errc::paused) return false;
      }
      return true;
    };
    const auto result = http::stream(req, head, data);
    if (v.reached) {
      out.ended = "closed";
      return out;
    }
    if (failed && !o.quirks.reconnect_on_failure) {
      out.ended = "failed";  // "Once the user agent has failed the connection, it does not attempt to reconnect."
      return out;
    }
    if (result.end == http::stream_end::timeout || stopped(o)) {
      out.ended = "limit";
      return out;
    }
    // The body ended, or the connection broke: reestablish the connection
    // after the reconnection time.
    p.finish();
    if (p.retry() && !o.quirks.ignore_retry) reconnection_ms = static_cast<double>(*p.retry());
    const clock::time_point wake = std::min(after(reconnection_ms), deadline);
    while (clock::now() < wake && !stopped(o)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

}  // namespace ssec::live
