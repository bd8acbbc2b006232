// SPDX-License-Identifier: MIT
#include "ssec/live/serve.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <utility>

#include "browser_page.hpp"
#include "sse/parser.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/live/client_server.hpp"
#include "ssec/report/json_shape.hpp"
#include "ssec/report/junit.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::live {

struct case_server::state {
  std::vector<conformance::test_case> cases;         // served as streams at /case/
  std::vector<conformance::test_case> client_cases;  // `layer: client`: played at /client/ (client_scripts)
  client_scripts clients;
  std::vector<served_stream> streams;
  serve_limits limits;
  // Set once the server runs, read by its connection threads (stopping()):
  // atomic, since a request may already be served when start() sets it.
  std::atomic<http::server*> server{nullptr};
  mutable std::mutex mutex;
  mutable std::condition_variable posted;
  std::mutex parsing;  // one POST /results is parsed at a time: its JSON is the one large allocation
  // The latest result of each case from each kind of browser, in the order
  // first posted: a page run again, or a client posting without end,
  // replaces rows instead of adding them (at most 4 kinds x the cases).
  std::vector<browser_row> rows;
  std::map<std::pair<std::string, std::string>, std::size_t> row_of;  // (impl, case) -> index in rows
  bool browser_done = false;
  std::size_t browser_posts = 0;

  void keep(browser_row row) {
    const auto [at, added] = row_of.try_emplace({row.impl, row.case_name}, rows.size());
    if (added) rows.push_back(std::move(row));
    else rows[at->second] = std::move(row);
  }

