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
  // A body that is not an event stream (an error page), or no body because
  // there was no connection, is not judged further.
  const bool no_connection = cap.end == "connect_error" || cap.end == "tls_error";
  const bool is_stream = cap.status == 200 || (cap.status == 0 && !no_connection);
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

capture fetch_sampled(http::stream_request req, std::size_t max_events, double max_time_s, const sse::limits& lim) {
  const bool sampling = max_time_s > 0 && (req.timeout_s <= 0 || max_time_s < req.timeout_s);
  if (sampling) req.timeout_s = max_time_s;
  capture cap = fetch(req, max_events, lim);
  if (sampling && cap.end == "timeout") cap.end = "max_time";  // the sample the user asked for, not a failure
  return cap;
}

// --- resumption --------------------------------------------------------------

namespace {

// One dispatched event: the last event ID string at dispatch and where its block starts.
struct identified_event {
  std::string id;
  std::uint64_t offset = 0;
};

std::vector<identified_event> identified_events(std::string_view bytes, const sse::limits& lim) {
  struct visitor {
    std::vector<identified_event> out;
    sse::action on_event(const sse::event_view& e) {
      out.push_back({std::string(e.last_event_id), e.offset});
      return sse::action::proceed;
    }
  } v;
  sse::parser<visitor> p(v, lim);
  if (!sse::is_fatal(p.feed(bytes).status)) p.finish();
  return std::move(v.out);
}

void recount(check_report& r) {
  r.must = r.should = 0;
  for (const auto& f : r.findings) (f.severity == "must" ? r.must : r.should) += 1;
}

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

void judge_resumption(const capture& first, const capture& second, const std::string& sent_id, const check_options& opt,
                      check_report& report) {
  resume_report rr;
  rr.last_event_id = sent_id;
  rr.status = second.status;
  rr.end = second.end;
  rr.bytes = second.size();
  rr.seconds_total = second.seconds_total;
  const std::string b1 = first.bytes();
  const std::string b2 = second.bytes();
  rr.join_offset = unterminated_block(b1).value_or(b1.size());
  if (second.status == 204) {
    rr.verdict = "declined";
    rr.reason = "the reconnection was answered 204 No Content: the server asks clients not to reconnect";
    report.resume = std::move(rr);
    return;
  }
  // The second response's own response, transport and wire checks; its
  // producer rules run below, over the joined stream.
  check_options wire_only = opt;
  wire_only.dialect = nullptr;
  const check_report second_report = analyze(second, wire_only);
  for (auto f : second_report.findings) {
    f.stream = 1;
    add(report, std::move(f));
  }
  rr.events = second_report.events;
  if (second.status != 200) {
    rr.verdict = "failed";
    rr.reason = second.status == 0 ? "the reconnection failed (" + second.end + (second.error.empty() ? "" : ": " + second.error) + ")"
                                   : "the reconnection was answered " + std::to_string(second.status) +
                                         ": an EventSource fails the connection for good";
    report.resume = std::move(rr);
    return;
  }

  // Replay: events of the second stream carrying an id the first delivered.
  const auto events1 = identified_events(b1, opt.limits);
  const auto events2 = identified_events(b2, opt.limits);
  std::vector<std::string> ids1;
  for (const auto& e : events1) {
    if (!e.id.empty() && std::find(ids1.begin(), ids1.end(), e.id) == ids1.end()) ids1.push_back(e.id);
  }
  std::optional<std::size_t> first_replay;
  std::optional<std::size_t> last_replay;
  std::optional<std::size_t> first_with_id;
  for (std::size_t i = 0; i < events2.size(); ++i) {
    if (events2[i].id.empty()) continue;
    if (!first_with_id) first_with_id = i;
    if (std::find(ids1.begin(), ids1.end(), events2[i].id) != ids1.end()) {
      ++rr.replayed;
      if (!first_replay) first_replay = i;
      last_replay = i;
    }
  }
  const std::size_t skipped_events = last_replay ? *last_replay + 1 : 0;
  if (last_replay) rr.new_from = skipped_events < events2.size() ? events2[skipped_events].offset : b2.size();
  if (!events2.empty()) rr.first_id = events2.front().id;
  if (events2.empty()) {
    rr.verdict = "empty";
    rr.reason = "the server answered with no event after id " + in_quotes(sent_id) +
                ": nothing newer, so resumption could not be observed (cut the first stream earlier with --max-events)";
  } else if (rr.replayed == 0) {
    rr.verdict = "resumed";
    rr.reason = "the " + std::to_string(events2.size()) + " events after reconnecting with id " + in_quotes(sent_id) +
                " repeat none of the ids already received";
  } else if (first_with_id && *first_with_id == *first_replay && !ids1.empty() && events2[*first_replay].id == ids1.front()) {
    rr.verdict = "ignored";
    rr.reason = "the server started over from the first event (id " + in_quotes(ids1.front()) + ") instead of resuming after " +
                in_quotes(sent_id);
    add(report, {"RESUME-IGNORED", "should", *first_replay, events2[*first_replay].offset,
                 "the server ignored Last-Event-ID: the reconnection replayed the stream from its start, so clients "
                 "see " + std::to_string(rr.replayed) + " events twice",
                 "events after id " + in_quotes(sent_id), "id " + in_quotes(events2[*first_replay].id) + " again", 1});
  } else {
    rr.verdict = "replayed";
    rr.reason = std::to_string(rr.replayed) + " events after reconnecting repeat ids already received";
    add(report, {"RESUME-REPLAY", "should", *first_replay, events2[*first_replay].offset,
                 "the resumed stream repeats events the client already had (Last-Event-ID names the last one received)",
                 "events after id " + in_quotes(sent_id), "id " + in_quotes(events2[*first_replay].id) + " again", 1});
  }

  // Producer rules across the reconnection: the first stream's complete
  // frames, then the second stream's new events, as one client sees them
  // (the replayed events are the RESUME-* finding's business, and judging
  // them again would blame each twice). A leading BOM of the second stream
  // is stripped by its own decode, so it is left out here.
  if (opt.dialect != nullptr) {
    std::erase_if(report.findings, [](const check_finding& f) { return level_of(f.rule) == "producer"; });
    const std::uint64_t from = rr.new_from > 0 ? rr.new_from : (b2.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    std::string joined = b1.substr(0, static_cast<std::size_t>(rr.join_offset));
    joined.append(b2, static_cast<std::size_t>(from));
    const std::size_t frames_before = events1.size();
    const auto v = sse::dialect::validate_stream(*opt.dialect, joined, opt.limits);
    for (const auto& f : v.findings) {
      check_finding out{f.rule->id, std::string(sse::dialect::to_string(f.rule->level)), f.frame, f.offset, f.rule->text,
                        f.expected, f.seen, 0};
      if (f.offset >= rr.join_offset) {
        out.stream = 1;
        out.offset = f.offset - rr.join_offset + from;
        out.frame = (f.frame >= frames_before ? f.frame - frames_before : 0) + skipped_events;
      }
      report.findings.push_back(std::move(out));
    }
    recount(report);
  }
  report.resume = std::move(rr);
}

void check_resumption(const http::stream_request& req, double max_time_s, const capture& first, const check_options& opt,
                      check_report& report, capture* second_out) {
  resume_report rr;
  rr.verdict = "not_applicable";
  if (first.status == 0) {
    rr.reason = "the first request got no HTTP response (" + first.end + "), so there is nothing to resume";
  } else if (first.status != 200) {
    rr.reason = "the first request gave no event stream (HTTP " + std::to_string(first.status) + ")";
  } else if (report.last_event_id.empty()) {
    rr.reason = "the stream carried no event id (no `id:` field), so there is nothing to resume from";
  }
  if (!rr.reason.empty()) {
    report.resume = std::move(rr);
    return;
  }
  http::stream_request again = req;
  std::erase_if(again.headers, [](const std::string& h) { return lower(h.substr(0, 14)) == "last-event-id:"; });
  again.headers.push_back("Last-Event-ID: " + report.last_event_id);
  capture second = fetch_sampled(again, 0, max_time_s, opt.limits);
  second.source = first.source;
  judge_resumption(first, second, report.last_event_id, opt, report);
  if (second_out != nullptr) *second_out = std::move(second);
}

// --- secrets -----------------------------------------------------------------

namespace {

// Shared by both expanders: `braced_only` leaves $NAME alone and reads $${ as a literal ${.
std::optional<std::string> expand(std::string_view text, std::vector<std::string>& secrets, std::string& missing,
                                  bool braced_only) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '$' || i + 1 == text.size()) {
      out += text[i++];
      continue;
    }
    if (braced_only && text.substr(i).starts_with("$${")) {
      out += "${";
      i += 3;
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
    } else if (braced_only) {
      out += text[i++];
      continue;
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

}  // namespace

std::optional<std::string> expand_env(std::string_view text, std::vector<std::string>& secrets, std::string& missing) {
  return expand(text, secrets, missing, false);
}

std::optional<std::string> expand_env_braced(std::string_view text, std::vector<std::string>& secrets, std::string& missing) {
  return expand(text, secrets, missing, true);
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 10)) text.replace(at, s.size(), "[redacted]");
  }
  return text;
}

