// SPDX-License-Identifier: MIT
// The event log: its grammar, its canonical form, and the comparison shared
// by the reference runner and the adapter harness.
#include <gtest/gtest.h>

#include "sse/recording.hpp"
#include "ssec/conformance/log.hpp"

namespace {

namespace conf = ssec::conformance;

conf::event_log parse_ok(std::string_view text) {
  auto parsed = conf::parse_log(text);
  if (!parsed) {
    ADD_FAILURE() << parsed.error().to_string();
    return {};
  }
  return parsed->lines;
}

ssec::error parse_bad(std::string_view text) {
  auto parsed = conf::parse_log(text);
  EXPECT_FALSE(parsed.ok()) << text;
  if (!parsed) return parsed.error();
  return {};
}

conf::log_event ev(std::string type, std::string data, std::string id = {}) {
  return conf::log_event{sse::event(std::move(type), std::move(data), std::move(id))};
}

TEST(log, parses_every_kind_of_line) {
  const auto log = parse_ok(
      "# a comment line, then a blank one\n"
      "\n"
      "event type=\"message\" data=\"a\\nb\" last_id=\"7\"\n"
      "  retry 3000\n"
      "comment \" keep-alive\"\n"
      "diag unknown_field off=12\n"
      "error line_too_long off=16\n"
      "last_id \"7\"\n");
  ASSERT_EQ(log.size(), 6u);
  EXPECT_EQ(log[0], conf::log_line(ev("message", "a\nb", "7")));
  EXPECT_EQ(log[1], conf::log_line(conf::log_retry{3000}));
  EXPECT_EQ(log[2], conf::log_line(conf::log_comment{" keep-alive"}));
  EXPECT_EQ(log[3], conf::log_line(conf::log_diag{sse::diag::unknown_field, 12}));
  EXPECT_EQ(log[4], conf::log_line(conf::log_error{sse::errc::line_too_long, 16}));
  EXPECT_EQ(log[5], conf::log_line(conf::log_last_id{"7"}));
  const auto parsed = conf::parse_log("\n\nretry 1\n");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->text_lines, std::vector<std::size_t>{2});
}

TEST(log, reads_escapes_and_repeats) {
  const auto log = parse_ok(
      "event type=\"\" data=\"\\\"\\\\\\r\\t\\0\\u00E9\\uFEFF\\U0001F600\" last_id=\"\"\n"
      "comment \"ab\"*3 + \"c\" + \"\"*5 + \"d\"*0\n");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(std::get<conf::log_event>(log[0]).event.data,
            std::string("\"\\\r\t") + std::string(1, '\0') + "\xC3\xA9\xEF\xBB\xBF\xF0\x9F\x98\x80");
  EXPECT_EQ(std::get<conf::log_comment>(log[1]).text, "abababc");
}

// Many repeats in one log are bounded as a whole, before
// each is built, so a case file of sixty `"x"*200000000` lines is refused
// without allocating them.
TEST(log, the_values_of_a_whole_log_are_bounded_before_they_are_built) {
  const std::string line = "comment \"ab\"*300\n";
  const auto three = conf::parse_log(line + line + line, 1800);
  ASSERT_TRUE(three.ok()) << three.error().to_string();
  EXPECT_EQ(three->bytes, 1800u);
  const auto four = conf::parse_log(line + line + line + line, 1800);
  ASSERT_FALSE(four.ok());
  EXPECT_EQ(four.error().line, 4u);
  EXPECT_NE(four.error().message.find("the log's values would build more than 1800 bytes"), std::string::npos)
      << four.error().message;
}

TEST(log, rejects_what_is_not_in_the_grammar) {
  EXPECT_NE(parse_bad("evnt type=\"a\"").message.find("unknown line"), std::string::npos);
  EXPECT_NE(parse_bad("event data=\"a\" type=\"b\" last_id=\"\"").message.find("`type=`"), std::string::npos);
  EXPECT_NE(parse_bad("event type=\"a\" data=\"b\"").message.find("`last_id=`"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"a\" x").message.find("unexpected text"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"a").message.find("unterminated"), std::string::npos);
  EXPECT_NE(parse_bad("comment a").message.find("double-quoted"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\ta\"").message.find("printable ASCII"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\xC3\xA9\"").message.find("printable ASCII"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\\xFF\"").message.find("\\u00NN"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\\q\"").message.find("unknown escape"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\\uD800\"").message.find("scalar value"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"\\u12\"").message.find("hex digits"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"a\"*").message.find("repeat count"), std::string::npos);
  EXPECT_NE(parse_bad("comment \"ab\"*999999999999").message.find("256 MiB"), std::string::npos);
  EXPECT_NE(parse_bad("retry -1").message.find("decimal number"), std::string::npos);
  EXPECT_NE(parse_bad("retry 99999999999999999999").message.find("64 bits"), std::string::npos);
  EXPECT_NE(parse_bad("diag no_such_thing off=1").message.find("unknown diagnostic"), std::string::npos);
  EXPECT_NE(parse_bad("error invalid_utf8 off=1").message.find("not a fatal"), std::string::npos);
  EXPECT_NE(parse_bad("diag unknown_field at=1").message.find("`off=`"), std::string::npos);
  EXPECT_NE(parse_bad("rejected").message.find("unknown line"), std::string::npos);
  const auto after_last_id = parse_bad("last_id \"\"\nretry 1\n");
  EXPECT_EQ(after_last_id.line, 2u);  // 1-based, as every ssec::error
  EXPECT_EQ(after_last_id.column, 1u);
  EXPECT_NE(after_last_id.message.find("follow the `last_id`"), std::string::npos);
  EXPECT_NE(parse_bad("error line_too_long off=1\nretry 1\n").message.find("follow an `error`"), std::string::npos);
  EXPECT_EQ(parse_ok("error line_too_long off=1\nlast_id \"x\"\n").size(), 2u);
  const auto where = parse_bad("retry 1\n  comment \"a\" x\n");
  EXPECT_EQ(where.line, 2u);     // 1-based: the second line
  EXPECT_EQ(where.column, 15u);  // 1-based: the `x` after two spaces and `comment "a" `
  EXPECT_TRUE(where.file.empty());
}

