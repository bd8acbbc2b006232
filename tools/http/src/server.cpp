// SPDX-License-Identifier: MIT
#include "ssec/http/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::http {
namespace {

using clock = std::chrono::steady_clock;

constexpr std::size_t max_chunk_line = 1024;            // a chunk-size line with its extensions
constexpr std::size_t max_drain_bytes = 1024 * 1024;    // read and dropped after a response, at most
constexpr std::chrono::milliseconds drain_time{1000};   // ... and for at most this long
constexpr std::chrono::milliseconds stop_grace{1000};   // handlers' time to notice stop()
constexpr std::chrono::milliseconds busy_send_time{0};  // a 503 to a surplus client: one try, never blocks

std::string_view reason(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 417: return "Expectation Failed";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
  }
}

// Sends all of `bytes` without ever blocking in send(): waits for room in
// steps, and gives up when the peer took nothing for `timeout` or `stop`
// is set. False when not everything was sent.
bool send_all(int fd, std::string_view bytes, std::chrono::milliseconds timeout, const std::atomic<bool>* stop) {
  auto last_progress = clock::now();
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      last_progress = clock::now();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return false;
    if (stop != nullptr && stop->load()) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(timeout - (clock::now() - last_progress));
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLOUT, 0};
    ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 100)));
  }
  return true;
}

bool is_tchar(unsigned char c) {
  // RFC 9110, 5.6.2: token characters.
  return std::isalnum(c) != 0 || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return is_tchar(static_cast<unsigned char>(c)); });
}

