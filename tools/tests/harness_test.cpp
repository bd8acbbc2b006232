// SPDX-License-Identifier: MIT
// Tests of the harness behind `sse-conform run` (tools/docs/run.md): every
// outcome is provoked by a deliberately broken adapter
// (tools/tests/broken-adapters/broken_adapter.py, which forwards to the
// reference adapter and breaks in one chosen way). The command line's exit
// statuses and reports, run as a user runs the built tool, are in
// harness_cli_test.cpp.
#include <gtest/gtest.h>

#include "harness_fixture.hpp"

namespace {

using namespace harness_test;  // the fixture, the tool and the small case files

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
  // so a real hang is killed promptly: the budget it was given is asserted,
  // not the wall clock (which counts the Python adapter's restarts under load).
  h::run_options o;
  o.timeout.base = 1500ms;
  const auto r = run(broken("hang", "--on A2B3"), o);
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

// An adapter that answers a request twice. Its extra
// answer names the request it belongs to: that request's case is the
// adapter's error, and the next request still gets its own answer.
TEST_F(harness, an_extra_answer_is_blamed_on_the_request_it_names_not_on_the_next) {
  h::run_options o;
  o.impl = broken("twice", "--on E6F7");
  o.plan = *conf::parse_chunking_plan("whole");
  o.hello_timeout = slow_start_hello;
  const auto r = h::run_cases(h::select_cases(loaded_->value, {}), o);
  ASSERT_EQ(r.setup_error, "");
  const auto& twice = find(r, "E6F7");
  EXPECT_EQ(twice.outcome, h::outcome::error);
  EXPECT_NE(twice.reason.find("answered request \"wire/basics/E6F7@whole\" more than once"), std::string::npos)
      << twice.reason;
  EXPECT_EQ(find(r, "G7H8").outcome, h::outcome::pass) << find(r, "G7H8").reason;  // the next request
  EXPECT_EQ(find(r, "A2B3").outcome, h::outcome::pass);
  EXPECT_EQ(h::exit_status(r, false), 1);

  // The last request of a session: the extra answer comes after it, at the end.
  o.impl = broken("twice", "--on G7H8");
  const auto last = h::run_cases(h::select_cases(loaded_->value, {}), o);
  EXPECT_EQ(find(last, "G7H8").outcome, h::outcome::error) << find(last, "G7H8").reason;
  EXPECT_EQ(find(last, "E6F7").outcome, h::outcome::pass);

  // Within one case: the extra answer to `whole` never passes for `bytes`'s.
  const auto inside = run(broken("twice", "--on A2B3"));
  EXPECT_EQ(find(inside, "A2B3").outcome, h::outcome::error) << find(inside, "A2B3").reason;
  EXPECT_NE(find(inside, "A2B3").reason.find("more than once"), std::string::npos);
  EXPECT_EQ(find(inside, "C4D5").outcome, h::outcome::pass) << find(inside, "C4D5").reason;
}

// Pipelining (adapter-protocol.md): an adapter whose hello says
// max_in_flight gets several requests before it answers the first; one
// without it gets them one at a time; the results are the same.
TEST_F(harness, pipelining_sends_several_requests_and_changes_no_result) {
  const fs::path record = dir_ / "inflight.txt";
  const auto piped = run(broken("inflight", "--record " + h::shell_quote(record.string())));
  ASSERT_EQ(piped.setup_error, "");
  std::ifstream in(record);
  std::size_t most = 0;
  in >> most;
  EXPECT_GT(most, 1u) << "the harness never had more than one request in flight";

  const auto one_by_one = run(broken("noflight"));
  h::run_options o;
  o.max_in_flight = 1;
  const auto capped = run(reference, o);
  const auto reference_run = run(reference);
  EXPECT_EQ(reference_run.adapter.max_in_flight, static_cast<std::size_t>(ssec::adapter_max_in_flight));
  EXPECT_EQ(one_by_one.adapter.max_in_flight, 1u);
  for (const auto* other : {&one_by_one, &capped, &piped}) {
    ASSERT_EQ(other->cases.size(), reference_run.cases.size());
    for (std::size_t i = 0; i < reference_run.cases.size(); ++i) {
      EXPECT_EQ(other->cases[i].outcome, reference_run.cases[i].outcome) << other->cases[i].path;
      EXPECT_EQ(other->cases[i].chunkings_run, reference_run.cases[i].chunkings_run) << other->cases[i].path;
    }
  }
  EXPECT_NE(run(broken("badflight")).setup_error.find("max_in_flight"), std::string::npos);
}

// --shard K/N splits by case id, stably; the N shards
// together are the unsharded selection, each case in exactly one.
TEST_F(harness, shards_partition_the_selection) {
  const auto all = h::select_cases(loaded_->value, {});
  for (const std::uint64_t n : {1u, 2u, 3u, 4u, 7u}) {
    std::vector<const conf::test_case*> together;
    for (std::uint64_t k = 1; k <= n; ++k) {
      h::selection s;
      s.part = h::shard{k, n};
      for (const auto* c : h::select_cases(loaded_->value, s)) together.push_back(c);
    }
    std::sort(together.begin(), together.end());
    auto expected = all;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(together, expected) << n << " shards";
  }
  EXPECT_EQ(h::shard_from_string("2/4")->name(), "2/4");
  for (const char* bad : {"0/4", "5/4", "4", "1/0", "a/b", "1/4x", ""}) {
    EXPECT_FALSE(h::shard_from_string(bad)) << bad;
  }
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
  // A timeout is named in a comment, never listed: the file read back lists
  // only the failure, so the case is not stale once it finishes in time.
  for (auto& c : r.cases) {
    if (c.path == "wire/basics/G7H8") c.outcome = h::outcome::timeout;
  }
  const std::string written = h::write_baseline(r.cases, false);
  EXPECT_EQ(written,
            "# sse-conform baseline 1\nwire/basics/A2B3  # fail\n"
            "# Timed out, so not known failures (not listed; run them again, or raise --timeout-ms):\n"
            "#   wire/basics/G7H8\n");
  const auto read_back = h::parse_baseline(written, "b.txt");
  ASSERT_TRUE(read_back) << read_back.error().to_string();
  EXPECT_EQ(read_back->paths.size(), 1u);

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

}  // namespace
