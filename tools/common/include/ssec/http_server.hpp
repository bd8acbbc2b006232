// SPDX-License-Identifier: MIT
// A small HTTP/1.1 server for serving cases to real clients (`sse-conform
// serve`) and for the tests of `check`. Loopback by default. Each response is
// written as the handler writes it: one send() per write, TCP_NODELAY, so a
// client sees the chunk boundaries the case asks for (as far as TCP allows).
// Responses end by closing the connection (no keep-alive): the simplest
// framing every SSE client must accept.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ssec/result.hpp"

namespace ssec::http {

/// A parsed request. Header names are lower-cased.
struct request {
  std::string method;
  std::string target;                        ///< As sent: path plus query.
  std::string path;                          ///< Target without the query, percent-decoding not applied.
  std::map<std::string, std::string> query;  ///< Decoded query parameters (last one wins).
  std::map<std::string, std::string> headers;
  std::string body;
  std::string header(const std::string& lower_name) const {
    const auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

/// Writes one response on one connection. Not thread-safe.
class response {
 public:
  explicit response(int fd) : fd_(fd) {}
  /// Sends the status line and headers (once). Adds `Connection: close`.
  bool start(int status, const std::vector<std::pair<std::string, std::string>>& headers);
  /// Sends `bytes` as one write. Returns false once the peer is gone.
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
  int fd_;
  bool started_ = false;
  bool reset_ = false;
  bool head_only_ = false;
  std::uint64_t body_bytes_ = 0;
  friend class server;
};

/// The handler runs on the connection's own thread; it may block (stalls and
/// slow drips are what it is for) but should watch server::stopping().
using handler = std::function<void(const request&, response&)>;

class server {
 public:
  /// Binds `address`:`port` (0 = any free port) and starts accepting: the
  /// running server, or why it could not start ("socket: ...", "not an IPv4
  /// address: ...", "<address>:<port>: <strerror>"; no file, no line).
  /// The server stops when stop() is called or it is destroyed.
  static ssec::result<std::unique_ptr<server>> start(handler h, std::string address = "127.0.0.1",
                                                     std::uint16_t port = 0, std::size_t max_connections = 64);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  std::string base_url() const;
  /// True once stop() began: long-running handlers should return.
  bool stopping() const noexcept { return stopping_.load(); }
  /// Stops accepting, waits for handlers (they should notice stopping()).
  void stop();

 private:
  server(handler h, std::string address, std::size_t max_connections);
  ssec::result<void> open_listener(std::uint16_t port);
  void accept_loop();
  void serve_connection(int fd);

  handler handler_;
  std::string address_;
  std::uint16_t port_ = 0;
  std::size_t max_connections_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> active_{0};
  std::thread acceptor_;
};

/// Decodes %XX and '+' in a query component.
std::string percent_decode(std::string_view s);

}  // namespace ssec::http