// RFC 9110, 5.5: a field value is visible ASCII, space, tab and obs-text;
// never CR, LF, NUL or another control byte.
bool is_field_value(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c == '\t' || (c >= 0x20 && c != 0x7f);
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

refusal refuse(int status, std::string reason) { return refusal{status, std::move(reason)}; }

// The bytes of something a client sent, escaped and clipped for a message.
std::string shown(std::string_view bytes) { return ssec::quote_clipped(bytes, 80); }

void parse_query(std::string_view query, request& req) {
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

std::optional<refusal> parse_request_line(std::string_view line, request& req, bool& http11) {
  const auto sp1 = line.find(' ');
  const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    return refuse(400, "the request line " + shown(line) + " is not METHOD SP TARGET SP HTTP-VERSION");
  }
  const std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (!is_token(method)) return refuse(400, "the method " + shown(method) + " is not a token");
  if (version == "HTTP/1.1") {
    http11 = true;
  } else if (version == "HTTP/1.0") {
    http11 = false;
  } else if (version.size() == 8 && version.starts_with("HTTP/") &&
             std::isdigit(static_cast<unsigned char>(version[5])) && version[6] == '.' &&
             std::isdigit(static_cast<unsigned char>(version[7]))) {
    return refuse(505, "HTTP version " + std::string(version) + " is not supported (1.0 and 1.1 are)");
  } else {
    return refuse(400, "the request line ends in " + shown(version) + ", not an HTTP version");
  }
  if (target.empty() || !std::all_of(target.begin(), target.end(), [](char c) { return c > 0x20 && c < 0x7f; })) {
    return refuse(400, "the request target " + shown(target) + " has a byte outside visible ASCII");
  }
  // Absolute-form (RFC 9112, 3.2.2): served as its path and query.
  for (const std::string_view scheme : {"http://", "https://"}) {
    if (target.size() > scheme.size() && lower(target.substr(0, scheme.size())) == scheme) {
      const auto path = target.find_first_of("/?", scheme.size());
      target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
      break;
    }
  }
  if (target.front() != '/' && !(target == "*" && method == "OPTIONS")) {
    return refuse(400, "the request target " + shown(target) + " is not a path (it must start with /)");
  }
  req.method = std::string(method);
  req.target = target.front() == '?' ? "/" + std::string(target) : std::string(target);
  const auto q = req.target.find('?');
  req.path = req.target.substr(0, q);
  if (q != std::string::npos) parse_query(std::string_view(req.target).substr(q + 1), req);
  return std::nullopt;
}

// Headers a request may carry once: a second one is ambiguous (which length
// frames the body? which host?), the stuff of request smuggling.
bool singleton(std::string_view name) {
  return name == "host" || name == "content-length" || name == "transfer-encoding" || name == "last-event-id";
}

std::optional<refusal> parse_header_line(std::string_view line, request& req) {
  if (line.front() == ' ' || line.front() == '\t') {
    return refuse(400, "obsolete line folding (a header line starting with a space or tab): " + shown(line));
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return refuse(400, "a header line without a colon: " + shown(line));
  const std::string_view raw_name = line.substr(0, colon);
  if (!is_token(raw_name)) {
    return refuse(400, "the header name " + shown(raw_name) + " is not a token (no space before the colon)");
  }
  const std::string name = lower(raw_name);
  const std::string_view value = trim(line.substr(colon + 1));
  if (!is_field_value(value)) return refuse(400, "the header " + name + " has a control byte: " + shown(value));
  const auto [it, fresh] = req.headers.try_emplace(name, value);
  if (!fresh) {
    if (singleton(name)) return refuse(400, "the header " + name + " is sent twice");
    it->second.append(", ").append(value);
  }
  return std::nullopt;
}

// What frames the body: the rules of RFC 9112, 6.
std::optional<refusal> check_framing(const request& req, bool http11) {
  const std::string length = req.header("content-length");
  const std::string coding = req.header("transfer-encoding");
  if (req.headers.count("content-length") != 0) {
    if (length.empty() || length.size() > 19 ||
        !std::all_of(length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return refuse(400, "Content-Length " + shown(length) + " is not a whole number of bytes");
    }
  }
  if (req.headers.count("transfer-encoding") != 0) {
    if (req.headers.count("content-length") != 0) {
      return refuse(400, "both Content-Length and Transfer-Encoding: which one frames the body is ambiguous");
    }
    if (!http11) return refuse(400, "Transfer-Encoding in an HTTP/1.0 request");
    if (lower(coding) != "chunked") {
      return refuse(501, "transfer coding " + shown(coding) + " is not supported (only chunked is)");
    }
  }
  if (const std::string expect = lower(req.header("expect")); http11 && !expect.empty() && expect != "100-continue") {
    return refuse(417, "Expect " + shown(expect) + " (only 100-continue is understood)");
  }
  if (http11 && req.headers.count("host") == 0) return refuse(400, "an HTTP/1.1 request without a Host header");
  return std::nullopt;
}

// The connection's bytes, read against a deadline.
enum class got { bytes, closed, timed_out };

got read_more(int fd, std::string& buf, clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) return got::timed_out;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, 1000)));
    if (ready < 0 && errno != EINTR) return got::closed;
    if (ready <= 0) continue;
    char chunk[16384];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) return got::closed;
    buf.append(chunk, static_cast<std::size_t>(n));
    return got::bytes;
  }
}

// Bytes of request bodies the server holds at once, across connections:
// each body is reserved whole (Content-Length) or chunk by chunk before it
// is read, and given back when its request is done. Thread-safe.
class body_budget {
 public:
  body_budget(std::atomic<std::size_t>& used, std::size_t max) : used_(used), max_(max) {}
  bool take(std::size_t n) {
    std::size_t used = used_.load();
    do {
      if (used > max_ || n > max_ - used) return false;
    } while (!used_.compare_exchange_weak(used, used + n));
    return true;
  }
  void give(std::size_t n) { used_ -= n; }

 private:
  std::atomic<std::size_t>& used_;
  std::size_t max_;
};

// The end of one request's reading: the request is complete, or a refusal
// to answer, or neither (the client left or never spoke: nobody to answer).
struct read_outcome {
  bool complete = false;
  std::optional<refusal> refused;
};

// Reads one request from a connection: the head against its deadline and
// size, then the body (Content-Length or chunked) against its own.
class request_reader {
 public:
  request_reader(int fd, const server_limits& lim, const std::atomic<bool>& stopping, body_budget budget)
      : fd_(fd), lim_(lim), stopping_(stopping), budget_(budget) {}
  ~request_reader() { budget_.give(reserved_); }
  request_reader(const request_reader&) = delete;
  request_reader& operator=(const request_reader&) = delete;

