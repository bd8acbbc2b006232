// SPDX-License-Identifier: MIT
#include "ssec/live/service_driver.hpp"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/http/client.hpp"
#include "ssec/http/server.hpp"

namespace ssec::live {

namespace {

struct small_response {
  long status = 0;
  std::map<std::string, std::string> headers;
  std::string body;
  bool ok = false;
  std::string error;
};

small_response call(const std::string& method, const std::string& url, const std::string& body = {}) {
  http::stream_request req;
  req.url = url;
  req.method = method;
  req.body = body;
  if (!body.empty()) req.headers.emplace_back("Content-Type: application/json");
  req.timeout_s = 10;
  req.idle_timeout_s = 10;
  req.max_bytes = 1 << 20;
  small_response out;
  const auto r = http::stream(req, [&](std::string_view bytes, double) {
    out.body.append(bytes);
    return true;
  });
  out.status = r.status;
  out.headers = r.headers;
  out.ok = r.end == http::stream_end::complete;
  out.error = r.error;
  return out;
}

// What the service posted for the stream being read, in callback order.
// Only that stream's callbacks are kept: one for a stream already closed
// (a service reconnects by itself and may go on posting) or never opened is
// refused, so what is held never grows with the run, and at most `room`
// messages are kept for the stream (the case's events and a margin: past
// them the stream already differs from the case).
struct callback_log {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t stream = 0;  // the stream being read; 0: none
  std::size_t room = 0;
  std::vector<nlohmann::json> messages;
  bool ended = false;  // its first "error" came: the service saw the stream close

