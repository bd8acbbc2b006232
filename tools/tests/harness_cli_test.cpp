// SPDX-License-Identifier: MIT
// The command line of `sse-conform run` (tools/docs/run.md), run as a user
// runs the built tool: exit statuses, reports and the reproduce command; the
// test-service (`run --service`) and browser-result paths into the same
// reports; the matrix and the HTML report; and the whole suite against the
// reference. The engine's own tests are in harness_test.cpp.
#include <gtest/gtest.h>

#include <csignal>

#include "harness_fixture.hpp"
#include "interruption.hpp"
#include "ssec/harness/progress.hpp"

namespace {

using namespace harness_test;  // the fixture, the tool and the small case files

// The command line: exit statuses, reports, and a reproduce command that
// reproduces exactly one failure.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(harness, command_line_exit_statuses_and_reports) {
  const std::string cases =
      " --cases " + h::shell_quote((dir_ / "cases").string()) + " --chunkings whole,bytes --no-progress";
  const std::string out = (dir_ / "out").string();
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(reference) + cases + " >/dev/null"), 0);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(broken("wrong", "--on A2B3")) + cases +
                  " --json " + out + ".json --junit " + out + ".xml --html " + out + ".html > " + out + ".txt"),
            1);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(broken("nohello")) + cases + " 2>/dev/null"),
            2);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl x --chunkings nonsense" + cases + " 2>/dev/null"), 2);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl x --run 'nothing/*'" + cases + " 2>/dev/null"), 2);

  std::ifstream json_in(out + ".json");
  const auto report = nlohmann::json::parse(json_in);
  EXPECT_EQ(report["format"], "sse-conform-run");
  EXPECT_EQ(report["exit"], 1);
  EXPECT_EQ(report["totals"]["fail"], 1);
  EXPECT_EQ(report["totals"]["pass"], 3);
  const auto& failed = report["cases"][0];
  EXPECT_EQ(failed["id"], "wire/basics/A2B3");
  EXPECT_EQ(failed["outcome"], "fail");
  const std::string reproduce = failed["failure"]["reproduce"];

  std::stringstream junit, html, console;
  junit << std::ifstream(out + ".xml").rdbuf();
  html << std::ifstream(out + ".html").rdbuf();
  console << std::ifstream(out + ".txt").rdbuf();
  EXPECT_NE(junit.str().find("<testsuites name=\"sse-conform reference\" tests=\"4\" failures=\"1\""),
            std::string::npos);
  EXPECT_NE(junit.str().find("<failure type=\"fail\""), std::string::npos);
  EXPECT_NE(html.str().find("id=\"wire/basics/A2B3\" class=\"fail\""), std::string::npos);
  EXPECT_NE(console.str().find("[fail] wire/basics/A2B3"), std::string::npos);
  EXPECT_NE(console.str().find("reproduce: "), std::string::npos);
  EXPECT_EQ(console.str().find("\x1b["), std::string::npos);  // not a terminal: no colour

  // The reproduce command runs exactly that case under exactly that chunking,
  // from any directory: it starts in the one the run started in.
  EXPECT_EQ(reproduce.rfind("cd ", 0), 0u) << reproduce;
  EXPECT_EQ(shell("cd / && " + reproduce + " --json " + out + "-repro.json >/dev/null"), 1);
  std::ifstream repro_in(out + "-repro.json");
  const auto repro = nlohmann::json::parse(repro_in);
  ASSERT_EQ(repro["cases"].size(), 1u);
  EXPECT_EQ(repro["cases"][0]["chunkings_run"], 1);
  EXPECT_EQ(repro["cases"][0]["outcome"], "fail");
}

std::string read_text(const std::string& path) {
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// --hello-timeout-ms: an adapter slower to start than it allows is a setup
// error (exit 2) naming the allowance; a longer one lets it run, and the
// reproduce command carries the option.
TEST_F(harness, the_hello_timeout_is_the_users_to_set) {
  const fs::path script = dir_ / "slow-start.sh";  // the reference, one second late
  std::ofstream(script) << "sleep 1\nexec " << reference << " \"$@\"\n";
  const std::string slow = "sh " + h::shell_quote(script.string());
  const std::string cases =
      " --cases " + h::shell_quote((dir_ / "cases").string()) + " --chunkings whole --no-progress";
  const std::string err = (dir_ / "hello.err").string(), json = (dir_ / "hello.json").string();
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(slow) + " --hello-timeout-ms 200" + cases +
                  " >/dev/null 2>" + err),
            2);
  EXPECT_NE(read_text(err).find("no answer within 200 ms"), std::string::npos) << read_text(err);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(broken("wrong", "--on A2B3")) +
                  " --hello-timeout-ms 60000" + cases + " --json " + json + " >/dev/null"),
            1);
  const auto report = nlohmann::json::parse(read_text(json));
  EXPECT_NE(report["cases"][0]["failure"]["reproduce"].get<std::string>().find("--hello-timeout-ms 60000"),
            std::string::npos)
      << report["cases"][0].dump(2);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(slow) + " --hello-timeout-ms 60000" + cases +
                  " >/dev/null"),
            0);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl x --hello-timeout-ms 0" + cases + " 2>/dev/null"), 2);
}