check_report redact(check_report r, const std::vector<std::string>& secrets) {
  if (secrets.empty()) return r;
  for (std::string* s : {&r.source, &r.content_type, &r.content_encoding, &r.error, &r.redirect_url, &r.last_event_id}) {
    *s = redact(std::move(*s), secrets);
  }
  for (auto& f : r.findings) {
    for (std::string* s : {&f.message, &f.expected, &f.seen}) *s = redact(std::move(*s), secrets);
  }
  if (r.resume) {
    for (std::string* s : {&r.resume->reason, &r.resume->last_event_id, &r.resume->first_id}) {
      *s = redact(std::move(*s), secrets);
    }
  }
  return r;
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
    if (r.resume) j["stream"] = f.stream == 0 ? "first" : "resumed";
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
  if (r.resume) {
    const auto& x = *r.resume;
    out["resume"] = {{"verdict", x.verdict},     {"reason", x.reason},     {"last_event_id", x.last_event_id},
                     {"status", x.status},       {"end", x.end},           {"bytes", x.bytes},
                     {"events", x.events},       {"replayed", x.replayed}, {"first_id", x.first_id},
                     {"join_offset", x.join_offset}, {"new_from", x.new_from}, {"total_s", x.seconds_total}};
  }
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

std::string where(const check_finding& f) {
  return std::string(f.stream == 1 ? "resumed stream, " : "") + (f.frame ? "frame " + std::to_string(*f.frame) + ", " : "") +
         "byte " + std::to_string(f.offset);
}
}  // namespace

