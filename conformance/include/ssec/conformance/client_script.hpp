// SPDX-License-Identifier: MIT
// Client cases (`layer: client`, tools/docs/client-cases.md): what an
// EventSource-style client does on the network. A case scripts the server's
// answer to each connection attempt, and says which requests the client must
// make (their headers and their delays) and which events it must dispatch.
// The runner plays the script (ssec::live::client_server), lets the client
// connect through the adapter protocol's `connect` operation, and grades what
// the server saw with grade_client() (grading.hpp).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ssec/conformance/log.hpp"

namespace ssec::conformance {

/// How a scripted response ends once its body is written.
enum class response_end {
  close,  ///< The response ends cleanly (its last chunk): the end of the body.
  reset,  ///< The connection is reset: a network error in the middle of the stream.
  hold,   ///< The response stays open until the client leaves or the run ends.
};

/// The server's answer to one connection attempt.
struct scripted_response {
  int status = 200;
  std::string content_type = "text/event-stream";  ///< Empty: no Content-Type header.
  std::string location;                            ///< A 3xx's Location: `next` is the case's own URL again.
  std::string body;
  response_end end = response_end::close;
  std::size_t line = 0;  ///< 1-based line in the case file.
};

/// What one request of the client must carry.
struct expected_request {
  /// Headers that must be present with exactly these values (names lower-case).
  std::vector<std::pair<std::string, std::string>> headers;
  /// Headers that must be absent (names lower-case).
  std::vector<std::string> without;
  /// The request comes at least this long after the previous response ended:
  /// the reconnection time the stream set (the runner allows
  /// client_timing_tolerance_ms less).
  std::optional<double> after_ms;
  /// ... and at most this long after it (a `should` case's promptness).
  std::optional<double> within_ms;
  std::size_t line = 0;
};

/// How much earlier than `after_ms` a request may come and still be on
/// time: the server stamps the end of a response after its last write, the
/// client starts its delay when it has read that end, so the measured delay
/// only errs long; the allowance covers the clocks' granularity.
inline constexpr double client_timing_tolerance_ms = 20;
/// The most a case may give the client (`limit_ms`), and the most it waits
/// after the client's answer for requests that should not come (`settle_ms`).
inline constexpr double client_max_limit_ms = 20000;

struct client_script {
  std::vector<scripted_response> responses;  ///< One per connection attempt, in order; beyond them: 204.
  std::vector<expected_request> requests;    ///< Exactly this many requests, in order.
  std::size_t close_after_events = 0;        ///< The client is closed after this many events (0: never).
  double limit_ms = 3000;                    ///< The longest the client runs.
  double settle_ms = 0;                      ///< After the client's answer, how long requests are still awaited.
};

/// What the server saw of one request.
struct observed_request {
  double at_ms = 0;                            ///< Since the case started.
  std::string target;                          ///< The request target as sent.
  std::map<std::string, std::string> headers;  ///< Names lower-case.
};

/// Everything the runner observed of one client case.
struct client_observation {
  external_result answer;  ///< The events the client dispatched (`error` when it answered an error).
  std::string ended;       ///< "closed", "failed" or "limit": how the client's run ended, as it said.
  std::vector<observed_request> requests;
  /// When each response the server wrote ended, since the case started
  /// (index = connection attempt); absent while a response is still open.
  std::vector<std::optional<double>> response_ended_ms;
};

}  // namespace ssec::conformance