// A stand-in for a client library's sse-contract-tests test service: its
// SSE client is the reference parser reading the stream over real HTTP. For
// streams whose tag contains `on`, mode "wrong" changes the events' data
// and "hang" never reports the end of the stream.
class stand_in_service {
 public:
  explicit stand_in_service(std::string mode = "", std::string on = "") : mode_(std::move(mode)), on_(std::move(on)) {
    auto started = ssec::http::server::start(
        [this](const ssec::http::request& req, ssec::http::response& res) { handle(req, res); }, "127.0.0.1", 0);
    if (started) server_ = std::move(started.value());
  }
  ~stand_in_service() {
    if (server_) server_->stop();
    const std::lock_guard lock(mutex_);
    for (auto& t : streams_) t.join();
  }
  std::string url() const { return server_->base_url(); }
  bool ok() const { return server_ != nullptr; }

 private:
  void handle(const ssec::http::request& req, ssec::http::response& res) {
    if (req.method == "GET" && req.path == "/") {
      res.send(200, "application/json", R"({"capabilities":["comments","read-timeout"]})");
      return;
    }
    if (req.method == "DELETE") {
      res.send(204, "text/plain", "");
      return;
    }
    const auto open = nlohmann::json::parse(req.body, nullptr, false);
    if (req.method != "POST" || !open.is_object() || !open.contains("streamUrl") || !open.contains("callbackUrl")) {
      res.send(400, "text/plain", "bad request");
      return;
    }
    const std::string tag = open.value("tag", "");
    const bool broken = !on_.empty() && tag.find(on_) != std::string::npos;
    {
      const std::lock_guard lock(mutex_);
      streams_.emplace_back([stream_url = open["streamUrl"].get<std::string>(),
                             callback = open["callbackUrl"].get<std::string>(), mode = broken ? mode_ : std::string()] {
        std::string body;
        ssec::http::stream_request get;
        get.url = stream_url;
        get.timeout_s = 10;
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
          post({{"kind", "event"},
                {"event",
                 {{"type", e.type}, {"data", e.data + (mode == "wrong" ? " (wrong)" : "")}, {"id", e.last_event_id}}}});
        }
        if (mode != "hang") post({{"kind", "error"}, {"error", "the stream closed"}});
      });
    }
    res.start(201, {{"Location", "/streams/" + tag}, {"Content-Length", "0"}});
  }

  std::string mode_, on_;
  std::mutex mutex_;
  std::vector<std::thread> streams_;
  std::unique_ptr<ssec::http::server> server_;  // last: stopped (in the destructor) before the members it uses go
};

TEST_F(harness, command_line_service_runs_grade_into_the_same_reports) {
  const std::string cases = " --cases " + h::shell_quote((dir_ / "cases").string()) + " --no-progress";
  const std::string out = (dir_ / "svc").string();
  {
    stand_in_service good;
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(shell(h::shell_quote(tool) + " run --service " + h::shell_quote(good.url()) + cases + " --json " + out +
                    "-ok.json >/dev/null"),
              0);
    const auto report = nlohmann::json::parse(read_text(out + "-ok.json"));
    EXPECT_EQ(report["adapter"]["service"], good.url());
    EXPECT_EQ(report["totals"]["pass"], 4);
    EXPECT_EQ(report["cases"][3]["id"], "wire/basics/G7H8");  // a lone CR, read by a real client
    EXPECT_EQ(report["cases"][3]["chunkings_run"], 1);
  }
  {
    stand_in_service wrong("wrong", "A2B3");
    ASSERT_TRUE(wrong.ok());
    EXPECT_EQ(shell(h::shell_quote(tool) + " run --service " + h::shell_quote(wrong.url()) + cases + " --json " + out +
                    ".json --junit " + out + ".xml --html " + out + ".html > " + out + ".txt"),
              1);
    const auto report = nlohmann::json::parse(read_text(out + ".json"));
    EXPECT_EQ(report["exit"], 1);
    EXPECT_EQ(report["totals"]["fail"], 1);
    EXPECT_EQ(report["totals"]["pass"], 3);
    const auto& failed = report["cases"][0];
    EXPECT_EQ(failed["outcome"], "fail");
    EXPECT_EQ(failed["failure"]["chunking"], "as-written");
    EXPECT_NE(failed["failure"]["expected"].get<std::string>().find(R"(data="a")"), std::string::npos);
    EXPECT_NE(failed["failure"]["received"].get<std::string>().find(R"x(data="a (wrong)")x"), std::string::npos);
    EXPECT_NE(failed["failure"]["first_difference"].get<std::string>().find("first difference"), std::string::npos);
    const std::string reproduce = failed["failure"]["reproduce"];
    EXPECT_NE(reproduce.find("--service '" + wrong.url() + "'"), std::string::npos) << reproduce;
    EXPECT_NE(read_text(out + ".xml").find("<failure type=\"fail\""), std::string::npos);
    EXPECT_NE(read_text(out + ".html").find("test service <code>" + wrong.url()), std::string::npos);
    EXPECT_NE(read_text(out + ".txt").find("[fail] wire/basics/A2B3"), std::string::npos);
    // The reproduce command runs that one case through the service again.
    EXPECT_EQ(shell(reproduce + " --json " + out + "-repro.json >/dev/null"), 1);
    const auto repro = nlohmann::json::parse(read_text(out + "-repro.json"));
    ASSERT_EQ(repro["cases"].size(), 1u);
    EXPECT_EQ(repro["cases"][0]["outcome"], "fail");
    // A baseline applies as it does to adapters.
    std::ofstream(out + ".baseline") << "# sse-conform baseline 1\nwire/basics/A2B3\n";
    EXPECT_EQ(shell(h::shell_quote(tool) + " run --service " + h::shell_quote(wrong.url()) + cases + " --baseline " +
                    out + ".baseline >/dev/null"),
              0);
  }
  {
    stand_in_service hang("hang", "C4D5");
    ASSERT_TRUE(hang.ok());
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(shell(h::shell_quote(tool) + " run --service " + h::shell_quote(hang.url()) + cases +
                    " --timeout-ms 1000 --json " + out + "-hang.json >/dev/null"),
              1);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
    const auto report = nlohmann::json::parse(read_text(out + "-hang.json"));
    EXPECT_EQ(report["cases"][1]["outcome"], "timeout");
    EXPECT_EQ(report["cases"][1]["failure"]["budget"]["base_ms"], 1000);
    EXPECT_EQ(report["cases"][2]["outcome"], "pass");  // the next case runs
  }
  {
    // What the service protocol cannot express is skipped with the reason.
    stand_in_service good;
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(
        shell(h::shell_quote(tool) + " run --service " + h::shell_quote(good.url()) + " --cases " +
              h::shell_quote((dir_ / "extra").string()) + " --no-progress --json " + out + "-extra.json >/dev/null"),
        0);
    const auto report = nlohmann::json::parse(read_text(out + "-extra.json"));
    EXPECT_EQ(report["totals"]["skip"], 3);
    EXPECT_EQ(report["totals"]["pass"], 2);  // the 3000-byte line, the FF byte
    for (const auto& c : report["cases"]) {
      if (c["topic"] == "retry") {
        EXPECT_NE(c["reason"].get<std::string>().find("reconnection time"), std::string::npos);
      }
    }
  }
  // Usage and setup errors.
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --service http://127.0.0.1:1" + cases + " 2>/dev/null"), 2);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --service http://127.0.0.1:1 --jobs 2" + cases + " 2>/dev/null"), 2);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --service http://127.0.0.1:1 --impl x" + cases + " 2>/dev/null"), 2);
}

