// SPDX-License-Identifier: MIT
// The case server beside its streams: the results a page posts, and the driver of an
// sse-contract-tests service through the cases and its callback URL.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

#include "source_cases.hpp"
#include "sse/recording.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/http/client.hpp"
#include "ssec/live/client_server.hpp"
#include "ssec/live/event_source.hpp"
#include "ssec/live/serve.hpp"
#include "ssec/live/service_driver.hpp"

namespace {

std::vector<ssec::conformance::test_case> some_cases(std::size_t n) {
  std::vector<ssec::conformance::test_case> out;
  for (auto& c : source_cases::load("conformance/cases")) {
    if (out.size() < n && c.verdict == ssec::conformance::verdict::must) out.push_back(std::move(c));
  }
  return out;
}

// Sends `body` to `url`; returns the HTTP status (0: no answer).
long send_to(const std::string& url, const std::string& body, const std::string& method = "POST") {
  ssec::http::stream_request req;
  req.url = url;
  req.method = method;
  req.headers = {"Content-Type: application/json"};
  req.body = body;
  req.timeout_s = 10;
  return ssec::http::stream(req, [](std::string_view, double) { return true; }).status;
}

// Posts `body` to the case server's /results; returns the HTTP status.
long post_results(const ssec::live::case_server& server, const std::string& body) {
  return send_to(server.base_url() + "/results", body);
}

// A stand-in contract-test service's answers to GET / (its `capabilities`)
// and DELETE; false for the stream-opening POST, left to the caller.
bool answer_service_basics(const ssec::http::request& req, ssec::http::response& res, const std::string& capabilities) {
  if (req.method == "GET" && req.path == "/") {
    res.send(200, "application/json", R"({"capabilities":)" + capabilities + "}");
    return true;
  }
  if (req.method == "DELETE") {
    res.send(204, "text/plain", "");
    return true;
  }
  return false;
}

// A later post replaces a case's row for the same kind of browser, so a
// page run again, or a client posting without end, does not add rows.
TEST(case_server_results, keep_the_latest_row_of_each_case_per_kind_of_browser) {
  auto cases = some_cases(2);
  ASSERT_EQ(cases.size(), 2u);
  const std::string a = cases[0].path();
  const std::string b = cases[1].path();
  auto started = ssec::live::case_server::start(cases, {}, "127.0.0.1", 0);
  ASSERT_TRUE(started) << started.error().to_string();
  const ssec::live::case_server& server = **started;
  const auto result = [](const std::string& name, const std::string& status) {
    return R"({"name":")" + name + R"(","status":")" + status + R"(","events":[]})";
  };
  const auto post = [&](const std::string& agent, const std::vector<std::string>& results) {
    std::string body = R"({"user_agent":")" + agent + R"(","results":[)";
    for (std::size_t i = 0; i < results.size(); ++i) body += (i > 0 ? "," : "") + results[i];
    return post_results(server, body + "]}");
  };
  ASSERT_EQ(post("Chrome/1", {result(a, "timeout")}), 200);
  ASSERT_EQ(post("Chrome/1", {result(b, "timeout"), result(a, "ended")}), 200);
  auto rows = server.browser_rows();
  ASSERT_EQ(rows.size(), 2u) << ssec::live::matrix_lines(rows);
  EXPECT_EQ(rows[0].case_name, a);  // where it was first posted
  EXPECT_NE(rows[0].outcome, ssec::conformance::outcome::timeout) << "the later post replaces the row";
  EXPECT_EQ(rows[1].case_name, b);
  EXPECT_EQ(rows[1].outcome, ssec::conformance::outcome::timeout);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(post("Chrome/1", {result(a, "timeout"), result(b, "timeout")}), 200);
  EXPECT_EQ(server.browser_rows().size(), 2u);
  // Another kind of browser has rows of its own.
  ASSERT_EQ(post("Firefox/2", {result(a, "timeout")}), 200);
  rows = server.browser_rows();
  ASSERT_EQ(rows.size(), 3u) << ssec::live::matrix_lines(rows);
  EXPECT_EQ(rows[0].outcome, ssec::conformance::outcome::timeout);
  EXPECT_EQ(rows[2].impl, "browser:firefox");
  EXPECT_EQ(rows[2].case_name, a);
}

// The grade a page shows and serve prints: a failed or timed-out MUST case
// makes it NOT conforming; a skipped one is not graded, and the verdict says
// so rather than "conforming".
TEST(case_server_results, the_grade_counts_statuses_and_judges_the_must_cases) {
  using ssec::conformance::outcome;
  using ssec::conformance::verdict;
  const auto row = [](std::string name, outcome o, verdict v) {
    return ssec::live::browser_row{"browser:chromium", std::move(name), o, v, {}, {}};
  };
  std::vector<ssec::live::browser_row> rows{row("wire/a/A", outcome::pass, verdict::must),
                                            row("wire/a/B", outcome::skip, verdict::must),
                                            row("wire/a/C", outcome::non_strict, verdict::should)};
  auto g = ssec::live::grade_of(rows);
  EXPECT_TRUE(g.conforming());
  EXPECT_EQ(g.sentence(),
            "browser:chromium: 3 cases: 1 FAIL, 1 PASS, 1 SKIPPED; MUST cases: 1 graded, 1 not graded (a browser does "
            "not show them): conforming on the graded MUST cases");
  rows.push_back(row("wire/a/D", outcome::timeout, verdict::must));
  g = ssec::live::grade_of(rows);
  EXPECT_FALSE(g.conforming());
  EXPECT_EQ(g.must_failed, 1u);
  EXPECT_NE(g.sentence().find("MUST cases: 1 failed of 2 graded, 1 not graded"), std::string::npos) << g.sentence();
  EXPECT_TRUE(g.sentence().ends_with(": NOT conforming")) << g.sentence();
  rows.erase(rows.begin() + 1);
  rows.pop_back();
  EXPECT_EQ(ssec::live::grade_of(rows).sentence(),
            "browser:chromium: 2 cases: 1 FAIL, 1 PASS; MUST cases: 1 graded: conforming");
  EXPECT_FALSE(ssec::live::grade_of({}).conforming()) << "nothing graded is never conforming";
}

// Sends `body` with `method` to `url`: the status and the response body.
std::pair<long, std::string> exchange(const std::string& url, const std::string& method, const std::string& body = {}) {
  ssec::http::stream_request req;
  req.url = url;
  req.method = method;
  req.body = body;
  req.timeout_s = 10;
  std::string got;
  const long status = ssec::http::stream(req, [&](std::string_view bytes, double) {
                        got.append(bytes);
                        return true;
                      }).status;
  return {status, got};
}

std::vector<ssec::conformance::test_case> client_cases(const std::vector<std::string>& paths) {
  std::vector<ssec::conformance::test_case> out;
  for (auto& c : source_cases::load("conformance/clients")) {
    if (std::find(paths.begin(), paths.end(), c.path()) != paths.end()) out.push_back(std::move(c));
  }
  EXPECT_EQ(out.size(), paths.size());
  return out;
}

// What the page does for one client case, with the reference client (and
// `quirks`) in the browser's place: mint a play, connect, post the result.
// The status serve graded it with.
std::string play_client_case(const ssec::live::case_server& server, const nlohmann::json& entry,
                             ssec::live::client_quirks quirks = {}, double limit_ms = 0) {
  const auto [status, minted] = exchange(server.base_url() + entry["start"].get<std::string>(), "POST");
  EXPECT_EQ(status, 200) << minted;
  const std::string url = nlohmann::json::parse(minted)["url"].get<std::string>();
  ssec::live::event_source_options o;
  o.url = server.base_url() + url;
  o.close_after_events = entry["close_after_events"].get<std::size_t>();
  o.limit_ms = limit_ms > 0 ? limit_ms : entry["limit_ms"].get<double>();
  o.quirks = quirks;
  const auto run = ssec::live::run_event_source(o);
  std::this_thread::sleep_for(std::chrono::milliseconds(entry["settle_ms"].get<long>()));
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : run.events)
    events.push_back({{"type", e.type}, {"data", e.data}, {"lastEventId", e.last_event_id}});
  const nlohmann::json post{
      {"user_agent", "Chrome/156"},
      {"results", {{{"name", entry["name"]}, {"url", url}, {"ended", run.ended}, {"events", events}}}}};
  const auto [posted, answer] = exchange(server.base_url() + "/results", "POST", post.dump());
  EXPECT_EQ(posted, 200) << answer;
  for (const auto& row : server.browser_rows()) {
    if (row.case_name == entry["name"])
      return std::string(row.status()) + (row.detail.empty() ? "" : ": " + row.detail);
  }
  return "no row";
}