TEST(log, quote_escapes_every_invisible_character) {
  EXPECT_EQ(conf::quote(""), "\"\"");
  EXPECT_EQ(conf::quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(conf::quote(std::string("\n\r\t\x01\x7F", 5) + std::string(1, '\0')), "\"\\n\\r\\t\\u0001\\u007F\\0\"");
  EXPECT_EQ(conf::quote("\xEF\xBB\xBF\xE2\x80\xA8\xC2\x85\xEF\xBF\xBD"), "\"\\uFEFF\\u2028\\u0085\\uFFFD\"");
  EXPECT_EQ(conf::quote("\xF0\x9F\x98\x80"), "\"\\U0001F600\"");
  EXPECT_EQ(conf::quote("a\xFF"
                        "b\xE2\x82"),
            "\"a\\xFFb\\xE2\\x82\"");
}

TEST(log, quote_writes_long_runs_as_repeats) {
  EXPECT_EQ(conf::quote(std::string(63, 'x')), "\"" + std::string(63, 'x') + "\"");
  EXPECT_EQ(conf::quote(std::string(64, 'x')), "\"x\"*64");
  EXPECT_EQ(conf::quote("head" + std::string(100000, 'x') + "tail"), "\"head\" + \"x\"*100000 + \"tail\"");
  std::string lines;
  for (int i = 0; i < 1000; ++i) lines += "line\n";
  EXPECT_EQ(conf::quote(lines), "\"line\\n\"*1000");
  std::string euros;
  for (int i = 0; i < 30; ++i) euros += "\xE2\x82\xAC";
  EXPECT_EQ(conf::quote(euros), "\"\\u20AC\"*30");
}

TEST(log, every_canonical_line_reads_back_to_itself) {
  std::string binary_data;
  for (int b = 0; b < 0x80; ++b) binary_data.push_back(static_cast<char>(b));
  binary_data += "\xC2\x80\xEF\xBF\xBF\xF4\x8F\xBF\xBF" + std::string(5000, 'y') + "end";
  const conf::event_log lines{
      ev("message", binary_data, "id\n"),
      conf::log_retry{0},
      conf::log_retry{18446744073709551615ULL},
      conf::log_comment{""},
      conf::log_diag{sse::diag::discarded_at_eof, 0},
      conf::log_error{sse::errc::event_too_large, 99},
      conf::log_last_id{"\xE2\x80\xA9"},
  };
  const std::string text = conf::format_log(lines);
  EXPECT_EQ(parse_ok(text), lines) << text;
  EXPECT_EQ(conf::format_log(parse_ok(text)), text);
}

TEST(log, reference_log_lists_everything_recorded) {
  const auto rec = sse::record_parse(std::string_view(": hi\nid: 1\ndata: a\nretry: 5\nfoo\n\ndata: b"));
  const conf::event_log want{ev("message", "a", "1"),
                             conf::log_retry{5},
                             conf::log_comment{" hi"},
                             conf::log_diag{sse::diag::unknown_field, 28},
                             conf::log_diag{sse::diag::discarded_at_eof, 33},
                             conf::log_last_id{"1"}};
  EXPECT_EQ(conf::reference_log(rec), want) << conf::format_log(conf::reference_log(rec));
}

TEST(log, reference_view_implies_the_final_last_id) {
  EXPECT_EQ(conf::reference_view({}), conf::event_log{conf::log_last_id{""}});
  EXPECT_EQ(conf::reference_view({ev("m", "a", "1"), ev("m", "b", "2")}),
            (conf::event_log{ev("m", "a", "1"), ev("m", "b", "2"), conf::log_last_id{"2"}}));
  const conf::event_log explicit_id{ev("m", "a", "1"), conf::log_last_id{""}};
  EXPECT_EQ(conf::reference_view(explicit_id), explicit_id);
}

TEST(log, external_view_keeps_events_and_the_final_retry) {
  const conf::event_log expected{
      conf::log_retry{1}, ev("m", "a"), conf::log_comment{"x"}, conf::log_diag{sse::diag::invalid_retry, 3},
      conf::log_retry{2}, ev("m", "b"), conf::log_last_id{""}};
  EXPECT_EQ(conf::external_view(expected), (conf::event_log{ev("m", "a"), ev("m", "b"), conf::log_retry{2}}));
  EXPECT_EQ(conf::external_view({ev("m", "a"), conf::log_error{sse::errc::line_too_long, 3}}),
            conf::event_log{conf::log_rejected{}});
}

TEST(log, equal_logs_agree_whatever_the_interleaving) {
  const conf::event_log expected{ev("m", "a"), conf::log_retry{5}, conf::log_comment{"c"}, ev("m", "b")};
  const conf::event_log got{ev("m", "a"), ev("m", "b"), conf::log_retry{5}, conf::log_comment{"c"}};
  EXPECT_FALSE(conf::compare_logs(expected, got));
}

TEST(log, finds_the_first_differing_line) {
  const conf::event_log expected{ev("m", "a"), conf::log_retry{5}, ev("m", "hello world")};
  const auto diff = conf::compare_logs(expected, {ev("m", "a"), ev("m", "hello there"), conf::log_retry{5}});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->index, 2u);
  EXPECT_EQ(diff->expected_line, "event type=\"m\" data=\"hello world\" last_id=\"\"");
  EXPECT_EQ(diff->got_line, "event type=\"m\" data=\"hello there\" last_id=\"\"");
  EXPECT_EQ(diff->detail,
            "data differs at byte 6 (expected 11 bytes, got 11 bytes): expected \"hello world\", got \"hello there\"");
  EXPECT_EQ(diff->got_arranged.size(), 3u);
  // One byte is "1 byte".
  const auto one = conf::compare_logs({ev("m", "message")}, {ev("m", "y")});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->detail, "data differs at byte 0 (expected 7 bytes, got 1 byte): expected \"message\", got \"y\"");
  const std::string text = conf::describe(*diff, expected);
  EXPECT_NE(text.find("first difference at log line 3"), std::string::npos) << text;
  EXPECT_NE(text.find("> event type=\"m\" data=\"hello there\""), std::string::npos) << text;
}

