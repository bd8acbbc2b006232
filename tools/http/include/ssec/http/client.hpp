// SPDX-License-Identifier: MIT
// Streaming HTTP(S) client over libcurl for `sse-conform check`: reads a
// response incrementally, hands each received piece to the caller with its
// arrival time, and never hangs or grows without bound (overall and idle
// timeouts, a byte limit, a stop the caller can request).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/support/result.hpp"

namespace ssec::http {

/// Whether `url` is one stream() can request: an http:// or https:// URL
/// with a host that libcurl parses whole (a space, a bad port or a bad
/// percent escape is refused here, before any connection). The error is
/// the reason alone, libcurl's words or "only http:// and https:// URLs can
/// be requested", without the URL (which may hold a secret: the caller
/// shows the URL as the user wrote it). Thread-safe.
ssec::result<void> check_url(const std::string& url);

/// Which HTTP the request speaks.
enum class http_version {
  negotiate,             ///< HTTP/2 when TLS's ALPN agrees, else HTTP/1.1 (plain http:// is HTTP/1.1).
  http1_1,               ///< HTTP/1.1 only.
  http2_prior_knowledge  ///< HTTP/2 from the first byte, without negotiation (h2c on http://).
};

struct stream_request {
  std::string url;
  std::string method = "GET";
  std::vector<std::string> headers;       ///< "Name: value" lines, sent as given.
  std::string body;                       ///< Sent when non-empty (or when method is POST/PUT/PATCH).
  double timeout_s = 60;                  ///< The whole exchange; 0 = none.
  double idle_timeout_s = 30;             ///< Longest silence between received bytes; 0 = none.
  std::uint64_t max_bytes = 64ull << 20;  ///< Stop after this many body bytes; 0 = none.
  /// The response's status line and headers, all lines together, at most
  /// this many bytes (libcurl's own limit is 100 KiB for one line):
  /// stream_end::headers_too_large beyond.
  std::uint64_t max_header_bytes = 256 * 1024;
  bool follow_redirects = false;  ///< Off: a redirect is reported, not followed silently.
  bool decode_content = true;     ///< Let curl undo gzip/deflate/br it announced it accepts.
  bool verify_tls = true;
  std::string ca_file;  ///< PEM file of the CA certificates to verify the server with; empty: the system's.
  http_version version = http_version::negotiate;
  /// Non-zero ends the exchange within about a second, also while the server
  /// is silent (end "stopped"): a command stopped by a signal
  /// (ssec/adapter/interrupt.hpp). Set from another thread; nullptr: never.
  const std::atomic<int>* stop = nullptr;
};

/// Why the exchange ended.
enum class stream_end {
  complete,       ///< The server closed the response normally.
  stopped,        ///< The caller's on_data returned false (enough events, say), or stream_request::stop.
  max_bytes,      ///< The byte limit was reached.
  timeout,        ///< The overall timeout struck.
  idle_timeout,   ///< No byte for idle_timeout_s.
  reset,          ///< The connection broke mid-response (reset, truncated chunked encoding, an HTTP/2 stream reset...).
  connect_error,  ///< Could not connect / resolve.
  tls_error,      ///< TLS handshake or certificate failure.
  other_error,    ///< Anything else curl reports; see stream_result::error.
  headers_too_large,  ///< The response headers broke max_header_bytes (or libcurl's line limit): no body was read.
};

std::string_view to_string(stream_end e) noexcept;

struct stream_result {
  stream_end end = stream_end::other_error;
  std::string error;                           ///< curl's message, for errors.
  long status = 0;                             ///< HTTP status of the final response (0 if none).
  std::map<std::string, std::string> headers;  ///< Lower-cased names of the final response.
  std::uint64_t body_bytes = 0;
  std::string redirect_url;           ///< Where a 3xx pointed, when not followed.
  std::string protocol;               ///< "HTTP/1.0", "HTTP/1.1", "HTTP/2" or "HTTP/3"; empty when no response came.
  double seconds_to_first_byte = -1;  ///< From the start to the first body byte; -1 if none.
  double seconds_total = 0;
};

/// Called for each received body piece: the bytes and the seconds since the
/// request started. Return false to stop reading.
using on_data = std::function<bool(std::string_view bytes, double at_seconds)>;

/// Called once the head of the response whose body follows is complete
/// (after the redirects followed, if any): its status and headers (names
/// lower-case). Return false to read none of its body (end "stopped").
using on_head = std::function<bool(long status, const std::map<std::string, std::string>& headers)>;

/// Performs the request, streaming the body into `data`. Thread-safe for
/// distinct calls (each has its own curl handle).
stream_result stream(const stream_request& req, const on_data& data);
/// The same, telling `head` the final response's head before its body.
stream_result stream(const stream_request& req, const on_head& head, const on_data& data);

namespace detail {
/// Why libcurl, looked for under `names` in turn (the first that opens is
/// used), could not serve check_url() and stream(); empty when it could.
/// check_url() and stream() use {"libcurl.so.4", "libcurl-gnutls.so.4"},
/// opened once for the process; this opens and asks again (for tests).
std::string libcurl_problem(std::initializer_list<const char*> names);
}  // namespace detail

}  // namespace ssec::http
