// SPDX-License-Identifier: MIT
// Tests of the harness behind `sse-conform run` (tools/docs/run.md): every
// outcome is provoked by a deliberately broken adapter
// (tools/tests/broken-adapters/broken_adapter.py, which forwards to the
// reference adapter and breaks in one chosen way), and the command line's
// exit statuses and reports are checked by running the built tool.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "sse/recording.hpp"
#include "ssec/adapter_protocol.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/harness/baseline.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/harness/reports.hpp"
#include "ssec/harness/service.hpp"
#include "ssec/http_client.hpp"
#include "ssec/http_server.hpp"

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

// A second case tree: a stream big enough for the time budget to matter,
// and retry values a JavaScript number cannot hold exactly (WHATWG: the
// reconnection time is "that integer", unbounded).
constexpr const char* big_yaml = R"(- id: B8G2
  name: a 3000-byte data line
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [large]
  verdict: must
  layer: wire
  input: ["data: ", {repeat: "x", times: 3000}, "\n\n"]
  events: |
    event type="message" data="x"*3000 last_id=""
)";
constexpr const char* utf8_yaml = R"(- id: U8F8
  name: a lone FF byte becomes U+FFFD
  from: https://encoding.spec.whatwg.org/#utf-8-decoder
  tags: [utf8]
  verdict: must
  layer: wire
  input: ["data: ", {hex: "FF"}, "\n\n"]
  events: |
    event type="message" data="\uFFFD" last_id=""
)";
constexpr const char* retry_yaml = R"(- id: R2T3
  name: the largest unsigned 64-bit retry
  from: [spec/DECISIONS.md#retry-large]
  tags: [retry]
  verdict: impl
  layer: wire
  input: ["retry: 18446744073709551615\n\n"]
  events: |
    retry 18446744073709551615
- id: R4T5
  name: a retry one above 2^53
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [retry]
  verdict: must
  layer: wire
  input: ["retry: 9007199254740993\n\n"]
  events: |
    retry 9007199254740993
- id: R6T7
  name: a small retry, then an event
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [retry]
  verdict: must
  layer: wire
  input: ["retry: 3000\ndata: a\n\n"]
  events: |
    retry 3000
    event type="message" data="a" last_id=""
)";

class harness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("ssec_harness_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "cases");
    std::ofstream(dir_ / "cases" / "basics.yaml") << basics_yaml;
    std::vector<ssec::error> errors;
    const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
    ASSERT_TRUE(errors.empty());
    loaded_ = new ssec::load_result<std::vector<conf::test_case>>(conf::load_case_tree(dir_ / "cases", "cases", tags));
    ASSERT_TRUE(loaded_->ok()) << loaded_->error_text();
    ASSERT_EQ(loaded_->value.size(), 4u);
    fs::create_directories(dir_ / "extra");
    std::ofstream(dir_ / "extra" / "big.yaml") << big_yaml;
    std::ofstream(dir_ / "extra" / "retry.yaml") << retry_yaml;
    std::ofstream(dir_ / "extra" / "utf8.yaml") << utf8_yaml;
    extra_ = new ssec::load_result<std::vector<conf::test_case>>(conf::load_case_tree(dir_ / "extra", "extra", tags));
    ASSERT_TRUE(extra_->ok()) << extra_->error_text();
    ASSERT_EQ(extra_->value.size(), 5u);
  }
  static void TearDownTestSuite() {
    delete loaded_;
    delete extra_;
    fs::remove_all(dir_);
  }

  static h::run_result run(const std::string& impl, h::run_options o = {}) {
    o.impl = impl;
    o.plan = *conf::parse_chunking_plan("whole,bytes,random:2");
    o.hello_timeout = 5s;
    return h::run_cases(h::select_cases(loaded_->value, {}), o);
  }
  static h::run_result run_extra(const std::string& impl, const std::string& chunkings, h::run_options o = {}) {
    o.impl = impl;
    o.plan = *conf::parse_chunking_plan(chunkings);
    o.hello_timeout = 5s;
    return h::run_cases(h::select_cases(extra_->value, {}), o);
  }
  static const h::case_result& find(const h::run_result& r, const std::string& id) {
    for (const auto& c : r.cases) {
      if (c.c->id == id) return c;
    }
    throw std::runtime_error("no case " + id);
  }

  static inline fs::path dir_;
  static inline ssec::load_result<std::vector<conf::test_case>>* loaded_ = nullptr;
  static inline ssec::load_result<std::vector<conf::test_case>>* extra_ = nullptr;
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
  // With the default allowances: a small request's budget is about the base,
  // so a real hang is killed promptly.
  h::run_options o;
  o.timeout.base = 1500ms;
  const auto started = std::chrono::steady_clock::now();
  const auto r = run(broken("hang", "--on A2B3"), o);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 15s);
  ASSERT_EQ(r.setup_error, "");
  const auto& hung = find(r, "A2B3");
  EXPECT_EQ(hung.outcome, h::outcome::timeout);
  ASSERT_TRUE(hung.failure);
  ASSERT_TRUE(hung.failure->budget);
  EXPECT_GE(hung.failure->budget->total, 1500ms);
  EXPECT_LE(hung.failure->budget->total, 1510ms);
  EXPECT_EQ(hung.failure->budget->chunks, 1u);  // the first chunking, whole
  EXPECT_NE(hung.reason.find("budget 15"), std::string::npos) << hung.reason;
  EXPECT_EQ(find(r, "C4D5").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(r, false), 1);
  const auto j = h::to_json_report(r, o);
  EXPECT_EQ(j["cases"][0]["failure"]["budget"]["total_ms"], hung.failure->budget->total.count());
  EXPECT_EQ(j["cases"][0]["failure"]["budget"]["base_ms"], 1500);
  EXPECT_EQ(j["options"]["timeout_per_kchunk_ms"], o.timeout.per_kchunk.count());
}

