// SPDX-License-Identifier: MIT
// The pure analysis of a captured response (analyze): response, transport,
// wire and producer-rule checks.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <exception>
#include <optional>
#include <sstream>
#include <thread>

#include "check_internal.hpp"
#include "page_hints.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"
#include "sse/recording.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::live {

namespace detail {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

namespace {

// The endings after which a body has no unterminated block: a blank line,
// however its line ends are written (at most four bytes).
constexpr std::string_view frame_endings[] = {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n", "\r\n\n"};

bool ends_on_frame_boundary(std::string_view bytes) {
  for (const auto end : frame_endings) {
    if (bytes.ends_with(end)) return true;
  }
  return false;
}

// The end of the last blank line unterminated_block looks for ("\n\n",
// "\r\n\r\n", "\r\r") wholly inside `bytes`, or 0. Searched from the end,
// so the cost is the distance to it (rfind of each would compare at every
// byte of a read that lacks it, as an LF stream lacks "\r\r").
std::size_t after_last_separator(std::string_view bytes) {
  for (std::size_t end = bytes.size(); end >= 2; --end) {
    const char c = bytes[end - 1];
    if (c != '\n' && c != '\r') continue;
    if (bytes[end - 2] == c) return end;
    if (c == '\n' && end >= 4 && bytes.substr(end - 4, 4) == "\r\n\r\n") return end;
  }
  return 0;
}

}  // namespace

// Offset of the start of the unterminated last block, or nullopt when the
// bytes end on a frame boundary (a blank line) or are empty.
std::optional<std::uint64_t> unterminated_block(std::string_view bytes) {
  if (bytes.empty() || ends_on_frame_boundary(bytes)) return std::nullopt;
  return after_last_separator(bytes);  // the block starts after the last blank line (0: none)
}

void add(check_report& r, check_finding f) {
  (f.severity == "must" ? r.must : r.should) += 1;
  r.findings.push_back(std::move(f));
}

}  // namespace detail

using namespace detail;

namespace {

// The value of parameter `name` of a media type (`text/event-stream;
// charset="utf-8"`), unquoted; nullopt when absent (RFC 9110, 8.3.1).
std::optional<std::string> media_parameter(std::string_view type, std::string_view name) {
  std::size_t at = type.find(';');
  while (at != std::string_view::npos) {
    type.remove_prefix(at + 1);
    at = type.find(';');
    const std::string_view param = type.substr(0, at);
    const auto eq = param.find('=');
    if (eq == std::string_view::npos || lower(std::string(trim(param.substr(0, eq)))) != name) continue;
    std::string value(trim(param.substr(eq + 1)));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return value;
  }
  return std::nullopt;
}

std::string header(const capture& c, const std::string& name) {
  const auto it = c.headers.find(name);
  return it == c.headers.end() ? std::string() : it->second;
}

// What a parse makes observable (sse::recording's members), hashed as it
// goes: two chunkings agree when their digests do, and no recording of
// millions of events is held to find out. Words, not bytes: a
// byte-at-a-time hash (FNV-1a) was the larger part of each re-parse of a
// large body.
class digest_visitor {
 public:
  sse::action on_event(const sse::event_view& e) {
    mix_number('e');
    mix(e.type);
    mix(e.data);
    mix(e.last_event_id);
    return sse::action::proceed;
  }
  void on_retry(std::uint64_t ms) {
    mix_number('r');
    mix_number(ms);
  }
  void on_comment(std::string_view text, std::uint64_t) {
    mix_number('c');
    mix(text);
  }
  void on_diagnostic(const sse::diagnostic& d) {
    mix_number('d');
    mix_number(static_cast<std::uint64_t>(d.code));
    mix_number(d.offset);
    mix(d.detail);
  }
  std::uint64_t value() const noexcept { return h_; }
  void mix_number(std::uint64_t n) noexcept {
    h_ = (h_ ^ n) * 0x9E3779B97F4A7C15ULL;
    h_ ^= h_ >> 29;
  }
  // A string goes in as its own hash (string_hash), which does not wait on
  // the running one: only one multiply a string stands in the running
  // hash's chain, and the strings' own work overlaps it. Were every word of
  // every string put through that one chain, its multiplies' latency, not
  // the bytes, would bound the re-parses.
  void mix(std::string_view s) noexcept { mix_number(string_hash(s)); }

