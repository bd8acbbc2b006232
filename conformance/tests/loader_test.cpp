// SPDX-License-Identifier: MIT
// The case loader: what it accepts, and that everything it must refuse is
// refused with the file, the line and the reason.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ssec/conformance/loader.hpp"

namespace {

namespace conf = ssec::conformance;

conf::tag_list test_tags() {
  conf::tag_list tags;
  tags.descriptions = {{"bom", "x"}, {"line-endings", "x"}, {"limits", "x"}};
  return tags;
}

ssec::load_result<std::vector<conf::test_case>> load(const std::string& text) {
  return conf::load_cases_from_text(text, "cases/t.yaml", "t", test_tags());
}

// A valid case; tests change one thing in it.
const std::string valid =
    "- id: K7P2\n"  // line 1
    "  name: CRLF split across chunks ends one line\n"
    "  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation\n"
    "  tags: [line-endings]\n"
    "  verdict: must\n"  // line 5
    "  layer: wire\n"
    "  input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]\n"
    "  events: |\n"
    "    event type=\"message\" data=\"a\\nb\" last_id=\"\"\n";  // line 9

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Expects exactly one error, at `line`, whose message contains `words`.
void expect_one_error(const ssec::load_result<std::vector<conf::test_case>>& r, std::size_t line,
                      const std::string& words) {
  ASSERT_EQ(r.errors.size(), 1u) << r.error_text();
  EXPECT_EQ(r.errors[0].file, "cases/t.yaml");
  EXPECT_EQ(r.errors[0].line, line) << r.error_text();
  EXPECT_NE(r.errors[0].message.find(words), std::string::npos) << r.error_text();
  EXPECT_TRUE(r.value.empty());
}

TEST(loader, reads_a_valid_case) {
  const auto r = load(valid);
  ASSERT_TRUE(r.ok()) << r.error_text();
  ASSERT_EQ(r.value.size(), 1u);
  const auto& c = r.value[0];
  EXPECT_EQ(c.id, "K7P2");
  EXPECT_EQ(c.name, "CRLF split across chunks ends one line");
  EXPECT_EQ(c.from.size(), 1u);
  EXPECT_EQ(c.tags, std::vector<std::string>{"line-endings"});
  EXPECT_EQ(c.verdict, conf::verdict::must);
  EXPECT_EQ(c.layer, conf::layer::wire);
  EXPECT_EQ(c.input, "data: a\r\ndata: b\r\n\r\n");
  EXPECT_EQ(c.written_chunks, (std::vector<std::size_t>{8, 12}));
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(std::get<conf::log_event>(c.events[0]).event, sse::event("message", "a\nb", ""));
  EXPECT_EQ(c.event_lines, std::vector<std::size_t>{9});
  EXPECT_EQ(c.where.to_string(), "cases/t.yaml:1");
  EXPECT_EQ(c.test_name(), "t_K7P2");
}

TEST(loader, reads_hex_base64_and_repeat_chunks) {
  auto text = replace(valid, "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]",
                      "input: [{hex: \"EF BB bf\"}, {base64: \"ZGF0YTog\"}, {repeat: \"ab\", times: 3}, "
                      "\"\\0\\uFEFF\\U0001F600\\x7F\"]");
  const auto r = load(text);
  ASSERT_TRUE(r.ok()) << r.error_text();
  EXPECT_EQ(r.value[0].input, std::string("\xEF\xBB\xBF"
                                          "data: ababab") +
                                  std::string(1, '\0') + "\xEF\xBB\xBF\xF0\x9F\x98\x80\x7F");
  EXPECT_EQ(r.value[0].written_chunks, (std::vector<std::size_t>{3, 6, 6, 9}));
}

// The input is built once the whole case has loaded: a lone repeat, a lone
// chunk and a repeat between chunks give the same bytes as written.
TEST(loader, builds_a_lone_repeat_and_a_repeat_between_chunks) {
  const std::string input = "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]";
  auto r = load(replace(valid, input, "input: [{repeat: \"data: x\\n\\n\", times: 4}]"));
  ASSERT_TRUE(r.ok()) << r.error_text();
  EXPECT_EQ(r.value[0].input, "data: x\n\ndata: x\n\ndata: x\n\ndata: x\n\n");
  EXPECT_EQ(r.value[0].written_chunks, std::vector<std::size_t>{36});
  r = load(replace(valid, input, "input: [\"data: \", {repeat: \"ab\", times: 2}, \"\\n\\n\"]"));
  ASSERT_TRUE(r.ok()) << r.error_text();
  EXPECT_EQ(r.value[0].input, "data: abab\n\n");
  EXPECT_EQ(r.value[0].written_chunks, (std::vector<std::size_t>{6, 4, 2}));
}

TEST(loader, finds_chunk_quotes_after_non_ascii_text) {
  // The double-quote check reads the file at yaml-cpp's byte positions.
  const auto r =
      load(replace(valid, "  name: CRLF", "  note: \"h\xC3\xA9llo \xE2\x80\xA6 \xF0\x9F\x98\x80\"\n  name: CRLF"));
  ASSERT_TRUE(r.ok()) << r.error_text();
  EXPECT_EQ(r.value[0].note, "h\xC3\xA9llo \xE2\x80\xA6 \xF0\x9F\x98\x80");
}

TEST(loader, reads_input_hex_and_input_base64) {
  auto hex =
      load(replace(valid, "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]", "input_hex: [\"64 61\", \"3A0a\"]"));
  ASSERT_TRUE(hex.ok()) << hex.error_text();
  EXPECT_EQ(hex.value[0].input, "da:\n");
  EXPECT_EQ(hex.value[0].written_chunks, (std::vector<std::size_t>{2, 2}));
  auto b64 = load(replace(valid, "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]", "input_base64: \"/w==\""));
  ASSERT_TRUE(b64.ok()) << b64.error_text();
  EXPECT_EQ(b64.value[0].input, "\xFF");
}

TEST(loader, rejects_an_unknown_key) { expect_one_error(load(valid + "  evnts: x\n"), 10, "unknown key `evnts`"); }

TEST(loader, rejects_a_missing_field) {
  expect_one_error(load(replace(valid, "  verdict: must\n", "")), 1, "missing required key `verdict`");
}

TEST(loader, rejects_two_inputs_or_none) {
  expect_one_error(load(valid + "  input_hex: \"00\"\n"), 1, "exactly one of `input`");
  expect_one_error(load(replace(valid, "  input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]\n", "")), 1,
                   "exactly one of `input`");
}

TEST(loader, rejects_a_duplicate_key) {
  expect_one_error(load(valid + "  name: again\n"), 10, "duplicate key `name` (first at line 2)");
}

TEST(loader, rejects_a_duplicate_id_in_a_file) {
  const auto r = load(valid + valid);
  ASSERT_EQ(r.errors.size(), 1u) << r.error_text();
  EXPECT_EQ(r.errors[0].line, 10u);
  EXPECT_NE(r.errors[0].message.find("duplicate id `K7P2` (first at line 1)"), std::string::npos);
  EXPECT_EQ(r.value.size(), 1u);
}

TEST(loader, rejects_a_duplicate_id_across_files) {
  const auto dir = std::filesystem::temp_directory_path() / ("ssec_loader_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "a.yaml") << valid;
  std::ofstream(dir / "sub" / "b.yaml") << valid;
  std::ofstream(dir / "ignored.txt") << "not yaml";
  const auto r = conf::load_case_tree(dir, "cases", test_tags());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.errors.size(), 1u) << r.error_text();
  EXPECT_EQ(r.errors[0].to_string(), "cases/sub/b.yaml:1: duplicate id `K7P2` (first at cases/a.yaml:1)");
  ASSERT_EQ(r.value.size(), 1u);
  EXPECT_EQ(r.value[0].topic, "a");
}

TEST(loader, rejects_a_missing_directory) {
  const auto r = conf::load_case_tree("/nonexistent/ssec/cases", "cases", test_tags());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, "cases");
}

