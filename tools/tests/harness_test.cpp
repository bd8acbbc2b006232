// SPDX-License-Identifier: MIT
// Tests of the harness behind `sse-conform run` (tools/docs/run.md): every
// outcome is provoked by a deliberately broken adapter
// (tools/tests/broken-adapters/broken_adapter.py, which forwards to the
// reference adapter and breaks in one chosen way), and the command line's
// exit statuses and reports are checked by running the built tool.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "ssec/conformance/loader.hpp"
#include "ssec/harness/baseline.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/harness/reports.hpp"

namespace {

namespace conf = ssec::conformance;
namespace h = ssec::harness;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string tool = SSE_CONFORM_BIN;
const std::string broken_script = BROKEN_ADAPTER;
const fs::path source_dir = SSEC_SOURCE_DIR;
const std::string reference = h::shell_quote(tool) + " adapter";

std::string broken(const std::string& mode, const std::string& extra = "") {
  return "python3 " + h::shell_quote(broken_script) + " " + mode + " " + extra + " -- " + reference;
}

// Four small cases whose expectations are the WHATWG rules: one per verdict,
// and one that needs the `cr` capability (a lone CR ends a line).
constexpr const char* basics_yaml = R"(- id: A2B3
  name: one event
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: must
  layer: wire
  input: ["data: a\n\n"]
  events: |
    event type="message" data="a" last_id=""
- id: C4D5
  name: one event, graded should
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: should
  layer: wire
  input: ["data: b\n\n"]
  events: |
    event type="message" data="b" last_id=""
- id: E6F7
  name: one event, graded impl
  from: [spec/DECISIONS.md#limits]
  tags: [dispatch]
  verdict: impl
  layer: wire
  input: ["data: c\n\n"]
  events: |
    event type="message" data="c" last_id=""
- id: G7H8
  name: lone CR ends lines
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
  tags: [line-endings]
  verdict: must
  layer: wire
  input: ["data: d\r\r"]
  events: |
    event type="message" data="d" last_id=""
)";

class harness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("ssec_harness_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "cases");
    std::ofstream(dir_ / "cases" / "basics.yaml") << basics_yaml;
    std::vector<conf::load_error> errors;
    const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
    ASSERT_TRUE(errors.empty());
    loaded_ = new conf::load_result(conf::load_case_tree(dir_ / "cases", "cases", tags));
    ASSERT_TRUE(loaded_->ok()) << loaded_->error_text();
    ASSERT_EQ(loaded_->cases.size(), 4u);
  }
  static void TearDownTestSuite() {
    delete loaded_;
    fs::remove_all(dir_);
  }

  static h::run_result run(const std::string& impl, h::run_options o = {}) {
    o.impl = impl;
    o.plan = *conf::parse_chunking_plan("whole,bytes,random:2", nullptr);
    o.hello_timeout = 5s;
    return h::run_cases(h::select_cases(loaded_->cases, {}), o);
  }
  static const h::case_result& find(const h::run_result& r, const std::string& id) {
    for (const auto& c : r.cases) {
      if (c.c->id == id) return c;
    }
    throw std::runtime_error("no case " + id);
  }

  static inline fs::path dir_;
  static inline conf::load_result* loaded_ = nullptr;
};

TEST_F(harness, reference_passes_every_case) {
  const auto r = run(reference);
  ASSERT_EQ(r.setup_error, "");
  EXPECT_EQ(r.adapter.name, "sse-conform reference");
  ASSERT_EQ(r.cases.size(), 4u);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.outcome, h::outcome::pass) << c.path << ": " << c.reason;
    EXPECT_GE(c.chunkings_run, 3u) << c.path;  // whole, bytes, 2 random
  }
  EXPECT_EQ(h::exit_status(r, false), 0);
}