  // In the way of XXH3: the length, then the bytes. Up to 16 bytes, two
  // words, read overlapping where the string is shorter (the length tells
  // the cases apart), folded by two multiplies. Longer, 32 bytes at a time
  // in four lanes: each word, xored with a key that changes with its place,
  // is folded by one multiply of its two halves into its lane and added as
  // it is to the next lane, so a changed word always changes the lanes, and
  // the lanes chain only by adds; a last block reads the last 32 bytes
  // (overlapping), and the lanes are folded in pairs.
  static std::uint64_t string_hash(std::string_view s) noexcept {
    constexpr std::uint64_t step = 0x9E3779B97F4A7C15ULL;
    const auto fold = [](std::uint64_t a, std::uint64_t b) {
      const std::uint64_t m = (a ^ std::rotl(b, 29)) * step;
      return m ^ (m >> 32);
    };
    const auto word_at = [](const char* p) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, 8);
      return w;
    };
    const char* p = s.data();
    const std::size_t n = s.size();
    if (n <= 16) {
      std::uint64_t a = 0;
      std::uint64_t b = 0;
      if (n >= 8) {
        a = word_at(p);
        b = word_at(p + n - 8);
      } else if (n >= 4) {
        std::uint32_t x = 0;
        std::uint32_t y = 0;
        std::memcpy(&x, p, 4);
        std::memcpy(&y, p + n - 4, 4);
        a = x;
        b = y;
      } else if (n > 0) {
        a = static_cast<unsigned char>(p[0]) | (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
            (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16);
      }
      return fold(a ^ (n * step), b ^ 0x243F6A8885A308D3ULL);
    }
    std::uint64_t lane[4] = {n, 0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL, 0xA4093822299F31D0ULL};
    std::uint64_t key = 0xC2B2AE3D27D4EB4FULL;
    const auto block = [&](std::uint64_t w0, std::uint64_t w1, std::uint64_t w2, std::uint64_t w3) {
      const std::uint64_t words[4] = {w0, w1, w2, w3};
      for (int k = 0; k < 4; ++k) {
        const std::uint64_t keyed = words[k] ^ (key + static_cast<std::uint64_t>(k) * step);
        lane[k] += (keyed & 0xFFFFFFFFULL) * (keyed >> 32);
        lane[(k + 1) & 3] += words[k];
      }
      key = key * step + 1;
    };
    if (n < 32) {
      block(word_at(p), word_at(p + 8), word_at(p + n - 16), word_at(p + n - 8));
    } else {
      std::size_t at = 0;
      for (; at + 32 <= n; at += 32)
        block(word_at(p + at), word_at(p + at + 8), word_at(p + at + 16), word_at(p + at + 24));
      if (at < n) {
        const char* last = p + n - 32;
        block(word_at(last), word_at(last + 8), word_at(last + 16), word_at(last + 24));
      }
    }
    return fold(fold(lane[0], lane[1]), fold(lane[2], lane[3]));
  }