TEST(loader, rejects_a_tag_outside_the_list) {
  expect_one_error(load(replace(valid, "tags: [line-endings]", "tags: [line-endings, crlf]")), 4,
                   "tag `crlf` is not in spec/tags.yaml");
  expect_one_error(load(replace(valid, "tags: [line-endings]", "tags: []")), 4, "non-empty list");
}

TEST(loader, rejects_malformed_yaml) {
  const auto r = load(replace(valid, "tags: [line-endings]", "tags: [line-endings"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("malformed YAML"), std::string::npos) << r.error_text();
  EXPECT_GE(r.errors[0].line, 4u);
}

TEST(loader, rejects_files_that_are_not_a_list_of_cases) {
  expect_one_error(load(""), 1, "one YAML document");
  expect_one_error(load("id: K7P2\n"), 1, "one YAML document");
  expect_one_error(load(valid + "---\n" + valid), 10, "a second YAML document starts here");  // the `---` line
  expect_one_error(load("- just text\n"), 1, "must be a map");
  expect_one_error(load("\xEF\xBB\xBF" + valid), 1, "byte order mark");
}

// Found by sse_case_loader_fuzzer (corpus/regressions/sse_case_loader_fuzzer/
// yaml-cpp-loadall-endless-documents): on stray content that yaml-cpp 0.7 cannot
// place, its LoadAll returned endless empty documents until memory ran out
// (jbeder/yaml-cpp#1319). The loader must end, with an error at that content.
TEST(loader, stray_content_after_the_cases_is_an_error_not_an_endless_loop) {
  const auto r = load(valid + ",\n");
  ASSERT_FALSE(r.errors.empty());
  EXPECT_TRUE(r.value.empty());
  EXPECT_EQ(r.errors[0].line, 10u) << r.error_text();
}

TEST(loader, rejects_bad_ids) {
  for (const std::string id : {"K7P1", "K7PO", "ABCD", "2345", "k7p2", "K7P22", "K7P"}) {
    expect_one_error(load(replace(valid, "id: K7P2", "id: " + id)), 1, "must be 4 characters");
  }
  EXPECT_TRUE(conf::is_valid_case_id("Z9Z9"));
  EXPECT_TRUE(conf::is_valid_case_id("2AAA"));
}

TEST(loader, rejects_chunks_that_are_not_double_quoted) {
  expect_one_error(load(replace(valid, "[\"data: a\\r\",", "['data: a',")), 7, "double-quoted");
  expect_one_error(load(replace(valid, "[\"data: a\\r\",", "[data,")), 7, "double-quoted");
}

TEST(loader, rejects_escapes_that_do_not_mean_a_byte) {
  // In YAML "\xFF" is U+00FF (C3 BF), not the byte FF.
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data: \\xFF\"")), 7, "not a raw byte");
  // yaml-cpp 0.7 turns \N and \_ into single raw bytes.
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data: \\N\"")), 7, "\\u0085");
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data: \\_\"")), 7, "\\u00A0");
}