  bool stopping() const {
    const http::server* running = server.load();
    return running != nullptr && running->stopping();
  }
  // Sleeps in short steps so a stopping server is never held up.
  void sleep_for(double seconds) const {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!stopping() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
};

namespace {

std::string query(const http::request& req, const std::string& key, const std::string& fallback = {}) {
  const auto it = req.query.find(key);
  return it == req.query.end() ? fallback : it->second;
}

long number(const http::request& req, const std::string& key, long fallback) {
  const std::string v = query(req, key);
  if (v.empty()) return fallback;
  try {
    return std::stol(v);
  } catch (...) {
    return fallback;
  }
}

// Checks the fault parameters (tools/docs/serve.md) before anything is
// served: an unknown or invalid one is a 400 naming it, so a typo does not
// look like a client that handled the fault. Empty when all are valid.
std::string invalid_fault(const http::request& req) {
  const auto whole = [](const std::string& v, long low, long high) {
    if (v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos) return false;
    const long n = std::stol(v);
    return n >= low && n <= high;
  };
  const auto flag = [](const std::string& v) { return v == "0" || v == "1"; };
  constexpr long big = 999'999'999'999;
  for (const auto& [key, v] : req.query) {
    bool ok = true;
    std::string want;
    if (key == "delay_ms" || key == "drip_ms" || key == "stall" || key == "stall_at") {
      ok = whole(v, 0, big);
      want = "a whole number >= 0";
    } else if (key == "status") {
      ok = whole(v, 100, 599);
      want = "an HTTP status from 100 to 599";
    } else if (key == "reset") {
      ok = v == "mid" || whole(v, 0, big);
      want = "mid or a byte count";
    } else if (key == "redirect" || key == "gzip" || key == "forever" || key == "endless" || key == "resume") {
      ok = flag(v);
      want = "0 or 1";
    } else if (key == "split") {
      ok = v == "frames";
      want = "frames";
    } else if (key == "content_type") {
      // It becomes a header line: a CR or LF would split the response.
      ok = !v.empty() && v.size() <= 256 &&
           std::all_of(v.begin(), v.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
      want = "a media type of at most 256 printable ASCII characters (no control byte)";
    } else {
      return "unknown fault parameter `" + ssec::escape(key.substr(0, 64)) + "`" +
             " (known: delay_ms, status, content_type, redirect, gzip, reset, stall, stall_at, drip_ms, forever, "
             "endless, split, resume)";
    }
    if (!ok) return "fault parameter `" + key + "=" + ssec::escape(v.substr(0, 64)) + "`: expected " + want;
  }
  return {};
}

// The event types named in a stream's `event:` lines, so the browser page
// can listen for them (EventSource delivers named types only to listeners).
std::vector<std::string> event_types(std::string_view bytes) {
  std::vector<std::string> types;
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t end = bytes.find_first_of("\r\n", i);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view line = bytes.substr(i, end - i);
    if (line.starts_with("event:")) {
      line.remove_prefix(6);
      if (line.starts_with(' ')) line.remove_prefix(1);
      if (std::find(types.begin(), types.end(), line) == types.end()) types.emplace_back(line);
    }
    i = end + 1;
  }
  return types;
}

// Where "reset=mid" breaks the stream: inside the last frame, so the client
// sees a frame cut short.
std::size_t mid_frame_offset(std::string_view bytes) {
  if (bytes.size() < 2) return 0;
  const std::string_view body = bytes.substr(0, bytes.size() - 2);
  const auto last_blank = body.rfind("\n\n");
  const std::size_t start = last_blank == std::string_view::npos ? 0 : last_blank + 2;
  return std::min(bytes.size() - 1, start + std::max<std::size_t>(1, (bytes.size() - start) / 2));
}

// Where a resumable stream continues for a client that sends Last-Event-ID
// `id`: right after the block of the first event the reference parser
// dispatches with that last event ID; 0 (from the start) when none has it.
std::size_t resume_offset(std::string_view bytes, std::string_view id) {
  struct finder {
    std::string_view id;
    bool found = false;
    sse::action on_event(const sse::event_view& e) {
      if (e.last_event_id != id) return sse::action::proceed;
      found = true;
      return sse::action::pause;  // feed() then reports the bytes up to the end of this event
    }
  } f{id};
  sse::parser<finder> p(f);
  const auto fed = p.feed(bytes);
  return f.found ? fed.consumed : 0;
}

// The sizes of a stream's frames: each ends after the blank line (CRLF, LF
// or CR) that closes it; a tail without one is the last piece.
std::vector<std::size_t> frame_sizes(std::string_view bytes) {
  std::vector<std::size_t> sizes;
  std::size_t start = 0, line = 0, i = 0;
  while (i < bytes.size()) {
    if (bytes[i] != '\r' && bytes[i] != '\n') {
      ++i;
      continue;
    }
    const bool blank = i == line;
    i += bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n' ? 2 : 1;
    line = i;
    if (blank) {
      sizes.push_back(i - start);
      start = i;
    }
  }
  if (start < bytes.size()) sizes.push_back(bytes.size() - start);
  return sizes;
}

// Gzip with a flush per write, so each chunk still reaches the client as it is written.
class gzip_writer {
 public:
  gzip_writer() { ok_ = deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK; }
  ~gzip_writer() {
    if (ok_) deflateEnd(&z_);
  }
  gzip_writer(const gzip_writer&) = delete;
  gzip_writer& operator=(const gzip_writer&) = delete;
  std::string compress(std::string_view in, bool last) {
    std::string out;
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    char buf[16384];
    int rc = Z_OK;
    do {
      z_.next_out = reinterpret_cast<Bytef*>(buf);
      z_.avail_out = sizeof buf;
      rc = deflate(&z_, last ? Z_FINISH : Z_SYNC_FLUSH);
      out.append(buf, sizeof buf - z_.avail_out);
    } while (z_.avail_out == 0 || (last && rc == Z_OK));
    return out;
  }