 private:
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

// Follows the received pieces with the reference parser: which read completed
// each event, and where each event's block began. Counts as it goes, so
// memory does not grow with the number of events. The same pass gives the
// digest of the as-received chunking (digest_visitor), so that chunking is
// not parsed a second time.
struct arrival_visitor {
  digest_visitor digest;
  const reads* rd = nullptr;
  std::size_t piece = 0;
  std::size_t events = 0;
  std::size_t comments = 0;
  std::size_t event_reads = 0;  // distinct reads that completed an event
  std::size_t split = 0;        // events whose block began in an earlier read
  std::size_t last_piece = 0;
  std::uint64_t first_offset = 0;
  double first_at = -1;
  double last_at = -1;
  double max_gap = 0;
  double gap_sum = 0;
  sse::action on_event(const sse::event_view& e) {
    if (events == 0 || piece != last_piece) ++event_reads;
    // The block began in an earlier read when it began before this one
    // (rd's latest read is the one being fed).
    if (e.offset < rd->latest_start) ++split;
    const double at = rd->latest_at;
    if (events == 0) {
      first_offset = e.offset;
      first_at = at;
    } else {
      max_gap = std::max(max_gap, at - last_at);
      gap_sum += at - last_at;
    }
    last_at = at;
    last_piece = piece;
    ++events;
    return digest.on_event(e);
  }
  void on_comment(std::string_view text, std::uint64_t offset) {
    ++comments;
    digest.on_comment(text, offset);
  }
  void on_retry(std::uint64_t ms) { digest.on_retry(ms); }
  void on_diagnostic(const sse::diagnostic& d) { digest.on_diagnostic(d); }
};

// The digest of a finished parse: what it saw, then how it ended.
template <class Parser>
std::uint64_t final_digest(digest_visitor v, const Parser& p, sse::errc status) {
  v.mix_number(static_cast<std::uint64_t>(status));
  if (sse::is_fatal(status)) v.mix_number(p.error_offset());
  v.mix(p.last_event_id());
  v.mix_number(p.retry().value_or(~std::uint64_t{0}));
  return v.value();
}

// One parse hashed as it goes (digest_visitor), fed chunk by chunk; a fatal
// error stops it, and later chunks are ignored, as a caller would stop.
class digest_parse {
 public:
  explicit digest_parse(const sse::limits& lim) : p_(v_, lim) {}
  digest_parse(const digest_parse&) = delete;
  digest_parse& operator=(const digest_parse&) = delete;
  void feed(std::string_view chunk) {
    if (!sse::is_fatal(status_)) status_ = p_.feed(chunk).status;
  }
  std::uint64_t finish() {
    if (!sse::is_fatal(status_)) status_ = p_.finish();
    return final_digest(v_, p_, status_);
  }

 private:
  digest_visitor v_;
  sse::parser<digest_visitor> p_;
  sse::errc status_ = sse::errc::ok;
};

// The digest of parsing `chunks` in order and finishing.
std::uint64_t parse_digest(const std::vector<std::string_view>& chunks, const sse::limits& lim) {
  digest_parse d(lim);
  for (const auto chunk : chunks) d.feed(chunk);
  return d.finish();
}

// The parse of a body cut by seed `seed`'s random chunks, fed in pieces of
// any size (the chunks are the same whatever the pieces).
class random_split_parse {
 public:
  random_split_parse(std::uint64_t seed, const sse::limits& lim)
      : parse_(lim), cuts_(sse::chunking::random_cuts(seed)) {}
  void push(std::string_view piece) {
    cuts_.push(piece, [this](std::string_view chunk) { return take(chunk); });
  }
  std::uint64_t finish() {
    cuts_.finish([this](std::string_view chunk) { return take(chunk); });
    return parse_.finish();
  }

