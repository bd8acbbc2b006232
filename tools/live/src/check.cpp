// SPDX-License-Identifier: MIT
#include "ssec/live/check.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"
#include "sse/recording.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::live {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string header(const capture& c, const std::string& name) {
  const auto it = c.headers.find(name);
  return it == c.headers.end() ? std::string() : it->second;
}

// Follows the received pieces with the reference parser: which read completed
// each event, and where each event's block began.
struct arrival_visitor {
  std::size_t piece = 0;
  std::vector<std::size_t> event_piece;
  std::vector<std::uint64_t> event_offset;
  std::size_t comments = 0;
  sse::action on_event(const sse::event_view& e) {
    event_piece.push_back(piece);
    event_offset.push_back(e.offset);
    return sse::action::proceed;
  }
  void on_comment(std::string_view, std::uint64_t) { ++comments; }
};

// Offset of the start of the unterminated last block, or nullopt when the
// bytes end on a frame boundary (a blank line) or are empty.
std::optional<std::uint64_t> unterminated_block(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  for (const std::string_view end : {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n", "\r\n\n"}) {
    if (bytes.ends_with(end)) return std::nullopt;
  }
  // The last blank line: the block starts after it.
  std::size_t best = 0;
  for (const std::string_view sep : {"\n\n", "\r\n\r\n", "\r\r"}) {
    const auto at = bytes.rfind(sep);
    if (at != std::string_view::npos) best = std::max(best, at + sep.size());
  }
  return best;
}

void add(check_report& r, check_finding f) {
  (f.severity == "must" ? r.must : r.should) += 1;
  r.findings.push_back(std::move(f));
}

std::string seconds(double s) {
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << s << " s";
  return out.str();
}

void check_response(const capture& cap, check_report& r) {
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
             std::to_string(cap.status)});
    return;
  }
  const std::string type = header(cap, "content-type");
  const std::string media = lower(trim(std::string_view(type).substr(0, type.find(';'))));
  if (media != "text/event-stream") {
    add(r, {"HTTP-CONTENT-TYPE", "must", std::nullopt, 0,
             "the response must be labelled text/event-stream (EventSource fails the connection otherwise)",
             "text/event-stream", type.empty() ? "(no Content-Type)" : type});
  }
  const std::string encoding = lower(trim(header(cap, "content-encoding")));
  if (!encoding.empty() && encoding != "identity") {
    add(r, {"HTTP-COMPRESSION", "should", std::nullopt, 0,
             "the stream is compressed: each event must be flushed through the compressor or clients see bursts",
             "identity", encoding});
  }
}

void check_transport(const capture& cap, std::string_view bytes, check_report& r) {
  const auto tail = unterminated_block(bytes);
  const std::uint64_t at = bytes.size();
  const std::string where = tail ? "mid-frame (the frame at byte " + std::to_string(*tail) + " is incomplete)"
                                 : "on a frame boundary";
  if (cap.end == "reset") {
    add(r, {"STREAM-RESET", "must", std::nullopt, tail.value_or(at),
             "the connection broke " + where + (cap.error.empty() ? "" : ": " + cap.error), "a clean end of the response",
             "reset after " + std::to_string(at) + " bytes"});
  } else if (cap.end == "timeout") {
    add(r, {"STREAM-TIMEOUT", "must", std::nullopt, at, "the response did not end within the overall timeout, " + where,
             "the stream to end", "still open after " + seconds(cap.seconds_total)});
  } else if (cap.end == "idle_timeout") {
    add(r, {"STREAM-IDLE-TIMEOUT", "must", std::nullopt, at,
             "no byte arrived for the idle timeout (send heartbeat comments), " + where, "bytes or a heartbeat",
             "silence; gave up at " + seconds(cap.seconds_total)});
  } else if (cap.end == "tls_error") {
    add(r, {"STREAM-TLS", "must", std::nullopt, 0, "TLS failed: " + cap.error, "a valid TLS handshake", cap.error});
  } else if (cap.end == "connect_error") {
    add(r, {"STREAM-CONNECT", "must", std::nullopt, 0, "could not connect: " + cap.error, "a connection", cap.error});
  } else if (cap.end == "other_error") {
    add(r, {"STREAM-ERROR", "must", std::nullopt, at, "the transfer failed: " + cap.error, "a clean response", cap.error});
  } else if (cap.end == "truncated") {
    add(r, {"STREAM-TRUNCATED-CAPTURE", "should", std::nullopt, at,
             "the capture has no end line: it was cut short, the stream's end is unknown", "an end line", "none"});
  }
}