  void open(std::size_t number, std::size_t max_messages) {
    const std::lock_guard lock(mutex);
    stream = number;
    room = max_messages;
    messages.clear();
    ended = false;
  }
  void close() {
    const std::lock_guard lock(mutex);
    stream = 0;
    std::vector<nlohmann::json>().swap(messages);
  }
};

// Callbacks a stream may post beyond its case's expected events (comments,
// the closing error, a reconnection's replay) before more are refused.
constexpr std::size_t callback_margin = 1024;

// The stream number of a callback path, /cb/<k> or /cb/<k>/<n>; 0 when the
// path is neither.
std::size_t callback_stream(std::string_view path) {
  if (!path.starts_with("/cb/")) return 0;
  path.remove_prefix(4);
  std::size_t k = 0;
  const auto [end, ec] = std::from_chars(path.data(), path.data() + path.size(), k);
  if (ec != std::errc{} || (end != path.data() + path.size() && *end != '/')) return 0;
  return k;
}

// The callback server's handler: every bad callback is a 4xx naming why.
void take_callback(callback_log& log, const http::request& req, http::response& res) {
  if (req.method != "POST") {
    res.start(405, {{"Allow", "POST"}, {"Content-Type", "text/plain"}, {"Content-Length", "0"}});
    return;
  }
  const std::size_t stream = callback_stream(req.path);
  if (stream == 0) {
    res.send(404, "text/plain", "sse-conform: a callback path is /cb/<stream>[/<n>]\n");
    return;
  }
  auto body = nlohmann::json::parse(req.body, nullptr, false);
  if (!body.is_object()) {
    res.send(400, "text/plain", "sse-conform: a callback body is a JSON object\n");
    return;
  }
  {
    std::lock_guard lock(log.mutex);
    if (stream != log.stream) {
      res.send(404, "text/plain", "sse-conform: stream " + std::to_string(stream) + " is not being read\n");
      return;
    }
    if (log.messages.size() >= log.room) {
      res.send(429, "text/plain",
               "sse-conform: stream " + std::to_string(stream) + " posted more callbacks than its case has events\n");
      return;
    }
    const auto kind = body.find("kind");
    if (kind != body.end() && *kind == "error") log.ended = true;
    log.messages.push_back(std::move(body));
  }
  log.changed.notify_all();
  res.send(202, "text/plain", "");
}

}  // namespace

result<std::vector<browser_row>> drive_service(const std::vector<conformance::test_case>& cases,
                                               const service_options& opt) {
  const auto caps = call("GET", opt.service_url);
  const auto caps_json = nlohmann::json::parse(caps.body, nullptr, false);
  if (!caps.ok || caps.status != 200 || !caps_json.is_object()) {
    return error{"the test service at " + opt.service_url + " did not answer GET / with its capabilities" +
                 (caps.error.empty() ? "" : ": " + caps.error)};
  }
  std::vector<std::string> capabilities;
  if (caps_json.contains("capabilities") && caps_json["capabilities"].is_array()) {
    for (const auto& c : caps_json["capabilities"]) {
      if (c.is_string()) capabilities.push_back(c.get<std::string>());
    }
  }

  auto log = std::make_shared<callback_log>();
  auto started_callbacks = http::server::start(
      [log](const http::request& req, http::response& res) { take_callback(*log, req, res); }, "127.0.0.1", 0);
  if (!started_callbacks) {
    return error{"could not start the callback server: " + started_callbacks.error().message};
  }
  http::server& callbacks = **started_callbacks;

  std::vector<browser_row> rows;
  std::size_t stream_no = 0;
  for (const auto& c : cases) {
    ++stream_no;
    const auto needs = conformance::required_capabilities(c);
    if (std::find(needs.begin(), needs.end(), "retry") != needs.end()) {
      rows.push_back({opt.impl,
                      c.test_name(),
                      conformance::outcome::skip,
                      c.verdict,
                      "the service does not report the reconnection time",
                      {}});
      continue;
    }
    const nlohmann::json open{{"streamUrl", opt.stream_base_url + "/case/" + c.test_name()},
                              {"callbackUrl", callbacks.base_url() + "/cb/" + std::to_string(stream_no)},
                              {"tag", c.test_name()},
                              {"readTimeoutMs", static_cast<long>(opt.case_timeout_s * 1000)}};
    log->open(stream_no, c.events.size() + callback_margin);
    const auto opened =
        call("POST", opt.service_url, open.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (opened.status < 200 || opened.status >= 300) {
      log->close();
      rows.push_back({opt.impl,
                      c.test_name(),
                      conformance::outcome::error,
                      c.verdict,
                      "the service refused to open the stream: HTTP " + std::to_string(opened.status),
                      {}});
      continue;
    }
    // Wait for the stream's end: the service reports it as an error (and
    // would reconnect, which we do not wait for).
    nlohmann::json seen{{"status", "timeout"}, {"events", nlohmann::json::array()}};
    {
      std::unique_lock lock(log->mutex);
      if (log->changed.wait_for(lock, std::chrono::duration<double>(opt.case_timeout_s), [&] { return log->ended; }))
        seen["status"] = "ended";
      // A member of another type is passed on as it came: grading counts it
      // as absent (value() would throw on it).
      const auto member = [](const nlohmann::json& e, const char* key, const char* absent) {
        const auto it = e.find(key);
        return it == e.end() ? nlohmann::json(absent) : *it;
      };
      for (const auto& m : log->messages) {
        const auto kind = m.find("kind");
        if (kind == m.end()) continue;
        if (*kind == "error") break;
        if (*kind != "event" || !m.contains("event") || !m["event"].is_object()) continue;
        const auto& e = m["event"];
        seen["events"].push_back({{"type", member(e, "type", "message")},
                                  {"data", member(e, "data", "")},
                                  {"lastEventId", member(e, "id", "")}});
      }
    }
    log->close();
    const auto where = opened.headers.find("location");
    if (where != opened.headers.end()) {
      std::string url = where->second;
      if (url.starts_with("/"))
        url = opt.service_url.substr(0, opt.service_url.find('/', opt.service_url.find("//") + 2)) + url;
      call("DELETE", url);
    }
    rows.push_back(grade_browser(c, opt.impl, seen, opt.strict));
  }
  callbacks.stop();
  return rows;
}

}  // namespace ssec::live