// serve plays the client cases for the browser page: /clients.json lists
// them, POST /clients/<case> mints a play of its own, and a posted run is
// graded with the one client grader. The reference client passes; a client
// with a known bug fails the case that names it.
TEST(case_server_clients, plays_the_client_cases_and_grades_what_the_page_posts) {
  auto cases = client_cases({"client/last-event-id/C8LA", "client/http/C9HA"});
  auto all = some_cases(2);
  for (auto& c : cases) all.push_back(std::move(c));
  auto started = ssec::live::case_server::start(std::move(all), {}, "127.0.0.1", 0);
  ASSERT_TRUE(started);
  const auto& server = **started;
  const auto [listed, text] = exchange(server.base_url() + "/clients.json", "GET");
  ASSERT_EQ(listed, 200);
  const auto list = nlohmann::json::parse(text);
  ASSERT_EQ(list.size(), 2u) << text;
  EXPECT_EQ(nlohmann::json::parse(exchange(server.base_url() + "/cases.json", "GET").second).size(), 2u)
      << "the client cases are not streams";
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& e : list) by_name[e["name"].get<std::string>()] = e;
  const auto& lei = by_name.at("client/last-event-id/C8LA");
  const auto& no_content = by_name.at("client/http/C9HA");
  EXPECT_EQ(lei["start"], "/clients/client/last-event-id/C8LA");
  EXPECT_EQ(lei["close_after_events"], 3);

  EXPECT_EQ(play_client_case(server, lei), "PASS");
  EXPECT_EQ(play_client_case(server, no_content), "PASS");
  ssec::live::client_quirks no_id;
  no_id.no_last_event_id = true;
  EXPECT_EQ(play_client_case(server, lei, no_id), "FAIL: request 2 has no last-event-id header; expected \"8\"");
  ssec::live::client_quirks reconnects;
  reconnects.reconnect_on_failure = true;
  const std::string after_204 = play_client_case(server, no_content, reconnects, 1000);
  EXPECT_TRUE(after_204.starts_with("FAIL: ")) << after_204;
  EXPECT_NE(after_204.find("request 3 is one the client should not have made"), std::string::npos) << after_204;
  EXPECT_FALSE(ssec::live::grade_of(server.browser_rows()).conforming());
}

