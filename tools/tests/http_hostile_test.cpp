// SPDX-License-Identifier: MIT
// The loopback HTTP server against hostile and unlucky clients: every
// malformed request is a 4xx naming what is wrong, a
// handler's exception costs one request, slow senders and stalled readers
// cannot hold the server, and stop() never waits on a client. Deadlines in
// these tests are generous bounds on outcomes, never measurements.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "raw_client.hpp"
#include "ssec/http/client.hpp"
#include "ssec/http/server.hpp"
#include "ssec/support/text.hpp"

using namespace std::chrono_literals;
namespace http = ssec::http;

namespace {

using raw_client::client;
using raw_client::status_line;

std::unique_ptr<http::server> echo_server(http::server_limits limits = {}) {
  auto started = http::server::start(
      [](const http::request& req, http::response& res) {
        if (req.path == "/throw") throw std::runtime_error("a handler's bug");
        res.send(200, "text/plain", req.method + " " + req.target + " body=" + req.body);
      },
      "127.0.0.1", 0, limits);
  if (!started) throw std::runtime_error(started.error().to_string());
  return std::move(started.value());
}

// The head parser alone: each malformed head is refused with its status and
// a reason naming the fault.
struct bad_head {
  std::string head;
  int status;
  std::string names;
};

TEST(http_hostile, malformed_heads_are_refused_naming_the_fault) {
  const std::vector<bad_head> cases{
      {"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n", 400, "Content-Length \"abc\""},
      {"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n", 400, "Content-Length"},
      {"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n", 400, "content-length is sent twice"},
      {"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n", 400, "host is sent twice"},
      {"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n", 400, "both"},
      {"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n", 501, "transfer coding"},
      {"GET / HTTP/1.1\r\n", 400, "without a Host"},
      {"GET / HTTP/1.1\r\nHost: x\r\n folded\r\n", 400, "folding"},
      {"GET / HTTP/1.1\r\nHost : x\r\n", 400, "not a token"},
      {"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n", 400, "control byte"},
      {std::string("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n", 35), 400, "control byte"},
      {"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n", 400, "without a colon"},
      {"GET / HTTP/1.1\r\nHost: x\rX: y\r\n", 400, "bare CR"},
      {"GET / HTTP/1.1\nHost: x\r\n", 400, "CRLF"},
      {"G(T / HTTP/1.1\r\nHost: x\r\n", 400, "method"},
      {"GET /a\x7f HTTP/1.1\r\nHost: x\r\n", 400, "request target"},
      {"GET /\xc3\xa9 HTTP/1.1\r\nHost: x\r\n", 400, "visible ASCII"},
      {"GET  / HTTP/1.1\r\nHost: x\r\n", 400, "request line"},
      {"GET / HTTP/1.1 extra\r\nHost: x\r\n", 400, "request line"},
      {"GET relative HTTP/1.1\r\nHost: x\r\n", 400, "start with /"},
      {"GET / FOO/1.1\r\nHost: x\r\n", 400, "not an HTTP version"},
      {"GET / HTTP/2.0\r\nHost: x\r\n", 505, "2.0"},
      {"POST / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n", 417, "Expect"},
  };
  for (const auto& c : cases) {
    http::request req;
    const auto bad = http::parse_head(c.head, req);
    ASSERT_TRUE(bad.has_value()) << "accepted: " << c.head;
    EXPECT_EQ(bad->status, c.status) << c.head << " -> " << bad->reason;
    EXPECT_NE(bad->reason.find(c.names), std::string::npos) << c.head << " -> " << bad->reason;
  }
}

TEST(http_hostile, well_formed_heads_are_accepted) {
  http::request req;
  EXPECT_FALSE(http::parse_head("GET http://h:1/a/b?x=%41&y HTTP/1.1\r\nHost: h\r\nX-L: 1\r\nx-l: 2\r\n", req));
  EXPECT_EQ(req.path, "/a/b");
  EXPECT_EQ(req.query.at("x"), "A");
  EXPECT_EQ(req.query.at("y"), "");
  EXPECT_EQ(req.header("x-l"), "1, 2");
  http::request old;
  EXPECT_FALSE(http::parse_head("GET / HTTP/1.0\r\n", old));  // HTTP/1.0 needs no Host
}

// Over a socket: what the reader refuses (sizes, bare LF, bodies) is answered
// with the status and reason, and the server goes on.
TEST(http_hostile, bad_requests_over_the_wire_are_4xx_and_the_server_goes_on) {
  http::server_limits lim;
  lim.max_head_bytes = 4096;
  lim.max_body_bytes = 1000;
  auto s = echo_server(lim);
  const auto ask = [&](const std::string& bytes, bool half_close = false) {
    client c(s->port());
    c.send(bytes);
    if (half_close) c.half_close();
    return c.answer();
  };
  struct exchange {
    std::string bytes;
    bool half_close;
    std::string status;
    std::string names;
  };
  const std::vector<exchange> cases{
      {"GET / HTTP/1.1\nHost: x\n\n", false, "HTTP/1.1 400 Bad Request", "bare LF"},
      {"GET /" + std::string(5000, 'a') + " HTTP/1.1\r\n", false, "HTTP/1.1 414 URI Too Long", "request line"},
      {"GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(5000, 'a'), false, "HTTP/1.1 431 ", "request head"},
      // Whole, in one read, with its blank line: still over the limit.
      {"GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(5000, 'a') + "\r\n\r\n", false, "HTTP/1.1 431 ",
       "request head"},
      {"GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(4070, 'a') + "\r\n\r\n", false, "HTTP/1.1 431 ",
       "longer than 4096 bytes"},
      {"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n", false, "HTTP/1.1 413 ", "1001"},
      {"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", false, "HTTP/1.1 400 ",
       "Content-Length"},
      {"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", true, "HTTP/1.1 400 ",
       "closed inside the request body"},
      {"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false, "HTTP/1.1 400 ", "\"zz\""},
      {"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", false, "HTTP/1.1 400 ",
       "not followed by CRLF"},
      {"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3E9\r\n", false, "HTTP/1.1 413 ", "chunked"},
      {"GET /throw HTTP/1.1\r\nHost: x\r\n\r\n", false, "HTTP/1.1 500 ", "internal error"},
  };
  for (const auto& c : cases) {
    const std::string answer = ask(c.bytes, c.half_close);
    EXPECT_EQ(status_line(answer).substr(0, c.status.size()), c.status) << c.bytes.substr(0, 80) << "\n" << answer;
    EXPECT_NE(answer.find(c.names), std::string::npos) << c.bytes.substr(0, 80) << "\n" << answer;
  }
  EXPECT_EQ(status_line(ask("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")), "HTTP/1.1 200 OK");
  // A head of exactly the limit (4096 bytes with its blank line) is accepted.
  EXPECT_EQ(status_line(ask("GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(4064, 'a') + "\r\n\r\n")),
            "HTTP/1.1 200 OK");
}

TEST(http_hostile, a_chunked_body_reaches_the_handler_decoded) {
  auto s = echo_server();
  client c(s->port());
  c.send(
      "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n");
  const std::string answer = c.answer();
  EXPECT_EQ(status_line(answer), "HTTP/1.1 200 OK") << answer;
  EXPECT_TRUE(answer.ends_with("POST /c body=Wikipedia")) << answer;
}

TEST(http_hostile, a_header_that_would_split_the_response_is_never_sent) {
  auto started = http::server::start([](const http::request& req, http::response& res) {
    const std::string value = req.query.count("v") != 0 ? req.query.at("v") : "";
    res.start(200, {{"Content-Type", value}});
    res.write("body");
  });
  ASSERT_TRUE(started) << started.error().to_string();
  client c((*started)->port());
  c.send("GET /?v=text/plain%0D%0ASet-Cookie:%20a=b HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string answer = c.answer();
  EXPECT_EQ(status_line(answer), "HTTP/1.1 500 Internal Server Error") << answer;
  EXPECT_EQ(answer.find("Set-Cookie"), std::string::npos) << answer;
  EXPECT_EQ(answer.find("body"), std::string::npos) << answer;
}

TEST(http_hostile, percent_encode_leaves_nothing_that_ends_a_line) {
  const std::string bytes = std::string("a b\r\n&=%\x00\xff~", 11);
  const std::string encoded = ssec::percent_encode(bytes);
  EXPECT_EQ(encoded, "a%20b%0D%0A%26%3D%25%00%FF~");
  EXPECT_EQ(http::percent_decode(encoded), bytes);
}

// A hundred clients that never finish their request head do not
// lock out a client that sends its request at once.
TEST(http_hostile, slow_clients_do_not_lock_out_a_good_one) {
  auto s = echo_server();  // the defaults: 64 connections, 10 s for a head
  std::vector<std::unique_ptr<client>> slow;
  for (int i = 0; i < 100; ++i) {
    slow.push_back(std::make_unique<client>(s->port()));
    slow.back()->send("GET / HTTP/1.1\r\nX-Slow: ");  // and never more
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    client good(s->port());
    good.send("GET /good HTTP/1.1\r\nHost: x\r\n\r\n");
    const std::string answer = good.answer();
    EXPECT_EQ(status_line(answer), "HTTP/1.1 200 OK") << answer;
  }
  EXPECT_GE(s->evicted(), 36u);  // at least the surplus made room
}

// The head has one deadline in all, however the bytes trickle in.
TEST(http_hostile, a_head_that_trickles_past_its_deadline_is_408) {
  http::server_limits lim;
  lim.head_timeout = 500ms;
  auto s = echo_server(lim);
  client c(s->port());
  const std::string head = "GET / HTTP/1.1\r\nX-Slow: " + std::string(300, 'a');
  std::string answer;
  for (std::size_t i = 0; i < head.size() && answer.empty(); ++i) {  // one byte per 100 ms: 30 s at most
    c.send(head.substr(i, 1));
    answer = c.answer(100ms);
  }
  answer += c.answer();  // the rest, to the close: the poll above may end between the head and the body
  EXPECT_EQ(status_line(answer), "HTTP/1.1 408 Request Timeout") << answer;
  EXPECT_NE(answer.find("did not arrive within 500 ms"), std::string::npos) << answer;
}

// A client that stops reading a stream releases its connection when
// the send timeout strikes.
TEST(http_hostile, a_client_that_stops_reading_is_let_go) {
  std::promise<void> handler_returned;
  auto returned = handler_returned.get_future();
  http::server_limits lim;
  lim.send_timeout = 500ms;
  auto started = http::server::start(
      [&](const http::request&, http::response& res) {
        res.start(200, {{"Content-Type", "text/event-stream"}});
        const std::string block(64 * 1024, 'x');
        while (res.write(block)) {
        }
        handler_returned.set_value();
      },
      "127.0.0.1", 0, lim);
  ASSERT_TRUE(started) << started.error().to_string();
  client c((*started)->port());
  c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");  // and never reads
  EXPECT_EQ(returned.wait_for(30s), std::future_status::ready) << "the handler is still blocked in a write";
}

// stop() returns while clients hold stalled connections: one that
// reads nothing of an endless stream, one that never finishes its head.
TEST(http_hostile, stop_never_waits_on_a_client) {
  auto started = http::server::start([](const http::request&, http::response& res) {
    res.start(200, {{"Content-Type", "text/event-stream"}});
    const std::string block(64 * 1024, 'x');
    while (res.write(block)) {
    }
  });
  ASSERT_TRUE(started) << started.error().to_string();
  auto s = std::move(started.value());
  auto stalled = std::make_unique<client>(s->port());
  stalled->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  auto half = std::make_unique<client>(s->port());
  half->send("GET / HTTP/1.1\r\nHo");
  std::this_thread::sleep_for(200ms);  // let the stream fill the socket buffers (not a measurement)
  auto stopped = std::async(std::launch::async, [&] { s->stop(); });
  const bool returned = stopped.wait_for(30s) == std::future_status::ready;
  EXPECT_TRUE(returned) << "stop() is waiting on a client";
  stalled.reset();  // (if it was, this frees it, so the test ends)
  half.reset();
  stopped.wait();
}

}  // namespace

namespace {

// URLs that cannot be requested are told apart before any
// connection, with libcurl's reason.
TEST(check_url, only_whole_http_urls_pass) {
  for (const std::string good : {"http://127.0.0.1:8080/x?y=1", "https://example.com", "HTTP://Example.com/a%20b"}) {
    const auto r = http::check_url(good);
    EXPECT_TRUE(r) << good << ": " << r.error().message;
  }
  for (const std::string bad : {"htp:/bad url", "http://bad url/", "ftp://example.com/", "http://127.0.0.1:99999/",
                                "http://", "", "example.com/stream"}) {
    const auto r = http::check_url(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_FALSE(r.error().message.empty()) << bad;
    EXPECT_EQ(r.error().message.find(bad.empty() ? "\x01" : bad), std::string::npos)
        << "the reason repeats the URL (which may hold a secret): " << r.error().message;
  }
  EXPECT_EQ(http::check_url("ftp://example.com/").error().message, "only http:// and https:// URLs can be requested");
}

// Response headers beyond the limit (many lines, or one line over
// libcurl's own) end the exchange as headers_too_large, never as a reset or
// "Out of memory".
TEST(http_hostile, oversized_response_headers_are_reported_as_such) {
  auto started = http::server::start([](const http::request& req, http::response& res) {
    std::vector<std::pair<std::string, std::string>> headers{{"Content-Type", "text/event-stream"}};
    if (req.path == "/one-line") {
      headers.emplace_back("X-Big", std::string(8 << 20, 'a'));
    } else {
      for (int i = 0; i < 300; ++i) headers.emplace_back("X-H" + std::to_string(i), std::string(1024, 'a'));
    }
    res.start(200, headers);
    res.write("data: a\n\n");
  });
  ASSERT_TRUE(started) << started.error().to_string();
  for (const std::string path : {"/one-line", "/many-lines"}) {
    http::stream_request req;
    req.url = (*started)->base_url() + path;
    std::string body;
    const auto r = http::stream(req, [&](std::string_view bytes, double) {
      body.append(bytes);
      return true;
    });
    EXPECT_EQ(r.end, http::stream_end::headers_too_large) << path << ": " << http::to_string(r.end) << " " << r.error;
    EXPECT_NE(r.error.find("header"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("memory"), std::string::npos) << r.error;
    EXPECT_TRUE(body.empty());
  }
}

}  // namespace

namespace {

// Bodies held at once are bounded across connections: a body that does not
// fit while another is held is 503, and fits again once that one is done.
TEST(http_hostile, request_bodies_in_flight_share_one_budget) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> holding;
  http::server_limits lim;
  lim.max_body_bytes = 1000;
  lim.max_body_bytes_in_flight = 1000;
  auto started = http::server::start(
      [&](const http::request& req, http::response& res) {
        if (req.path == "/hold") {
          holding.set_value();
          released.wait_for(30s);
        }
        res.send(200, "text/plain", std::to_string(req.body.size()));
      },
      "127.0.0.1", 0, lim);
  ASSERT_TRUE(started) << started.error().to_string();
  const auto post = [&](const std::string& path, std::size_t n) {
    return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(n) + "\r\n\r\n" +
           std::string(n, 'b');
  };
  client first((*started)->port());
  first.send(post("/hold", 800));
  ASSERT_EQ(holding.get_future().wait_for(30s), std::future_status::ready);
  client second((*started)->port());
  second.send(post("/other", 500));
  const std::string refused = second.answer();
  EXPECT_EQ(status_line(refused), "HTTP/1.1 503 Service Unavailable") << refused;
  EXPECT_NE(refused.find("bodies"), std::string::npos) << refused;
  release.set_value();
  EXPECT_TRUE(first.answer().ends_with("800"));
  client third((*started)->port());
  third.send(post("/other", 500));
  const std::string served = third.answer();
  EXPECT_EQ(status_line(served), "HTTP/1.1 200 OK") << served;
}

}  // namespace