void check_wire(const capture& cap, const std::string& bytes, const check_options& opt, check_report& r) {
  arrival_visitor v;
  sse::parser<arrival_visitor> p(v, opt.limits);
  sse::errc status = sse::errc::ok;
  std::vector<std::uint64_t> piece_start;
  std::uint64_t pos = 0;
  for (std::size_t i = 0; i < cap.pieces.size() && status == sse::errc::ok; ++i) {
    v.piece = i;
    piece_start.push_back(pos);
    pos += cap.pieces[i].bytes.size();
    const auto fed = p.feed(cap.pieces[i].bytes);
    if (sse::is_fatal(fed.status)) status = fed.status;
  }
  if (status == sse::errc::ok) {
    v.piece = cap.pieces.empty() ? 0 : cap.pieces.size() - 1;
    status = p.finish();
  }
  if (sse::is_fatal(status)) {
    add(r, {"WIRE-LIMIT", "must", std::nullopt, p.error_offset(),
             "the reference parser stopped: " + describe_error(status, p.error_offset()), "a stream within the limits",
             std::string(sse::to_string(status))});
  }
  r.events = v.event_piece.size();
  r.comments = v.comments;
  r.last_event_id = std::string(p.last_event_id());
  std::vector<std::size_t> reads = v.event_piece;
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  r.event_reads = reads.size();
  for (std::size_t e = 0; e < v.event_piece.size(); ++e) {
    const auto first = std::upper_bound(piece_start.begin(), piece_start.end(), v.event_offset[e]);
    const std::size_t start_piece = first == piece_start.begin() ? 0 : static_cast<std::size_t>(first - piece_start.begin()) - 1;
    if (start_piece != v.event_piece[e]) ++r.frames_split_across_reads;
  }

  // Timing.
  if (cap.timed && !cap.pieces.empty()) {
    auto& t = r.timing;
    t.first_byte = cap.seconds_to_first_byte >= 0 ? cap.seconds_to_first_byte : cap.pieces.front().at_seconds;
    t.last_byte = cap.pieces.back().at_seconds;
    for (std::size_t i = 1; i < cap.pieces.size(); ++i) {
      t.max_gap = std::max(t.max_gap, cap.pieces[i].at_seconds - cap.pieces[i - 1].at_seconds);
    }
    t.max_gap = std::max(t.max_gap, t.first_byte);
    if (!v.event_piece.empty()) {
      t.first_event = cap.pieces[v.event_piece.front()].at_seconds;
      double sum = 0;
      for (std::size_t e = 1; e < v.event_piece.size(); ++e) {
        const double gap = cap.pieces[v.event_piece[e]].at_seconds - cap.pieces[v.event_piece[e - 1]].at_seconds;
        t.max_event_gap = std::max(t.max_event_gap, gap);
        sum += gap;
      }
      if (v.event_piece.size() > 1) t.mean_event_gap = sum / static_cast<double>(v.event_piece.size() - 1);
    }
    if (r.events >= 2 && r.event_reads == 1 && t.total >= opt.burst_min_s) {
      add(r, {"STREAM-BUFFERED", "should", std::size_t{0}, v.event_offset.front(),
               "all " + std::to_string(r.events) + " events arrived in one read at " + seconds(t.first_event) +
                   " of a " + seconds(t.total) + " exchange: the response looks buffered (proxy, compression or framework)",
               "events as they happen", "one burst"});
    }
    if (opt.heartbeat_s > 0 && t.max_gap > opt.heartbeat_s) {
      add(r, {"STREAM-HEARTBEAT", "should", std::nullopt, 0,
               "a silence longer than the heartbeat interval: proxies and clients may drop the connection (send a ': ping' comment)",
               "at most " + seconds(opt.heartbeat_s) + " without bytes", seconds(t.max_gap)});
    }
  }

  // Re-parse under many chunkings: the reference must agree with itself;
  // the as-received split is what the client actually saw.
  const sse::recording whole = sse::record_parse(std::string_view(bytes), opt.limits);
  const auto compare = [&](const std::vector<std::string_view>& chunks, const std::string& name) {
    ++r.chunkings_tried;
    if (sse::record_parse(std::span<const std::string_view>(chunks), opt.limits) == whole) return;
    if (!r.chunking_invariant) return;  // one finding is enough
    r.chunking_invariant = false;
    add(r, {"WIRE-CHUNKING", "must", std::nullopt, 0,
             "the stream parses differently when split " + name + " than whole", "the same events under every chunking",
             "a difference under " + name});
  };
  std::vector<std::string_view> as_received;
  for (const auto& pc : cap.pieces) as_received.emplace_back(pc.bytes);
  compare(as_received, "as received");
  if (bytes.size() <= (64u << 10)) compare(sse::chunking::bytes(bytes), "byte by byte");
  // Large bodies (an endless line, say) get one random split: each re-parse costs a pass.
  const std::uint64_t seeds = bytes.size() > (16u << 20) ? std::min<std::uint64_t>(1, opt.chunking_seeds) : opt.chunking_seeds;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    compare(sse::chunking::random(bytes, seed), "with random seed " + std::to_string(seed));
  }
}