 private:
  z_stream z_{};
  bool ok_ = false;
};

void serve_stream(const case_server::state& st, const http::request& req, http::response& res, std::string_view bytes,
                  std::vector<std::size_t> chunks) {
  if (query(req, "split") == "frames") chunks = frame_sizes(bytes);
  if (chunks.empty()) chunks.push_back(bytes.size());
  const int max_delay = st.limits.max_delay_ms;
  // HTTP-level faults first: they replace the stream.
  if (const long status = number(req, "status", 0); status >= 100 && status <= 599) {
    res.send(static_cast<int>(status), "text/plain",
             "sse-conform serve: injected status " + std::to_string(status) + "\n");
    return;
  }
  if (query(req, "redirect") == "1") {
    // The parameters were validated; encoded again, nothing in them can end the Location line.
    std::string target = req.path + "?";
    for (const auto& [k, v] : req.query) {
      if (k != "redirect") target += ssec::percent_encode(k) + "=" + ssec::percent_encode(v) + "&";
    }
    target.pop_back();
    res.start(302, {{"Location", target}, {"Content-Length", "0"}});
    return;
  }
  // resume=1: honour Last-Event-ID (a resumable server); otherwise it is
  // ignored and every connection gets the whole stream.
  if (const std::string id = req.header("last-event-id"); query(req, "resume") == "1" && !id.empty()) {
    const std::size_t skip = resume_offset(bytes, id);
    bytes.remove_prefix(skip);
    std::vector<std::size_t> rest;
    std::size_t pos = 0;
    for (const std::size_t c : chunks) {
      if (pos + c > skip) rest.push_back(pos + c - std::max(pos, skip));
      pos += c;
    }
    chunks = std::move(rest);
    if (chunks.empty()) chunks.push_back(bytes.size());
  }
  const std::string content_type = query(req, "content_type", "text/event-stream; charset=utf-8");
  const bool gzip = query(req, "gzip") == "1";
  std::vector<std::pair<std::string, std::string>> headers{{"Content-Type", content_type},
                                                           {"Cache-Control", "no-cache"}};
  if (gzip) headers.emplace_back("Content-Encoding", "gzip");
  if (!res.start(200, headers)) return;

  if (query(req, "endless") == "1") {
    // One line that never ends: "data: xxxx..." until the client leaves.
    const std::string block(64 * 1024, 'x');
    if (!res.write("data: ")) return;
    std::uint64_t sent = 6;
    while (!st.stopping() && sent < st.limits.max_endless_bytes && res.write(block)) sent += block.size();
    return;
  }

  gzip_writer zip;
  const auto send = [&](std::string_view piece, bool last) {
    if (!gzip) return piece.empty() || res.write(piece);
    const std::string z = zip.compress(piece, last);
    return z.empty() || res.write(z);
  };

  // Where to break (reset) or fall silent (stall).
  std::size_t reset_at = bytes.size() + 1;
  if (const std::string r = query(req, "reset"); !r.empty()) {
    reset_at = r == "mid" ? mid_frame_offset(bytes) : static_cast<std::size_t>(std::max(0L, number(req, "reset", 0)));
  }
  const double stall_s = std::min<double>(st.limits.max_stall_s, static_cast<double>(number(req, "stall", 0)));
  const std::size_t stall_at =
      static_cast<std::size_t>(std::max(0L, number(req, "stall_at", static_cast<long>(bytes.size()))));
  const long drip_ms = std::min<long>(max_delay, number(req, "drip_ms", 0));
  const long delay_ms = std::min<long>(max_delay, number(req, "delay_ms", 0));

  // Split the written chunks further at the reset and stall points, and into
  // single bytes for a slow drip.
  std::size_t pos = 0;
  bool stalled = false;
  for (std::size_t c = 0; c < chunks.size() && pos < bytes.size(); ++c) {
    std::size_t left = std::min(chunks[c], bytes.size() - pos);
    while (left > 0) {
      std::size_t take = drip_ms > 0 ? 1 : left;
      if (pos < reset_at && pos + take > reset_at) take = reset_at - pos;
      if (stall_s > 0 && !stalled && pos < stall_at && pos + take > stall_at) take = stall_at - pos;
      if (take > 0) {
        if (!send(bytes.substr(pos, take), false)) return;
        pos += take;
        left -= take;
      }
      if (pos == reset_at) {
        res.reset_connection();
        return;
      }
      if (stall_s > 0 && !stalled && pos == stall_at) {
        stalled = true;
        st.sleep_for(stall_s);
      }
      if (drip_ms > 0) st.sleep_for(static_cast<double>(drip_ms) / 1000);
      if (st.stopping()) return;
    }
    if (delay_ms > 0 && c + 1 < chunks.size()) st.sleep_for(static_cast<double>(delay_ms) / 1000);
  }
  if (pos == reset_at) {
    res.reset_connection();
    return;
  }
  if (stall_s > 0 && !stalled) st.sleep_for(stall_s);
  // A slow drip that never ends: one heartbeat byte at a time.
  if (drip_ms > 0 && query(req, "forever") == "1") {
    static constexpr std::string_view beat = ":\n";
    for (std::size_t i = 0; !st.stopping(); ++i) {
      if (!send(beat.substr(i % 2, 1), false)) return;
      st.sleep_for(static_cast<double>(drip_ms) / 1000);
    }
  }
  if (gzip) send({}, true);
}

nlohmann::json case_list(const case_server::state& st) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : st.cases) {
    list.push_back({{"name", c.path()}, {"url", "/case/" + c.path()}, {"types", event_types(c.input)}});
  }
  return list;
}