// The skip rules of --service, on the real tree: dialect layers and limits.
TEST(harness_units, service_skips_what_the_service_protocol_cannot_express) {
  std::vector<ssec::error> errors;
  const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
  const auto all = conf::load_case_tree(source_dir / "conformance/cases", "conformance/cases", tags);
  ASSERT_TRUE(all.ok()) << all.error_text();
  std::size_t dialect = 0, limits = 0, retry = 0, runs = 0;
  for (const auto& c : all.value) {
    const std::string why = h::service_skip_reason(c);
    if (c.layer != conf::layer::wire) {
      EXPECT_NE(why.find("wire events only"), std::string::npos) << c.id;
      ++dialect;
    } else if (c.limits) {
      EXPECT_NE(why.find("parser limits"), std::string::npos) << c.id;
      ++limits;
    } else if (!why.empty()) {
      EXPECT_NE(why.find("retry"), std::string::npos) << c.id;
      ++retry;
    } else {
      ++runs;
    }
  }
  EXPECT_GT(dialect, 0u);
  EXPECT_GT(limits, 0u);
  EXPECT_GT(retry, 0u);
  EXPECT_GT(runs, 100u);
}

// Browser results (`serve --browser-results`: `impl  case  STATUS` lines)
// become reports of the `run --json` shape, so the matrix reads one shape.
TEST_F(harness, browser_result_lines_become_run_reports) {
  std::string why;
  // Fails (false) and keeps the error's text in `why`.
  const auto fails = [&](const auto& r) {
    why = r ? std::string() : r.error().to_string();
    return !r.ok();
  };
  const auto reports = h::reports_from_result_lines(
      "browser:chromium  basics_A2B3  PASS\nbrowser:chromium  basics_C4D5  FAIL\n# a comment\n\n"
      "browser:chromium basics_E6F7 IMPL_DIFFER\nbrowser:firefox basics_A2B3 TIMEOUT\n",
      "b.txt", loaded_->value);
  ASSERT_TRUE(reports) << reports.error().to_string();
  ASSERT_EQ(reports->size(), 2u);
  const auto& chromium = (*reports)[0];
  EXPECT_EQ(chromium["format"], "sse-conform-run");
  EXPECT_EQ(chromium["adapter"]["name"], "chromium");
  EXPECT_EQ(chromium["adapter"]["results_file"], "b.txt");
  ASSERT_EQ(chromium["cases"].size(), 4u);
  EXPECT_EQ(chromium["cases"][0]["outcome"], "pass");
  EXPECT_EQ(chromium["cases"][1]["outcome"], "non-strict");  // FAIL on a `should` case
  EXPECT_EQ(chromium["cases"][2]["outcome"], "informational");
  EXPECT_EQ(chromium["cases"][3]["outcome"], "skip");
  EXPECT_NE(chromium["cases"][3]["reason"].get<std::string>().find("no result"), std::string::npos);
  EXPECT_EQ((*reports)[1]["adapter"]["name"], "firefox");
  EXPECT_EQ((*reports)[1]["cases"][0]["outcome"], "timeout");

  EXPECT_TRUE(fails(h::reports_from_result_lines("browser:chromium basics_A2B3\n", "b.txt", loaded_->value)));
  EXPECT_NE(why.find("b.txt:1: expected"), std::string::npos) << why;
  EXPECT_TRUE(fails(h::reports_from_result_lines("\nx basics_ZZ99 PASS\n", "b.txt", loaded_->value)));
  EXPECT_NE(why.find("b.txt:2: no case named `basics_ZZ99`"), std::string::npos) << why;
  EXPECT_TRUE(fails(h::reports_from_result_lines("x basics_A2B3 GREAT\n", "b.txt", loaded_->value)));
  EXPECT_NE(why.find("unknown status `GREAT`"), std::string::npos) << why;
  EXPECT_TRUE(fails(h::reports_from_result_lines("x basics_A2B3 PASS\nx basics_A2B3 FAIL\n", "b.txt", loaded_->value)));
  EXPECT_NE(why.find("b.txt:2: `basics_A2B3` is listed twice"), std::string::npos) << why;
  EXPECT_TRUE(fails(h::reports_from_result_lines("", "b.txt", loaded_->value)));
}

