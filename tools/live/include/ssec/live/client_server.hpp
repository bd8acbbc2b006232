// SPDX-License-Identifier: MIT
// The server side of client cases (tools/docs/client-cases.md): plays each
// case's script, one scripted response per connection attempt, and records
// every request the client makes, with its time and headers, and when each
// response ended. The runner grades what it recorded
// (conformance::grade_client); `serve` plays the same scripts at /client/.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ssec/conformance/client_script.hpp"
#include "ssec/http/server.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

class client_server {
 public:
  /// Binds `address`:`port` (0: any free port).
  static ssec::result<std::unique_ptr<client_server>> start(std::string address = "127.0.0.1", std::uint16_t port = 0);
  ~client_server();
  client_server(const client_server&) = delete;
  client_server& operator=(const client_server&) = delete;

  /// Plays `script` at a URL of its own, returned; the case's clock starts
  /// now. `name` (a case path) makes the URL readable: /client/<name>/<n>.
  std::string add(const conformance::client_script& script, const std::string& name);
  /// What the server saw at `url` so far (requests and response ends); the
  /// client's own part (`answer`, `ended`) is left empty.
  conformance::client_observation observed(const std::string& url) const;
  /// Forgets `url`: a later request there is answered 404.
  void remove(const std::string& url);

  std::string base_url() const;
  void stop();

  struct state;  ///< Implementation detail, shared with the connection handlers.

 private:
  client_server() = default;
  std::shared_ptr<state> state_;
  std::unique_ptr<http::server> server_;
};

/// At most this many requests are recorded per script: a client that
/// reconnects without end is shown its first ones (and answered 204).
inline constexpr std::size_t client_max_recorded_requests = 64;

}  // namespace ssec::live