void check_producer(const std::string& bytes, const check_options& opt, check_report& r) {
  if (opt.dialect == nullptr) return;
  // The same call as `sse-conform validate`, so both report the same findings.
  const auto v = sse::dialect::validate_stream(*opt.dialect, bytes, opt.limits);
  r.frames = v.frames;
  for (const auto& f : v.findings) {
    add(r, {f.rule->id, std::string(sse::dialect::to_string(f.rule->level)), f.frame, f.offset, f.rule->text, f.expected,
             f.seen});
  }
}

}  // namespace

check_report analyze(const capture& cap, const check_options& opt) {
  check_report r;
  r.source = cap.source;
  r.dialect = opt.dialect ? opt.dialect->name : "";
  r.status = cap.status;
  r.content_type = header(cap, "content-type");
  r.content_encoding = header(cap, "content-encoding");
  r.end = cap.end;
  r.error = cap.error;
  r.redirect_url = cap.redirect_url;
  r.pieces = cap.pieces.size();
  r.timing.total = cap.seconds_total;
  const std::string bytes = cap.bytes();
  r.bytes = bytes.size();
  check_response(cap, r);
  check_transport(cap, bytes, r);
  // A body that is not an event stream (an error page) is not judged further.
  const bool is_stream = cap.status == 0 || (cap.status == 200);
  if (is_stream) {
    check_wire(cap, bytes, opt, r);
    check_producer(bytes, opt, r);
  }
  return r;
}

// --- live reading ----------------------------------------------------------

struct event_counter::impl {
  struct counting {
    std::size_t events = 0;
    sse::action on_event(const sse::event_view&) {
      ++events;
      return sse::action::proceed;
    }
  };
  counting v;
  sse::parser<counting> p;
  bool failed = false;
  explicit impl(sse::limits lim) : p(v, lim) {}
};

