// SPDX-License-Identifier: MIT
// Hostile input and faults as a user meets them: `sse-conform
// serve` run as a process and attacked over real sockets (a bad post, slow
// clients, stalled connections during shutdown), and `check` given a URL
// that does not parse. Bounds here are generous deadlines on outcomes (the
// server answers, the process exits), never measurements.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "raw_client.hpp"
#include "tool_run.hpp"

namespace {

using namespace tool_run;
using raw_client::client;
using raw_client::status_line;
using namespace std::chrono_literals;

// `sse-conform serve --port 0 ARGS` as a child process: its port read from
// the line it prints when it listens. Killed at the end if still running.
class serve_process {
 public:
  explicit serve_process(const std::vector<std::string>& args) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDERR_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      std::vector<std::string> all{tool, "serve", "--port", "0"};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      argv.reserve(all.size() + 1);
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(tool.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    // "sse-conform serve: N cases at http://127.0.0.1:PORT/ ..." (60 s to load the cases at most).
    std::string line;
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < until) {
      pollfd p{out[0], POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char c[256];
      const ssize_t n = ::read(out[0], c, sizeof c);
      if (n <= 0) break;
      line.append(c, static_cast<std::size_t>(n));
    }
    out_ = out[0];
    const auto at = line.find("http://127.0.0.1:");
    if (at != std::string::npos) port_ = static_cast<std::uint16_t>(std::stoi(line.substr(at + 17)));
  }
  ~serve_process() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) ::close(out_);
  }
  serve_process(const serve_process&) = delete;
  serve_process& operator=(const serve_process&) = delete;

  std::uint16_t port() const { return port_; }
  void signal(int sig) const { ::kill(pid_, sig); }
  /// Its exit status once it exited, or nullopt while it still runs after `bound`.
  std::optional<int> wait_exit(std::chrono::milliseconds bound) {
    const auto until = std::chrono::steady_clock::now() + bound;
    do {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(50ms);
    } while (std::chrono::steady_clock::now() < until);
    return std::nullopt;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::uint16_t port_ = 0;
  bool exited_ = false;
};

std::string ask(std::uint16_t port, const std::string& request) {
  client c(port);
  c.send(request);
  return c.answer();
}

std::string post_results(std::uint16_t port, const std::string& body) {
  return ask(port, "POST /results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body);
}

const std::string get_cases = "GET /cases.json HTTP/1.1\r\nHost: x\r\n\r\n";

// A post with the wrong JSON types is a 400 naming the member, and
// the server is still there for the next client.
TEST(hostile_serve, a_post_with_wrong_types_is_400_and_the_server_goes_on) {
  serve_process serve({});
  ASSERT_NE(serve.port(), 0) << "serve did not start";
  const std::vector<std::pair<std::string, std::string>> posts{
      {R"({"user_agent":"x","results":[{"name":5}]})", "results[0].name: expected a string, got number"},
      {R"({"user_agent":["x"],"results":[]})", "user_agent: expected a string, got array"},
      {R"({"results":[{"name":"wire/bom/3RFS","events":[{"data":1}]}]})", "results[0].events[0].data"},
      {R"({"results":{}})", "results: expected an array, got object"},
      {"[1,2", "not JSON (at byte offset 4)"},
      {std::string(1000, '[') + std::string(1000, ']'), "nested deeper than"},
  };
  for (const auto& [body, names] : posts) {
    const std::string answer = post_results(serve.port(), body);
    EXPECT_EQ(status_line(answer), "HTTP/1.1 400 Bad Request") << body.substr(0, 60) << "\n" << answer;
    EXPECT_NE(answer.find(names), std::string::npos) << body.substr(0, 60) << "\n" << answer;
  }
  EXPECT_FALSE(serve.wait_exit(0ms)) << "serve exited";
  EXPECT_EQ(status_line(ask(serve.port(), get_cases)), "HTTP/1.1 200 OK");
  const std::string good =
      post_results(serve.port(), R"({"user_agent":"x","results":[{"name":"wire/bom/3RFS",)"
                                 R"("status":"ended","events":[{"type":"message","data":"a"}]}]})");
  EXPECT_EQ(status_line(good), "HTTP/1.1 200 OK") << good;
  // The grade of the post: the page shows its verdict.
  EXPECT_NE(good.find(R"({"graded":1,"conforming":false,"verdict":"browser:other: 1 case: 1 FAIL; MUST cases: 1 )"
                      R"(failed of 1 graded: NOT conforming","statuses":{"FAIL":1}})"),
            std::string::npos)
      << good;
}