TEST(loader, rejects_chunks_with_invisible_or_folded_text) {
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data:\ta\"")), 7, "tab");
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data: \xC3\xA9\"")), 7, "non-ASCII");
  expect_one_error(load(replace(valid, "\"data: a\\r\"", "\"data:\n    a\"")), 7, "one line");
}

// A file's inputs are booked against its budget (128 MiB) before they are
// built: the third 48 MiB repeat is refused at its count, the first two
// having taken 96 MiB. Built as read, sixty such repeats take 3.8 GB from a
// 2.3 KB file.
TEST(loader, a_file_builds_at_most_its_budget_refused_at_the_repeat_that_crosses_it) {
  std::string text;
  const char* ids[] = {"K7P2", "K7P3", "K7P4"};
  for (const char* id : ids) {
    text += replace(replace(valid, "K7P2", id), "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]",
                    "input: [{repeat: \"a\", times: 50331648}]");
  }
  const auto r = load(text);
  ASSERT_EQ(r.errors.size(), 1u) << r.error_text();
  EXPECT_EQ(r.errors[0].file, "cases/t.yaml");
  EXPECT_EQ(r.errors[0].line, 25u);  // the third case's input line
  EXPECT_NE(r.errors[0].message.find("this repeat would build 48 MiB, more than the "), std::string::npos)
      << r.error_text();
  EXPECT_NE(r.errors[0].message.find(" left of this file's budget of 128 MiB"), std::string::npos) << r.error_text();
  EXPECT_EQ(r.value.size(), 2u);
}