  read_outcome read(request& req) {
    deadline_ = clock::now() + lim_.head_timeout;
    late_ = "the request head did not arrive within " + std::to_string(lim_.head_timeout.count()) + " ms";
    early_ = "the connection closed inside the request head";
    std::size_t body_at = 0;
    if (auto end = read_head(body_at)) return *end;
    const std::string_view head(buf_.data() + head_start_, body_at - 2 - head_start_);
    if (auto bad = parse_head(head, req)) return {false, std::move(bad)};
    pos_ = body_at;
    deadline_ = clock::now() + lim_.body_timeout;
    late_ = "the request body did not arrive within " + std::to_string(lim_.body_timeout.count()) + " ms";
    early_ = "the connection closed inside the request body";
    const bool chunked = req.headers.count("transfer-encoding") != 0;
    const std::string cl = req.header("content-length");
    const std::uint64_t length = cl.empty() ? 0 : std::stoull(cl);  // digits only, at most 19 (parse_head)
    if (length > lim_.max_body_bytes) {
      return refused(413, "a body of " + cl + " bytes; the limit is " + std::to_string(lim_.max_body_bytes));
    }
    if (!reserve(length)) return busy();
    buf_.reserve(pos_ + length);
    if ((chunked || length > 0) && buf_.size() == pos_ && !req.header("expect").empty() &&
        !send_all(fd_, "HTTP/1.1 100 Continue\r\n\r\n", lim_.send_timeout, &stopping_)) {
      return {};
    }
    if (chunked) return read_chunked(req);
    if (auto end = wait_bytes(length)) return *end;
    buf_.erase(0, pos_);
    buf_.resize(length);
    req.body = std::move(buf_);  // no second copy of a large body
    return {true, std::nullopt};
  }

 private:
  static read_outcome refused(int status, std::string why) { return {false, refuse(status, std::move(why))}; }

  // Holds `n` more body bytes against the server-wide budget (given back
  // when the reader, which lives as long as its request, is destroyed).
  bool reserve(std::uint64_t n) {
    if (n == 0) return true;
    if (!budget_.take(static_cast<std::size_t>(n))) return false;
    reserved_ += static_cast<std::size_t>(n);
    return true;
  }
  read_outcome busy() const {
    return refused(503, "request bodies of other clients fill the server's " +
                            std::to_string(lim_.max_body_bytes_in_flight) + " bytes for bodies; try again later");
  }

  // Reads more bytes; the outcome that ends reading when none came.
  std::optional<read_outcome> more() {
    const got g = read_more(fd_, buf_, deadline_);
    if (g == got::bytes) return std::nullopt;
    if (buf_.empty()) return read_outcome{};  // an idle connection: closed without a word
    return refused(g == got::timed_out ? 408 : 400, g == got::timed_out ? late_ : early_);
  }

  // Until the head's blank line: where the body starts, past it. Leading
  // empty lines are skipped (RFC 9112, 2.2); a bare LF is refused at once.
  std::optional<read_outcome> read_head(std::size_t& body_at) {
    std::size_t scan = 0;
    for (;;) {
      while (head_start_ + 1 < buf_.size() && buf_[head_start_] == '\r' && buf_[head_start_ + 1] == '\n')
        head_start_ += 2;
      for (scan = std::max(scan, head_start_); scan < buf_.size(); ++scan) {
        if (buf_[scan] != '\n') continue;
        if (scan == 0 || buf_[scan - 1] != '\r') {
          return refused(400, "a line of the request head ends in a bare LF (CRLF is required)");
        }
        if (scan >= head_start_ + 3 && buf_[scan - 2] == '\n' && buf_[scan - 3] == '\r') {
          // A head over the limit is refused however it arrived: whole in
          // one read as well as a piece at a time.
          if (scan + 1 - head_start_ > lim_.max_head_bytes) return head_too_long();
          body_at = scan + 1;
          return std::nullopt;
        }
      }
      if (buf_.size() - head_start_ > lim_.max_head_bytes) return head_too_long();
      if (auto end = more()) return end;
    }
  }

