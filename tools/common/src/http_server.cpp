// SPDX-License-Identifier: MIT
#include "ssec/http_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace ssec::http {
namespace {

constexpr std::size_t max_head_bytes = 64 * 1024;
constexpr std::size_t max_body_bytes = 16 * 1024 * 1024;
constexpr int read_timeout_ms = 10000;

std::string_view reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Reads until `want` bytes are buffered or the head ends; false on timeout/EOF.
bool read_more(int fd, std::string& buf) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, read_timeout_ms) <= 0) return false;
  char chunk[16384];
  const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
  if (n <= 0) return false;
  buf.append(chunk, static_cast<std::size_t>(n));
  return true;
}

// Parses the request head and body; false with a status for a bad request.
bool read_request(int fd, request& req, int& bad_status) {
  std::string buf;
  std::size_t head_end;
  while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
    if (buf.size() > max_head_bytes) {
      bad_status = 413;
      return false;
    }
    if (!read_more(fd, buf)) {
      bad_status = 0;
      return false;
    }
  }
  std::string_view head(buf.data(), head_end);
  const auto line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  const auto sp1 = request_line.find(' ');
  const auto sp2 = request_line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) {
    bad_status = 400;
    return false;
  }
  req.method = std::string(request_line.substr(0, sp1));
  req.target = std::string(request_line.substr(sp1 + 1, sp2 - sp1 - 1));
  const auto q = req.target.find('?');
  req.path = req.target.substr(0, q);
  if (q != std::string::npos) {
    std::string_view query(req.target);
    query.remove_prefix(q + 1);
    while (!query.empty()) {
      const auto amp = query.find('&');
      const std::string_view pair = query.substr(0, amp);
      const auto eq = pair.find('=');
      req.query[percent_decode(pair.substr(0, eq))] =
          eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1));
      if (amp == std::string_view::npos) break;
      query.remove_prefix(amp + 1);
    }
  }
  std::string_view rest = line_end == std::string_view::npos ? std::string_view() : head.substr(line_end + 2);
  while (!rest.empty()) {
    const auto eol = rest.find("\r\n");
    const std::string_view line = rest.substr(0, eol);
    const auto colon = line.find(':');
    if (colon != std::string_view::npos) {
      req.headers[lower(std::string(trim(line.substr(0, colon))))] = std::string(trim(line.substr(colon + 1)));
    }
    if (eol == std::string_view::npos) break;
    rest.remove_prefix(eol + 2);
  }
  std::size_t length = 0;
  if (const auto cl = req.header("content-length"); !cl.empty()) {
    length = std::strtoull(cl.c_str(), nullptr, 10);
    if (length > max_body_bytes) {
      bad_status = 413;
      return false;
    }
  }
  req.body = buf.substr(head_end + 4);
  while (req.body.size() < length) {
    if (!read_more(fd, req.body)) {
      bad_status = 400;
      return false;
    }
  }
  req.body.resize(length);
  return true;
}

}  // namespace

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool response::start(int status, const std::vector<std::pair<std::string, std::string>>& headers) {
  if (started_) return true;
  started_ = true;
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason(status)) + "\r\n";
  for (const auto& [k, v] : headers) head += k + ": " + v + "\r\n";
  head += "Connection: close\r\n\r\n";
  return send_all(fd_, head);
}

bool response::write(std::string_view bytes) {
  if (!started_ && !start(200, {})) return false;
  if (head_only_) return false;
  if (!send_all(fd_, bytes)) return false;
  body_bytes_ += bytes.size();
  return true;
}

bool response::send(int status, std::string_view content_type, std::string_view body) {
  return start(status,
               {{"Content-Type", std::string(content_type)}, {"Content-Length", std::to_string(body.size())}}) &&
         (head_only_ || write(body));
}

void response::reset_connection() {
  // SO_LINGER with a zero timeout makes close() send RST.
  linger l{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  reset_ = true;
}

server::server(handler h, std::string address, std::size_t max_connections)
    : handler_(std::move(h)), address_(std::move(address)), max_connections_(max_connections) {}

ssec::result<std::unique_ptr<server>> server::start(handler h, std::string address, std::uint16_t port,
                                                    std::size_t max_connections) {
  // Not movable (the acceptor thread holds `this`): built in place, then bound.
  std::unique_ptr<server> s(new server(std::move(h), std::move(address), max_connections));
  if (auto bound = s->open_listener(port); !bound) return bound.error();
  return {std::move(s)};
}

ssec::result<void> server::open_listener(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return ssec::error{std::string("socket: ") + std::strerror(errno)};
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (::inet_pton(AF_INET, address_.c_str(), &addr.sin_addr) != 1) {
    ::close(fd);
    return ssec::error{"not an IPv4 address: " + address_};
  }
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 64) != 0) {
    ssec::error failed{address_ + ":" + std::to_string(port) + ": " + std::strerror(errno)};
    ::close(fd);
    return failed;
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  listen_fd_ = fd;
  acceptor_ = std::thread([this] { accept_loop(); });
  return {};
}

server::~server() { stop(); }

std::string server::base_url() const { return "http://" + address_ + ":" + std::to_string(port_); }

void server::stop() {
  if (stopping_.exchange(true)) return;
  if (listen_fd_ >= 0) ::shutdown(listen_fd_, SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
  // Connection threads are detached; wait for the handlers to notice.
  while (active_.load() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void server::accept_loop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    if (active_ >= max_connections_) {
      response r(fd);
      r.send(503, "text/plain", "too many connections\n");
      ::close(fd);
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++active_;
    std::thread([this, fd] { serve_connection(fd); }).detach();
  }
}

void server::serve_connection(int fd) {
  request req;
  int bad_status = 0;
  response res(fd);
  if (read_request(fd, req, bad_status)) {
    handler_(req, res);
    if (!res.started()) res.send(500, "text/plain", "handler wrote nothing\n");
  } else if (bad_status != 0) {
    res.send(bad_status, "text/plain", "bad request\n");
  }
  if (!res.reset_) ::shutdown(fd, SHUT_WR);
  ::close(fd);
  --active_;
}

}  // namespace ssec::http