 private:
  bool take(std::string_view chunk) {
    parse_.feed(chunk);
    return true;
  }
  digest_parse parse_;
  sse::chunking::recutter cuts_;
};

// parse_digest of sse::chunking::random(bytes, seed), cut as it is fed: a
// large body's random chunks (about 270 bytes on average) would otherwise be
// a vector of a quarter million views, a fresh 4 MB.
std::uint64_t random_split_digest(std::string_view bytes, std::uint64_t seed, const sse::limits& lim) {
  if (bytes.empty()) return parse_digest({bytes}, lim);  // random() gives one empty chunk
  random_split_parse split(seed, lim);
  split.push(bytes);
  return split.finish();
}

std::string seconds(double s) {
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << s << " s";
  return out.str();
}

// The first bytes of a response body that is not a stream (an error page
// says why), escaped; redacted later with the rest of the report.
std::string body_excerpt(const body_pass& body) {
  if (body.size() == 0) return " (no body)";
  return ", body " + ssec::quote_clipped(body.head(), 200, body.size());
}

void check_response(const capture& cap, const body_pass& body, check_report& r) {
  if (cap.status == 0) return;
  if (cap.status >= 300 && cap.status < 400) {
    add(r, {"HTTP-REDIRECT", "must", std::nullopt, 0,
            "the endpoint redirected instead of streaming; check does not follow redirects, point it at the final URL",
            "200", std::to_string(cap.status) + (cap.redirect_url.empty() ? "" : " to " + cap.redirect_url)});
    return;
  }
  if (cap.status != 200) {
    add(r, {"HTTP-STATUS", "must", std::nullopt, 0,
            "an event stream must be answered with 200 (EventSource fails the connection on any other status)", "200",
            std::to_string(cap.status) + body_excerpt(body)});
    return;
  }
  const std::string type = header(cap, "content-type");
  const std::string media = lower(std::string(trim(std::string_view(type).substr(0, type.find(';')))));
  if (media != "text/event-stream") {
    add(r, {"HTTP-CONTENT-TYPE", "must", std::nullopt, 0,
            "the response must be labelled text/event-stream (EventSource fails the connection otherwise)",
            "text/event-stream", type.empty() ? "(no Content-Type)" : type});
  }
  if (media == "text/event-stream") {
    if (const auto charset = media_parameter(type, "charset"); charset && lower(*charset) != "utf-8") {
      add(r, {"HTTP-CHARSET", "should", std::nullopt, 0,
              "the Content-Type names the charset " + ssec::quote_clipped(*charset, 40) +
                  ", but an event stream is always UTF-8 (WHATWG: \"Streams must be decoded using the UTF-8 decode "
                  "algorithm.\"): EventSource ignores the label, a client that honours it garbles non-ASCII text",
              "no charset, or charset=utf-8", type, 0, "decision", "decision, spec/DECISIONS.md#http-charset"});
    }
  }
  const std::string encoding = lower(std::string(trim(header(cap, "content-encoding"))));
  if (!encoding.empty() && encoding != "identity") {
    add(r, {"HTTP-COMPRESSION", "should", std::nullopt, 0,
            "the stream is compressed: each event must be flushed through the compressor or clients see bursts",
            "identity", encoding});
  }
  // HTTP/1.x without chunked coding or a length: the close is the end, so a
  // cut reads as one. Known only for responses whose protocol was recorded.
  const std::string coding = lower(header(cap, "transfer-encoding"));
  if (cap.protocol.starts_with("HTTP/1") && header(cap, "content-length").empty() &&
      coding.find("chunked") == std::string::npos) {
    add(r, {"HTTP-CLOSE-DELIMITED", "should", std::nullopt, 0,
            "the response has neither chunked transfer coding nor a Content-Length, so its end is the "
            "connection's close: a cut (a proxy's read timeout, a crash) reads as a clean end to every client",
            "Transfer-Encoding: chunked (or HTTP/2)", cap.protocol + " ended by the close", 0, "decision",
            "decision, spec/DECISIONS.md#close-delimited"});
  }
}

// What an HTTP/2 stream reset's code says about its cause, from the error
// text libcurl gives ("... was not closed cleanly: PROTOCOL_ERROR (err 1)").
std::string http2_reset_cause(std::string_view error) {
  const auto code = [&](std::string_view name) { return error.find(std::string(name) + " (err") != error.npos; };
  if (code("PROTOCOL_ERROR")) {
    return "; PROTOCOL_ERROR: the response broke HTTP/2's rules, for example a connection-specific header "
           "(Connection, Keep-Alive, Transfer-Encoding, Upgrade), which HTTP/2 forbids";
  }
  if (code("INTERNAL_ERROR")) return "; INTERNAL_ERROR: the server or a proxy failed while streaming";
  if (code("CANCEL")) return "; CANCEL: the server or a proxy gave up on the stream";
  if (code("STREAM_CLOSED") || code("REFUSED_STREAM")) return "; the server refused or closed the stream";
  return "";
}

// At least this long a silence before a cut reads as an idle connection
// closed by a proxy or load balancer (nginx's proxy_read_timeout is whole
// seconds, at least 1; load balancers' idle timeouts are longer).
constexpr double idle_cut_s = 1.0;

void check_transport(const capture& cap, const body_pass& body, const reads& rd, check_report& r) {
  const auto tail = body.unterminated();
  const std::uint64_t at = body.size();
  const std::string where =
      tail ? "mid-frame (the frame at byte " + std::to_string(*tail) + " is incomplete)" : "on a frame boundary";
  if (cap.end == "reset") {
    // How long the stream had been silent when it broke: a cut after a
    // silence is what an idle timeout in front of the server does.
    const double last = rd.count > 0 ? rd.latest_at : 0;
    const double silence = cap.timed ? cap.seconds_total - last : 0;
    std::string message =
        "the connection broke " + where + (cap.error.empty() ? "" : ": " + cap.error) + http2_reset_cause(cap.error);
    std::string seen = "reset after " + std::to_string(at) + " bytes";
    if (cap.timed) seen += ", " + seconds(silence) + " after the last byte";
    if (cap.timed && silence >= idle_cut_s) {
      message += "; it came after " + seconds(silence) +
                 " of silence: a proxy or load balancer likely closed an idle stream (its read or idle timeout); "
                 "heartbeat comments (`: ping`) sent more often than that timeout keep it open";
    }
    add(r, {"STREAM-RESET", "must", std::nullopt, tail.value_or(at), message, "a clean end of the response", seen});
  } else if (cap.end == "timeout") {
    add(r, {"STREAM-TIMEOUT", "must", std::nullopt, at, "the response did not end within the overall timeout, " + where,
            "the stream to end", "still open after " + seconds(cap.seconds_total)});
  } else if (cap.end == "idle_timeout" && !cap.error.empty()) {
    add(r, {"STREAM-IDLE-TIMEOUT", "must", std::nullopt, 0,
            "the response head did not complete within the idle timeout: " + cap.error, "a complete response head",
            "an incomplete head; gave up at " + seconds(cap.seconds_total)});
  } else if (cap.end == "idle_timeout") {
    add(r, {"STREAM-IDLE-TIMEOUT", "must", std::nullopt, at,
            "no byte arrived for the idle timeout (send heartbeat comments), " + where, "bytes or a heartbeat",
            "silence; gave up at " + seconds(cap.seconds_total)});
  } else if (cap.end == "headers_too_large") {
    add(r, {"STREAM-HEADERS-TOO-LARGE", "must", std::nullopt, 0,
            "the response headers are too large to read, so nothing of the stream was: " + cap.error,
            "response headers within the limit", cap.error});
  } else if (cap.end == "tls_error") {
    add(r, {"STREAM-TLS", "must", std::nullopt, 0, "TLS failed: " + cap.error, "a valid TLS handshake", cap.error});
  } else if (cap.end == "connect_error") {
    add(r, {"STREAM-CONNECT", "must", std::nullopt, 0, "could not connect: " + cap.error, "a connection", cap.error});
  } else if (cap.end == "other_error") {
    add(r,
        {"STREAM-ERROR", "must", std::nullopt, at, "the transfer failed: " + cap.error, "a clean response", cap.error});
  } else if (cap.end == "truncated") {
    add(r, {"STREAM-TRUNCATED-CAPTURE", "should", std::nullopt, at,
            "the capture has no end line: it was cut short, the stream's end is unknown", "an end line", "none"});
  }
}

}  // namespace

namespace detail {

struct arrival_pass::impl {
  arrival_visitor v;
  sse::parser<arrival_visitor> p;
  sse::errc status = sse::errc::ok;
  impl(const sse::limits& lim, const reads& rd) : p(v, lim) { v.rd = &rd; }
};

arrival_pass::arrival_pass(const sse::limits& lim, const reads& rd) : impl_(std::make_unique<impl>(lim, rd)) {}
arrival_pass::~arrival_pass() = default;

bool arrival_pass::feed(std::size_t index, std::string_view bytes) {
  auto& m = *impl_;
  m.v.piece = index;
  const auto fed = m.p.feed(bytes);
  if (sse::is_fatal(fed.status)) m.status = fed.status;
  return m.status == sse::errc::ok;
}

void arrival_pass::finish() {
  auto& m = *impl_;
  m.v.piece = m.v.rd->count == 0 ? 0 : m.v.rd->count - 1;
  m.status = m.p.finish();
}

std::size_t arrival_pass::events() const noexcept { return impl_->v.events; }
bool arrival_pass::stopped() const noexcept { return sse::is_fatal(impl_->status); }

struct body_pass::impl {
  sse::limits lim;
  std::uint64_t seeds = 0;
  bool one_read = false;
  bool parse = true;
  std::uint64_t size = 0;
  std::string head;
  large_buffer held;  // the body, until it outgrows held_whole
  std::size_t held_size = 0;
  std::string_view held_bytes() const noexcept { return {held.data(), held_size}; }
  static constexpr std::uint64_t small_body = std::uint64_t{64} << 10;
  bool let_go = false;
  // Once the body is let go: the first seed's random split.
  std::optional<random_split_parse> random;
  // unterminated_block, followed: where the block after the latest blank
  // line begins, and the body's last bytes (a blank line may straddle reads).
  std::uint64_t block_start = 0;
  std::string tail;
  std::vector<chunking> chunkings;
  std::optional<std::uint64_t> reference;