event_counter::event_counter(sse::limits lim) : impl_(std::make_unique<impl>(lim)) {}
event_counter::~event_counter() = default;
std::size_t event_counter::feed(std::string_view bytes) {
  if (sse::is_fatal(impl_->p.feed(bytes).status)) impl_->failed = true;
  return impl_->v.events;
}
std::size_t event_counter::events() const noexcept { return impl_->v.events; }
bool event_counter::failed() const noexcept { return impl_->failed; }
std::string event_counter::last_event_id() const { return std::string(impl_->p.last_event_id()); }

capture fetch(const http::stream_request& req, std::size_t max_events, const sse::limits& lim) {
  capture cap;
  cap.source = req.url;
  event_counter counter(lim);
  const auto result = http::stream(req, [&](std::string_view bytes, double at) {
    cap.pieces.push_back(piece{std::string(bytes), at});
    const std::size_t n = counter.feed(bytes);
    return (max_events == 0 || n < max_events) && !counter.failed();
  });
  cap.status = result.status;
  cap.headers = result.headers;
  cap.end = std::string(http::to_string(result.end));
  cap.error = result.error;
  cap.redirect_url = result.redirect_url;
  cap.seconds_to_first_byte = result.seconds_to_first_byte;
  cap.seconds_total = result.seconds_total;
  return cap;
}

// --- secrets -----------------------------------------------------------------

std::optional<std::string> expand_env(std::string_view text, std::vector<std::string>& secrets, std::string& missing) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '$' || i + 1 == text.size()) {
      out += text[i++];
      continue;
    }
    std::size_t start = i + 1;
    std::size_t stop = start;
    const bool braced = text[start] == '{';
    if (braced) {
      stop = text.find('}', start);
      if (stop == std::string_view::npos) {
        out += text[i++];
        continue;
      }
      ++start;
    } else {
      while (stop < text.size() && (std::isalnum(static_cast<unsigned char>(text[stop])) || text[stop] == '_')) ++stop;
    }
    const std::string name(text.substr(start, stop - start));
    if (name.empty()) {
      out += text[i++];
      continue;
    }
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) {
      missing = name;
      return std::nullopt;
    }
    out += value;
    if (*value != '\0') secrets.emplace_back(value);
    i = braced ? stop + 1 : stop;
  }
  return out;
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 10)) text.replace(at, s.size(), "[redacted]");
  }
  return text;
}

// --- output ------------------------------------------------------------------

nlohmann::ordered_json to_json(const check_report& r) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) {
    nlohmann::ordered_json j{{"rule", f.rule}, {"severity", f.severity}};
    j["frame"] = f.frame ? nlohmann::ordered_json(*f.frame) : nlohmann::ordered_json(nullptr);
    j["offset"] = f.offset;
    j["message"] = f.message;
    j["expected"] = f.expected;
    j["seen"] = f.seen;
    findings.push_back(std::move(j));
  }
  const auto num = [](double v) { return v < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); };
  nlohmann::ordered_json out{{"source", r.source}, {"dialect", r.dialect.empty() ? "wire" : r.dialect}};
  out["response"] = {{"status", r.status},     {"content_type", r.content_type}, {"content_encoding", r.content_encoding},
                     {"end", r.end},           {"error", r.error},               {"redirect", r.redirect_url}};
  out["sizes"] = {{"bytes", r.bytes}, {"reads", r.pieces}, {"events", r.events}, {"comments", r.comments},
                  {"frames", r.frames}, {"event_reads", r.event_reads},
                  {"frames_split_across_reads", r.frames_split_across_reads}};
  out["timing"] = {{"first_byte_s", num(r.timing.first_byte)},   {"first_event_s", num(r.timing.first_event)},
                   {"last_byte_s", num(r.timing.last_byte)},     {"total_s", r.timing.total},
                   {"max_gap_s", r.timing.max_gap},              {"max_event_gap_s", r.timing.max_event_gap},
                   {"mean_event_gap_s", r.timing.mean_event_gap}};
  out["chunking"] = {{"tried", r.chunkings_tried}, {"invariant", r.chunking_invariant}};
  out["last_event_id"] = r.last_event_id;
  if (r.resumed) out["resumed"] = *r.resumed;
  out["findings"] = std::move(findings);
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", r.conforming()}};
  return out;
}