// What a page or anyone else sends is checked: an unknown client case is a
// 404, a play is POST only, and a result that names no URL played for its
// case is an error row, never a pass.
TEST(case_server_clients, refuse_what_was_not_played) {
  auto cases = some_cases(1);
  for (auto& c : client_cases({"client/last-event-id/C8LA"})) cases.push_back(std::move(c));
  auto started = ssec::live::case_server::start(std::move(cases), {}, "127.0.0.1", 0);
  ASSERT_TRUE(started);
  const auto& server = **started;
  const std::string base = server.base_url();
  EXPECT_EQ(exchange(base + "/clients/client/last-event-id/NOPE", "POST").first, 404);
  EXPECT_EQ(exchange(base + "/clients/client/last-event-id/C8LA", "GET").first, 405);
  EXPECT_EQ(exchange(base + "/client/999/x", "GET").first, 404);
  const std::string minted = exchange(base + "/clients/client/last-event-id/C8LA", "POST").second;
  const std::string url = nlohmann::json::parse(minted)["url"].get<std::string>();
  EXPECT_EQ(exchange(base + url, "POST").first, 405);
  EXPECT_EQ(exchange(base + "/results", "POST", R"({"results":[{"name":"client/last-event-id/C8LA","url":7}]})").first,
            400);
  const auto post = [&](const std::string& played) {
    const nlohmann::json body{{"results",
                               {{{"name", "client/last-event-id/C8LA"},
                                 {"url", played},
                                 {"ended", "closed"},
                                 {"events", nlohmann::json::array()}}}}};
    EXPECT_EQ(exchange(base + "/results", "POST", body.dump()).first, 200);
    return server.browser_rows().back();
  };
  const auto unplayed = post("/client/999/client-last-event-id-C8LA");
  EXPECT_EQ(unplayed.status(), "CRASH");
  EXPECT_NE(unplayed.detail.find("names no URL this server played"), std::string::npos) << unplayed.detail;
  // A play that made no request: graded, and it fails.
  EXPECT_EQ(post(url).status(), "FAIL");
  // Graded once: the play is forgotten after its post.
  EXPECT_EQ(exchange(base + url, "GET").first, 404);
}

