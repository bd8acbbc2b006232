// SPDX-License-Identifier: MIT
// The rough edges of check and serve at the library level: what a
// sampled read does not grade, the silence that ended a read, an error page's
// body in the finding, and serve's answers to wrong methods, bad fault
// parameters and the case's one name.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/serve.hpp"

namespace {

const std::string agent_run_without_comments =
    "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"step_started\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n";

// One raw HTTP/1.1 exchange (the server closes every connection): the whole answer.
std::string http_exchange(std::uint16_t port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "connect failed";
  }
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::send(fd, request.data(), request.size(), 0);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

std::string request(const std::string& method, const std::string& path) {
  return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
}

class served : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<ssec::error> errors;
    const auto tags = ssec::conformance::load_tags(SSEC_SOURCE_DIR "/spec/tags.yaml", "spec/tags.yaml", errors);
    ASSERT_TRUE(errors.empty());
    auto loaded = ssec::conformance::load_case_tree(SSEC_SOURCE_DIR "/conformance/cases", "conformance/cases", tags);
    ASSERT_TRUE(loaded.ok()) << loaded.error_text();
    for (const auto& c : loaded.value) {
      if (c.topic == "bom" && c.id == "3RFS") bom_ = c;
    }
    ASSERT_FALSE(bom_.id.empty()) << "the case wire/bom/3RFS is gone";
    auto started =
        ssec::live::case_server::start(std::vector<ssec::conformance::test_case>{bom_},
                                       std::vector<ssec::live::served_stream>{
                                           {"good", agent_run_without_comments, {agent_run_without_comments.size()}}},
                                       "127.0.0.1", 0, ssec::live::serve_limits{5, 64ull << 20, 2000});
    ASSERT_TRUE(started) << started.error().to_string();
    server_ = std::move(started.value());
  }
  std::string ask(const std::string& method, const std::string& path) {
    const std::string base = server_->base_url();
    const auto port = static_cast<std::uint16_t>(std::stoi(base.substr(base.rfind(':') + 1)));
    return http_exchange(port, request(method, path));
  }
  ssec::conformance::test_case bom_;
  std::unique_ptr<ssec::live::case_server> server_;
};

// check and scenario files build their request in one place: the method from
// the body, and Accept added unless the caller sent one, in any case.
TEST(event_stream_request, adds_accept_unless_given_in_any_case_and_picks_the_method) {
  namespace live = ssec::live;
  const auto plain = live::event_stream_request("http://x/s", "", {"Authorization: Bearer t"}, "");
  EXPECT_EQ(plain.method, "GET");
  EXPECT_EQ(plain.headers, (std::vector<std::string>{"Authorization: Bearer t", "Accept: text/event-stream"}));
  const auto posted = live::event_stream_request("http://x/s", "", {}, "{}");
  EXPECT_EQ(posted.method, "POST");
  EXPECT_EQ(posted.body, "{}");
  EXPECT_EQ(live::event_stream_request("http://x/s", "PUT", {}, "{}").method, "PUT");
  for (const std::string accept : {"Accept: */*", "accept: */*", "ACCEPT: */*", "aCcEpT:*/*"}) {
    EXPECT_EQ(live::event_stream_request("http://x/s", "", {accept}, "").headers, std::vector<std::string>{accept})
        << accept;
  }
  // A header whose name only starts with "accept" is another header.
  EXPECT_EQ(live::event_stream_request("http://x/s", "", {"Accept-Language: en"}, "").headers.size(), 2u);
}

TEST_F(served, post_on_an_existing_case_is_405_with_allow) {
  const std::string answer = ask("POST", "/case/wire/bom/3RFS");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 405 ")) << answer;
  EXPECT_NE(answer.find("Allow: GET, HEAD\r\n"), std::string::npos) << answer;
  EXPECT_TRUE(ask("DELETE", "/stream/good").starts_with("HTTP/1.1 405 "));
  EXPECT_TRUE(ask("POST", "/case/no/such/case").starts_with("HTTP/1.1 404 "));
}

TEST_F(served, head_answers_the_headers_without_a_body) {
  const std::string answer = ask("HEAD", "/stream/good");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200 ")) << answer;
  EXPECT_NE(answer.find("Content-Type: text/event-stream"), std::string::npos) << answer;
  EXPECT_TRUE(answer.ends_with("\r\n\r\n")) << "a body followed the headers: " << answer;
  const std::string index = ask("HEAD", "/cases.json");
  EXPECT_TRUE(index.starts_with("HTTP/1.1 200 ")) << index;
  EXPECT_TRUE(index.ends_with("\r\n\r\n")) << index;
}