// An honest adapter whose cost is linear in the chunks (here 400 us each):
// the allowance per thousand chunks gives it the time, and without the
// allowance the same adapter times out, with the budget in the report.
TEST_F(harness, the_time_budget_lets_linear_work_finish_and_reports_itself_on_timeout) {
  h::run_options o;
  o.timeout = h::time_budget{800ms, 0ms, 1000ms};                    // 3008 chunks byte by byte: 800 + 3008 ms
  const auto slow = broken("slow", "--on B8G2 --per-chunk-us 400");  // about 1.2 s byte by byte
  const auto r = run_extra(slow, "whole,bytes", o);
  ASSERT_EQ(r.setup_error, "");
  EXPECT_EQ(find(r, "B8G2").outcome, h::outcome::pass) << find(r, "B8G2").reason;
  EXPECT_EQ(find(r, "B8G2").chunkings_run, 2u);

  o.timeout = h::time_budget{800ms, 0ms, 0ms};
  const auto t = run_extra(slow, "whole,bytes", o);
  const auto& timed_out = find(t, "B8G2");
  EXPECT_EQ(timed_out.outcome, h::outcome::timeout);
  ASSERT_TRUE(timed_out.failure);
  EXPECT_EQ(timed_out.failure->chunking, "bytes");
  ASSERT_TRUE(timed_out.failure->budget);
  EXPECT_EQ(timed_out.failure->budget->chunks, 3008u);
  EXPECT_EQ(timed_out.failure->budget->total, 800ms);
  EXPECT_GT(timed_out.failure->budget->request_bytes, 3008u * 6);
  EXPECT_NE(timed_out.reason.find("3.008 thousand chunks x 0 ms"), std::string::npos) << timed_out.reason;
}

// JavaScript adapters answer a retry as a double: 18446744073709551615
// becomes 18446744073709552000 (2^64). That is the implementation's own,
// lossy value: graded by the case's verdict, the difference shown.
TEST_F(harness, an_inexact_retry_is_graded_as_a_difference_not_an_error) {
  const auto r = run_extra(broken("jsretry"), "whole");
  ASSERT_EQ(r.setup_error, "");
  const auto& huge = find(r, "R2T3");  // verdict impl
  EXPECT_EQ(huge.outcome, h::outcome::informational) << huge.reason;
  ASSERT_TRUE(huge.failure);
  EXPECT_NE(huge.failure->first_difference.find("expected: retry 18446744073709551615"), std::string::npos)
      << huge.failure->first_difference;
  EXPECT_NE(huge.failure->first_difference.find("got:      retry 1.8446744073709552e+19"), std::string::npos)
      << huge.failure->first_difference;
  EXPECT_NE(huge.failure->received.find("retry 1.8446744073709552e+19"), std::string::npos);
  const auto& above_2_53 = find(r, "R4T5");  // verdict must: 9007199254740992 is exact, and wrong
  EXPECT_EQ(above_2_53.outcome, h::outcome::fail);
  ASSERT_TRUE(above_2_53.failure);
  EXPECT_NE(above_2_53.failure->first_difference.find("retry 9007199254740992"), std::string::npos)
      << above_2_53.failure->first_difference;
  EXPECT_EQ(find(r, "R6T7").outcome, h::outcome::pass);  // 3000 survives a double
  EXPECT_EQ(find(r, "B8G2").outcome, h::outcome::pass);

  // An event difference comes before the retry's.
  const auto& c = *find(r, "R2T3").c;
  const auto answer = h::decode_answer(
      R"({"id":"x","events":[{"type":"message","data":"z","lastEventId":""}],"retry":1e+100})", "x", true);
  ASSERT_EQ(answer.malformed, "");
  const auto m = h::compare_answer(c, answer);
  ASSERT_TRUE(m);
  EXPECT_NE(m->first_difference.find(R"(got:      event type="message" data="z")"), std::string::npos)
      << m->first_difference;
  EXPECT_NE(m->received.find("retry 1e+100"), std::string::npos) << m->received;
}