TEST(log, reports_missing_and_extra_lines) {
  auto diff = conf::compare_logs({ev("m", "a"), ev("m", "b"), conf::log_retry{1}}, {ev("m", "a"), conf::log_retry{1}});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->index, 1u);
  EXPECT_EQ(diff->got_line, "(no such line)");
  diff = conf::compare_logs({ev("m", "a")}, {ev("m", "a"), conf::log_comment{"x"}});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->index, 1u);
  EXPECT_EQ(diff->expected_line, "(end of log)");
  EXPECT_EQ(diff->got_line, "comment \"x\"");
  diff = conf::compare_logs({ev("m", "a"), ev("t", "a")}, {ev("m", "a")});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->got_line, "(no such line)");
  diff = conf::compare_logs({ev("m", "a"), conf::log_retry{1}}, {ev("m", "a")});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->got_line, "(no such line)");
  EXPECT_EQ(diff->expected_line, "retry 1");
  diff = conf::compare_logs({ev("m", "a", "1")}, {ev("m", "a", "2")});
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->detail.find("last_id differs at byte 0"), std::string::npos);
  diff =
      conf::compare_logs({conf::log_diag{sse::diag::unknown_field, 3}}, {conf::log_diag{sse::diag::unknown_field, 4}});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->got_line, "diag unknown_field off=4");
}

TEST(log, compares_huge_values_without_printing_them_whole) {
  const std::string big(3 << 20, 'x');
  std::string other = big;
  other[2000000] = 'y';
  const auto diff = conf::compare_logs({ev("message", big)}, {ev("message", other)});
  ASSERT_TRUE(diff);
  EXPECT_LT(diff->expected_line.size(), 100u);
  EXPECT_NE(diff->got_line.find("\"x\"*2000000 + \"y\" + \"x\"*1145727"), std::string::npos) << diff->got_line;
  EXPECT_NE(diff->detail.find("data differs at byte 2000000"), std::string::npos);
}

TEST(log, compares_external_answers) {
  const conf::event_log expected{ev("message", "a", "1"), conf::log_retry{10},
                                 conf::log_diag{sse::diag::unknown_field, 3}, conf::log_comment{"x"},
                                 conf::log_last_id{"9"}};
  conf::external_result ok{{sse::event("message", "a", "1")}, 10, std::nullopt};
  EXPECT_FALSE(conf::compare_external(expected, ok));
  conf::external_result no_retry{{sse::event("message", "a", "1")}, std::nullopt, std::nullopt};
  auto diff = conf::compare_external(expected, no_retry);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->expected_line, "retry 10");
  conf::external_result rejected{{}, std::nullopt, "line_too_long at byte 3"};
  diff = conf::compare_external(expected, rejected);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->got_line, "rejected \"line_too_long at byte 3\"");
  EXPECT_FALSE(conf::compare_external({conf::log_error{sse::errc::line_too_long, 3}}, rejected));
  diff = conf::compare_external({conf::log_error{sse::errc::line_too_long, 3}}, ok);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->expected_line, "rejected");
}

}  // namespace