std::string level_of(std::string_view rule) {
  if (rule.starts_with("HTTP-") || rule.starts_with("STREAM-")) return "response";
  if (rule.starts_with("WIRE-")) return "wire";
  if (rule.starts_with("RESUME-")) return "resume";
  if (rule.starts_with("SCENARIO-")) return "scenario";
  return "producer";
}

std::string to_junit(const std::vector<junit_suite>& suites) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const auto& suite : suites) {
    std::size_t tests = 0, failures = 0;
    std::string body;
    for (const auto& [name, report] : suite.reports) {
      const auto& r = *report;
      std::vector<std::string> levels{"response", "wire", "producer"};
      if (r.resume) levels.emplace_back("resume");
      const bool scenario = std::any_of(r.findings.begin(), r.findings.end(),
                                        [](const check_finding& f) { return level_of(f.rule) == "scenario"; });
      if (suite.scenario || scenario) levels.emplace_back("scenario");
      for (const auto& level : levels) {
        ++tests;
        std::string fails;
        for (const auto& f : r.findings) {
          if (level_of(f.rule) != level || f.severity != "must") continue;
          fails += f.rule + " at " + where(f) + ": " + f.message + " (expected " + f.expected + ", seen " + f.seen + ")\n";
        }
        body += "    <testcase classname=\"" + xml_escape(name) + "\" name=\"" + level + "\" time=\"" +
                std::to_string(r.timing.total) + "\"";
        if (fails.empty()) {
          body += "/>\n";
        } else {
          ++failures;
          body += ">\n      <failure message=\"MUST findings\">" + xml_escape(fails) + "</failure>\n    </testcase>\n";
        }
      }
    }
    out += "  <testsuite name=\"" + xml_escape(suite.name) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
           std::to_string(failures) + "\">\n" + body + "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

std::string to_junit(const std::vector<check_report>& reports, const std::vector<std::string>& names) {
  junit_suite suite{"sse-conform check", {}, false};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    suite.reports.emplace_back(i < names.size() ? names[i] : reports[i].source, &reports[i]);
  }
  return to_junit(std::vector<junit_suite>{suite});
}

std::string to_text(const check_report& r) {
  std::ostringstream out;
  const std::string src = r.source.empty() ? "<stdin>" : r.source;
  if (r.status != 0) {
    out << src << ": HTTP " << r.status << ", Content-Type: " << (r.content_type.empty() ? "(none)" : r.content_type)
        << (r.content_encoding.empty() ? "" : ", Content-Encoding: " + r.content_encoding) << ", ended: " << r.end << '\n';
  }
  for (const auto& f : r.findings) {
    out << src << ": " << where(f) << ": " << f.rule << " (" << f.severity << ") " << f.message
        << "\n    expected: " << f.expected << "\n    seen:     " << f.seen << '\n';
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
  if (r.resume) {
    const auto& x = *r.resume;
    out << src << ": resume: ";
    if (x.verdict == "not_applicable") {
      out << "not applicable: " << x.reason << '\n';
    } else {
      out << "Last-Event-ID \"" << x.last_event_id << "\" -> ";
      if (x.status != 0) out << "HTTP " << x.status << ", ";
      out << x.events << " events, " << x.replayed << " replayed, ended: " << x.end << ": " << x.verdict << " (" << x.reason
          << ")\n";
    }
  }
  out << src << ": " << (r.dialect.empty() ? "wire" : r.dialect) << ": " << r.findings.size() << " findings (" << r.must
      << " must, " << r.should << " should): " << (r.conforming() ? "conforming" : "NOT conforming") << '\n';
  return out.str();
}

}  // namespace ssec::live