// A case's name as given: its path ("wire/bom/3RFS"), or its older test
// name ("bom_3RFS"), still accepted for pages and result files made before.
bool names(const conformance::test_case& c, std::string_view name) { return c.path() == name || c.test_name() == name; }

const conformance::test_case* client_case(const case_server::state& st, std::string_view name) {
  const auto c =
      std::find_if(st.client_cases.begin(), st.client_cases.end(), [&](const auto& tc) { return names(tc, name); });
  return c == st.client_cases.end() ? nullptr : &*c;
}

// The client cases for the page: what it needs to run each one's client
// (tools/docs/serve.md, "Client cases"). The URL to connect to is minted per
// run by POST /clients/<name>, so each run has a script and a clock of its own.
nlohmann::json client_list(const case_server::state& st) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : st.client_cases) {
    std::string bodies;
    for (const auto& r : c.client->responses) bodies += r.body + "\n";
    list.push_back({{"name", c.path()},
                    {"start", "/clients/" + c.path()},
                    {"close_after_events", c.client->close_after_events},
                    {"limit_ms", c.client->limit_ms},
                    {"settle_ms", c.client->settle_ms},
                    {"types", event_types(bodies)}});
  }
  return list;
}

// The methods `path` answers (for a 405's Allow).
std::string allowed_methods(std::string_view path) {
  if (path == "/results" || path.starts_with("/clients/")) return "POST";
  if (client_scripts::serves(path)) return "GET";
  return "GET, HEAD";
}

bool allows(std::string_view allow, std::string_view method) {
  for (std::size_t start = 0; start <= allow.size();) {
    const std::size_t comma = allow.find(", ", start);
    if (allow.substr(start, comma - start) == method) return true;
    if (comma == std::string_view::npos) break;
    start = comma + 2;
  }
  return false;
}

// What exists at `path`, whatever the method: for a 405 rather than a 404.
bool exists(const case_server::state& st, const std::string& path) {
  if (path == "/" || path == "/index.html" || path == "/browser" || path == "/cases.json" || path == "/results" ||
      path == "/clients.json")
    return true;
  if (path.starts_with("/clients/")) return client_case(st, path.substr(9)) != nullptr;
  if (client_scripts::serves(path)) return st.clients.name_of(path).has_value();
  if (path.starts_with("/case/")) {
    const std::string name = path.substr(6);
    return std::any_of(st.cases.begin(), st.cases.end(), [&](const auto& c) { return names(c, name); });
  }
  if (path.starts_with("/stream/")) {
    const std::string name = path.substr(8);
    return std::any_of(st.streams.begin(), st.streams.end(), [&](const auto& s) { return s.name == name; });
  }
  return false;
}