TEST_F(served, unknown_or_invalid_fault_parameters_are_400_naming_them) {
  for (const std::string q :
       {"stal=5", "status=abc", "delay_ms=-5", "gzip=yes", "split=lines", "reset=-3", "stall=nan", "stall_at=x",
        "drip_ms=1.5", "forever=2", "resume=yes", "endless=", "status=99999999999999"}) {
    const std::string answer = ask("GET", "/stream/good?" + q);
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 400 ")) << q << ": " << answer;
    EXPECT_NE(answer.find("`" + q.substr(0, q.find('=')) + (q.starts_with("stal=") ? "`" : "=")), std::string::npos)
        << q << ": " << answer;
  }
  EXPECT_TRUE(ask("GET", "/stream/good?delay_ms=1&split=frames").starts_with("HTTP/1.1 200 "));
}

// A CR, LF or any control byte in content_type is refused
// (it would become a header line), and what redirect=1 echoes into Location
// is percent-encoded, never a second header.
TEST_F(served, content_type_and_redirect_cannot_split_the_response) {
  for (const std::string q :
       {"content_type=text/event-stream%0D%0ASet-Cookie:%20a=b", "content_type=a%0Ab", "content_type=a%00b",
        "content_type=a%09b", "content_type=a%7Fb", "redirect=1&content_type=a%0D%0AX-Injected:%20yes"}) {
    const std::string answer = ask("GET", "/stream/good?" + q);
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 400 ")) << q << ": " << answer;
    EXPECT_NE(answer.find("`content_type="), std::string::npos) << q << ": " << answer;
    EXPECT_EQ(answer.find("\r\nSet-Cookie"), std::string::npos) << answer;
    EXPECT_EQ(answer.find("\r\nX-Injected"), std::string::npos) << answer;
  }
  const std::string moved = ask("GET", "/stream/good?redirect=1&content_type=text/plain%3Bcharset%3D%22a%26b%22");
  EXPECT_TRUE(moved.starts_with("HTTP/1.1 302 ")) << moved;
  EXPECT_NE(moved.find("\r\nLocation: /stream/good?content_type=text%2Fplain%3Bcharset%3D%22a%26b%22\r\n"),
            std::string::npos)
      << moved;
}

TEST_F(served, a_case_has_one_name_its_path_and_the_old_name_still_works) {
  const std::string list = ask("GET", "/cases.json");
  EXPECT_NE(list.find("\"name\":\"wire/bom/3RFS\""), std::string::npos) << list;
  EXPECT_NE(list.find("\"url\":\"/case/wire/bom/3RFS\""), std::string::npos) << list;
  EXPECT_EQ(list.find("bom_3RFS"), std::string::npos) << list;
  EXPECT_TRUE(ask("GET", "/case/wire/bom/3RFS").starts_with("HTTP/1.1 200 "));
  EXPECT_TRUE(ask("GET", "/case/bom_3RFS").starts_with("HTTP/1.1 200 "));
  EXPECT_EQ(ssec::live::grade_browser(bom_, "browser:x", nlohmann::json::object()).case_name, "wire/bom/3RFS");
}

ssec::live::check_options agent() {
  ssec::live::check_options opt;
  opt.dialect = sse::dialect::builtin_dialect("agent");
  return opt;
}

bool has(const ssec::live::check_report& r, const std::string& rule) {
  for (const auto& f : r.findings) {
    if (f.rule == rule) return true;
  }
  return false;
}

TEST_F(served, a_sampled_read_does_not_grade_the_end_it_did_not_read) {
  ssec::http::stream_request req;
  req.url = server_->base_url() + "/stream/good?split=frames&delay_ms=50";
  req.timeout_s = 5;
  req.idle_timeout_s = 5;
  const auto cap = ssec::live::fetch(req, 3);
  EXPECT_EQ(cap.end, "stopped");
  const auto r = ssec::live::analyze(cap, agent());
  EXPECT_TRUE(r.sampled);
  EXPECT_FALSE(has(r, "AGENT-DONE-LAST")) << ssec::live::to_text(r);
  EXPECT_TRUE(r.conforming()) << ssec::live::to_text(r);
  EXPECT_NE(ssec::live::to_text(r).find("sampled: 3 events read, end of stream not graded"), std::string::npos)
      << ssec::live::to_text(r);
  EXPECT_EQ(ssec::live::to_json(r)["summary"]["sampled"], true);
}