// The budget is the caller's to give (the fuzzing harness gives 1 MiB): the
// same booking refuses a 2 MiB repeat that the default budget builds.
TEST(loader, a_smaller_budget_refuses_what_the_default_builds) {
  const std::string text = replace(valid, "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]",
                                   "input: [{repeat: \"ab\", times: 1048576}]");
  const auto built = conf::load_cases_from_text(text, "cases/t.yaml", "t", test_tags());
  ASSERT_TRUE(built.errors.empty()) << built.error_text();
  ASSERT_EQ(built.value.size(), 1u);
  EXPECT_EQ(built.value[0].input.size(), std::size_t{2} << 20);
  const auto refused = conf::load_cases_from_text(text, "cases/t.yaml", "t", test_tags(), std::uint64_t{1} << 20);
  ASSERT_EQ(refused.errors.size(), 1u) << refused.error_text();
  EXPECT_EQ(refused.errors[0].line, 7u);
  EXPECT_NE(refused.errors[0].message.find("this repeat would build 2 MiB, more than the 1 MiB left of this file's "
                                           "budget of 1 MiB"),
            std::string::npos)
      << refused.error_text();
  EXPECT_TRUE(refused.value.empty());
}

TEST(loader, rejects_bad_hex_base64_and_repeat) {
  const std::string input = "input: [\"data: a\\r\", \"\\ndata: b\\r\\n\\r\\n\"]";
  expect_one_error(load(replace(valid, input, "input: [{hex: \"E F\"}]")), 7, "pairs of hex digits");
  expect_one_error(load(replace(valid, input, "input: [{hex: \"GG\"}]")), 7, "pairs of hex digits");
  expect_one_error(load(replace(valid, input, "input: [{base64: \"a\"}]")), 7, "base64");
  expect_one_error(load(replace(valid, input, "input: [{repeat: \"a\", times: 0}]")), 7, "positive integer");
  expect_one_error(load(replace(valid, input, "input: [{repeat: \"a\", times: 999999999999}]")), 7, "64 MiB");
  expect_one_error(load(replace(valid, input, "input: [{repeat: 'a', times: 2}]")), 7, "double-quoted");
  expect_one_error(load(replace(valid, input, "input: [{repeat: \"a\"}]")), 7, "{repeat");
  expect_one_error(load(replace(valid, input, "input: []")), 7, "non-empty list");
}

TEST(loader, reports_log_errors_at_their_file_line) {
  auto r = load(valid + "    retry 12x\n");
  expect_one_error(r, 10, "unexpected text");
  EXPECT_EQ(r.errors[0].column, 13u);
  r = load(replace(valid, "  events: |\n    event", "  events: \"retry x\"\n  note: |\n    event"));
  expect_one_error(r, 8, "in `events`: expected a decimal number");
  expect_one_error(load(replace(valid, "events: |", "events: >")), 8, "folded");
}

TEST(loader, ties_impl_verdicts_to_decisions_and_limits) {
  expect_one_error(load(replace(valid, "verdict: must", "verdict: impl")), 3, "spec/DECISIONS.md#anchor");
  const std::string impl = replace(replace(valid, "verdict: must", "verdict: impl"), "  from: https://",
                                   "  from: [spec/DECISIONS.md#limits, https://");
  const std::string impl_ok = replace(impl, "event-stream-interpretation\n", "event-stream-interpretation]\n");
  EXPECT_TRUE(load(impl_ok).ok()) << load(impl_ok).error_text();
  EXPECT_TRUE(load(impl_ok + "  limits: {max_line: 16}\n").ok());
  expect_one_error(load(valid + "  limits: {max_line: 16}\n"), 10, "verdict must be impl");
  expect_one_error(load(impl_ok + "  limits: {max_lines: 16}\n"), 10, "unknown key `max_lines` in `limits`");
  expect_one_error(load(impl_ok + "  limits: {max_line: 0}\n"), 10, "positive integer");
  expect_one_error(load(valid + "    error line_too_long off=3\n"), 8, "verdict must be impl");
  expect_one_error(load(impl_ok + "    error paused off=3\n"), 10, "not a fatal parser error");
}

