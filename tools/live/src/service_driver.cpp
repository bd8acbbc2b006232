// SPDX-License-Identifier: MIT
#include "ssec/live/service_driver.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>

#include "ssec/http_client.hpp"
#include "ssec/http_server.hpp"

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

// What the service posted for one stream entity, in callback order.
struct callback_log {
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::size_t, std::vector<nlohmann::json>> by_stream;
};

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
      [log](const http::request& req, http::response& res) {
        // /cb/<stream>[/<n>]: the service numbers its callbacks.
        std::size_t stream = 0;
        if (req.path.starts_with("/cb/")) stream = std::strtoul(req.path.c_str() + 4, nullptr, 10);
        auto body = nlohmann::json::parse(req.body, nullptr, false);
        {
          std::lock_guard lock(log->mutex);
          if (!body.is_discarded()) log->by_stream[stream].push_back(std::move(body));
        }
        log->changed.notify_all();
        res.send(202, "text/plain", "");
      },
      "127.0.0.1", 0);
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
    const auto opened =
        call("POST", opt.service_url, open.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (opened.status < 200 || opened.status >= 300) {
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
      const auto ended = [&] {
        for (const auto& m : log->by_stream[stream_no]) {
          if (m.value("kind", "") == "error") return true;
        }
        return false;
      };
      if (log->changed.wait_for(lock, std::chrono::duration<double>(opt.case_timeout_s), ended))
        seen["status"] = "ended";
      for (const auto& m : log->by_stream[stream_no]) {
        const std::string kind = m.value("kind", "");
        if (kind == "error") break;
        if (kind != "event" || !m.contains("event") || !m["event"].is_object()) continue;
        const auto& e = m["event"];
        seen["events"].push_back(
            {{"type", e.value("type", "message")}, {"data", e.value("data", "")}, {"lastEventId", e.value("id", "")}});
      }
    }
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