TEST_F(served, the_silence_that_ended_the_read_counts_in_the_longest_silence) {
  ssec::http::stream_request req;
  req.url = server_->base_url() + "/stream/good?stall=3&stall_at=40";
  req.timeout_s = 10;
  req.idle_timeout_s = 0.6;
  const auto cap = ssec::live::fetch(req, 0);
  ASSERT_EQ(cap.end, "idle_timeout");
  const auto r = ssec::live::analyze(cap, agent());
  EXPECT_GE(r.timing.max_gap, 0.5) << ssec::live::to_text(r);
}

TEST_F(served, an_error_status_shows_the_first_bytes_of_its_body) {
  ssec::http::stream_request req;
  req.url = server_->base_url() + "/stream/good?status=500";
  req.timeout_s = 5;
  const auto r = ssec::live::analyze(ssec::live::fetch(req, 0), agent());
  ASSERT_TRUE(has(r, "HTTP-STATUS"));
  for (const auto& f : r.findings) {
    if (f.rule == "HTTP-STATUS") {
      EXPECT_NE(f.seen.find("500, body \"sse-conform serve: injected status 500\\n\""), std::string::npos) << f.seen;
    }
  }
}

// check_request judges a response as it arrives: the report is analyze's of
// the capture fetch_sampled makes (the timing aside, as two reads differ in
// it: the report's timing block and the seconds a finding quotes, such as
// the silence before a reset), and the capture it records for --record and
// --resume is that capture.
TEST_F(served, a_request_checked_as_it_arrives_is_judged_as_its_capture) {
  const auto untimed = [](const ssec::live::check_report& r) {
    auto j = ssec::live::to_json(r);
    j.erase("timing");
    static const std::regex seconds_quoted{R"([0-9]+\.[0-9]{3} s\b)"};
    return std::regex_replace(j.dump(), seconds_quoted, "S s");
  };
  for (const std::string query : {"", "?status=500", "?reset=mid", "?content_type=text/plain"}) {
    for (const std::size_t max_events : {std::size_t{0}, std::size_t{3}}) {
      ssec::http::stream_request req;
      req.url = server_->base_url() + "/stream/good" + query;
      req.timeout_s = 5;
      const std::string what = query + " max_events " + std::to_string(max_events);
      ssec::live::capture recorded;
      const auto streamed = ssec::live::check_request(req, "shown", max_events, 0, agent(), nullptr, &recorded);
      auto cap = ssec::live::fetch_sampled(req, max_events, 0);
      cap.source = "shown";
      EXPECT_EQ(untimed(streamed), untimed(ssec::live::analyze(cap, agent()))) << what;
      EXPECT_EQ(recorded.status, cap.status) << what;
      EXPECT_EQ(recorded.end, cap.end) << what;
      EXPECT_EQ(recorded.source, "shown") << what;
      EXPECT_EQ(recorded.bytes(), cap.bytes()) << what;
    }
  }
}

TEST(check_body, a_long_error_body_is_clipped_escaped_and_redacted) {
  ssec::live::capture cap;
  cap.status = 502;
  cap.pieces.push_back({"token=s3cr3t \x1b " + std::string(500, 'x'), 0.1});
  const auto r = ssec::live::redact(ssec::live::analyze(cap, {}), {"s3cr3t"});
  ASSERT_FALSE(r.findings.empty());
  const std::string& seen = r.findings.front().seen;
  EXPECT_EQ(seen.find("s3cr3t"), std::string::npos) << seen;
  EXPECT_NE(seen.find("\\u001B"), std::string::npos) << seen;
  EXPECT_LT(seen.size(), 300u) << seen;
}

// A charset other than UTF-8 on an event stream is a
// SHOULD finding resting on a decision (spec/DECISIONS.md#http-charset).
TEST(check_response, a_charset_other_than_utf8_is_a_should_finding) {
  const std::vector<std::pair<std::string, bool>> types{
      {"text/event-stream; charset=iso-8859-1", true},        {"text/event-stream;charset=\"Windows-1252\"", true},
      {"text/event-stream; foo=bar; charset=us-ascii", true}, {"text/event-stream; charset=utf-8", false},
      {"text/event-stream; charset=\"UTF-8\"", false},        {"text/event-stream", false}};
  for (const auto& [type, flagged] : types) {
    ssec::live::capture cap;
    cap.status = 200;
    cap.headers["content-type"] = type;
    cap.end = "complete";
    cap.pieces.push_back({"data: a\n\n", 0.1});
    const auto r = ssec::live::analyze(cap, {});
    EXPECT_EQ(has(r, "HTTP-CHARSET"), flagged) << type << "\n" << ssec::live::to_text(r);
    EXPECT_TRUE(r.conforming()) << type;
    for (const auto& f : r.findings) {
      if (f.rule != "HTTP-CHARSET") continue;
      EXPECT_EQ(f.severity, "should");
      EXPECT_EQ(f.basis, "decision");
      EXPECT_NE(f.grounds.find("DECISIONS.md#http-charset"), std::string::npos) << f.grounds;
      EXPECT_NE(f.message.find("UTF-8 decode"), std::string::npos) << f.message;
      EXPECT_EQ(f.seen, type);
    }
  }
}

