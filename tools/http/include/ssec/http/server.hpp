// SPDX-License-Identifier: MIT
// A small HTTP/1.1 server for serving cases to real clients (`sse-conform
// serve`) and for the tests of `check`. Loopback by default. Each response is
// written as the handler writes it: one send() per write, TCP_NODELAY, so a
// client sees the chunk boundaries the case asks for (as far as TCP allows).
// Responses end by closing the connection (no keep-alive): the simplest
// framing every SSE client must accept.
//
// Hostile clients (tools/docs/serve.md, "Limits and hostile clients"): the
// request head is parsed strictly (RFC 9112; anything malformed is a 4xx
// naming what is wrong, before any handler runs), each request has a total
// deadline for its head and for its body, every write a send timeout, a
// handler's exception is a 500 for that request only, and when every
// connection slot is taken the oldest connection still sending its request
// is dropped to make room, so slow clients cannot lock others out. stop()
// never waits on a client.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ssec/support/result.hpp"

namespace ssec::http {

/// A parsed request. Header names are lower-cased; a header sent on several
/// lines is one value, the lines joined with ", " (RFC 9110, 5.3).
struct request {
  std::string method;
  std::string target;                        ///< As sent: path plus query (origin-form).
  std::string path;                          ///< Target without the query, percent-decoding not applied.
  std::map<std::string, std::string> query;  ///< Decoded query parameters (last one wins).
  std::map<std::string, std::string> headers;
  std::string body;
  bool http11 = true;  ///< HTTP/1.1 (false: HTTP/1.0, which cannot take a chunked response).
  std::string header(const std::string& lower_name) const {
    const auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

/// What one client may hold: each bound keeps a client from taking what
/// others need. The defaults are serve's (tools/docs/serve.md).
struct server_limits {
  /// Connections served at once. When all are taken, a new connection makes
  /// room by dropping the oldest one still sending its request (head or
  /// body), answered `503`; when every one is past its request (streaming),
  /// the new one is answered `503`.
  std::size_t max_connections = 64;
  std::size_t max_head_bytes = 64 * 1024;         ///< Request line and headers; more: 431 (414 for the line alone).
  std::size_t max_body_bytes = 16 * 1024 * 1024;  ///< A body beyond this (Content-Length or chunked): 413.
  /// Request bodies held at once, all connections together (a body is
  /// reserved before it is read, until its handler returned): a body that
  /// does not fit now is answered 503, so 64 clients cannot make the server
  /// hold 64 times max_body_bytes.
  std::size_t max_body_bytes_in_flight = 64 * 1024 * 1024;
  std::chrono::milliseconds head_timeout{10'000};  ///< The whole head must arrive within this: 408 otherwise.
  std::chrono::milliseconds body_timeout{30'000};  ///< The whole body must arrive within this: 408 otherwise.
  /// A write that makes no progress for this long (the client stopped
  /// reading) fails: write() returns false, as for a client that left.
  std::chrono::milliseconds send_timeout{10'000};
};

/// Why a request was refused before any handler saw it: the status (400,
/// 408, 413, 414, 417, 431; 501 for a transfer coding other than chunked,
/// 505 for an HTTP version other than 1.0 and 1.1) and one sentence naming
/// what is wrong, byte values escaped.
struct refusal {
  int status = 400;
  std::string reason;
};

/// Parses a request head: the request line and the header lines, each
/// ending in CRLF, without the blank line that ends the head. Strict
/// (RFC 9112): a bare CR or LF, a method that is not a token, a target with
/// a space, a control or non-ASCII byte, obsolete line folding, a space
/// before a header's colon, a control byte in a value, a duplicate Host,
/// Content-Length, Transfer-Encoding or Last-Event-ID, an HTTP/1.1 request
/// without Host, a Content-Length that is not digits, Content-Length with
/// Transfer-Encoding, or an Expect other than 100-continue are refused.
/// Fills `req` (method, target, path, query, headers; not the body) and
/// returns nothing when the head is acceptable. An absolute-form target
/// (`http://host/p?q`) is served as its path and query. Pure; thread-safe.
std::optional<refusal> parse_head(std::string_view head, request& req);

class server;

/// Writes one response on one connection. Not thread-safe.
class response {
 public:
  /// Sends the status line and headers (once). Adds `Connection: close`, and
  /// `Transfer-Encoding: chunked` when the headers give no Content-Length and
  /// the request is HTTP/1.1: a streamed body is then sent in chunks and ends
  /// with the last chunk, so a client tells a cut (no last chunk) from the end.
  /// An HTTP/1.0 request gets the body as is, ended by the close.
  /// A header name that is not a token, or a value with a control byte
  /// (CR, LF, NUL...), is never sent: the response becomes a 500 instead and
  /// start() returns false (a backstop against response splitting).
  bool start(int status, const std::vector<std::pair<std::string, std::string>>& headers);
  /// Sends `bytes` as one write (one chunk; nothing for no bytes). Returns
  /// false once the peer is gone, the server stops, or the peer read nothing
  /// for server_limits::send_timeout.
  bool write(std::string_view bytes);
  /// A complete small response: status, Content-Type, Content-Length, body.
  bool send(int status, std::string_view content_type, std::string_view body);
  /// Ends the connection with a TCP reset instead of a clean close.
  void reset_connection();
  /// For a HEAD request: start() and send() still send the status line and
  /// headers (send()'s Content-Length is the body's), but no body byte is
  /// written; write() returns false, so a streaming handler stops.
  void omit_body() noexcept { head_only_ = true; }
  bool started() const noexcept { return started_; }
  std::uint64_t bytes_written() const noexcept { return body_bytes_; }

 private:
  response(int fd, const server* owner) : fd_(fd), owner_(owner) {}
  bool send_bytes(std::string_view bytes) const;
  int fd_;
  const server* owner_;
  bool started_ = false;
  bool reset_ = false;
  bool head_only_ = false;
  bool failed_ = false;  ///< A write failed or the head was invalid: nothing more is sent.
  bool http11_ = true;   ///< The request's version: whether a chunked body may be sent.
  bool chunked_ = false;
  /// After the handler returned: the last chunk of a chunked body (not after a reset or a failure).
  void finish();
  std::uint64_t body_bytes_ = 0;
  friend class server;
};

/// The handler runs on the connection's own thread; it may block (stalls and
/// slow drips are what it is for) but should watch server::stopping(). An
/// exception it throws ends only its own response: a 500 when nothing was
/// sent yet, a TCP reset otherwise (so the cut is not taken for an end).
using handler = std::function<void(const request&, response&)>;

class server {
 public:
  /// Binds `address`:`port` (0 = any free port) and starts accepting: the
  /// running server, or why it could not start ("socket: ...", "not an IPv4
  /// address: ...", "<address>:<port>: <strerror>"; no file, no line).
  /// The server stops when stop() is called or it is destroyed.
  static ssec::result<std::unique_ptr<server>> start(handler h, std::string address = "127.0.0.1",
                                                     std::uint16_t port = 0, server_limits limits = {});
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  std::string base_url() const;
  /// True once stop() began: long-running handlers should return.
  bool stopping() const noexcept { return stopping_.load(); }
  /// Stops accepting and ends every connection: those still sending their
  /// request at once, the others after their handlers had up to a second to
  /// notice stopping(); then waits for the handlers to return. Never waits
  /// on a client (a stalled reader or a half-sent request).
  void stop();
  const server_limits& limits() const noexcept { return limits_; }
  /// Connections open now (being read, handled or closed).
  std::size_t connections() const;
  /// Connections dropped so far to make room for a new one (oldest unfinished request first).
  std::uint64_t evicted() const noexcept { return evicted_total_.load(); }

 private:
  struct connection {
    int fd = -1;
    bool reading = true;   ///< Still receiving its request: may be evicted.
    bool evicted = false;  ///< Dropped to make room: answers nothing more.
  };
  server(handler h, std::string address, server_limits limits);
  ssec::result<void> open_listener(std::uint16_t port);
  void accept_loop();
  void admit(int fd);
  void serve_connection(std::uint64_t id, int fd);
  bool done_reading(std::uint64_t id);
  void forget(std::uint64_t id);
  friend class response;

  handler handler_;
  std::string address_;
  std::uint16_t port_ = 0;
  server_limits limits_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> evicted_total_{0};
  std::atomic<std::size_t> body_bytes_{0};  ///< Request body bytes reserved now (max_body_bytes_in_flight).
  mutable std::mutex mutex_;
  std::condition_variable drained_;
  std::map<std::uint64_t, connection> connections_;  ///< By admission order: the first is the oldest.
  std::uint64_t next_id_ = 0;
  std::size_t evicted_open_ = 0;  ///< Evicted connections whose threads have not ended yet.
  std::thread acceptor_;
};

/// Decodes %XX and '+' in a query component (ssec::percent_encode() is its inverse).
std::string percent_decode(std::string_view s);

}  // namespace ssec::http
