// SPDX-License-Identifier: MIT
// The chunkings, the guarded reference run, the failure report, the
// capabilities a case needs and the summary table.
#include <gtest/gtest.h>

#include <sstream>

#include "sse/chunking.hpp"
#include "sse/recording.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/conformance/summary.hpp"

namespace {

namespace conf = ssec::conformance;

conf::test_case make_case(std::string input, std::vector<std::size_t> written, const std::string& log) {
  conf::test_case c;
  c.id = "T3ST";
  c.name = "a test case";
  c.topic = "unit";
  c.where = {"cases/unit.yaml", 7};
  c.input = std::move(input);
  c.written_chunks = std::move(written);
  auto parsed = conf::parse_log(log);
  EXPECT_TRUE(parsed.ok()) << (parsed ? "" : parsed.error().to_string());
  if (parsed) {
    c.events = parsed->lines;
    for (const auto l : parsed->text_lines) c.event_lines.push_back(20 + l);
  }
  return c;
}

std::string joined(const std::vector<std::string_view>& chunks) {
  std::string out;
  for (const auto c : chunks) out += c;
  return out;
}

TEST(chunkings, default_plan_runs_whole_written_bytes_every_split_and_8_random) {
  const auto c = make_case("data: abc\n", {6, 4}, "");
  const auto all = conf::chunkings_for(c, conf::chunking_plan{});
  ASSERT_EQ(all.size(), 1u + 1u + 1u + 11u + 8u);
  EXPECT_EQ(all[0].name(), "whole");
  EXPECT_EQ(all[1].name(), "as-written");
  EXPECT_EQ(all[2].name(), "bytes");
  EXPECT_EQ(all[3].name(), "split@0");
  EXPECT_EQ(all[13].name(), "split@10");
  EXPECT_TRUE(all[14].name().starts_with("random(seed="));
  for (const auto& k : all) EXPECT_EQ(joined(conf::chunks_of(c, k)), c.input) << k.name();
  EXPECT_EQ(conf::chunks_of(c, all[1]), (std::vector<std::string_view>{"data: ", "abc\n"}));
  EXPECT_EQ(conf::chunks_of(c, all[2]).size(), 10u);
  EXPECT_EQ(conf::chunks_of(c, all[3]), (std::vector<std::string_view>{"", "data: abc\n"}));
}

TEST(chunkings, no_scan_and_size_limit_drop_the_split_scan) {
  auto c = make_case("data: abc\n", {10}, "");
  c.no_scan = "reason";
  EXPECT_EQ(conf::chunkings_for(c, conf::chunking_plan{}).size(), 1u + 1u + 8u);
  auto big = make_case(std::string(4097, 'x'), {4097}, "");
  EXPECT_EQ(conf::chunkings_for(big, conf::chunking_plan{}).size(), 1u + 1u + 8u);
  auto edge = make_case(std::string(4096, 'x'), {4096}, "");
  EXPECT_EQ(conf::chunkings_for(edge, conf::chunking_plan{}).size(), 1u + 1u + 4097u + 8u);
}

TEST(chunkings, random_seeds_are_reproducible_and_differ_between_cases) {
  auto a = make_case(std::string(500, 'x'), {500}, "");
  auto b = a;
  b.id = "T4ST";
  const auto first = conf::chunkings_for(a, conf::chunking_plan{});
  const auto again = conf::chunkings_for(a, conf::chunking_plan{});
  const auto other = conf::chunkings_for(b, conf::chunking_plan{});
  ASSERT_EQ(first.size(), other.size());
  EXPECT_EQ(first.back().parameter, again.back().parameter);
  EXPECT_NE(first.back().parameter, other.back().parameter);
  // The name is the seed sse::chunking::random takes (`sse-conform parse --split-seed`).
  const auto& k = first.back();
  EXPECT_EQ(k.name(), "random(seed=" + std::to_string(k.parameter) + ")");
  EXPECT_EQ(conf::chunks_of(a, k), sse::chunking::random(a.input, k.parameter));
}

TEST(chunkings, plans_parse_from_text) {
  auto plan = conf::parse_chunking_plan("whole,bytes,random:3");
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->whole);
  EXPECT_TRUE(plan->bytes);
  EXPECT_FALSE(plan->as_written);
  EXPECT_FALSE(plan->every_split);
  EXPECT_EQ(plan->random_count, 3u);
  plan = conf::parse_chunking_plan("all");
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->every_split);
  EXPECT_EQ(plan->random_count, 8u);
  const auto halves = conf::parse_chunking_plan("whole,halves");
  ASSERT_FALSE(halves);
  EXPECT_NE(halves.error().message.find("unknown chunking `halves`"), std::string::npos);
  EXPECT_FALSE(conf::parse_chunking_plan("random:x"));
}