// The JSON of a POST /results, bounded in nesting and in values before it
// is built (the body itself is bounded by the HTTP server): a problem
// naming the byte where it is not JSON, or the bound it broke.
constexpr int max_post_depth = 16;                // the page's document is 4 deep
constexpr std::size_t max_post_values = 1 << 20;  // the whole case tree posts about 20,000

// True when brackets outside strings nest deeper than `max`: found by one
// pass with no allocation, before the parser builds a stack that deep.
bool nested_deeper_than(std::string_view text, int max) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

nlohmann::json parse_post(const std::string& text, std::string& problem) {
  if (nested_deeper_than(text, max_post_depth)) {
    problem = "the JSON is nested deeper than " + std::to_string(max_post_depth) + " levels";
    return {};
  }
  std::size_t values = 0;
  bool too_deep = false, too_many = false;
  const nlohmann::json::parser_callback_t bound = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    using ev = nlohmann::json::parse_event_t;
    if (depth > max_post_depth) too_deep = true;
    if (event == ev::value || event == ev::object_start || event == ev::array_start)
      too_many |= ++values > max_post_values;
    return !too_deep && !too_many;  // false: the value is dropped, nothing more is built
  };
  try {
    nlohmann::json body = nlohmann::json::parse(text, bound);
    if (too_deep) problem = "the JSON is nested deeper than " + std::to_string(max_post_depth) + " levels";
    if (too_many) problem = "the JSON has more than " + std::to_string(max_post_values) + " values";
    return body;
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts bytes from 1: the offset of the byte it stopped at is one less.
    problem = "the body is not JSON (at byte offset " + std::to_string(e.byte > 0 ? e.byte - 1 : 0) + ")";
  }
  return {};
}

// What is wrong with a posted document ({"user_agent","results":[{"name",
// "status","events":[{"type","data","lastEventId"}]}]}, tools/docs/serve.md),
// naming the member; empty when it has that shape.
std::string post_problem(const nlohmann::json& body) {
  if (!body.is_object()) return expected_json("the body", "a JSON object", body);
  if (body.contains("user_agent") && !body["user_agent"].is_string()) {
    return expected_json("user_agent", "a string", body["user_agent"]);
  }
  if (!body.contains("results")) return "results: missing";
  const auto& results = body["results"];
  if (!results.is_array()) return expected_json("results", "an array", results);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const std::string at = "results[" + std::to_string(i) + "]";
    if (!r.is_object()) return expected_json(at, "an object", r);
    if (!r.contains("name")) return at + ".name: missing";
    if (!r["name"].is_string()) return expected_json(at + ".name", "a string", r["name"]);
    if (r.contains("status") && !r["status"].is_string()) return expected_json(at + ".status", "a string", r["status"]);
    if (!r.contains("events")) continue;
    if (!r["events"].is_array()) return expected_json(at + ".events", "an array", r["events"]);
    for (std::size_t e = 0; e < r["events"].size(); ++e) {
      const auto& ev = r["events"][e];
      const std::string eat = at + ".events[" + std::to_string(e) + "]";
      if (!ev.is_object()) return expected_json(eat, "an object", ev);
      for (const char* key : {"type", "data", "lastEventId"}) {
        if (ev.contains(key) && !ev[key].is_string()) return expected_json(eat + "." + key, "a string", ev[key]);
      }
    }
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (const char* key : {"url", "ended"}) {
      const auto& r = results[i];
      if (r.contains(key) && !r[key].is_string()) {
        return expected_json("results[" + std::to_string(i) + "]." + key, "a string", r[key]);
      }
    }
  }
  return {};
}

