// SPDX-License-Identifier: MIT
// The reference EventSource client: WHATWG's processing model over the
// streaming HTTP client and the reference parser. It connects, sends
// `Accept: text/event-stream`, `Cache-Control: no-cache` and, on a
// reconnection, `Last-Event-ID` with the last event ID string when it is not
// empty; follows redirects; fails the connection (and never reconnects) on a
// status other than 200 or a Content-Type other than text/event-stream;
// reconnects after the reconnection time when the body ends or the
// connection breaks. The reference adapter's `connect` operation runs it
// (tools/docs/adapter-protocol.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "sse/event.hpp"

namespace ssec::live {

/// Deliberate departures from the processing model, one per known client
/// bug, so the suite's own tests can show that each client case catches the
/// bug it names. The reference never sets any.
struct client_quirks {
  bool no_last_event_id = false;      ///< Never sends Last-Event-ID.
  bool ignore_retry = false;          ///< Keeps the default reconnection time whatever `retry` says.
  bool reconnect_on_failure = false;  ///< Reconnects after a status other than 200 (a 204 among them).
  bool no_redirects = false;          ///< Treats a redirect as a failing status.
};

struct event_source_options {
  std::string url;
  std::size_t close_after_events = 0;  ///< close() after this many events (0: never).
  double limit_ms = 3000;              ///< The longest the client runs.
  /// The reconnection time before any `retry`: WHATWG leaves it to the user
  /// agent ("probably in the region of a few seconds"); browsers use 3 s.
  double default_reconnection_ms = 3000;
  client_quirks quirks;
  const std::atomic<int>* stop = nullptr;  ///< Non-zero ends the run (as at the limit).
};

struct event_source_run {
  std::vector<sse::event> events;  ///< Every event dispatched, over every connection.
  /// "closed" (close() after close_after_events), "failed" (the client
  /// failed the connection: it will not reconnect) or "limit".
  std::string ended;
};

/// Runs the client until it is closed, fails the connection, or reaches the limit.
event_source_run run_event_source(const event_source_options& o);

}  // namespace ssec::live