// HTTP/1.x ended by the close alone cannot tell a cut from the end: a
// SHOULD on the decision; chunked, a length, HTTP/2 or an unknown protocol
// (a capture recorded without it) are not reported.
TEST(check_response, a_close_delimited_http1_response_is_a_should_finding) {
  struct example {
    std::string protocol;
    std::map<std::string, std::string> headers;
    bool flagged;
  };
  const std::vector<example> examples{
      {"HTTP/1.1", {}, true},
      {"HTTP/1.0", {}, true},
      {"HTTP/1.1", {{"transfer-encoding", "chunked"}}, false},
      {"HTTP/1.1", {{"transfer-encoding", "gzip, Chunked"}}, false},
      {"HTTP/1.1", {{"content-length", "9"}}, false},
      {"HTTP/2", {}, false},
      {"", {}, false},
  };
  for (const auto& e : examples) {
    ssec::live::capture cap;
    cap.status = 200;
    cap.protocol = e.protocol;
    cap.headers = e.headers;
    cap.headers["content-type"] = "text/event-stream";
    cap.end = "complete";
    cap.pieces.push_back({"data: a\n\n", 0.1});
    const auto r = ssec::live::analyze(cap, {});
    EXPECT_EQ(has(r, "HTTP-CLOSE-DELIMITED"), e.flagged) << e.protocol << "\n" << ssec::live::to_text(r);
    EXPECT_TRUE(r.conforming());
    for (const auto& f : r.findings) {
      if (f.rule != "HTTP-CLOSE-DELIMITED") continue;
      EXPECT_EQ(f.severity, "should");
      EXPECT_EQ(f.basis, "decision");
      EXPECT_NE(f.grounds.find("DECISIONS.md#close-delimited"), std::string::npos) << f.grounds;
    }
  }
}

// A cut after a silence says how long the stream had been silent and what
// likely closed it; a cut in the middle of a busy stream does not guess.
TEST(check_transport, a_reset_after_a_silence_names_the_silence_and_its_likely_cause) {
  const auto cut = [](double last_byte, double end) {
    ssec::live::capture cap;
    cap.status = 200;
    cap.headers["content-type"] = "text/event-stream";
    cap.pieces.push_back({"data: a\n\n", 0.1});
    cap.pieces.push_back({"data: b\n\n", last_byte});
    cap.end = "reset";
    cap.error = "transfer closed with outstanding read data remaining";
    cap.seconds_total = end;
    return ssec::live::analyze(cap, {});
  };
  const auto idle = cut(0.2, 2.2);
  ASSERT_TRUE(has(idle, "STREAM-RESET")) << ssec::live::to_text(idle);
  const auto& f =
      *std::find_if(idle.findings.begin(), idle.findings.end(), [](const auto& x) { return x.rule == "STREAM-RESET"; });
  EXPECT_NE(f.message.find("after 2.000 s of silence: a proxy or load balancer likely closed an idle stream"),
            std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("heartbeat comments"), std::string::npos) << f.message;
  EXPECT_NE(f.seen.find("2.000 s after the last byte"), std::string::npos) << f.seen;
  // The longest silence counts the one the cut ended.
  EXPECT_GE(idle.timing.max_gap, 2.0 - 1e-9);
  const auto busy = cut(0.2, 0.25);
  const auto& g =
      *std::find_if(busy.findings.begin(), busy.findings.end(), [](const auto& x) { return x.rule == "STREAM-RESET"; });
  EXPECT_EQ(g.message.find("likely closed"), std::string::npos) << g.message;
  // An HTTP/2 stream reset says what its code means.
  ssec::live::capture h2;
  h2.status = 200;
  h2.protocol = "HTTP/2";
  h2.headers["content-type"] = "text/event-stream";
  h2.pieces.push_back({"data: a\n\n", 0.1});
  h2.end = "reset";
  h2.error = "HTTP/2 stream 1 was not closed cleanly: PROTOCOL_ERROR (err 1)";
  h2.seconds_total = 0.2;
  const auto reset = ssec::live::analyze(h2, {});
  EXPECT_NE(ssec::live::to_text(reset).find("PROTOCOL_ERROR: the response broke HTTP/2's rules"), std::string::npos)
      << ssec::live::to_text(reset);
}