// JSON.stringify escapes a lone surrogate ("\ud83d"), which the JSON library
// refuses. In a rejection's message it is harmless; in the events it is the
// implementation's wrong value, never a match, and never "not JSON".
TEST_F(harness, lone_surrogates_are_differences_not_malformed_answers) {
  const auto rejected = h::decode_answer(R"({"id":"x","error":"Unexpected token '\ud83d'"})", "x", true);
  EXPECT_EQ(rejected.malformed, "");
  ASSERT_TRUE(rejected.wire);
  EXPECT_EQ(rejected.wire->error, "Unexpected token '\xEF\xBF\xBD'");
  EXPECT_EQ(rejected.lone_surrogate, "");

  const auto with = [](const std::string& data) {
    return h::decode_answer(R"({"id":"x","events":[{"type":"message","data":")" + data + R"(","lastEventId":""}]})",
                            "x", true);
  };
  const auto lone = with("\\ud83d");
  EXPECT_EQ(lone.malformed, "");
  EXPECT_EQ(lone.lone_surrogate, "\\ud83d at byte 46");
  ASSERT_TRUE(lone.wire);
  EXPECT_EQ(lone.wire->events.at(0).data, "\xEF\xBF\xBD");
  // The FF-byte case expects U+FFFD: a surrogate shown as U+FFFD must still not match.
  const auto& ff =
      *std::find_if(extra_->value.begin(), extra_->value.end(), [](const auto& c) { return c.id == "U8F8"; });
  const auto m = h::compare_answer(ff, lone);
  ASSERT_TRUE(m);
  EXPECT_NE(m->first_difference.find("lone UTF-16 surrogate (\\ud83d at byte 46"), std::string::npos)
      << m->first_difference;
  EXPECT_FALSE(h::compare_answer(ff, with("\\uFFFD")));

  EXPECT_EQ(with("\\ude00").lone_surrogate, "\\ude00 at byte 46");
  EXPECT_EQ(with("a\\ud83d\\u0041").lone_surrogate, "\\ud83d at byte 47");
  EXPECT_EQ(with("a\\ud83d\\u0041").wire->events.at(0).data,
            "a\xEF\xBF\xBD"
            "A");
  const auto pair = with("\\ud83d\\ude00");
  EXPECT_EQ(pair.lone_surrogate, "");
  EXPECT_EQ(pair.wire->events.at(0).data, "\xF0\x9F\x98\x80");
  const auto escaped_backslash = with("\\\\ud83d");  // the text \ud83d, no escape
  EXPECT_EQ(escaped_backslash.lone_surrogate, "");
  EXPECT_EQ(escaped_backslash.wire->events.at(0).data, "\\ud83d");
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

// A capability naming a WHATWG parsing rule (cr, bom, nul, utf8-repair)
// excuses nothing: the case is graded whatever the adapter lists.
TEST_F(harness, a_parsing_rule_is_graded_whatever_the_adapter_lists) {
  const auto no_cr = run(broken("nocr"));  // follows the rule without listing it
  EXPECT_EQ(find(no_cr, "G7H8").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(no_cr, false), 0);

  const auto cr_blind = run(broken("crblind"));  // lists no cr and breaks the rule
  EXPECT_EQ(find(cr_blind, "G7H8").outcome, h::outcome::fail);
  EXPECT_EQ(find(cr_blind, "A2B3").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(cr_blind, false), 1);
}

// What an API cannot report (the reconnection time, lastEventId) may be
// skipped; every report then says the MUST cases were not all graded, and
// --require-all makes that a failure.
TEST_F(harness, an_unreported_value_skips_and_the_verdict_says_what_was_not_graded) {
  const auto r = run_extra(broken("noretry"), "whole");
  ASSERT_EQ(r.setup_error, "");
  EXPECT_EQ(find(r, "R6T7").outcome, h::outcome::skip);
  EXPECT_NE(find(r, "R6T7").reason.find("needs capability retry"), std::string::npos);
  const auto must = h::grading_of_must_cases(r);
  EXPECT_GE(must.not_graded, 2u);  // R4T5 and R6T7 are must cases
  EXPECT_NE(must.sentence(true).find("conforming on the " + std::to_string(must.graded) + " graded MUST cases; " +
                                     std::to_string(must.not_graded) + " not graded: needs capability retry"),
            std::string::npos)
      << must.sentence(true);
  h::run_options o;
  EXPECT_EQ(h::exit_status(r, o), 0);
  o.require_all = true;
  EXPECT_EQ(h::exit_status(r, o), 1);
  const auto json = h::to_json_report(r, o);
  EXPECT_EQ(json["must_cases"]["not_graded"], must.not_graded);
  EXPECT_EQ(json["exit"], 1);
  EXPECT_NE(h::to_junit(r, o).find("must_not_graded=\"" + std::to_string(must.not_graded) + "\""), std::string::npos);
}

TEST_F(harness, missing_layers_skip_with_the_reason) {
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
  const auto r = h::run_cases(h::select_cases(loaded_->value, {}), o);
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
  const auto b =
      h::parse_baseline("# sse-conform baseline 1\nwire/basics/A2B3  # known\n\nwire/basics/G7H8\n", "b.txt");
  ASSERT_TRUE(b) << b.error().to_string();
  h::apply_baseline(*b, r.cases);
  EXPECT_TRUE(find(r, "A2B3").baselined);
  EXPECT_TRUE(find(r, "G7H8").stale);
  EXPECT_EQ(h::exit_status(r, false), 1);  // the stale entry
  const auto only_known = h::parse_baseline("# sse-conform baseline 1\nwire/basics/A2B3\n", "b.txt");
  auto r2 = run(broken("wrong", "--on A2B3"));
  h::apply_baseline(*only_known, r2.cases);
  EXPECT_EQ(h::exit_status(r2, false), 0);
  EXPECT_EQ(h::write_baseline(r.cases, false), "# sse-conform baseline 1\nwire/basics/A2B3  # fail\n");

  const auto no_header = h::parse_baseline("wire/basics/A2B3\n", "b.txt");
  ASSERT_FALSE(no_header);
  EXPECT_EQ(no_header.error().to_string(), "b.txt:1: a baseline starts with the line `# sse-conform baseline 1`");
  const auto not_a_path = h::parse_baseline("# sse-conform baseline 1\nA2B3\n", "b.txt");
  ASSERT_FALSE(not_a_path);
  EXPECT_EQ(not_a_path.error().to_string(), "b.txt:2: `A2B3` is not a case path such as wire/bom/K7P2");
  EXPECT_FALSE(h::parse_baseline("# sse-conform baseline 1\nwire/a/B2\nwire/a/B2\n", "b.txt"));
}

TEST(harness_units, globs_and_chunking_names) {
  EXPECT_TRUE(h::glob_match("wire/*", "wire/bom/K7P2"));
  EXPECT_TRUE(h::glob_match("*/K7P?", "wire/bom/K7P2"));
  EXPECT_FALSE(h::glob_match("wire/bom", "wire/bom/K7P2"));
  EXPECT_FALSE(h::glob_match("chat/*", "wire/bom/K7P2"));
  EXPECT_TRUE(h::glob_match("*", ""));
  for (const std::string name : {"whole", "as-written", "bytes", "split@17", "random(seed=12345)"}) {
    const auto k = h::chunking_from_name(name);
    ASSERT_TRUE(k) << name;
    EXPECT_EQ(k->name(), name);
  }
  const auto unknown = h::chunking_from_name("random(seed=x)");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown chunking"), std::string::npos);
}

TEST(harness_units, malformed_answers_say_what_is_wrong) {
  EXPECT_EQ(h::decode_answer("[]", "x", true).malformed, "the answer is not a JSON object");
  EXPECT_EQ(h::decode_answer(R"({"events":[]})", "x", true).malformed, "the answer has no string \"id\"");
  EXPECT_NE(h::decode_answer(R"({"id":"x","events":[{"type":"message"}]})", "x", true).malformed.find("event 0"),
            std::string::npos);
  EXPECT_NE(h::decode_answer(R"({"id":"x","events":[],"retry":"-1"})", "x", true).malformed.find("retry"),
            std::string::npos);
  EXPECT_NE(h::decode_answer(R"({"id":"x"})", "x", true).malformed.find("neither"), std::string::npos);
  const auto rejected = h::decode_answer(R"({"id":"x","error":"too long"})", "x", true);
  ASSERT_TRUE(rejected.wire);
  EXPECT_EQ(rejected.wire->error, "too long");
  const auto ok =
      h::decode_answer(R"({"id":"x","events":[{"type":"t","data":"d","lastEventId":"7"}],"retry":300})", "x", true);
  ASSERT_TRUE(ok.wire);
  ASSERT_EQ(ok.wire->events.size(), 1u);
  EXPECT_EQ(ok.wire->retry, 300u);
}

TEST(harness_units, the_time_budget_grows_with_request_bytes_and_chunks) {
  const h::time_budget b{5000ms, 500ms, 20ms};
  EXPECT_EQ(b.for_request(0, 0), 5000ms);
  EXPECT_EQ(b.for_request(std::size_t{1} << 20, 0), 5500ms);
  EXPECT_EQ(b.for_request(0, 1000), 5020ms);
  EXPECT_EQ(b.for_request(std::size_t{3} << 20, 2500), 6550ms);
  EXPECT_EQ(b.for_request(1, 1), 5001ms);  // rounded up
  // A 4 MiB stream byte by byte: about 29 MiB of request and 4.2 million chunks.
  const auto big = b.for_request(29u << 20, 4194312);
  EXPECT_GT(big, 90s);
  EXPECT_LT(big, 110s);
  const h::time_budget flat{1000ms, 0ms, 0ms};
  EXPECT_EQ(flat.for_request(std::size_t{100} << 20, 1000000), 1000ms);
}

TEST(harness_units, the_request_line_is_the_protocol_request) {
  const std::string binary("\x00\xff\r\n", 4);
  const std::vector<std::string_view> chunks{"data: a", "", binary, "\n\n"};
  const std::string line = h::parse_request_line("wire/x/A2B3", "wire", chunks);
  ssec::parse_request req{"wire/x/A2B3", "wire", {chunks.begin(), chunks.end()}};
  EXPECT_EQ(nlohmann::json::parse(line), ssec::to_json(req));
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(harness_units, retry_numbers_are_values_not_malformed_answers) {
  const auto retry_of = [](const std::string& number) {
    return h::decode_answer(R"({"id":"x","events":[],"retry":)" + number + "}", "x", true);
  };
  // JSON.stringify of 18446744073709551615 as a JavaScript number: 2^64, beyond 64 bits.
  const auto js = retry_of("18446744073709552000");
  EXPECT_EQ(js.malformed, "");
  ASSERT_TRUE(js.wire);
  EXPECT_FALSE(js.wire->retry);
  EXPECT_EQ(js.inexact_retry, "1.8446744073709552e+19");
  EXPECT_EQ(retry_of("1e+100").inexact_retry, "1e+100");
  EXPECT_EQ(retry_of("-1").inexact_retry, "-1");
  EXPECT_EQ(retry_of("2.5").inexact_retry, "2.5");
  // Integers by value, however written.
  EXPECT_EQ(retry_of("3000.0").wire->retry, 3000u);
  EXPECT_EQ(retry_of("9007199254740992").wire->retry, 9007199254740992u);
  EXPECT_EQ(retry_of("18446744073709551615").wire->retry, 18446744073709551615u);
  EXPECT_FALSE(retry_of("3000.0").inexact_retry);
  // Not numbers: malformed.
  EXPECT_NE(retry_of("\"5\"").malformed.find("neither a number nor null"), std::string::npos);
  EXPECT_NE(retry_of("true").malformed.find("neither a number nor null"), std::string::npos);
  EXPECT_NE(retry_of("[1]").malformed.find("neither a number nor null"), std::string::npos);
}

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

  // The reproduce command runs exactly that case under exactly that chunking.
  EXPECT_EQ(shell(reproduce + " --json " + out + "-repro.json >/dev/null"), 1);
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

// Result lines name a case by its path (what serve writes now) or by its
// older test name (files written before): both read as the same case.
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

  // matrix.sh with only the reference and the browser file (no node needed).
  const std::string build = fs::path(tool).parent_path().parent_path().string();
  const std::string script = h::shell_quote((source_dir / "tools/adapters/matrix.sh").string());
  const std::string env = "ADAPTERS= JOBS=1 CASES=" + h::shell_quote((dir_ / "cases").string()) + " ";
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
