// The loopback HTTP server and the streaming client against each other:
// every way a stream can end is reported as what it is, within its bound.
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "raw_client.hpp"
#include "ssec/http/client.hpp"
#include "ssec/http/server.hpp"

using namespace std::chrono_literals;
namespace http = ssec::http;

namespace {

http::stream_result fetch(const std::string& url, std::string& body, http::stream_request req = {}) {
  req.url = url;
  return http::stream(req, [&](std::string_view bytes, double) {
    body.append(bytes);
    return true;
  });
}

const std::vector<std::pair<std::string, std::string>> sse_headers{{"Content-Type", "text/event-stream"},
                                                                   {"Cache-Control", "no-cache"}};

}  // namespace

TEST(http, a_stream_arrives_whole_with_its_headers) {
  auto s_started = http::server::start([](const http::request& req, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: one\n\n");
    std::this_thread::sleep_for(20ms);
    res.write("data: " + req.query.at("x") + "\n\n");
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  std::string body;
  const auto r = fetch(s.base_url() + "/stream?x=a%20b", body);
  EXPECT_EQ(r.end, http::stream_end::complete) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers.at("content-type"), "text/event-stream");
  EXPECT_EQ(body, "data: one\n\ndata: a b\n\n");
  EXPECT_GE(r.seconds_to_first_byte, 0);
}

// A streamed body goes out chunked to an HTTP/1.1 client and ends with the
// last chunk, so a cut is told from the end; an HTTP/1.0 client gets it
// unchunked. A reset sends no last chunk.
TEST(http, a_streamed_body_is_chunked_for_http11_and_ends_with_the_last_chunk) {
  auto s_started = http::server::start([](const http::request& req, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: one\n\n");
    res.write("");  // no bytes: no chunk (an empty one would end the body)
    res.write("data: two\n\n");
    if (req.path == "/cut") res.reset_connection();
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  const auto ask = [&](const std::string& request) {
    raw_client::client c(s.port());
    c.send(request);
    const std::string answer = c.answer(10s);
    return answer.substr(answer.find("\r\n\r\n") + 4);
  };
  EXPECT_EQ(ask("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "b\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n0\r\n\r\n");
  EXPECT_EQ(ask("GET / HTTP/1.0\r\n\r\n"), "data: one\n\ndata: two\n\n");
  // Through the client: complete, the body unchunked, the protocol named; a cut is a reset.
  std::string body;
  auto r = fetch(s.base_url() + "/", body);
  EXPECT_EQ(r.end, http::stream_end::complete) << r.error;
  EXPECT_EQ(r.headers.at("transfer-encoding"), "chunked");
  EXPECT_EQ(r.protocol, "HTTP/1.1");
  EXPECT_EQ(body, "data: one\n\ndata: two\n\n");
  body.clear();
  r = fetch(s.base_url() + "/cut", body);
  EXPECT_EQ(r.end, http::stream_end::reset) << r.error;
  EXPECT_EQ(body, "data: one\n\ndata: two\n\n");
}

TEST(http, a_post_body_and_headers_reach_the_handler) {
  std::string seen_body, seen_auth;
  auto s_started = http::server::start([&](const http::request& req, http::response& res) {
    seen_body = req.body;
    seen_auth = req.header("authorization");
    res.send(200, "text/event-stream", "data: ok\n\n");
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  http::stream_request req;
  req.method = "POST";
  req.body = R"({"prompt":"hi"})";
  req.headers = {"Authorization: Bearer t0k", "Content-Type: application/json"};
  std::string body;
  const auto r = fetch(s.base_url() + "/run", body, req);
  EXPECT_EQ(r.end, http::stream_end::complete) << r.error;
  EXPECT_EQ(seen_body, req.body);
  EXPECT_EQ(seen_auth, "Bearer t0k");
}

TEST(http, a_reset_mid_frame_is_reported_as_a_reset) {
  auto s_started = http::server::start([](const http::request&, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: complete\n\ndata: cut of");
    std::this_thread::sleep_for(20ms);
    res.reset_connection();
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  std::string body;
  const auto r = fetch(s.base_url() + "/", body);
  EXPECT_EQ(r.end, http::stream_end::reset) << r.error;
  EXPECT_EQ(body.substr(0, 16), "data: complete\n\n");
}

TEST(http, a_stall_ends_in_the_idle_timeout) {
  std::atomic<bool> done{false};
  auto s_started = http::server::start([&](const http::request&, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: first\n\n");
    for (int i = 0; i < 500 && !done; ++i) std::this_thread::sleep_for(10ms);  // up to 5 s of silence
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  http::stream_request req;
  req.idle_timeout_s = 1;
  std::string body;
  const auto start = std::chrono::steady_clock::now();
  const auto r = fetch(s.base_url() + "/", body, req);
  done = true;
  EXPECT_EQ(r.end, http::stream_end::idle_timeout) << r.error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
  EXPECT_EQ(body, "data: first\n\n");
}

// A command stopped by a signal ends its reads: the stop flag ends a stream
// while the server is silent, long before its idle timeout.
TEST(http, the_stop_flag_ends_a_silent_stream) {
  std::atomic<bool> done{false};
  auto s_started = http::server::start([&](const http::request&, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: first\n\n");
    for (int i = 0; i < 3000 && !done; ++i) std::this_thread::sleep_for(10ms);  // up to 30 s of silence
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  std::atomic<int> stop{0};
  http::stream_request req;
  req.idle_timeout_s = 60;
  req.stop = &stop;
  std::thread signal([&] {
    std::this_thread::sleep_for(200ms);
    stop = SIGTERM;
  });
  std::string body;
  const auto start = std::chrono::steady_clock::now();
  const auto r = fetch(s.base_url() + "/", body, req);
  done = true;
  signal.join();
  EXPECT_EQ(r.end, http::stream_end::stopped) << r.error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(body, "data: first\n\n");
}

TEST(http, an_endless_stream_stops_at_the_byte_limit) {
  auto s_started = http::server::start([&](const http::request&, http::response& res) {
    res.start(200, sse_headers);
    res.write("data: ");
    const std::string block(4096, 'a');
    for (int i = 0; i < 10000 && res.write(block); ++i) {
    }
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  http::stream_request req;
  req.max_bytes = 100000;
  std::string body;
  const auto r = fetch(s.base_url() + "/", body, req);
  EXPECT_EQ(r.end, http::stream_end::max_bytes) << r.error;
  EXPECT_EQ(body.size(), 100000u);
}

TEST(http, the_caller_can_stop_reading) {
  auto s_started = http::server::start([&](const http::request&, http::response& res) {
    res.start(200, sse_headers);
    for (int i = 0; i < 100 && res.write("data: x\n\n"); ++i) std::this_thread::sleep_for(5ms);
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  http::stream_request req;
  req.url = s.base_url() + "/";
  int pieces = 0;
  const auto r = http::stream(req, [&](std::string_view, double) { return ++pieces < 3; });
  EXPECT_EQ(r.end, http::stream_end::stopped);
  EXPECT_EQ(pieces, 3);
}

TEST(http, error_statuses_and_redirects_are_reported_not_followed) {
  auto s_started = http::server::start([&](const http::request& req, http::response& res) {
    if (req.path == "/moved") {
      res.start(302, {{"Location", "/elsewhere"}, {"Content-Length", "0"}});
      return;
    }
    res.send(503, "application/json", R"({"error":"overloaded"})");
  });
  ASSERT_TRUE(s_started) << s_started.error().to_string();
  http::server& s = **s_started;
  std::string body;
  auto r = fetch(s.base_url() + "/down", body);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.headers.at("content-type"), "application/json");
  body.clear();
  r = fetch(s.base_url() + "/moved", body);
  EXPECT_EQ(r.status, 302);
  EXPECT_NE(r.redirect_url.find("/elsewhere"), std::string::npos);
}

TEST(http, a_closed_port_is_a_connect_error) {
  std::uint16_t port;
  {
    auto s_started =
        http::server::start([](const http::request&, http::response& res) { res.send(200, "text/plain", ""); });
    ASSERT_TRUE(s_started) << s_started.error().to_string();
    http::server& s = **s_started;
    port = s.port();
  }
  std::string body;
  const auto r = fetch("http://127.0.0.1:" + std::to_string(port) + "/", body);
  EXPECT_EQ(r.end, http::stream_end::connect_error) << r.error;
}

TEST(http, a_server_that_cannot_start_says_why) {
  const auto ignore = [](const http::request&, http::response& res) { res.send(200, "text/plain", ""); };
  const auto bad_address = http::server::start(ignore, "not-an-address", 0);
  ASSERT_FALSE(bad_address);
  EXPECT_EQ(bad_address.error().message, "not an IPv4 address: not-an-address");
  EXPECT_EQ(bad_address.error().to_string(), bad_address.error().message);  // no file, no line
  auto first = http::server::start(ignore);
  ASSERT_TRUE(first) << first.error().to_string();
  const std::uint16_t taken = (*first)->port();
  const auto second = http::server::start(ignore, "127.0.0.1", taken);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().message.rfind("127.0.0.1:" + std::to_string(taken) + ": ", 0), 0u) << second.error().message;
}

// libcurl is opened at the first request, not linked: where it cannot be
// opened, the reason names the library and the Debian package that has it,
// and the loader's own words; where it can, there is no reason.
TEST(http, libcurl_that_cannot_be_opened_is_named_with_its_package) {
  const std::string why = http::detail::libcurl_problem({"libcurl-not-installed-here.so.4"});
  EXPECT_NE(why.find("HTTP needs libcurl (libcurl.so.4, Debian package libcurl4)"), std::string::npos) << why;
  EXPECT_NE(why.find("libcurl-not-installed-here.so.4"), std::string::npos) << why;  // dlerror's words
  EXPECT_EQ(http::detail::libcurl_problem({"libcurl-not-installed-here.so.4", "libcurl.so.4"}), "");
  EXPECT_TRUE(http::check_url("http://127.0.0.1:1/").ok());
}