TEST_F(harness, wrong_answers_are_graded_by_verdict) {
  const auto r = run(broken("wrong"));
  ASSERT_EQ(r.setup_error, "");
  const auto& must = find(r, "A2B3");
  EXPECT_EQ(must.outcome, h::outcome::fail);
  ASSERT_TRUE(must.failure);
  EXPECT_EQ(must.failure->chunking, "whole");
  EXPECT_EQ(must.failure->input, R"(["data: a\n\n"])");
  EXPECT_NE(must.failure->expected.find(R"(data="a")"), std::string::npos);
  EXPECT_NE(must.failure->received.find(R"x(data="a (wrong)")x"), std::string::npos);
  EXPECT_NE(must.failure->first_difference.find("first difference"), std::string::npos);
  EXPECT_NE(must.failure->reproduce.find("--run 'wire/basics/A2B3' --chunking 'whole'"), std::string::npos);
  EXPECT_EQ(must.chunkings_failed, must.chunkings_run);
  EXPECT_EQ(find(r, "C4D5").outcome, h::outcome::non_strict);
  EXPECT_EQ(find(r, "E6F7").outcome, h::outcome::informational);
  EXPECT_EQ(h::exit_status(r, false), 1);

  h::run_options strict;
  strict.strict = true;
  const auto s = run(broken("wrong", "--on C4D5"), strict);
  EXPECT_EQ(find(s, "C4D5").outcome, h::outcome::fail);
  EXPECT_EQ(find(s, "A2B3").outcome, h::outcome::pass);
}

TEST_F(harness, a_crash_fails_that_case_with_the_stderr_tail_and_the_run_goes_on) {
  const auto r = run(broken("crash", "--on C4D5"));
  ASSERT_EQ(r.setup_error, "");
  const auto& crashed = find(r, "C4D5");
  EXPECT_EQ(crashed.outcome, h::outcome::error);
  EXPECT_NE(crashed.reason.find("crashed"), std::string::npos) << crashed.reason;
  ASSERT_TRUE(crashed.failure);
  EXPECT_NE(crashed.failure->stderr_tail.find("crashing on purpose on wire/basics/C4D5"), std::string::npos);
  EXPECT_EQ(find(r, "A2B3").outcome, h::outcome::pass);
  EXPECT_EQ(find(r, "E6F7").outcome, h::outcome::pass);  // after the restart
  EXPECT_EQ(h::exit_status(r, false), 1);
}

TEST_F(harness, a_hang_times_out_and_the_run_goes_on) {
  h::run_options o;
  o.timeout = 1500ms;
  const auto started = std::chrono::steady_clock::now();
  const auto r = run(broken("hang", "--on A2B3"), o);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s);
  ASSERT_EQ(r.setup_error, "");
  EXPECT_EQ(find(r, "A2B3").outcome, h::outcome::timeout);
  EXPECT_EQ(find(r, "C4D5").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(r, false), 1);
}

TEST_F(harness, garbage_wrong_ids_and_huge_answers_are_errors) {
  const auto garbage = run(broken("garbage", "--on A2B3"));
  EXPECT_EQ(find(garbage, "A2B3").outcome, h::outcome::error);
  EXPECT_NE(find(garbage, "A2B3").reason.find("not valid JSON"), std::string::npos);
  EXPECT_EQ(find(garbage, "C4D5").outcome, h::outcome::pass);

  const auto wrong_id = run(broken("wrongid", "--on A2B3"));
  EXPECT_EQ(find(wrong_id, "A2B3").outcome, h::outcome::error);
  EXPECT_NE(find(wrong_id, "A2B3").reason.find("is not the request's"), std::string::npos);

  h::run_options o;
  o.max_answer_bytes = 1 << 20;
  const auto huge = run(broken("huge", "--on A2B3 --huge-bytes 3000000"), o);
  EXPECT_EQ(find(huge, "A2B3").outcome, h::outcome::error);
  EXPECT_NE(find(huge, "A2B3").reason.find("oversized"), std::string::npos);
  EXPECT_EQ(find(huge, "C4D5").outcome, h::outcome::pass);
}