TEST(run_reference, agrees_with_record_parse) {
  const std::vector<std::string> inputs{
      "", "data: a\r\n\r\n", std::string("\xEF\xBB\xBF") + "data: \xFF\n\nid: 1\nretry: 7\n: c\nx\n\ndata: tail",
      "data: a\rdata: b\r\r", std::string(5000, 'y') + "\n\n"};
  for (const auto& input : inputs) {
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
      const auto chunks = sse::chunking::fixed(input, size);
      EXPECT_EQ(conf::run_reference(chunks, {}), sse::record_parse(chunks)) << input;
    }
  }
  sse::limits small;
  small.max_line = 4;
  const auto chunks = sse::chunking::bytes("data: a\n\n");
  const auto rec = conf::run_reference(chunks, small);
  EXPECT_EQ(rec, sse::record_parse(chunks, small));
  EXPECT_EQ(rec.status, sse::errc::line_too_long);
}

TEST(check_reference, passes_a_correct_case) {
  const auto c = make_case("data: a\r\n\r\nretry: 5\n", {3, 17},
                           "event type=\"message\" data=\"a\" last_id=\"\"\nretry 5\ndiag discarded_at_eof off=11\n");
  EXPECT_FALSE(conf::check_reference(c, conf::chunking_plan{}));
}

TEST(check_reference, reports_a_wrong_expectation_with_everything_needed) {
  const auto c = make_case("data: a\ndata: b\n\n", {17}, "event type=\"message\" data=\"a\" last_id=\"\"\n");
  const auto failure = conf::check_reference(c, conf::chunking_plan{});
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->which.name(), "whole");
  EXPECT_EQ(failure->failing, failure->total);
  EXPECT_EQ(failure->total, 1u + 1u + 18u + 8u);
  const std::string text = conf::describe(c, *failure);
  EXPECT_NE(text.find("case T3ST \"a test case\" at cases/unit.yaml:7 (layer wire, verdict must)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("chunking whole (28 of 28 chunkings fail): 1 chunks [\"data: a\\ndata: b\\n\\n\"]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("expected line written at cases/unit.yaml:20"), std::string::npos) << text;
  EXPECT_NE(text.find("  expected: event type=\"message\" data=\"a\" last_id=\"\""), std::string::npos) << text;
  EXPECT_NE(text.find("  got:      event type=\"message\" data=\"a\\nb\" last_id=\"\""), std::string::npos) << text;
}

TEST(check_reference, uses_the_case_limits) {
  auto c = make_case("data: abcdef\n\n", {14}, "error line_too_long off=8\n");
  c.limits = sse::limits{8, 100};
  EXPECT_FALSE(conf::check_reference(c, conf::chunking_plan{}));
  c.limits.reset();
  EXPECT_TRUE(conf::check_reference(c, conf::chunking_plan{}));
}

TEST(check_reference, describes_long_chunk_lists_briefly) {
  std::vector<std::string_view> many(10000, "x");
  const std::string text = conf::describe_chunks(many, 100);
  EXPECT_LT(text.size(), 200u);
  EXPECT_NE(text.find("(10000 chunks in all)"), std::string::npos);
}

TEST(capabilities, come_from_the_input_and_the_expected_log) {
  auto plain = make_case("data: a\n\n", {9}, "event type=\"message\" data=\"a\" last_id=\"\"\n");
  EXPECT_TRUE(conf::required_capabilities(plain).empty());
  auto crlf = make_case("data: a\r\n\r\n", {11}, "event type=\"message\" data=\"a\" last_id=\"\"\n");
  EXPECT_TRUE(conf::required_capabilities(crlf).empty());
  static constexpr char bytes[] =
      "\xEF\xBB\xBF"
      "id: 1\rdata: \xFF\0\n\n";
  auto all = make_case(std::string(bytes, sizeof bytes - 1), {sizeof bytes - 1},
                       "event type=\"message\" data=\"\\uFFFD\\0\" last_id=\"1\"\nretry 5\n");
  all.needs = {"bom"};
  EXPECT_EQ(conf::required_capabilities(all),
            (std::vector<std::string>{"bom", "cr", "last-event-id", "nul", "retry", "utf8-repair"}));
}

TEST(summary, counts_cases_per_layer_verdict_and_tag) {
  std::vector<conf::test_case> cases(3);
  cases[0].tags = {"bom", "eof"};
  cases[1].tags = {"bom"};
  cases[1].verdict = conf::verdict::impl;
  cases[2].tags = {"frame-shape"};
  cases[2].layer = conf::layer::chat;
  conf::tag_list tags;
  tags.descriptions = {{"bom", ""}, {"eof", ""}, {"frame-shape", ""}, {"unused", ""}};
  std::ostringstream out;
  conf::print_summary(out, cases, &tags);
  const std::string want =
      "layer     cases  must  should  impl\n"
      "wire          2     1       0     1\n"
      "chat          1     1       0     0\n"
      "code          0     0       0     0\n"
      "agent         0     0       0     0\n"
      "workflow      0     0       0     0\n"
      "total         3     2       0     1\n"
      "\n"
      "tag          wire  chat  code  agent  workflow  total\n"
      "bom             2     0     0      0         0      2\n"
      "eof             1     0     0      0         0      1\n"
      "frame-shape     0     1     0      0         0      1\n"
      "unused          0     0     0      0         0      0\n";
  EXPECT_EQ(out.str(), want);
}

}  // namespace