// A browser's client rows (serve's page as the client of the client cases)
// grade the client layer: their statuses count, and the report says so.
TEST(harness_units, browser_results_of_client_cases_grade_the_client_layer) {
  std::vector<ssec::error> errors;
  const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
  const auto clients = conf::load_case_tree(source_dir / "conformance/clients", "conformance/clients", tags);
  ASSERT_TRUE(clients.ok()) << clients.error_text();
  const auto reports = h::reports_from_result_lines(
      "browser:chromium  client/http/C9HA  PASS\nbrowser:chromium  client/http/C9HB  FAIL\n", "c.txt", clients.value);
  ASSERT_TRUE(reports) << reports.error().to_string();
  const auto& r = (*reports)[0];
  EXPECT_EQ(r["adapter"]["layers"].dump(), R"(["wire","client"])");
  std::map<std::string, std::string> outcome;
  for (const auto& c : r["cases"]) outcome[c["id"].get<std::string>()] = c["outcome"].get<std::string>();
  EXPECT_EQ(outcome["client/http/C9HA"], "pass");
  EXPECT_EQ(outcome["client/http/C9HB"], "fail");  // a MUST case
  EXPECT_EQ(outcome["client/http/C9HC"], "skip");  // no row
}

// A dialect-layer case in a browser file is graded at the wire level only,
// and a limits case against limits the browser never had: both are skipped,
// their status kept in the reason.
TEST(harness_units, browser_results_of_dialect_and_limits_cases_are_skipped) {
  std::vector<ssec::error> errors;
  const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
  const auto all = conf::load_case_tree(source_dir / "conformance/cases", "conformance/cases", tags);
  ASSERT_TRUE(all.ok()) << all.error_text();
  const auto chat =
      std::find_if(all.value.begin(), all.value.end(), [](const auto& c) { return c.layer == conf::layer::chat; });
  const auto wire = std::find_if(all.value.begin(), all.value.end(),
                                 [](const auto& c) { return c.layer == conf::layer::wire && !c.limits; });
  const auto limited =
      std::find_if(all.value.begin(), all.value.end(), [](const auto& c) { return c.limits.has_value(); });
  ASSERT_NE(chat, all.value.end());
  ASSERT_NE(wire, all.value.end());
  ASSERT_NE(limited, all.value.end());
  const auto reports = h::reports_from_result_lines(
      "browser:chromium " + chat->test_name() + " PASS\nbrowser:chromium " + wire->test_name() +
          " PASS\nbrowser:chromium " + limited->test_name() + " IMPL_DIFFER\n",
      "b.txt", all.value);
  ASSERT_TRUE(reports) << reports.error().to_string();
  for (const auto& c : (*reports)[0]["cases"]) {
    if (c["id"] == h::case_path(*chat)) {
      EXPECT_EQ(c["outcome"], "skip");
      EXPECT_NE(c["reason"].get<std::string>().find("wire-level result: PASS"), std::string::npos);
    }
    if (c["id"] == h::case_path(*limited)) {
      EXPECT_EQ(c["outcome"], "skip");
      EXPECT_NE(c["reason"].get<std::string>().find("parser limits"), std::string::npos);
    }
    if (c["id"] == h::case_path(*wire)) {
      EXPECT_EQ(c["outcome"], "pass");
    }
  }
}

// Result lines name a case by its path (what serve writes) or by its older
// test name (what older files hold): both read as the same case.
TEST(harness_units, browser_result_lines_name_cases_by_path_or_old_name) {
  std::vector<ssec::error> errors;
  const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
  const auto all = conf::load_case_tree(source_dir / "conformance/cases", "conformance/cases", tags);
  ASSERT_TRUE(all.ok()) << all.error_text();
  const auto wire = std::find_if(all.value.begin(), all.value.end(),
                                 [](const auto& c) { return c.layer == conf::layer::wire && !c.limits; });
  ASSERT_NE(wire, all.value.end());
  EXPECT_EQ(wire->path(), h::case_path(*wire));
  for (const std::string& name : {wire->path(), wire->test_name()}) {
    const auto reports = h::reports_from_result_lines("browser:chromium " + name + " PASS\n", "b.txt", all.value);
    ASSERT_TRUE(reports) << name << ": " << reports.error().to_string();
    bool seen = false;
    for (const auto& c : (*reports)[0]["cases"]) {
      if (c["id"] == wire->path()) seen = c["outcome"] == "pass";
    }
    EXPECT_TRUE(seen) << name;
  }
  // The same case under both names is listed twice.
  EXPECT_FALSE(h::reports_from_result_lines(
      "browser:chromium " + wire->path() + " PASS\nbrowser:chromium " + wire->test_name() + " PASS\n", "b.txt",
      all.value));
}