// Grades what a browser's EventSource did in a client case: `seen` is the
// page's result ({"name","url","ended","events"}), `observed` what the
// server saw at that URL, `played_for` the case it was played for.
browser_row grade_browser_client(const conformance::test_case& c, const std::string& impl, const nlohmann::json& seen,
                                 std::optional<conformance::client_observation> observed,
                                 const std::optional<std::string>& played_for) {
  browser_row row{impl, c.path(), conformance::outcome::pass, c.verdict, {}, {}};
  if (!observed || played_for != c.path()) {
    // Nothing to grade: the page did not run this case's script.
    row.outcome = conformance::outcome::error;
    row.detail = "the result names no URL this server played for the case (POST /clients/" + c.path() + " mints one)";
    return row;
  }
  conformance::client_observation o = std::move(*observed);
  o.ended = seen.value("ended", std::string());
  if (seen.contains("events")) {
    for (const auto& e : seen["events"]) {
      o.answer.events.emplace_back(e.value("type", std::string()), e.value("data", std::string()),
                                   e.value("lastEventId", std::string()));
    }
  }
  auto graded = conformance::grade_client(c, o, false);
  row.outcome = graded.outcome;
  if (graded.mismatch) row.detail = graded.mismatch->first_difference;
  row.mismatch = std::move(graded.mismatch);
  return row;
}

void handle_get(case_server::state& st, const http::request& req, http::response& res);
void handle_post(case_server::state& st, const http::request& req, http::response& res);

void handle(case_server::state& st, const http::request& req, http::response& res) {
  const std::string allow = allowed_methods(req.path);
  if (!allows(allow, req.method)) {
    if (!exists(st, req.path)) {
      res.send(404, "text/plain", "sse-conform serve: no such case or stream: " + req.path + "\n");
      return;
    }
    const std::string body =
        "sse-conform serve: " + req.method + " is not allowed on " + req.path + " (allowed: " + allow + ")\n";
    res.start(405, {{"Allow", allow}, {"Content-Type", "text/plain"}, {"Content-Length", std::to_string(body.size())}});
    if (req.method != "HEAD") res.write(body);
    return;
  }
  if (req.method == "POST") return handle_post(st, req, res);
  if (client_scripts::serves(req.path)) return st.clients.handle(req, res);
  if (req.method == "HEAD") res.omit_body();
  handle_get(st, req, res);
}

// POST /clients/<name>: a fresh play of a client case's script, for the
// page's EventSource: {"url": "/client/<n>/<name>"}. POST /results: what a
// browser saw, graded.
void handle_post(case_server::state& st, const http::request& req, http::response& res) {
  if (req.path.starts_with("/clients/")) {
    const auto* c = client_case(st, std::string_view(req.path).substr(9));
    if (c == nullptr) {
      res.send(404, "text/plain", "sse-conform serve: no client case " + req.path.substr(9) + "\n");
      return;
    }
    const nlohmann::json answer{{"url", st.clients.add(*c->client, c->path())}};
    res.send(200, "application/json", answer.dump());
    return;
  }
  std::lock_guard one_at_a_time(st.parsing);
  std::string problem;
  const nlohmann::json body = parse_post(req.body, problem);
  if (problem.empty()) problem = post_problem(body);
  if (!problem.empty()) {
    // Nothing is graded and --browser-results keeps waiting for a real post.
    res.send(400, "text/plain", "sse-conform serve: POST /results: " + problem + "\n");
    return;
  }
  std::vector<browser_row> rows;
  const std::string ua = body.value("user_agent", std::string("unknown"));
  const std::string impl = ua.find("Chrome") != std::string::npos    ? "browser:chromium"
                           : ua.find("Firefox") != std::string::npos ? "browser:firefox"
                           : ua.find("Safari") != std::string::npos  ? "browser:safari"
                                                                     : "browser:other";
  for (const auto& r : body["results"]) {
    const std::string name = r["name"].get<std::string>();
    const auto c = std::find_if(st.cases.begin(), st.cases.end(), [&](const auto& tc) { return names(tc, name); });
    if (c != st.cases.end()) rows.push_back(grade_browser(*c, impl, r));
    if (const auto* cc = client_case(st, name)) {
      const std::string played = r.contains("url") ? r["url"].get<std::string>() : std::string();
      rows.push_back(grade_browser_client(*cc, impl, r, st.clients.observed(played), st.clients.name_of(played)));
      st.clients.remove(played);
    }
  }
  // The page shows this post's grade; `serve` prints every post's.
  const browser_grade grade = grade_of(rows);
  nlohmann::ordered_json answer{{"graded", rows.size()},
                                {"conforming", grade.conforming()},
                                {"verdict", grade.sentence()},
                                {"statuses", grade.statuses}};
  {
    std::lock_guard lock(st.mutex);
    for (auto& row : rows) st.keep(std::move(row));
    st.browser_done = true;
    ++st.browser_posts;
  }
  st.posted.notify_all();
  res.send(200, "application/json", answer.dump());
}