namespace {
std::string xml_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += "\\x" + std::to_string(+c);
        else out += c;
    }
  }
  return out;
}

std::string level_of(const std::string& rule) {
  if (rule.starts_with("HTTP-") || rule.starts_with("STREAM-")) return "response";
  if (rule.starts_with("WIRE-")) return "wire";
  return "producer";
}
}  // namespace

std::string to_junit(const std::vector<check_report>& reports, const std::vector<std::string>& names) {
  std::size_t tests = 0, failures = 0;
  std::string body;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const auto& r = reports[i];
    const std::string suite = i < names.size() ? names[i] : r.source;
    for (const std::string level : {"response", "wire", "producer"}) {
      ++tests;
      std::string fails;
      for (const auto& f : r.findings) {
        if (level_of(f.rule) != level || f.severity != "must") continue;
        fails += f.rule + " at byte " + std::to_string(f.offset) + (f.frame ? ", frame " + std::to_string(*f.frame) : "") +
                 ": " + f.message + " (expected " + f.expected + ", seen " + f.seen + ")\n";
      }
      body += "    <testcase classname=\"" + xml_escape(suite) + "\" name=\"" + level + "\" time=\"" +
              std::to_string(r.timing.total) + "\"";
      if (fails.empty()) {
        body += "/>\n";
      } else {
        ++failures;
        body += ">\n      <failure message=\"MUST findings\">" + xml_escape(fails) + "</failure>\n    </testcase>\n";
      }
    }
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"sse-conform check\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\">\n" + body + "  </testsuite>\n</testsuites>\n";
}

std::string to_text(const check_report& r) {
  std::ostringstream out;
  const std::string src = r.source.empty() ? "<stdin>" : r.source;
  if (r.status != 0) {
    out << src << ": HTTP " << r.status << ", Content-Type: " << (r.content_type.empty() ? "(none)" : r.content_type)
        << (r.content_encoding.empty() ? "" : ", Content-Encoding: " + r.content_encoding) << ", ended: " << r.end << '\n';
  }
  for (const auto& f : r.findings) {
    out << src << ": " << (f.frame ? "frame " + std::to_string(*f.frame) + ", " : "") << "byte " << f.offset << ": "
        << f.rule << " (" << f.severity << ") " << f.message << "\n    expected: " << f.expected << "\n    seen:     " << f.seen
        << '\n';
  }
  out.precision(3);
  out << std::fixed;
  out << src << ": " << r.bytes << " bytes in " << r.pieces << " reads, " << r.events << " events ("
      << r.event_reads << " reads completed events, " << r.frames_split_across_reads << " split across reads), "
      << r.comments << " comments; chunkings re-parsed: " << r.chunkings_tried
      << (r.chunking_invariant ? " (all agree)" : " (DIFFER)") << '\n';
  if (r.timing.first_byte >= 0) {
    out << src << ": first byte " << r.timing.first_byte << " s, first event " << r.timing.first_event
        << " s, last byte " << r.timing.last_byte << " s, total " << r.timing.total << " s, longest silence "
        << r.timing.max_gap << " s, event gaps max " << r.timing.max_event_gap << " s mean " << r.timing.mean_event_gap
        << " s\n";
  }
  out << src << ": " << (r.dialect.empty() ? "wire" : r.dialect) << ": " << r.findings.size() << " findings (" << r.must
      << " must, " << r.should << " should): " << (r.conforming() ? "conforming" : "NOT conforming") << '\n';
  return out.str();
}

}  // namespace ssec::live