  static constexpr std::size_t tail_size = 4;  // the longest blank line or ending

  void follow_separators(std::string_view bytes) {
    // A blank line ending past the tail, in the tail and this read's first
    // bytes, straddles them (or lies in this read, found again below).
    if (!tail.empty()) {
      const std::string joined = tail + std::string(bytes.substr(0, tail_size - 1));
      if (const std::size_t end = after_last_separator(joined); end > tail.size())
        block_start = std::max(block_start, size - tail.size() + end);
    }
    if (const std::size_t end = after_last_separator(bytes); end > 0) block_start = std::max(block_start, size + end);
    if (bytes.size() >= tail_size) {
      tail.assign(bytes.substr(bytes.size() - tail_size));
    } else {
      tail.append(bytes);
      if (tail.size() > tail_size) tail.erase(0, tail.size() - tail_size);
    }
  }

  void feed(std::string_view bytes) {
    follow_separators(bytes);
    size += bytes.size();
    if (head.size() < head_size) head.append(bytes.substr(0, head_size - head.size()));
    if (!parse) return;
    if (!let_go) {
      if (size <= held_whole) {
        // Reserved at once past 64 KiB, in 2 MiB pages (large_buffer), so
        // a body near the bound is not copied at each doubling; a small body
        // (most error pages, every fuzzer input) grows as a string does,
        // without a 4 MiB mapping made and unmade for it.
        if (held.capacity() - held_size < bytes.size()) {
          held.reserve(size > small_body ? held_whole : std::max<std::size_t>(held.capacity() * 2, size), held_size);
        }
        std::copy(bytes.begin(), bytes.end(), held.data() + held_size);
        held_size += bytes.size();
        return;
      }
      let_go = true;
      if (seeds > 0) random.emplace(1, lim);
      if (random) random->push(held_bytes());
      held.release();
      held_size = 0;
    }
    if (random) random->push(bytes);
  }