// Plays started without end hold bounded memory: beyond client_max_scripts
// the oldest is forgotten.
TEST(case_server_clients, at_most_so_many_plays_are_kept) {
  const auto cases = client_cases({"client/last-event-id/C8LA"});
  ssec::live::client_scripts scripts;
  const std::string first = scripts.add(*cases.at(0).client, cases[0].path());
  EXPECT_EQ(scripts.name_of(first), "client/last-event-id/C8LA");
  EXPECT_TRUE(first.starts_with("/client/1/client-last-event-id-C8LA")) << first;
  std::string last;
  for (std::size_t i = 0; i < ssec::live::client_max_scripts; ++i)
    last = scripts.add(*cases[0].client, cases[0].path());
  EXPECT_FALSE(scripts.observed(first).has_value());
  EXPECT_FALSE(scripts.name_of(first).has_value());
  EXPECT_TRUE(scripts.observed(last).has_value());
}

// A stand-in for a client library's sse-contract-tests service, with the
// reference parser as its "client": it proves the driver's side of the mapping.
TEST(service_driver, drives_a_contract_test_service_through_the_cases) {
  auto cases = some_cases(12);
  ASSERT_EQ(cases.size(), 12u);
  auto served_started = ssec::live::case_server::start(cases, {}, "127.0.0.1", 0);
  ASSERT_TRUE(served_started) << served_started.error().to_string();
  ssec::live::case_server& served = **served_started;
  std::mutex mutex;
  std::vector<std::thread> streams;
  auto service_started = ssec::http::server::start(
      [&](const ssec::http::request& req, ssec::http::response& res) {
        if (answer_service_basics(req, res, R"(["comments"])")) return;
        const auto open = nlohmann::json::parse(req.body);
        const std::string stream_url = open.at("streamUrl");
        const std::string callback = open.at("callbackUrl");
        {
          std::lock_guard lock(mutex);
          streams.emplace_back([stream_url, callback] {
            std::string body;
            ssec::http::stream_request get;
            get.url = stream_url;
            get.timeout_s = 5;
            ssec::http::stream(get, [&](std::string_view b, double) {
              body.append(b);
              return true;
            });
            const auto rec = sse::record_parse(std::string_view(body));
            int n = 0;
            const auto post = [&](const nlohmann::json& j) {
              ssec::http::stream_request p;
              p.url = callback + "/" + std::to_string(++n);
              p.method = "POST";
              p.body = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
              p.timeout_s = 5;
              ssec::http::stream(p, [](std::string_view, double) { return true; });
            };
            for (const auto& e : rec.events) {
              post({{"kind", "event"}, {"event", {{"type", e.type}, {"data", e.data}, {"id", e.last_event_id}}}});
            }
            post({{"kind", "error"}, {"error", "stream closed"}});
          });
        }
        res.start(201, {{"Location", "/streams/1"}, {"Content-Length", "0"}});
      },
      "127.0.0.1", 0);
  ASSERT_TRUE(service_started) << service_started.error().to_string();
  ssec::http::server& service = **service_started;
  ssec::live::service_options opt{service.base_url(), served.base_url(), 5, "service:reference"};
  const auto driven = ssec::live::drive_service(cases, opt);
  for (auto& t : streams) t.join();
  ASSERT_TRUE(driven) << driven.error().to_string();
  const auto& rows = *driven;
  ASSERT_EQ(rows.size(), cases.size());
  std::size_t pass = 0;
  for (const auto& r : rows) {
    EXPECT_TRUE(r.status() == "PASS" || r.status() == "SKIPPED")
        << r.case_name << ": " << r.status() << " " << r.detail;
    pass += r.status() == "PASS";
  }
  EXPECT_GT(pass, 0u);
  // An unreachable service is an error, not an empty pass.
  ssec::live::service_options gone{"http://127.0.0.1:1", served.base_url(), 1, "x"};
  EXPECT_FALSE(ssec::live::drive_service(cases, gone));
}