void handle_get(case_server::state& st, const http::request& req, http::response& res) {
  const bool get = req.method == "GET" || req.method == "HEAD";
  if (get && (req.path == "/" || req.path == "/index.html")) {
    std::string page =
        "<!doctype html><title>sse-conform serve</title><h1>sse-conform serve</h1>"
        "<p><a href=\"/browser\">run the cases in this browser</a> · <a href=\"/cases.json\">cases.json</a></p><ul>";
    for (const auto& c : st.cases) page += "<li><a href=\"/case/" + c.path() + "\">" + c.path() + "</a></li>";
    page += "</ul>";
    if (!st.client_cases.empty()) {
      // A client case is a script played per connection attempt: the page runs it, a link cannot.
      page +=
          "<h2>Client cases</h2><p>played for the browser page (<a href=\"/clients.json\">clients.json</a>)</p><ul>";
      for (const auto& c : st.client_cases) page += "<li>" + c.path() + ": " + ssec::xml_escape(c.name) + "</li>";
      page += "</ul>";
    }
    res.send(200, "text/html; charset=utf-8", page);
    return;
  }
  if (get && req.path == "/browser") {
    res.send(200, "text/html; charset=utf-8", detail::browser_page);
    return;
  }
  if (get && req.path == "/cases.json") {
    // Invalid UTF-8 in an event name (the utf8 cases) is shown repaired, never thrown on.
    res.send(200, "application/json", case_list(st).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  if (get && req.path == "/clients.json") {
    res.send(200, "application/json", client_list(st).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  if (get && (req.path.starts_with("/case/") || req.path.starts_with("/stream/")) && exists(st, req.path)) {
    if (const std::string bad = invalid_fault(req); !bad.empty()) {
      res.send(400, "text/plain", "sse-conform serve: " + bad + "\n");
      return;
    }
  }
  if (get && req.path.starts_with("/case/")) {
    const std::string name = req.path.substr(6);
    for (const auto& c : st.cases) {
      if (names(c, name)) return serve_stream(st, req, res, c.input, c.written_chunks);
    }
  }
  if (get && req.path.starts_with("/stream/")) {
    const std::string name = req.path.substr(8);
    for (const auto& s : st.streams) {
      if (s.name == name) return serve_stream(st, req, res, s.bytes, s.chunks);
    }
  }
  res.send(404, "text/plain", "sse-conform serve: no such case or stream: " + req.path + "\n");
}

}  // namespace

browser_row grade_browser(const conformance::test_case& c, const std::string& impl, const nlohmann::json& seen,
                          bool strict) {
  browser_row row{impl, c.path(), conformance::outcome::pass, c.verdict, {}, {}};
  const auto needs = conformance::required_capabilities(c);
  if (std::find(needs.begin(), needs.end(), "retry") != needs.end()) {
    row.outcome = conformance::outcome::skip;
    row.detail = "a browser does not expose the reconnection time";
    return row;
  }
  // Whatever its shape (a test service's callbacks are as untrusted as a
  // post): a member of another type counts as absent, never throws.
  const auto text = [](const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  const std::string status = text(seen, "status");
  if (status == "timeout") {
    row.outcome = conformance::outcome::timeout;
    return row;
  }
  conformance::answer got;
  got.wire = conformance::external_result{};
  if (status == "failed") got.wire->error = "the browser failed the connection";
  if (seen.is_object() && seen.contains("events") && seen["events"].is_array()) {
    for (const auto& e : seen["events"]) {
      if (!e.is_object()) continue;
      got.wire->events.emplace_back(text(e, "type"), text(e, "data"), text(e, "lastEventId"));
    }
  }
  auto graded = conformance::grade_answer(c, got, strict);
  row.outcome = graded.outcome;
  if (graded.mismatch) row.detail = graded.mismatch->first_difference;
  row.mismatch = std::move(graded.mismatch);
  return row;
}

std::string matrix_lines(const std::vector<browser_row>& rows) {
  std::string out;
  for (const auto& r : rows) out += r.impl + "  " + r.case_name + "  " + std::string(r.status()) + "\n";
  return out;
}

browser_grade grade_of(const std::vector<browser_row>& rows) {
  browser_grade g;
  for (const auto& r : rows) {
    if (g.impl.empty()) g.impl = r.impl;
    ++g.cases;
    ++g.statuses[std::string(r.status())];
    if (r.verdict != conformance::verdict::must) continue;
    if (r.outcome == conformance::outcome::skip) {
      ++g.must_not_graded;
      continue;
    }
    ++g.must_graded;
    g.must_failed += r.outcome == conformance::outcome::fail || r.outcome == conformance::outcome::error ||
                     r.outcome == conformance::outcome::timeout;
  }
  return g;
}

std::string browser_grade::sentence() const {
  if (cases == 0) return "no case was graded";
  std::string out = impl + ": " + counted(cases, "case") + ":";
  bool first = true;
  for (const auto& [status, n] : statuses) {
    out += (first ? " " : ", ") + std::to_string(n) + " " + status;
    first = false;
  }
  out += "; MUST cases: ";
  if (must_failed > 0) out += std::to_string(must_failed) + " failed of ";
  out += std::to_string(must_graded) + " graded";
  if (must_not_graded > 0) out += ", " + std::to_string(must_not_graded) + " not graded (a browser does not show them)";
  out += conforming() ? (must_not_graded > 0 ? ": conforming on the graded MUST cases" : ": conforming")
                      : ": NOT conforming";
  return out;
}

ssec::result<std::unique_ptr<case_server>> case_server::start(std::vector<conformance::test_case> cases,
                                                              std::vector<served_stream> streams, std::string address,
                                                              std::uint16_t port, serve_limits limits) {
  std::unique_ptr<case_server> out(new case_server());
  out->state_ = std::make_shared<state>();
  for (auto& c : cases) {
    auto& to = c.layer == conformance::layer::client && c.client ? out->state_->client_cases : out->state_->cases;
    to.push_back(std::move(c));
  }
  out->state_->streams = std::move(streams);
  out->state_->limits = limits;
  auto st = out->state_;
  auto started = http::server::start([st](const http::request& req, http::response& res) { handle(*st, req, res); },
                                     std::move(address), port);
  if (!started) return started.error();
  out->server_ = std::move(started.value());
  out->state_->server.store(out->server_.get());
  out->state_->clients.attach(out->server_.get());
  return {std::move(out)};
}

case_server::~case_server() { stop(); }
std::string case_server::base_url() const { return server_->base_url(); }
void case_server::stop() {
  if (server_) server_->stop();
}

std::vector<browser_row> case_server::browser_rows() const {
  std::lock_guard lock(state_->mutex);
  return state_->rows;
}

std::size_t case_server::browser_posts() const {
  std::lock_guard lock(state_->mutex);
  return state_->browser_posts;
}

bool case_server::wait_for_browser(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(state_->mutex);
  return state_->posted.wait_for(lock, timeout, [&] { return state_->browser_done; });
}

}  // namespace ssec::live