  void finish() {
    if (!parse) return;
    if (!let_go) {
      const std::string_view body = held_bytes();
      if (!one_read) reference = parse_digest({body}, lim);
      if (body.size() <= byte_by_byte_max)
        chunkings.push_back({"byte by byte", parse_digest(sse::chunking::bytes(body), lim)});
      for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        chunkings.push_back({"with random seed " + std::to_string(seed), random_split_digest(body, seed, lim)});
      }
      held.release();
      held_size = 0;
      return;
    }
    if (random) chunkings.push_back({"with random seed 1", random->finish()});
  }
};

body_pass::body_pass(const sse::limits& lim, std::uint64_t chunking_seeds, bool one_read, bool parse)
    : impl_(std::make_unique<impl>()) {
  impl_->lim = lim;
  impl_->seeds = chunking_seeds;
  impl_->one_read = one_read;
  impl_->parse = parse;
}
body_pass::~body_pass() = default;
void body_pass::feed(std::string_view bytes) { impl_->feed(bytes); }
void body_pass::finish() { impl_->finish(); }
std::uint64_t body_pass::size() const noexcept { return impl_->size; }
std::string_view body_pass::head() const noexcept { return impl_->head; }
std::optional<std::uint64_t> body_pass::unterminated() const noexcept {
  if (impl_->size == 0 || ends_on_frame_boundary(impl_->tail)) return std::nullopt;
  return impl_->block_start;
}
const std::vector<body_pass::chunking>& body_pass::chunkings() const noexcept { return impl_->chunkings; }
std::optional<std::uint64_t> body_pass::reference() const noexcept { return impl_->reference; }
bool body_pass::let_go() const noexcept { return impl_->let_go; }

}  // namespace detail