  read_outcome head_too_long() const {
    const auto line_end = std::min(buf_.find('\n', head_start_), buf_.size());
    const bool long_line = line_end - head_start_ >= lim_.max_head_bytes;
    return refused(long_line ? 414 : 431, std::string(long_line ? "the request line" : "the request head") +
                                              " is longer than " + std::to_string(lim_.max_head_bytes) + " bytes");
  }

  // Until `n` bytes from pos_ are buffered.
  std::optional<read_outcome> wait_bytes(std::uint64_t n) {
    while (buf_.size() - pos_ < n) {
      if (auto end = more()) return end;
    }
    return std::nullopt;
  }

  // Until a CRLF-ended line of at most `max` bytes starts at pos_: its end.
  std::optional<read_outcome> wait_line(std::size_t max, std::string_view what, std::size_t& eol) {
    std::size_t from = pos_;
    for (;;) {
      eol = buf_.find("\r\n", from);
      if (eol != std::string::npos && eol - pos_ <= max) return std::nullopt;
      if (buf_.size() - pos_ > max + 1) {
        return refused(400, std::string(what) + " is longer than " + std::to_string(max) + " bytes");
      }
      from = buf_.size() > pos_ ? buf_.size() - 1 : pos_;
      if (auto end = more()) return end;
    }
  }

  // A chunked body (RFC 9112, 7.1): each chunk is held against the body
  // limit before it is waited for; extensions and trailers are dropped.
  read_outcome read_chunked(request& req) {
    std::size_t eol = 0;
    for (;;) {
      if (auto end = wait_line(max_chunk_line, "a chunk-size line", eol)) return *end;
      std::string_view size_text(buf_.data() + pos_, eol - pos_);
      size_text = trim(size_text.substr(0, size_text.find(';')));
      if (size_text.empty() || size_text.size() > 15 || !std::all_of(size_text.begin(), size_text.end(), [](char c) {
            return std::isxdigit(static_cast<unsigned char>(c)) != 0;
          })) {
        return refused(400, "the chunk size " + shown(size_text) + " is not a hexadecimal number");
      }
      const std::uint64_t size = std::stoull(std::string(size_text), nullptr, 16);
      pos_ = eol + 2;
      if (size == 0) break;
      if (size > lim_.max_body_bytes - req.body.size()) {
        return refused(413, "the chunked body is larger than " + std::to_string(lim_.max_body_bytes) + " bytes");
      }
      if (!reserve(size)) return busy();
      if (auto end = wait_bytes(size + 2)) return *end;
      if (buf_.compare(pos_ + size, 2, "\r\n") != 0) return refused(400, "a chunk's data is not followed by CRLF");
      req.body.append(buf_, pos_, size);
      buf_.erase(0, pos_ + size + 2);
      pos_ = 0;
    }
    std::size_t trailers = 0;
    for (;;) {
      if (auto end = wait_line(lim_.max_head_bytes, "a trailer line", eol)) return *end;
      const std::size_t n = eol - pos_;
      pos_ = eol + 2;
      if (n == 0) return {true, std::nullopt};
      trailers += n + 2;
      if (trailers > lim_.max_head_bytes) {
        return refused(431, "the trailers are longer than " + std::to_string(lim_.max_head_bytes) + " bytes");
      }
    }
  }

  int fd_;
  const server_limits& lim_;
  const std::atomic<bool>& stopping_;
  body_budget budget_;
  std::size_t reserved_ = 0;
  std::string buf_;
  std::size_t head_start_ = 0;  // after the skipped leading empty lines
  std::size_t pos_ = 0;         // the body's next byte in buf_
  clock::time_point deadline_;
  std::string late_, early_;  // why reading the current part ended: too late, the client left
};

// After a response: the client's unread bytes are read and dropped for a
// moment, so closing does not reset the connection (a reset can destroy the
// response before the client reads it). Bounded in bytes and time.
void drain(int fd) {
  const auto until = clock::now() + drain_time;
  std::size_t total = 0;
  char sink[16384];
  while (total < max_drain_bytes) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
    if (left <= 0) return;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) return;
    total += static_cast<std::size_t>(n);
  }
}