TEST_F(harness, the_matrix_takes_run_reports_and_browser_results) {
  const std::string cases = " --cases " + h::shell_quote((dir_ / "cases").string());
  const std::string out = (dir_ / "matrix").string();
  std::ofstream(out + "-chromium.txt") << "browser:chromium  basics_A2B3  PASS\nbrowser:chromium  basics_C4D5  FAIL\n"
                                          "browser:chromium  basics_E6F7  PASS\nbrowser:chromium  basics_G7H8  FAIL\n";
  ASSERT_EQ(shell(h::shell_quote(tool) + " run --no-progress --impl " + h::shell_quote(reference) + cases +
                  " --chunkings whole --json " + out + "-ref.json >/dev/null"),
            0);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run" + cases + " --matrix-from " + out + "-ref.json " + out +
                  "-chromium.txt --matrix-out " + out + ".md"),
            0);
  const std::string md = read_text(out + ".md");
  EXPECT_NE(md.find("| layer / tag | sse-conform reference 0.1.0 | chromium |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **wire** | 4/4 | 2/4 |"), std::string::npos) << md;
  EXPECT_NE(md.find("[wire/basics/G7H8]"), std::string::npos) << md;
  // A file that is neither: a usage error naming it.
  std::ofstream(out + "-bad.txt") << "what is this\n";
  EXPECT_EQ(shell(h::shell_quote(tool) + " run" + cases + " --matrix-from " + out + "-bad.txt 2>/dev/null"), 2);
  // A report of the wrong shape: a usage error naming the file and member.
  auto report = nlohmann::json::parse(read_text(out + "-ref.json"));
  report["cases"][2]["layer"] = 5;
  std::ofstream(out + "-shape.json") << report.dump();
  EXPECT_EQ(
      shell(h::shell_quote(tool) + " run" + cases + " --matrix-from " + out + "-shape.json 2> " + out + "-shape.err"),
      2);
  EXPECT_NE(read_text(out + "-shape.err").find("-shape.json: cases[2].layer: expected a string, got number"),
            std::string::npos)
      << read_text(out + "-shape.err");

  // matrix.sh with only the reference and the browser file (no node needed).
  const std::string build = fs::path(tool).parent_path().parent_path().string();
  const std::string script = h::shell_quote((source_dir / "tools/adapters/matrix.sh").string());
  // The wire layer only: the client layer has a test of its own (client_cases_test.cpp).
  const std::string env =
      "MATRIX_LAYERS=wire ADAPTERS= JOBS=1 CASES=" + h::shell_quote((dir_ / "cases").string()) + " ";
  EXPECT_EQ(shell(env + "BROWSER_RESULTS=" + out + "-chromium.txt bash " + script + " " + h::shell_quote(build) + " " +
                  out + "-sh > " + out + "-sh.md"),
            0);
  EXPECT_NE(read_text(out + "-sh.md").find("| **wire** | 4/4 | 2/4 |"), std::string::npos) << read_text(out + "-sh.md");
  // Both parts are written: the README's (no case lists) and the full page's.
  EXPECT_EQ(read_text(out + "-sh/matrix-readme.md"), read_text(out + "-sh.md"));
  EXPECT_EQ(read_text(out + "-sh/matrix-readme.md").find("not passing"), std::string::npos);
  // The cases are an absolute directory here: their links are not prefixed.
  EXPECT_NE(
      read_text(out + "-sh/matrix-full.md").find("[wire/basics/G7H8](" + (dir_ / "cases/basics.yaml").string() + "#L"),
      std::string::npos)
      << read_text(out + "-sh/matrix-full.md");
  // The splice that MATRIX_UPDATE=1 does, on a copy.
  std::ofstream(out + "-doc.md") << "intro\n<!-- matrix:begin -->\nold table\n<!-- matrix:end -->\nafter\n";
  const std::string splice = h::shell_quote((source_dir / "tools/adapters/splice-matrix.sh").string());
  EXPECT_EQ(shell("bash " + splice + " " + out + "-doc.md " + out + "-sh/matrix-readme.md"), 0);
  EXPECT_EQ(read_text(out + "-doc.md"),
            "intro\n<!-- matrix:begin -->\n" + read_text(out + "-sh.md") + "<!-- matrix:end -->\nafter\n");
  std::ofstream(out + "-nomark.md") << "no markers\n";
  EXPECT_EQ(shell("bash " + splice + " " + out + "-nomark.md " + out + "-sh.md 2>/dev/null"), 2);
  EXPECT_EQ(shell(env + "BROWSER_RESULTS=/nonexistent bash " + script + " " + h::shell_quote(build) + " " + out +
                  "-sh2 >/dev/null 2>&1"),
            2);
}