namespace {

void check_wire(const capture& cap, const body_pass& body, const reads& rd, const arrival_pass& arrived,
                const check_options& opt, check_report& r) {
  const auto& v = arrived.state().v;
  const auto& p = arrived.state().p;
  const sse::errc status = arrived.state().status;
  const std::uint64_t as_received = final_digest(v.digest, p, status);
  if (sse::is_fatal(status)) {
    add(r, {"WIRE-LIMIT", "must", std::nullopt, p.error_offset(),
            "the reference parser stopped: " + describe_error(status, p.error_offset()), "a stream within the limits",
            std::string(sse::to_string(status))});
  }
  r.events = v.events;
  r.comments = v.comments;
  r.last_event_id = std::string(p.last_event_id());
  r.event_reads = v.event_reads;
  r.frames_split_across_reads = v.split;

  // Timing.
  if (cap.timed && rd.count > 0) {
    auto& t = r.timing;
    t.first_byte = cap.seconds_to_first_byte >= 0 ? cap.seconds_to_first_byte : rd.first_at;
    t.last_byte = rd.latest_at;
    t.max_gap = std::max(rd.max_gap, t.first_byte);
    // The silence that made the reader give up counts too.
    if (cap.end == "idle_timeout" || cap.end == "timeout" || cap.end == "max_time" || cap.end == "reset")
      t.max_gap = std::max(t.max_gap, cap.seconds_total - t.last_byte);
    if (v.events > 0) {
      t.first_event = v.first_at;
      t.max_event_gap = v.max_gap;
      if (v.events > 1) t.mean_event_gap = v.gap_sum / static_cast<double>(v.events - 1);
    }
    if (r.events >= 2 && r.event_reads == 1 && t.total >= opt.burst_min_s) {
      add(r,
          {"STREAM-BUFFERED", "should", std::size_t{0}, v.first_offset,
           "all " + std::to_string(r.events) + " events arrived in one read at " + seconds(t.first_event) + " of a " +
               seconds(t.total) + " exchange: the response looks buffered (proxy, compression or framework)",
           "events as they happen", "one burst"});
    }
    if (opt.heartbeat_s > 0 && t.max_gap > opt.heartbeat_s) {
      add(r, {"STREAM-HEARTBEAT", "should", std::nullopt, 0,
              "a silence longer than the heartbeat interval: proxies and clients may drop the connection (send a ': "
              "ping' comment)",
              "at most " + seconds(opt.heartbeat_s) + " without bytes", seconds(t.max_gap)});
    }
  }

  // Re-parse under many chunkings: the reference must agree with itself;
  // the as-received split is what the client actually saw. Parses are
  // compared by digest (digest_visitor), so none is held in memory. One
  // read is one chunk, the whole body: the arrival pass parsed it so.
  // A body let go is not parsed whole: what it was received as is the reference.
  const bool whole_parsed = rd.count == 1 || body.reference().has_value();
  const std::uint64_t whole = rd.count == 1 ? as_received : body.reference().value_or(as_received);
  const std::string reference = whole_parsed ? "whole" : "as received";
  const auto compare_digest = [&](std::uint64_t digest, const std::string& name) {
    ++r.chunkings_tried;
    if (digest == whole) return;
    if (!r.chunking_invariant) return;  // one finding is enough
    r.chunking_invariant = false;
    add(r, {"WIRE-CHUNKING", "must", std::nullopt, 0,
            "the stream parses differently when split " + name + " than " + reference,
            "the same events under every chunking", "a difference under " + name});
  };
  if (whole_parsed) compare_digest(as_received, "as received");  // the arrival pass above parsed it
  for (const auto& c : body.chunkings()) compare_digest(c.digest, c.name);
}

// The producer rules over the body as received: the same report as
// `sse-conform validate` on the concatenated bytes (validate_pieces).
sse::dialect::validation_report validate_producer(const capture& cap, const check_options& opt, bool sampled) {
  std::vector<std::string_view> pieces;
  pieces.reserve(cap.pieces.size());
  for (const auto& pc : cap.pieces) pieces.emplace_back(pc.bytes);
  return sse::dialect::validate_pieces(*opt.dialect, pieces, opt.limits, std::nullopt, !sampled);
}

}  // namespace