// A hundred connections that never finish their request head do not
// lock a well-behaved client out.
TEST(hostile_serve, a_good_client_is_served_while_100_slow_ones_hold_connections) {
  serve_process serve({});
  ASSERT_NE(serve.port(), 0) << "serve did not start";
  std::vector<std::unique_ptr<client>> slow;
  for (int i = 0; i < 100; ++i) {
    slow.push_back(std::make_unique<client>(serve.port()));
    slow.back()->send("GET /case/wire/bom/3RFS HTTP/1.1\r\nHost: x\r\nX-Slow: a");
  }
  for (int i = 0; i < 3; ++i) {
    const std::string answer = ask(serve.port(), "GET /case/wire/bom/3RFS HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_line(answer), "HTTP/1.1 200 OK") << answer;
  }
}

// SIGTERM, SIGINT and --duration-s end serve even while one client
// reads nothing of an endless stream and another never finishes its head.
struct stop_way {
  std::string name;
  std::vector<std::string> args;
  int signal;  // 0: --duration-s ends it
};

void PrintTo(const stop_way& way, std::ostream* os) { *os << way.name; }

class hostile_serve_stop : public ::testing::TestWithParam<stop_way> {};

TEST_P(hostile_serve_stop, exits_while_clients_stall) {
  serve_process serve(GetParam().args);
  ASSERT_NE(serve.port(), 0) << "serve did not start";
  client stalled(serve.port(), 4096);
  stalled.send("GET /case/wire/bom/3RFS?endless=1 HTTP/1.1\r\nHost: x\r\n\r\n");  // and never reads
  client half(serve.port());
  half.send("GET /case/wire/bom/3RFS HTTP/1.1\r\nHo");
  std::this_thread::sleep_for(300ms);  // the stream fills the buffers (not a measurement)
  if (GetParam().signal != 0) serve.signal(GetParam().signal);
  const auto status = serve.wait_exit(30s);
  ASSERT_TRUE(status.has_value()) << "serve still runs 30 s later, held by a stalled client";
  EXPECT_EQ(*status, 0);
}

INSTANTIATE_TEST_SUITE_P(ways, hostile_serve_stop,
                         ::testing::Values(stop_way{"sigterm", {}, SIGTERM}, stop_way{"sigint", {}, SIGINT},
                                           stop_way{"duration", {"--duration-s", "1"}, 0}),
                         [](const auto& info) { return info.param.name; });

class hostile_check : public tool_test {
 protected:
  hostile_check() : tool_test("ssec-hostile-") {}
};

// A URL that does not parse is a usage error (exit 2) naming the
// URL and why, before any connection.
TEST_F(hostile_check, a_url_that_does_not_parse_is_a_usage_error) {
  const std::vector<std::pair<std::string, std::string>> urls{
      {"htp:/bad url", "only http:// and https://"},
      {"http://bad url/", "--url http://bad url/: "},
      {"http://127.0.0.1:99999/", "Port number"},
      {"http://", "--url http://: "},
  };
  for (const auto& [url, says] : urls) {
    const auto r = shell(quote(tool) + " check --dialect wire --url " + quote(url));
    EXPECT_EQ(r.status, 2) << url << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << url << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