std::string plain_response(int status, std::string_view body) {
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason(status)) +
         "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + std::string(body);
}

}  // namespace

std::optional<refusal> parse_head(std::string_view head, request& req) {
  bool first = true;
  bool http11 = true;
  while (!head.empty()) {
    const auto lf = head.find('\n');
    if (lf == std::string_view::npos || lf == 0 || head[lf - 1] != '\r') {
      return refuse(400, "a line of the head does not end in CRLF (a bare LF, or none)");
    }
    const std::string_view line = head.substr(0, lf - 1);
    if (line.find('\r') != std::string_view::npos) return refuse(400, "a bare CR in the head: " + shown(line));
    if (line.empty()) return refuse(400, "an empty line inside the head");
    head.remove_prefix(lf + 1);
    if (first) {
      if (auto bad = parse_request_line(line, req, http11)) return bad;
      first = false;
    } else if (auto bad = parse_header_line(line, req)) {
      return bad;
    }
  }
  if (first) return refuse(400, "no request line");
  req.http11 = http11;
  return check_framing(req, http11);
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto hex = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool response::send_bytes(std::string_view bytes) const {
  return send_all(fd_, bytes, owner_->limits_.send_timeout, &owner_->stopping_);
}

bool response::start(int status, const std::vector<std::pair<std::string, std::string>>& headers) {
  if (started_) return true;
  started_ = true;
  bool valid = status >= 100 && status <= 599;
  for (const auto& [k, v] : headers) valid = valid && is_token(k) && is_field_value(v);
  if (!valid) {
    // Never sent: a value with CR or LF would split the response.
    failed_ = true;
    send_bytes(plain_response(500, "the response had an invalid status or header; it was not sent\n"));
    return false;
  }
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason(status)) + "\r\n";
  bool has_length = false;
  for (const auto& [k, v] : headers) {
    head += k + ": " + v + "\r\n";
    has_length |= lower(k) == "content-length";
  }
  // No body at all for these statuses (RFC 9110, 6.4.1), so no framing either.
  const bool bodiless = status < 200 || status == 204 || status == 304;
  chunked_ = http11_ && !has_length && !bodiless;
  if (chunked_) head += "Transfer-Encoding: chunked\r\n";
  head += "Connection: close\r\n\r\n";
  if (send_bytes(head)) return true;
  failed_ = true;
  return false;
}

bool response::write(std::string_view bytes) {
  if (!started_ && !start(200, {})) return false;
  if (head_only_ || failed_) return false;
  if (bytes.empty()) return true;  // a chunk of no bytes would be the last one
  bool sent = false;
  if (chunked_) {
    // One send per chunk, its size line and CRLF included, so the chunk
    // reaches the peer in one piece as an unchunked write does.
    char size[20];
    const int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
    std::string chunk;
    chunk.reserve(static_cast<std::size_t>(n) + bytes.size() + 2);
    chunk.append(size, static_cast<std::size_t>(n)).append(bytes).append("\r\n");
    sent = send_bytes(chunk);
  } else {
    sent = send_bytes(bytes);
  }
  if (!sent) {
    failed_ = true;
    return false;
  }
  body_bytes_ += bytes.size();
  return true;
}

void response::finish() {
  if (chunked_ && started_ && !head_only_ && !failed_ && !reset_) failed_ = !send_bytes("0\r\n\r\n");
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

server::server(handler h, std::string address, server_limits limits)
    : handler_(std::move(h)), address_(std::move(address)), limits_(limits) {}

ssec::result<std::unique_ptr<server>> server::start(handler h, std::string address, std::uint16_t port,
                                                    server_limits limits) {
  // Not movable (the acceptor thread holds `this`): built in place, then bound.
  std::unique_ptr<server> s(new server(std::move(h), std::move(address), limits));
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
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 128) != 0) {
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

std::size_t server::connections() const {
  std::lock_guard lock(mutex_);
  return connections_.size();
}

void server::stop() {
  if (stopping_.exchange(true)) return;
  if (listen_fd_ >= 0) ::shutdown(listen_fd_, SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
  // Requests still arriving end now; handlers get a moment to notice
  // stopping(), then every connection is shut, which wakes any read or
  // write a handler is blocked in. Connection threads are detached; their
  // last touch of `this` is forget().
  std::unique_lock lock(mutex_);
  for (const auto& [id, c] : connections_) {
    if (c.reading) ::shutdown(c.fd, SHUT_RDWR);
  }
  if (!drained_.wait_for(lock, stop_grace, [this] { return connections_.empty(); })) {
    for (const auto& [id, c] : connections_) ::shutdown(c.fd, SHUT_RDWR);
    drained_.wait(lock, [this] { return connections_.empty(); });
  }
}

void server::accept_loop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) {
      admit(fd);
    } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // out of descriptors: let connections end
    }
  }
}