namespace detail {

bool is_stream(const capture& c) noexcept {
  // A body that is not an event stream (an error page), or no body because
  // there was no connection, is not judged further.
  const bool no_connection = c.end == "connect_error" || c.end == "tls_error";
  return c.status == 200 || (c.status == 0 && !no_connection);
}

bool is_sample(const capture& c) noexcept { return c.end == "stopped" || c.end == "max_bytes" || c.end == "max_time"; }

check_report judge(const capture& meta, const body_pass& body, const reads& rd, const arrival_pass* arrived,
                   const check_options& opt) {
  check_report r;
  r.strict = opt.strict;
  r.source = meta.source;
  r.dialect = opt.dialect ? opt.dialect->name : "";
  r.status = meta.status;
  r.content_type = header(meta, "content-type");
  r.content_encoding = header(meta, "content-encoding");
  r.end = meta.end;
  r.error = meta.error;
  r.redirect_url = meta.redirect_url;
  r.protocol = meta.protocol;
  r.pieces = rd.count;
  r.timing.total = meta.seconds_total;
  // The end of the stream was never read, so it is not graded.
  r.sampled = is_sample(meta);
  r.bytes = body.size();
  // Headers cut short by their limit are not judged: what was read of them is not the response's.
  if (meta.end != "headers_too_large") check_response(meta, body, r);
  check_transport(meta, body, rd, r);
  if (arrived != nullptr) check_wire(meta, body, rd, *arrived, opt, r);
  return r;
}

void add_producer(const sse::dialect::validation_report& v, check_report& r) {
  r.frames = v.frames;
  for (const auto& f : v.findings) {
    add(r,
        {f.rule->id, std::string(sse::dialect::to_string(f.rule->level)), f.frame, f.offset, f.rule->text, f.expected,
         f.seen, 0, std::string(sse::dialect::to_string(f.rule->basis)), sse::dialect::basis_text(*f.rule), f.at_end});
  }
  // Findings beyond each rule's cap were counted, not stored: they count in
  // the verdict all the same.
  std::size_t stored_must = 0;
  std::size_t stored_decision = 0;
  for (const auto& f : v.findings) {
    stored_must += f.rule->level == sse::dialect::severity::must;
    stored_decision += f.rule->basis == sse::dialect::basis::decision;
  }
  r.must += v.must - stored_must;
  r.should += v.not_shown - (v.must - stored_must);
  r.findings_not_shown += v.not_shown;
  r.decision_not_shown += v.decision - stored_decision;
}

}  // namespace detail

check_report analyze(const capture& cap, const check_options& opt) {
  const bool stream = is_stream(cap);
  // The producer rules read the pieces on a second thread, beside the
  // concatenation and the wire parse below (they share nothing but `cap`
  // and `opt`, read-only).
  std::optional<sse::dialect::validation_report> produced;
  std::exception_ptr producer_failed;
  std::jthread producer;
  if (stream && opt.dialect != nullptr) {
    producer = std::jthread([&, sampled = is_sample(cap)] {
      try {
        produced = validate_producer(cap, opt, sampled);
      } catch (...) {
        producer_failed = std::current_exception();
      }
    });
  }
  body_pass body(opt.limits, opt.chunking_seeds, cap.pieces.size() == 1, stream);
  for (const auto& pc : cap.pieces) body.feed(pc.bytes);
  body.finish();
  // Each read is added just before the arrival pass is fed it, as the
  // reading commands do; a pass stopped at a limit leaves the rest counted.
  reads rd;
  std::optional<arrival_pass> arrived;
  if (stream) arrived.emplace(opt.limits, rd);
  bool going = stream;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < cap.pieces.size(); ++i) {
    rd.add(offset, cap.pieces[i].at_seconds);
    offset += cap.pieces[i].bytes.size();
    if (going) going = arrived->feed(i, cap.pieces[i].bytes);
  }
  if (going) arrived->finish();
  check_report r = judge(cap, body, rd, arrived ? &*arrived : nullptr, opt);
  // The producer findings come after the wire's: the report does not depend
  // on which thread finishes first.
  if (producer.joinable()) {
    producer.join();
    if (producer_failed) std::rethrow_exception(producer_failed);
    add_producer(*produced, r);
  }
  return r;
}

}  // namespace ssec::live