TEST(loader, checks_dialect_fields_by_layer) {
  expect_one_error(load(valid + "  conforming: true\n"), 10, "belongs to dialect layers");
  const std::string chat = replace(valid, "layer: wire", "layer: chat");
  expect_one_error(load(chat), 1, "must expect something of its layer");
  EXPECT_TRUE(load(chat + "  conforming: true\n").ok());
  EXPECT_TRUE(load(chat + "  findings: [CHAT-JSON-1]\n").ok());
  expect_one_error(load(chat + "  conforming: false\n"), 10, "can only be `true`");
  expect_one_error(load(chat + "  conforming: true\n  findings: [X-1]\n"), 10, "contradict");
  const auto r =
      load(chat + "  dialect_events: |\n    {\"type\": \"content\", \"text\": \"Hi\"}\n\n    {\"type\": \"done\"}\n");
  ASSERT_TRUE(r.ok()) << r.error_text();
  ASSERT_EQ(r.value[0].dialect_events.size(), 2u);
  EXPECT_EQ(r.value[0].dialect_events[1]["type"], "done");
  expect_one_error(load(chat + "  dialect_events: |\n    {\"type\": \"content\"}\n    [1]\n"), 12, "one JSON object");
}

TEST(loader, checks_needs_and_no_scan) {
  EXPECT_TRUE(load(valid + "  needs: [bom, cr]\n  no_scan: the scan is covered elsewhere\n").ok());
  expect_one_error(load(valid + "  needs: [telepathy]\n"), 10, "not an adapter capability");
  expect_one_error(load(valid + "  no_scan: \"\"\n"), 10, "reason");
}

TEST(loader, collects_every_error_of_a_file) {
  const std::string second = replace(replace(valid, "K7P2", "K7P3"), "verdict: must", "verdict: maybe");
  const auto r = load(replace(valid, "  layer: wire\n", "") + second);
  ASSERT_EQ(r.errors.size(), 2u) << r.error_text();
  EXPECT_EQ(r.errors[0].line, 1u);
  EXPECT_EQ(r.errors[1].line, 13u);
  EXPECT_TRUE(r.value.empty());
}

TEST(tags, loads_the_closed_list) {
  std::vector<ssec::error> errors;
  const auto tags =
      conf::load_tags_from_text("tags:\n  bom: \"A BOM.\"\n  line-endings: Line ends.\n", "tags.yaml", errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_TRUE(tags.contains("bom"));
  EXPECT_TRUE(tags.contains("line-endings"));
  EXPECT_FALSE(tags.contains("crlf"));
}

TEST(tags, rejects_duplicates_bad_names_and_bad_shapes) {
  std::vector<ssec::error> errors;
  conf::load_tags_from_text("tags:\n  bom: a\n  bom: b\n  Bad_Name: c\n  empty: \"\"\n", "tags.yaml", errors);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].to_string(), "tags.yaml:3:3: duplicate key `bom` in `tags` (first at line 2)");
  EXPECT_EQ(errors[1].line, 4u);
  EXPECT_EQ(errors[2].line, 5u);
  errors.clear();
  conf::load_tags_from_text("- bom\n", "tags.yaml", errors);
  EXPECT_EQ(errors.size(), 1u);
  errors.clear();
  conf::load_tags_from_text("tags: {bom: [x\n", "tags.yaml", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("malformed YAML"), std::string::npos);
  errors.clear();
  conf::load_tags("/nonexistent/tags.yaml", "spec/tags.yaml", errors);
  ASSERT_EQ(errors.size(), 1u);
  // The file named once, as shown, then why (not "spec/tags.yaml: /nonexistent/tags.yaml: ...").
  EXPECT_EQ(errors[0].to_string(), "spec/tags.yaml: No such file or directory");
}

}  // namespace
