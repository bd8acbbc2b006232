// SPDX-License-Identifier: MIT
// The server side of client cases (tools/docs/client-cases.md): plays each
// case's script, one scripted response per connection attempt, and records
// every request the client makes, with its time and headers, and when each
// response ended. The runner grades what it recorded
// (conformance::grade_client) on a client_server of its own; `serve` plays
// the same scripts at /client/ beside its cases (client_scripts), so a
// browser's EventSource reaches them from the page's own origin.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ssec/conformance/client_script.hpp"
#include "ssec/http/server.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

/// At most this many requests are recorded per script: a client that
/// reconnects without end is shown its first ones (and answered 204).
inline constexpr std::size_t client_max_recorded_requests = 64;
/// At most this many scripts are played at once: adding one more forgets the
/// oldest, so a page or client that starts plays without end holds bounded memory.
inline constexpr std::size_t client_max_scripts = 1024;

/// The scripts being played, served by a handler of someone's http::server
/// at /client/<n>/<name>. Thread-safe.
class client_scripts {
 public:
  client_scripts();
  ~client_scripts();
  client_scripts(const client_scripts&) = delete;
  client_scripts& operator=(const client_scripts&) = delete;

  /// The server whose stop ends a held response early (may be null).
  void attach(const http::server* server);
  /// Plays `script` at a path of its own, returned (/client/<n>/<name>);
  /// the case's clock starts now. `name` (a case path) makes it readable.
  std::string add(const conformance::client_script& script, const std::string& name);
  /// What was seen at `path` so far (requests and response ends); the
  /// client's own part (`answer`, `ended`) is left empty. Nothing when
  /// `path` is not played (never added, removed, or forgotten as the oldest).
  std::optional<conformance::client_observation> observed(std::string_view path) const;
  /// The name `path` was added with, or nothing.
  std::optional<std::string> name_of(std::string_view path) const;
  /// Forgets `path`: a later request there is answered 404.
  void remove(std::string_view path);

  /// Whether `path` is under /client/ (the handler answers it, 404 when unknown).
  static bool serves(std::string_view path);
  /// Answers a request under /client/: the script's next response.
  void handle(const http::request& req, http::response& res);

  struct state;  ///< Implementation detail.

 private:
  std::shared_ptr<state> state_;
};

/// A server of its own for client scripts: what `run --layer client` plays
/// the cases on.
class client_server {
 public:
  /// Binds `address`:`port` (0: any free port).
  static ssec::result<std::unique_ptr<client_server>> start(std::string address = "127.0.0.1", std::uint16_t port = 0);
  ~client_server();
  client_server(const client_server&) = delete;
  client_server& operator=(const client_server&) = delete;

  /// Plays `script` at a URL of its own, returned (client_scripts::add).
  std::string add(const conformance::client_script& script, const std::string& name);
  /// What the server saw at `url` so far (client_scripts::observed); empty
  /// when it is not played.
  conformance::client_observation observed(const std::string& url) const;
  /// Forgets `url`: a later request there is answered 404.
  void remove(const std::string& url);

  std::string base_url() const;
  void stop();

 private:
  client_server() = default;
  std::string path_of(const std::string& url) const;
  std::shared_ptr<client_scripts> scripts_;
  std::unique_ptr<http::server> server_;
};

}  // namespace ssec::live
