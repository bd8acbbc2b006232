// SPDX-License-Identifier: MIT
// Streaming HTTP(S) client over libcurl for `sse-conform check`: reads a
// response incrementally, hands each received piece to the caller with its
// arrival time, and never hangs or grows without bound (overall and idle
// timeouts, a byte limit, a stop the caller can request).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ssec::http {

struct stream_request {
  std::string url;
  std::string method = "GET";
  std::vector<std::string> headers;       ///< "Name: value" lines, sent as given.
  std::string body;                       ///< Sent when non-empty (or when method is POST/PUT/PATCH).
  double timeout_s = 60;                  ///< The whole exchange; 0 = none.
  double idle_timeout_s = 30;             ///< Longest silence between received bytes; 0 = none.
  std::uint64_t max_bytes = 64ull << 20;  ///< Stop after this many body bytes; 0 = none.
  bool follow_redirects = false;          ///< Off: a redirect is reported, not followed silently.
  bool decode_content = true;             ///< Let curl undo gzip/deflate/br it announced it accepts.
  bool verify_tls = true;
};

/// Why the exchange ended.
enum class stream_end {
  complete,       ///< The server closed the response normally.
  stopped,        ///< The caller's on_data returned false (enough events, say).
  max_bytes,      ///< The byte limit was reached.
  timeout,        ///< The overall timeout struck.
  idle_timeout,   ///< No byte for idle_timeout_s.
  reset,          ///< The connection broke mid-response (reset, truncated chunked encoding...).
  connect_error,  ///< Could not connect / resolve.
  tls_error,      ///< TLS handshake or certificate failure.
  other_error,    ///< Anything else curl reports; see stream_result::error.
};

std::string_view to_string(stream_end e) noexcept;

struct stream_result {
  stream_end end = stream_end::other_error;
  std::string error;                           ///< curl's message, for errors.
  long status = 0;                             ///< HTTP status of the final response (0 if none).
  std::map<std::string, std::string> headers;  ///< Lower-cased names of the final response.
  std::uint64_t body_bytes = 0;
  std::string redirect_url;           ///< Where a 3xx pointed, when not followed.
  double seconds_to_first_byte = -1;  ///< From the start to the first body byte; -1 if none.
  double seconds_total = 0;
};

/// Called for each received body piece: the bytes and the seconds since the
/// request started. Return false to stop reading.
using on_data = std::function<bool(std::string_view bytes, double at_seconds)>;

/// Performs the request, streaming the body into `data`. Thread-safe for
/// distinct calls (each has its own curl handle).
stream_result stream(const stream_request& req, const on_data& data);

}  // namespace ssec::http