TEST_F(harness, missing_capabilities_and_layers_skip_with_the_reason) {
  const auto no_cr = run(broken("nocr"));
  EXPECT_EQ(find(no_cr, "G7H8").outcome, h::outcome::skip);
  EXPECT_NE(find(no_cr, "G7H8").reason.find("needs capability cr"), std::string::npos);
  EXPECT_EQ(find(no_cr, "A2B3").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(no_cr, false), 0);

  const auto no_layers = run(broken("nolayers"));
  for (const auto& c : no_layers.cases) {
    EXPECT_EQ(c.outcome, h::outcome::skip);
    EXPECT_NE(c.reason.find("does not implement layer wire"), std::string::npos);
  }
}

TEST_F(harness, an_adapter_without_a_proper_hello_is_a_setup_error) {
  EXPECT_NE(run(broken("nohello")).setup_error.find("ended before answering hello"), std::string::npos);
  EXPECT_NE(run(broken("badproto")).setup_error.find("protocol 2"), std::string::npos);
  h::run_options o;
  o.hello_timeout = 1s;
  o.impl = broken("silent");
  const auto r = h::run_cases(h::select_cases(loaded_->cases, {}), o);
  EXPECT_NE(r.setup_error.find("did not answer hello"), std::string::npos);
  EXPECT_TRUE(r.cases.empty());
  EXPECT_EQ(h::exit_status(r, false), 2);
}

TEST_F(harness, jobs_give_the_same_results_in_the_same_order) {
  h::run_options o;
  o.jobs = 3;
  const auto r = run(broken("wrong", "--on A2B3"), o);
  ASSERT_EQ(r.cases.size(), 4u);
  EXPECT_EQ(r.cases[0].c->id, "A2B3");
  EXPECT_EQ(r.cases[0].outcome, h::outcome::fail);
  EXPECT_EQ(r.cases[3].c->id, "G7H8");
  EXPECT_EQ(r.cases[3].outcome, h::outcome::pass);
}

TEST_F(harness, baseline_lists_known_failures_and_catches_stale_entries) {
  auto r = run(broken("wrong", "--on A2B3"));
  std::string why;
  const auto b = h::parse_baseline("# sse-conform baseline 1\nwire/basics/A2B3  # known\n\nwire/basics/G7H8\n", "b.txt", &why);
  ASSERT_TRUE(b) << why;
  h::apply_baseline(*b, r.cases);
  EXPECT_TRUE(find(r, "A2B3").baselined);
  EXPECT_TRUE(find(r, "G7H8").stale);
  EXPECT_EQ(h::exit_status(r, false), 1);  // the stale entry
  const auto only_known = h::parse_baseline("# sse-conform baseline 1\nwire/basics/A2B3\n", "b.txt", &why);
  auto r2 = run(broken("wrong", "--on A2B3"));
  h::apply_baseline(*only_known, r2.cases);
  EXPECT_EQ(h::exit_status(r2, false), 0);
  EXPECT_EQ(h::write_baseline(r.cases, false), "# sse-conform baseline 1\nwire/basics/A2B3  # fail\n");

  EXPECT_FALSE(h::parse_baseline("wire/basics/A2B3\n", "b.txt", &why));
  EXPECT_EQ(why, "b.txt:1: a baseline starts with the line `# sse-conform baseline 1`");
  EXPECT_FALSE(h::parse_baseline("# sse-conform baseline 1\nA2B3\n", "b.txt", &why));
  EXPECT_EQ(why, "b.txt:2: `A2B3` is not a case path such as wire/bom/K7P2");
  EXPECT_FALSE(h::parse_baseline("# sse-conform baseline 1\nwire/a/B2\nwire/a/B2\n", "b.txt", &why));
}

TEST(harness_units, globs_and_chunking_names) {
  EXPECT_TRUE(h::glob_match("wire/*", "wire/bom/K7P2"));
  EXPECT_TRUE(h::glob_match("*/K7P?", "wire/bom/K7P2"));
  EXPECT_FALSE(h::glob_match("wire/bom", "wire/bom/K7P2"));
  EXPECT_FALSE(h::glob_match("chat/*", "wire/bom/K7P2"));
  EXPECT_TRUE(h::glob_match("*", ""));
  for (const std::string name : {"whole", "as-written", "bytes", "split@17", "random(seed=12345)"}) {
    const auto k = h::chunking_from_name(name, nullptr);
    ASSERT_TRUE(k) << name;
    EXPECT_EQ(k->name(), name);
  }
  std::string why;
  EXPECT_FALSE(h::chunking_from_name("random(seed=x)", &why));
  EXPECT_NE(why.find("unknown chunking"), std::string::npos);
}