void server::admit(int fd) {
  std::unique_lock lock(mutex_);
  if (connections_.size() - evicted_open_ >= limits_.max_connections) {
    // Full: the oldest connection still sending its request makes room (a
    // slow client cannot hold a slot for long); streams being served are
    // never dropped for a newcomer, who gets a 503 when all are streaming.
    const auto victim = std::find_if(connections_.begin(), connections_.end(),
                                     [](const auto& kv) { return kv.second.reading && !kv.second.evicted; });
    if (victim == connections_.end()) {
      lock.unlock();
      send_all(fd, plain_response(503, "too many connections, all of them streaming\n"), busy_send_time, nullptr);
      ::close(fd);
      return;
    }
    // Its thread only reads while `reading` (under this lock): answering here cannot interleave.
    send_all(victim->second.fd,
             plain_response(503, "dropped to make room: the request did not arrive while others waited\n"),
             busy_send_time, nullptr);
    ::shutdown(victim->second.fd, SHUT_RDWR);
    victim->second.evicted = true;
    ++evicted_open_;
    ++evicted_total_;
  }
  const std::uint64_t id = next_id_++;
  connections_.emplace(id, connection{fd});
  lock.unlock();
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  try {
    std::thread([this, id, fd] { serve_connection(id, fd); }).detach();
  } catch (const std::system_error&) {  // no thread to be had: the client is told, not left hanging
    send_all(fd, plain_response(503, "the server cannot take this connection now\n"), busy_send_time, nullptr);
    forget(id);
    ::close(fd);
  }
}

bool server::done_reading(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  auto& c = connections_.at(id);
  c.reading = false;
  return !c.evicted;
}

void server::forget(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = connections_.find(id);
  if (it == connections_.end()) return;
  if (it->second.evicted) --evicted_open_;
  connections_.erase(it);
  drained_.notify_all();  // under the lock: stop() cannot return before this thread let go of `this`
}

void server::serve_connection(std::uint64_t id, int fd) {
  response res(fd, this);
  try {
    request req;
    // Lives until the handler returned: the body stays reserved while the handler holds it.
    request_reader reader(fd, limits_, stopping_, body_budget(body_bytes_, limits_.max_body_bytes_in_flight));
    const read_outcome read = reader.read(req);
    res.http11_ = req.http11;
    if (done_reading(id)) {
      if (read.complete) {
        try {
          handler_(req, res);
          if (!res.started()) res.send(500, "text/plain", "the handler wrote nothing\n");
          res.finish();
        } catch (...) {
          // One request's failure: its own 500 (or a reset when the response
          // had begun, so the cut is not taken for its end); the server goes on.
          if (!res.started()) res.send(500, "text/plain", "internal error while answering this request\n");
          else res.reset_connection();
        }
      } else if (read.refused) {
        const refusal& r = *read.refused;
        res.send(r.status, "text/plain",
                 std::to_string(r.status) + " " + std::string(reason(r.status)) + ": " + r.reason + "\n");
      }
    }
  } catch (...) {  // out of memory while reading or answering: this connection ends, nothing else
    res.reset_connection();
  }
  if (!res.reset_) {
    ::shutdown(fd, SHUT_WR);
    if (!stopping_) drain(fd);
  }
  forget(id);
  ::close(fd);
}

}  // namespace ssec::http
