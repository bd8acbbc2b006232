// SPDX-License-Identifier: MIT
// A raw loopback TCP client for the tests that play hostile or unlucky HTTP
// clients (http_hostile_test.cpp, hostile_cli_test.cpp): it sends bytes as
// given, half a request or a malformed one, and reads whatever comes back
// within a generous bound.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace raw_client {

/// A connection to 127.0.0.1:port, closed when it goes out of scope.
class client {
 public:
  explicit client(std::uint16_t port, int receive_buffer = 0) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    // A small receive buffer (before connecting) makes a client that does not
    // read fill up sooner.
    if (receive_buffer > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~client() { ::close(fd_); }
  client(const client&) = delete;
  client& operator=(const client&) = delete;
  bool connected() const { return connected_; }
  void send(std::string_view bytes) const { ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  void half_close() const { ::shutdown(fd_, SHUT_WR); }
  /// Everything until the server closes, or until `bound` passed (then what came).
  std::string answer(std::chrono::milliseconds bound = std::chrono::seconds(30)) const {
    std::string out;
    const auto until = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }

 private:
  int fd_;
  bool connected_ = false;
};

/// The first line of an HTTP answer, without its CRLF.
inline std::string status_line(const std::string& answer) { return answer.substr(0, answer.find("\r\n")); }

}  // namespace raw_client