// A service that misbehaves on the callback URL: each bad callback is a
// 4xx naming why, a callback for a stream not being read is refused (a late
// one too), the callbacks kept for a stream are bounded, and members of the
// wrong type are graded as absent, never thrown on.
TEST(service_driver, refuses_bad_callbacks_and_bounds_what_it_keeps) {
  auto cases = some_cases(2);
  ASSERT_EQ(cases.size(), 2u);
  auto served_started = ssec::live::case_server::start(cases, {}, "127.0.0.1", 0);
  ASSERT_TRUE(served_started) << served_started.error().to_string();
  std::mutex mutex;
  std::map<std::string, long> answers;  // what the driver answered each kind of callback
  std::size_t too_many = 0;
  std::string first_callback;
  const auto note = [&](const std::string& what, long status) {
    std::lock_guard lock(mutex);
    answers[what] = status;
  };
  // The first stream: every kind of bad callback, then more than it has room
  // for, so its closing error is refused too. The second: a late callback
  // for the first, then its own error. The service posts them before it
  // answers the stream-opening POST, so they have all arrived when the
  // driver starts waiting: the first stream ends by its timeout however
  // slowly this machine posts, the second by its error.
  const auto misbehave = [&](const std::string& callback) {
    const std::string base = callback.substr(0, callback.rfind('/'));
    note("not json", send_to(callback + "/1", "not json"));
    note("not an object", send_to(callback + "/2", "[1]"));
    note("bad path", send_to(base + "/x", "{}"));
    note("get", send_to(callback, "", "GET"));
    note("another stream", send_to(base + "/1000", R"({"kind":"event","event":{"data":"x"}})"));
    note("wrong types", send_to(callback, R"({"kind":"event","event":{"type":7,"data":["x"],"id":null}})"));
    note("kind not a string", send_to(callback, R"({"kind":5})"));
    for (int i = 0; i < 1100; ++i) {
      const long status = send_to(callback, R"({"kind":"comment","comment":"x"})");
      std::lock_guard lock(mutex);
      too_many += status == 429;
    }
    note("error past the room", send_to(callback, R"({"kind":"error"})"));
  };
  auto service_started = ssec::http::server::start(
      [&](const ssec::http::request& req, ssec::http::response& res) {
        if (answer_service_basics(req, res, "[]")) return;
        const std::string callback = nlohmann::json::parse(req.body).at("callbackUrl");
        if (first_callback.empty()) {
          first_callback = callback;
          misbehave(callback);
        } else {
          note("after its case", send_to(first_callback, R"({"kind":"error"})"));
          send_to(callback, R"({"kind":"error"})");
        }
        res.start(201, {{"Location", "/streams/1"}, {"Content-Length", "0"}});
      },
      "127.0.0.1", 0);
  ASSERT_TRUE(service_started) << service_started.error().to_string();
  ssec::live::service_options opt{(**service_started).base_url(), (**served_started).base_url(), 1, "service:bad"};
  const auto driven = ssec::live::drive_service(cases, opt);
  ASSERT_TRUE(driven) << driven.error().to_string();
  ASSERT_EQ(driven->size(), 2u);
  EXPECT_EQ((*driven)[0].status(), "TIMEOUT") << (*driven)[0].detail;  // its error came past the room
  EXPECT_NE((*driven)[1].status(), "TIMEOUT") << (*driven)[1].detail;  // its error ended it
  EXPECT_EQ(answers["not json"], 400);
  EXPECT_EQ(answers["not an object"], 400);
  EXPECT_EQ(answers["bad path"], 404);
  EXPECT_EQ(answers["get"], 405);
  EXPECT_EQ(answers["another stream"], 404);
  EXPECT_EQ(answers["wrong types"], 202);
  EXPECT_EQ(answers["kind not a string"], 202);
  // Room for the case's events and 1,024 more: of the 1,102 posts kept
  // until then, the rest are refused, and so is the error after them.
  const std::size_t room = cases[0].events.size() + 1024;
  ASSERT_LT(room, 1102u);
  EXPECT_EQ(too_many, 1102 - room);
  EXPECT_EQ(answers["error past the room"], 429);
  EXPECT_EQ(answers["after its case"], 404);
}

}  // namespace