// `--shard K/N` over the real case set: the N shards' lists are the
// unsharded list, no case twice; their JSON reports merge back into one
// column with --matrix-from, equal to the unsharded run's.
TEST_F(harness, shards_cover_the_suite_once_and_their_reports_merge) {
  const auto list = [](const std::string& extra) {
    const std::string out = (fs::temp_directory_path() / ("ssec_shard_list_" + std::to_string(::getpid()))).string();
    EXPECT_EQ(shell(h::shell_quote(tool) + " run --list" + extra + " > " + out), 0);
    std::vector<std::string> ids;
    std::istringstream lines(read_text(out));
    for (std::string line; std::getline(lines, line);) ids.push_back(line.substr(0, line.find(' ')));
    fs::remove(out);
    return ids;
  };
  auto all = list("");
  ASSERT_GT(all.size(), 1000u);
  std::vector<std::string> together;
  for (int k = 1; k <= 4; ++k) {
    const auto part = list(" --shard " + std::to_string(k) + "/4");
    EXPECT_GT(part.size(), all.size() / 8) << "shard " << k << " is far from a quarter";
    together.insert(together.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  std::sort(together.begin(), together.end());
  EXPECT_EQ(together, all);  // same set, and no case in two shards (a duplicate would show here)
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --list --shard 5/4 >/dev/null 2>&1"), 2);

  // Reports: two shards of the small case set merge into the unsharded column.
  const std::string cases = " --no-progress --chunkings whole --cases " + h::shell_quote((dir_ / "cases").string());
  const std::string out = (dir_ / "shard").string();
  const std::string impl = " --impl " + h::shell_quote(broken("wrong", "--on A2B3"));
  EXPECT_EQ(shell(h::shell_quote(tool) + " run" + impl + cases + " --json " + out + "-all.json >/dev/null"), 1);
  for (int k = 1; k <= 2; ++k) {
    const std::string n = std::to_string(k);
    shell(h::shell_quote(tool) + " run" + impl + cases + " --shard " + n + "/2 --json " + out + n + ".json >/dev/null");
    EXPECT_EQ(nlohmann::json::parse(read_text(out + n + ".json"))["options"]["shard"], n + "/2");
  }
  const std::string matrix =
      h::shell_quote(tool) + " run --cases " + h::shell_quote((dir_ / "cases").string()) + " --matrix-from ";
  EXPECT_EQ(shell(matrix + out + "-all.json --matrix-out " + out + "-all.md"), 0);
  EXPECT_EQ(shell(matrix + out + "2.json " + out + "1.json --matrix-out " + out + "-merged.md"), 0);
  EXPECT_EQ(read_text(out + "-merged.md"), read_text(out + "-all.md"));
  EXPECT_NE(read_text(out + "-merged.md").find("| **wire** | 3/4 |"), std::string::npos)
      << read_text(out + "-merged.md");
  // One shard missing, or given twice: a usage error, never a silently short column.
  EXPECT_EQ(shell(matrix + out + "1.json --matrix-out /dev/null 2>/dev/null"), 2);
  EXPECT_EQ(shell(matrix + out + "1.json " + out + "1.json " + out + "2.json --matrix-out /dev/null 2>/dev/null"), 2);
}

// `run` stopped by SIGTERM forwards it to the adapters' process groups,
// kills what ignores it, writes the reports of the cases that finished marked
// interrupted, and exits 128 + 15. The adapter here ignores SIGTERM (so the
// kill after the grace is needed) and hangs on the last case.
TEST_F(harness, a_signal_stops_the_run_and_its_adapters_and_the_reports_say_interrupted) {
  const fs::path pids = dir_ / "interrupt-pids.txt";
  const fs::path hung = dir_ / "interrupt-hung.txt";
  const std::string out = (dir_ / "interrupt").string();
  fs::remove(pids);
  fs::remove(hung);
  const std::string adapter = interruption::recording_group(
      pids, broken("hang", "--on G7H8 --record " + h::shell_quote(hung.string())), /*ignore_signals=*/true);
  const pid_t run =
      interruption::start(h::shell_quote(tool) + " run --no-progress --chunkings whole --timeout-ms 600000 --cases " +
                          h::shell_quote((dir_ / "cases").string()) + " --impl " + h::shell_quote(adapter) +
                          " --json " + out + ".json --junit " + out + ".xml > " + out + ".txt 2>&1");
  ASSERT_GE(run, 0);
  // Wait (bounded) until the adapter holds the last case, then stop the run.
  EXPECT_TRUE(interruption::wait_for_text(hung, "G7H8")) << read_text(out + ".txt");
  ::kill(run, SIGTERM);
  EXPECT_EQ(interruption::wait_exit(run), 128 + SIGTERM) << read_text(out + ".txt");

  // No process is left in any adapter's process group.
  const auto groups = interruption::recorded_groups(pids);
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(interruption::running_in(groups), std::vector<std::string>{});

  const auto report = nlohmann::json::parse(read_text(out + ".json"));
  EXPECT_EQ(report["interrupted"], "SIGTERM");
  EXPECT_EQ(report["cases_selected"], 4);
  EXPECT_EQ(report["totals"]["cases"], 3);  // the three that finished; the hung one is not reported
  EXPECT_EQ(report["totals"]["pass"], 3);
  EXPECT_EQ(report["exit"], 128 + SIGTERM);
  EXPECT_NE(read_text(out + ".xml").find("interrupted=\"SIGTERM\""), std::string::npos);
  EXPECT_NE(read_text(out + ".txt").find("INTERRUPTED by SIGTERM: 3 of 4 selected cases finished"), std::string::npos)
      << read_text(out + ".txt");
}

// The HTML report of a small run: the banner and the layer table first, the
// failures before the passes whatever the case order, skips (and passes)
// inside closed <details>, case file:line links, "(no events)".
TEST_F(harness, the_html_report_opens_on_the_verdict_and_the_failures) {
  const auto passing = run(reference);
  ASSERT_EQ(passing.setup_error, "");
  const std::string ok = h::to_html(passing, {});
  EXPECT_NE(ok.find("<div class=\"banner pass\">PASS"), std::string::npos) << ok;
  EXPECT_NE(ok.find("Every graded case passes."), std::string::npos);

  auto r = passing;               // the cases' outcomes as a failing run would have them
  auto& failed = r.cases.back();  // G7H8, last in case order
  ASSERT_EQ(failed.c->id, "G7H8");
  failed.outcome = h::outcome::fail;
  failed.reason = "the events differ";
  h::failure_detail f;
  f.chunking = "whole";
  f.expected = "";  // the case expects no events
  f.received = "event type=\"message\" data=\"x\" last_id=\"\"";
  f.first_difference = "first difference: event 1";
  f.reproduce = "sse-conform run --run wire/basics/G7H8";
  failed.failure = f;
  auto& skipped = r.cases[1];  // C4D5
  skipped.outcome = h::outcome::skip;
  skipped.reason = "the adapter does not list the capability";
  const std::string page = h::to_html(r, {});

  const auto at = [&](const std::string& needle) {
    const auto p = page.find(needle);
    EXPECT_NE(p, std::string::npos) << needle << "\n" << page;
    return p;
  };
  const auto banner = at("<div class=\"banner fail\">FAIL");
  const auto layers = at("<table class=\"layers\">");
  const auto failure = at("<tr id=\"wire/basics/G7H8\" class=\"fail\"");
  const auto passed = at("<details class=\"passed\"><summary>Passed (2)");
  const auto first_pass = at("<tr id=\"wire/basics/A2B3\" class=\"pass\"");
  const auto skips = at("<details class=\"skipped\"><summary>Skipped (1)");
  const auto skip_row = at("<tr id=\"wire/basics/C4D5\" class=\"skip\"");
  EXPECT_LT(banner, layers);
  EXPECT_LT(layers, failure);
  EXPECT_LT(failure, passed);  // G7H8 comes last in the cases, first on the page
  EXPECT_LT(passed, first_pass);
  EXPECT_LT(skips, skip_row);
  EXPECT_EQ(page.find("<details open"), std::string::npos);  // hidden until opened
  EXPECT_EQ(page.find("<script"), std::string::npos);
  // file:line as a relative link; the empty expected log is named.
  at("<a href=\"cases/basics.yaml#L" + std::to_string(failed.c->where.line) +
     "\">cases/basics.yaml:" + std::to_string(failed.c->where.line));
  at("<b>expected</b><pre>(no events)</pre>");
  EXPECT_EQ(page.find("<b>received</b><pre>(no events)</pre>"), std::string::npos);
  // A page written elsewhere links through the prefix that leads back to the cases.
  const std::string moved = h::to_html(r, {}, "../src/");
  EXPECT_NE(moved.find("<a href=\"../src/cases/basics.yaml#L" + std::to_string(failed.c->where.line) +
                       "\">cases/basics.yaml:"),
            std::string::npos)
      << moved;
}

// Progress: the CI-log line and the terminal bar say done/total, failures and
// the time left (none before the first case or at the end), named by command.
TEST(harness_units, progress_lines_and_bars_say_done_failed_and_time_left) {
  EXPECT_EQ(h::progress_line(120, 1034, 3, 12.4), "run: 120/1034 cases, 3 failed, 12 s elapsed, about 94 s left");
  EXPECT_EQ(h::progress_line(0, 10, 0, 1, "cases --check"), "cases --check: 0/10 cases, 0 failed, 1 s elapsed");
  EXPECT_EQ(h::progress_line(10, 10, 1, 5), "run: 10/10 cases, 1 failed, 5 s elapsed");
  EXPECT_EQ(h::progress_bar(5, 10, 2, 4, 10), "[#####     ] 5/10 cases, 2 failed, 4 s elapsed, about 4 s left");
  EXPECT_EQ(h::progress_bar(10, 10, 0, 4, 4), "[####] 10/10 cases, 0 failed, 4 s elapsed");
  EXPECT_EQ(h::progress_bar(0, 0, 0, 0, 4), "[####] 0/0 cases, 0 failed, 0 s elapsed");
}

// matrix_markdown's two parts, from three small reports: the README's keeps
// the wire layer and the dialect layer another column graded (chat), drops the
// one only the reference graded (agent) and the case lists; the full part has
// every row and the lists, linked with the prefix.
TEST(harness_units, the_matrix_has_a_readme_part_and_a_full_part) {
  const auto report = [](const std::string& name, const nlohmann::json& cases) {
    return nlohmann::json{{"adapter", {{"name", name}, {"version", "1"}}}, {"cases", cases}};
  };
  const auto c = [](const std::string& id, const std::string& layer, const std::string& tag,
                    const std::string& outcome) {
    return nlohmann::json{{"id", id},           {"layer", layer},   {"tags", nlohmann::json::array({tag})},
                          {"outcome", outcome}, {"file", "c.yaml"}, {"line", 7}};
  };
  const std::vector<nlohmann::json> reports{
      report("ref", {c("wire/a/1", "wire", "data", "pass"), c("agent/a/2", "agent", "done", "pass"),
                     c("chat/a/3", "chat", "bom", "pass")}),
      report("js", {c("wire/a/1", "wire", "data", "fail"), c("agent/a/2", "agent", "done", "skip"),
                    c("chat/a/3", "chat", "bom", "skip")}),
      report("chat-sdk", {c("wire/a/1", "wire", "data", "skip"), c("agent/a/2", "agent", "done", "skip"),
                          c("chat/a/3", "chat", "bom", "pass")})};
  const std::string readme = h::matrix_markdown(reports, "../../", h::matrix_part::readme);
  EXPECT_NE(readme.find("| **wire** | 1/1 | 0/1 | n/a |"), std::string::npos) << readme;
  EXPECT_NE(readme.find("| wire/data | 1/1 | 0/1 | n/a |"), std::string::npos) << readme;
  EXPECT_NE(readme.find("| **chat** | 1/1 | n/a | 1/1 |"), std::string::npos) << readme;
  EXPECT_NE(readme.find("| chat/bom |"), std::string::npos) << readme;
  EXPECT_EQ(readme.find("agent"), std::string::npos) << readme;
  EXPECT_EQ(readme.find("not passing"), std::string::npos) << readme;
  const std::string full = h::matrix_markdown(reports, "../../", h::matrix_part::full);
  EXPECT_NE(full.find("| **agent** | 1/1 | n/a | n/a |"), std::string::npos) << full;
  EXPECT_NE(full.find("| agent/done | 1/1 | n/a | n/a |"), std::string::npos) << full;
  EXPECT_NE(full.find("- js: 1 not passing: [wire/a/1](../../c.yaml#L7)"), std::string::npos) << full;
  EXPECT_EQ(full.rfind(readme.substr(0, readme.find("| **chat**")), 0), 0u);  // same header and first rows
  EXPECT_EQ(h::matrix_markdown(reports, "../../"), full);                     // full is the default
  auto absolute = reports;
  absolute[1]["cases"][0]["file"] = "/cases/c.yaml";
  EXPECT_NE(h::matrix_markdown(absolute, "../../").find("[wire/a/1](/cases/c.yaml#L7)"), std::string::npos);
}

// A report read back (--matrix-from) whose members have the wrong types is
// named, member by member, before the matrix or the shard merge reads it
// (each of these aborted run --matrix-from with an exception before).
TEST(harness_units, a_report_of_the_wrong_shape_is_named_before_it_is_read) {
  const nlohmann::json good{{"format", "sse-conform-run"},
                            {"adapter", {{"name", "ref"}, {"version", "1"}, {"command", "x"}}},
                            {"options", {{"shard", "1/2"}}},
                            {"interrupted", nullptr},
                            {"cases",
                             {{{"id", "wire/a/1"},
                               {"layer", "wire"},
                               {"tags", {"data"}},
                               {"outcome", "pass"},
                               {"line", 7},
                               {"stale", false}}}}};
  EXPECT_EQ(h::report_shape_problem(good), "");
  const nlohmann::json defaults{{"adapter", nlohmann::json::object()}};
  EXPECT_EQ(h::report_shape_problem(defaults), "");  // every member but adapter takes its default
  EXPECT_NE(h::matrix_markdown({good, defaults}, "").find("| layer / tag |"), std::string::npos);
  const std::vector<std::pair<std::string, std::string>> bad{
      {"/adapter", "adapter: missing"},
      {"/cases/0/layer", "cases[0].layer: expected a string, got number"},
      {"/cases/0/line", "cases[0].line: expected a whole number, 0 or more, got number"},
      {"/cases/0/tags/0", "cases[0].tags[0]: expected a string, got number"},
      {"/cases/0/stale", "cases[0].stale: expected true or false, got number"},
      {"/cases/0", "cases[0]: expected an object, got number"},
      {"/cases", "cases: expected an array, got number"},
      {"/adapter/name", "adapter.name: expected a string, got number"},
      {"/adapter", "adapter: expected an object, got number"},
      {"/options/shard", "options.shard: expected a string, got number"},
      {"/interrupted", "interrupted: expected a string or null, got number"},
  };
  for (const auto& [pointer, problem] : bad) {
    auto r = good;
    if (problem.ends_with("missing")) r.erase("adapter");
    else if (problem.find("line") != std::string::npos) r[nlohmann::json::json_pointer(pointer)] = -7;
    else r[nlohmann::json::json_pointer(pointer)] = 5;
    EXPECT_EQ(h::report_shape_problem(r), problem) << pointer;
  }
}

// The matrix, like every report, says how many MUST cases each column graded
// and why the others were not.
TEST(harness_units, the_matrix_says_how_many_must_cases_each_column_graded) {
  const auto c = [](const std::string& id, const std::string& verdict, const std::string& outcome,
                    const std::string& reason) {
    return nlohmann::json{{"id", id},           {"layer", "wire"},    {"tags", nlohmann::json::array({"retry"})},
                          {"outcome", outcome}, {"verdict", verdict}, {"reason", reason},
                          {"file", "c.yaml"},   {"line", 7}};
  };
  const std::vector<nlohmann::json> reports{
      {{"adapter", {{"name", "ref"}}},
       {"cases", {c("wire/a/1", "must", "pass", ""), c("wire/a/2", "must", "pass", "")}}},
      {{"adapter", {{"name", "js"}}},
       {"cases",
        {c("wire/a/1", "must", "pass", ""), c("wire/a/2", "must", "skip", "needs capability retry"),
         c("wire/a/3", "impl", "skip", "needs capability retry")}}}};
  const std::string full = h::matrix_markdown(reports, "../../", h::matrix_part::full);
  EXPECT_NE(full.find("- ref: every graded case passes; MUST cases: all 2 MUST cases graded"), std::string::npos)
      << full;
  EXPECT_NE(full.find("- js: every graded case passes; MUST cases: conforming on the 1 graded MUST cases; 1 not "
                      "graded: needs capability retry (1)"),
            std::string::npos)
      << full;
}

// The whole suite against the reference: everything graded passes. Every
// case runs whole, byte by byte and under two random splits here; the
// every-split-point scan of the full plan is what tools/report.sh runs.
TEST(harness_suite, reference_passes_the_whole_suite) {
  EXPECT_EQ(
      shell(h::shell_quote(tool) + " run --no-progress --chunkings whole,bytes,random:2 --timeout-ms 120000 --impl " +
            h::shell_quote(reference) + " >/dev/null"),
      0);
}

}  // namespace