// Response headers too large to read are reported as
// that, not as a connection that broke on a frame boundary.
TEST(check_response, oversized_headers_are_named_not_taken_for_a_reset) {
  auto started = ssec::http::server::start([](const ssec::http::request&, ssec::http::response& res) {
    res.start(200, {{"Content-Type", "text/event-stream"}, {"X-Big", std::string(1 << 20, 'a')}});
    res.write("data: a\n\n");
  });
  ASSERT_TRUE(started) << started.error().to_string();
  ssec::http::stream_request req;
  req.url = (*started)->base_url() + "/";
  const auto cap = ssec::live::fetch(req, 0);
  EXPECT_EQ(cap.end, "headers_too_large") << cap.error;
  const auto r = ssec::live::analyze(cap, {});
  EXPECT_TRUE(has(r, "STREAM-HEADERS-TOO-LARGE")) << ssec::live::to_text(r);
  EXPECT_FALSE(has(r, "STREAM-RESET")) << ssec::live::to_text(r);
  EXPECT_FALSE(has(r, "HTTP-CONTENT-TYPE")) << ssec::live::to_text(r);
  EXPECT_EQ(ssec::live::to_text(r).find("frame boundary"), std::string::npos) << ssec::live::to_text(r);
  EXPECT_EQ(ssec::live::to_text(r).find("Out of memory"), std::string::npos) << ssec::live::to_text(r);
}

// A case server that cannot bind says why (http::server::start's words),
// and frees everything it built on the way.
TEST(serve_start, an_address_that_cannot_be_bound_is_an_error) {
  const auto bad = ssec::live::case_server::start({}, {}, "300.0.0.1", 0);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().to_string(), "not an IPv4 address: 300.0.0.1");
}

}  // namespace

namespace {

// A one-connection server that answers with `head_lines` whole, then sends
// `drip` a byte every 100 ms (a response head that arrives slowly), then
// holds the connection open for `hold`.
class dripping_server {
 public:
  dripping_server(std::string head_lines, std::string drip, std::chrono::milliseconds hold)
      : fd_(::socket(AF_INET, SOCK_STREAM, 0)), lines_(std::move(head_lines)), drip_(std::move(drip)), hold_(hold) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // A bound, listening socket or a failed test: port() is 0 after a failure.
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 1) != 0) return;
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      char buf[4096];
      (void)::recv(c, buf, sizeof buf, 0);
      (void)::send(c, lines_.data(), lines_.size(), MSG_NOSIGNAL);
      for (const char ch : drip_) {
        if (::send(c, &ch, 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      std::this_thread::sleep_for(hold_);
      ::close(c);
    });
  }
  dripping_server(const dripping_server&) = delete;
  dripping_server& operator=(const dripping_server&) = delete;
  ~dripping_server() {
    ::shutdown(fd_, SHUT_RDWR);
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }

 private:
  int fd_;
  std::uint16_t port_ = 0;
  std::string lines_, drip_;
  std::chrono::milliseconds hold_;
  std::thread thread_;
};

std::string idle_finding(const std::string& url) {
  ssec::http::stream_request req;
  req.url = url;
  req.timeout_s = 20;
  req.idle_timeout_s = 1;
  const auto r = ssec::live::analyze(ssec::live::fetch(req, 0), agent());
  for (const auto& f : r.findings) {
    if (f.rule == "STREAM-IDLE-TIMEOUT") return f.message + " | " + f.seen;
  }
  return "no STREAM-IDLE-TIMEOUT finding:\n" + ssec::live::to_text(r);
}

}  // namespace

// A head sent a byte at a time is not silence: the finding says the head
// was still arriving, and how much of it had come in whole lines.
TEST(check_head, a_head_sent_slowly_is_reported_as_such_not_as_silence) {
  const dripping_server slow("HTTP/1.1 200 OK\r\n", "Content-Type: text/event-stream\r\n\r\n",
                             std::chrono::milliseconds(0));
  const std::string said = idle_finding(slow.url());
  EXPECT_NE(said.find("the response head did not complete within the idle timeout: the response head was still "
                      "arriving: 17 bytes of it in complete lines"),
            std::string::npos)
      << said;
  EXPECT_EQ(said.find("silence"), std::string::npos) << said;
}

TEST(check_head, a_silent_server_is_reported_as_no_head_line) {
  const dripping_server silent("", "", std::chrono::milliseconds(2500));
  const std::string said = idle_finding(silent.url());
  EXPECT_NE(said.find("no line of the response head completed"), std::string::npos) << said;
}