TEST(harness_units, malformed_answers_say_what_is_wrong) {
  EXPECT_EQ(h::decode_answer("[]", "x", true).malformed, "the answer is not a JSON object");
  EXPECT_EQ(h::decode_answer(R"({"events":[]})", "x", true).malformed, "the answer has no string \"id\"");
  EXPECT_NE(h::decode_answer(R"({"id":"x","events":[{"type":"message"}]})", "x", true).malformed.find("event 0"),
            std::string::npos);
  EXPECT_NE(h::decode_answer(R"({"id":"x","events":[],"retry":-1})", "x", true).malformed.find("retry"),
            std::string::npos);
  EXPECT_NE(h::decode_answer(R"({"id":"x"})", "x", true).malformed.find("neither"), std::string::npos);
  const auto rejected = h::decode_answer(R"({"id":"x","error":"too long"})", "x", true);
  ASSERT_TRUE(rejected.wire);
  EXPECT_EQ(rejected.wire->error, "too long");
  const auto ok = h::decode_answer(R"({"id":"x","events":[{"type":"t","data":"d","lastEventId":"7"}],"retry":300})", "x", true);
  ASSERT_TRUE(ok.wire);
  ASSERT_EQ(ok.wire->events.size(), 1u);
  EXPECT_EQ(ok.wire->retry, 300u);
}

// The command line: exit statuses, reports, and a reproduce command that
// reproduces exactly one failure.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(harness, command_line_exit_statuses_and_reports) {
  const std::string cases = " --cases " + h::shell_quote((dir_ / "cases").string()) + " --chunkings whole,bytes --no-progress";
  const std::string out = (dir_ / "out").string();
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(reference) + cases + " >/dev/null"), 0);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(broken("wrong", "--on A2B3")) + cases +
                  " --json " + out + ".json --junit " + out + ".xml --html " + out + ".html > " + out + ".txt"),
            1);
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --impl " + h::shell_quote(broken("nohello")) + cases + " 2>/dev/null"), 2);
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
  EXPECT_NE(junit.str().find("<testsuites name=\"sse-conform sse-conform reference\" tests=\"4\" failures=\"1\""), std::string::npos);
  EXPECT_NE(junit.str().find("<failure type=\"fail\""), std::string::npos);
  EXPECT_NE(html.str().find("id=\"wire/basics/A2B3\" class=\"fail\""), std::string::npos);
  EXPECT_NE(console.str().find("[fail] wire/basics/A2B3"), std::string::npos);
  EXPECT_NE(console.str().find("reproduce: "), std::string::npos);
  EXPECT_EQ(console.str().find("\x1b["), std::string::npos);  // not a terminal: no colour

  // The reproduce command runs exactly that case under exactly that chunking.
  EXPECT_EQ(shell(reproduce + " --json " + out + "-repro.json >/dev/null"), 1);
  std::ifstream repro_in(out + "-repro.json");
  const auto repro = nlohmann::json::parse(repro_in);
  ASSERT_EQ(repro["cases"].size(), 1u);
  EXPECT_EQ(repro["cases"][0]["chunkings_run"], 1);
  EXPECT_EQ(repro["cases"][0]["outcome"], "fail");
}

// The whole suite against the reference: everything graded passes. Every
// case runs whole, byte by byte and under two random splits here; the
// every-split-point scan of the full plan is what tools/report.sh runs.
TEST(harness_suite, reference_passes_the_whole_suite) {
  EXPECT_EQ(shell(h::shell_quote(tool) + " run --no-progress --chunkings whole,bytes,random:2 --timeout-ms 120000 --impl " +
                  h::shell_quote(reference) + " >/dev/null"),
            0);
}

}  // namespace
