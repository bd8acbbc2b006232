// SPDX-License-Identifier: MIT
// `sse-conform fuzz` (tools/docs/fuzz.md): the generator, oracle, shrinker and
// case writer on their own, then the command run as a user runs it against
// the reference adapter and against one-bug variants of a toy parser
// (toy_adapter.cpp) and of a toy dialect decoder (toy_dialect_adapter.cpp):
// each bug is found, shrunk small, and its case fails the variant and passes
// the reference through `sse-conform run`; then adapters that lack a
// reporting capability.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ssec/conformance/loader.hpp"
#include "ssec/differential/case_writer.hpp"
#include "ssec/differential/fuzzer.hpp"
#include "ssec/differential/shrink.hpp"

namespace {

namespace conf = ssec::conformance;
namespace diff = ssec::differential;
namespace fs = std::filesystem;
using nlohmann::json;

const std::string tool = SSE_CONFORM_BIN;
const std::string toy = TOY_ADAPTER;
const std::string toy_dialect = TOY_DIALECT_ADAPTER;
const fs::path source_dir = SSEC_SOURCE_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

conf::tag_list project_tags() {
  std::vector<ssec::error> errors;
  auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
  EXPECT_TRUE(errors.empty());
  return tags;
}

// ---- the parts ---------------------------------------------------------------

TEST(differential_generator, same_seed_same_samples_and_valid_cuts) {
  const diff::generator a(conf::layer::wire, nullptr, {"data: seed\n\n"}, 42);
  const diff::generator b(conf::layer::wire, nullptr, {"data: seed\n\n"}, 42);
  const diff::generator c(conf::layer::wire, nullptr, {"data: seed\n\n"}, 43);
  std::size_t differ = 0;
  for (std::uint64_t i = 0; i < 300; ++i) {
    const auto s = a.make(i);
    const auto t = b.make(i);
    EXPECT_EQ(s.bytes, t.bytes);
    EXPECT_EQ(s.cuts, t.cuts);
    differ += c.make(i).bytes != s.bytes;
    for (std::size_t k = 0; k < s.cuts.size(); ++k) {
      EXPECT_GT(s.cuts[k], k == 0 ? 0u : s.cuts[k - 1]);
      EXPECT_LT(s.cuts[k], s.bytes.size());
    }
  }
  EXPECT_GT(differ, 250u);
}

TEST(differential_generator, reaches_the_corners) {
  const diff::generator g(conf::layer::wire, nullptr, {"data: a\r\n\r\n"}, 7);
  std::set<std::string> seen;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    const auto s = g.make(i);
    const std::string& b = s.bytes;
    if (b.starts_with("\xEF\xBB\xBF")) seen.insert("bom");
    if (b.find("\r\n") != std::string::npos) seen.insert("crlf");
    if (b.find('\r') != std::string::npos && b.find('\n') == std::string::npos) seen.insert("cr-only");
    if (b.find("id:") != std::string::npos && b.find('\0') != std::string::npos) seen.insert("id-nul");
    if (b.find("\n\n\n") != std::string::npos) seen.insert("blank-run");
    if (b.find("18446744073709551616") != std::string::npos) seen.insert("retry-edge");
    if (b.find(std::string(4096, 'x')) != std::string::npos) seen.insert("long-line");
    if (b.find("\xF0\x9F\x98\x80") != std::string::npos) seen.insert("utf8-4");
    if (b.find('\xFF') != std::string::npos) seen.insert("invalid-utf8");
    if (s.origin == "mutation") seen.insert("mutation");
    for (const std::size_t cut : s.cuts) {
      if (b[cut - 1] == '\r' && b[cut] == '\n') seen.insert("cut-in-crlf");
      if ((static_cast<unsigned char>(b[cut]) & 0xC0) == 0x80) seen.insert("cut-in-utf8");
    }
    if (s.cuts.size() + 1 == b.size() && b.size() > 8) seen.insert("bytes");
  }
  for (const char* want : {"bom", "crlf", "cr-only", "id-nul", "blank-run", "retry-edge", "long-line", "utf8-4",
                           "invalid-utf8", "mutation", "cut-in-crlf", "cut-in-utf8", "bytes"}) {
    EXPECT_TRUE(seen.count(want)) << want;
  }
}

TEST(differential_generator, dialect_samples_hold_catalog_and_unknown_types) {
  const auto& cat = *sse::dialect::builtin_catalog().value;
  const auto* agent = cat.dialect("agent");
  ASSERT_NE(agent, nullptr);
  const diff::generator g(conf::layer::agent, agent, {}, 3);
  std::set<std::string> kinds;
  for (std::uint64_t i = 0; i < 500; ++i) {
    const auto c = diff::reference_case(conf::layer::agent, g.make(i), agent);
    for (const auto& e : c.dialect_events) kinds.insert(e.value("kind", ""));
  }
  EXPECT_TRUE(kinds.count("structured"));
  EXPECT_TRUE(kinds.count("unknown"));
  EXPECT_TRUE(kinds.count("plain_text"));
}

TEST(differential_shrink, remove_range_moves_cuts) {
  diff::sample s;
  s.bytes = "abcdefgh";
  s.cuts = {2, 4, 6};
  const auto t = diff::remove_range(s, 3, 5);  // "abc" + "fgh"
  EXPECT_EQ(t.bytes, "abcfgh");
  EXPECT_EQ(t.cuts, (std::vector<std::size_t>{2, 3, 4}));
}

TEST(differential_shrink, keeps_only_what_the_predicate_needs) {
  // Interesting: a cut between a CR and its LF.
  diff::sample s;
  s.bytes = "data: \xC3\xA9t\xC3\xA9\r\n\x01retry: 5\r\n\r\nmore bytes\n";
  const std::size_t crlf = s.bytes.find("\r\n");
  s.cuts = {3, crlf + 1, crlf + 5};
  const auto split_crlf = [](const diff::sample& c) {
    for (const std::size_t cut : c.cuts) {
      if (c.bytes[cut - 1] == '\r' && c.bytes[cut] == '\n') return true;
    }
    return false;
  };
  diff::shrink_stats stats;
  const auto small = diff::shrink(s, split_crlf, {}, &stats);
  EXPECT_EQ(small.bytes, "\r\n");
  EXPECT_EQ(small.cuts, (std::vector<std::size_t>{1}));
  EXPECT_TRUE(stats.complete);
  // Simplification: non-printable bytes become printable when they may.
  diff::sample t;
  t.bytes = "\x01Q\xFF";
  const auto plain = diff::shrink(
      t, [](const diff::sample& c) { return c.bytes.size() == 3 && c.bytes.find('Q') != std::string::npos; }, {});
  EXPECT_EQ(plain.bytes, "aQa");
}

TEST(differential_shrink, trigger_shapes_tell_line_forms_apart_not_letters_or_order) {
  EXPECT_EQ(diff::trigger_shape("data\ndata:a\n\n"), "\ndata\ndata:v\n");
  EXPECT_EQ(diff::trigger_shape("data:\r\ndata: \r\rdata::\n"), "\ndata:\ndata:\ndata:v\n");
  EXPECT_EQ(diff::trigger_shape("\xEF\xBB\xBF"
                                "data\n: hi\nxyz:1\nAbc\nevent:e"),
            ":\ndata\nevent:v\nother\nother:v\n");
  EXPECT_EQ(diff::trigger_shape("id:x\nretry:1\n"), diff::trigger_shape("id:yy\nretry:22\n"));
  EXPECT_EQ(diff::trigger_shape("data\nevent\n\n"), diff::trigger_shape("event\ndata\n\n"));
  EXPECT_NE(diff::trigger_shape("data::\n\n"), diff::trigger_shape("data\ndata\n\n"));
  EXPECT_EQ(diff::trigger_shape(""), "");
}

TEST(differential_oracle, string_difference_classes) {
  EXPECT_EQ(diff::string_difference_class("a\nb", "a"), "truncated");
  EXPECT_EQ(diff::string_difference_class("", std::string("a\0", 2)), "extended");
  EXPECT_EQ(diff::string_difference_class(" a", "a"), "dropped-space");
  EXPECT_EQ(diff::string_difference_class("ab", "a\t"), "differs");
  EXPECT_EQ(diff::string_difference_class("a\nb", "a\rb"), "lf-vs-cr");
  EXPECT_EQ(diff::string_difference_class(" a", "\xEF\xBF\xBD"), "space-vs-fffd");
  // A run lost or added inside the value is named by its first character,
  // whatever follows: "data\ndata:X" read without its first line is one class.
  for (const std::string& rest : {std::string("a"), std::string(" "), std::string("\xEF\xBB\xBF"), std::string("\0", 1),
                                  std::string("\xEF\xBF\xBD")}) {
    EXPECT_EQ(diff::string_difference_class("\n" + rest, rest), "dropped-lf") << rest;
  }
  EXPECT_EQ(diff::string_difference_class("x\ny", "xy"), "dropped-lf");
  EXPECT_EQ(diff::string_difference_class("m", " m"), "inserted-space");
  EXPECT_EQ(diff::string_difference_class("aXb", "aYYb"), "differs");
}

ssec::exchange answer(const std::string& line) { return {ssec::exchange_status::ok, line, ""}; }

TEST(differential_oracle, judges_as_run_grades) {
  const auto c = diff::reference_case(conf::layer::wire, diff::sample_from_chunks({"data:a\n", "data:b\n\n"}), nullptr);
  EXPECT_EQ(c.written_chunks, (std::vector<std::size_t>{7, 8}));
  const std::string id = c.path();
  EXPECT_FALSE(diff::judge(
      c,
      answer(json{
          {"id", id}, {"events", {{{"type", "message"}, {"data", "a\nb"}, {"lastEventId", ""}}}}, {"retry", nullptr}}
                 .dump()),
      {}));
  const auto d = diff::judge(
      c,
      answer(
          json{{"id", id}, {"events", {{{"type", "message"}, {"data", "a"}, {"lastEventId", ""}}}}, {"retry", nullptr}}
              .dump()),
      {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->fingerprint, "wire.data.truncated");
  EXPECT_EQ(d->outcome, conf::outcome::fail);
  const auto none = diff::judge(c, answer(json{{"id", id}, {"events", json::array()}, {"retry", nullptr}}.dump()), {});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->fingerprint, "wire.events.missing.data");
  // An event too many in front is a count difference, not a data difference.
  const auto extra = diff::judge(c,
                                 answer(json{{"id", id},
                                             {"events",
                                              {{{"type", "message"}, {"data", ""}, {"lastEventId", ""}},
                                               {{"type", "message"}, {"data", "a\nb"}, {"lastEventId", ""}}}},
                                             {"retry", nullptr}}
                                            .dump()),
                                 {});
  ASSERT_TRUE(extra);
  EXPECT_EQ(extra->fingerprint, "wire.events.extra.other");
  EXPECT_EQ(diff::judge(c, {ssec::exchange_status::crashed, "", "exited with status 3"}, {})->fingerprint,
            "adapter.crash");
  EXPECT_EQ(diff::judge(c, answer("not json"), {})->fingerprint, "adapter.malformed");
  EXPECT_EQ(diff::judge(c, {ssec::exchange_status::timeout, "", ""}, {})->outcome, conf::outcome::timeout);

  // A retry beyond 64 bits is ignored by the reference; one that keeps a rounded value is informational.
  const auto r =
      diff::reference_case(conf::layer::wire, diff::sample_from_chunks({"retry: 18446744073709551616\n\n"}), nullptr);
  const auto open =
      diff::judge(r, answer(R"({"id":")" + r.path() + R"(","events":[],"retry":18446744073709551616.0})"), {});
  ASSERT_TRUE(open);
  EXPECT_EQ(open->fingerprint, "wire.retry.inexact.impl");
  EXPECT_EQ(open->outcome, conf::outcome::informational);
  // A retry the adapter says it cannot report is not compared.
  const auto set = diff::reference_case(conf::layer::wire, diff::sample_from_chunks({"retry: 5\n\n"}), nullptr);
  const std::string no_retry = json{{"id", set.path()}, {"events", json::array()}, {"retry", nullptr}}.dump();
  EXPECT_TRUE(diff::judge(set, answer(no_retry), {}));
  EXPECT_FALSE(diff::judge(set, answer(no_retry), std::vector<std::string>{"bom", "cr"}));
}

TEST(differential_oracle, judges_dialect_events_as_run_grades) {
  const auto& cat = *sse::dialect::builtin_catalog().value;
  const auto* agent = cat.dialect("agent");
  ASSERT_NE(agent, nullptr);
  const auto c = diff::reference_case(
      conf::layer::agent, diff::sample_from_chunks({"data: {\"type\":\"message_chunk\",\"content\":\"Hi\"}\n\n"}),
      agent);
  ASSERT_EQ(c.dialect_events.size(), 1u);
  EXPECT_EQ(c.dialect_events[0].value("kind", ""), "structured");
  const auto line = [&](const json& events) { return json{{"id", c.path()}, {"events", events}}.dump(); };
  EXPECT_FALSE(diff::judge(c, answer(line(json::array({c.dialect_events[0]}))), {}));
  json other = c.dialect_events[0];
  other["fields"]["content"] = "Hx";
  const auto d = diff::judge(c, answer(line(json::array({other}))), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->fingerprint, "agent.field.content");
  const json text{{"kind", "plain_text"}, {"text", "x"}, {"raw", "x"}};
  const auto kind = diff::judge(c, answer(line(json::array({text}))), {});
  ASSERT_TRUE(kind);
  EXPECT_EQ(kind->fingerprint, "agent.kind.structured-vs-plain_text") << kind->first_difference;
  EXPECT_EQ(d->outcome, conf::outcome::fail);
  const auto none = diff::judge(c, answer(line(json::array())), {});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->fingerprint, "agent.events.missing");
}

// A frame dropped or added anywhere is a count difference, not a difference
// of the frames after it (one bug, one fingerprint; as at the wire layer).
TEST(differential_oracle, a_dialect_event_dropped_anywhere_is_missing) {
  const auto& cat = *sse::dialect::builtin_catalog().value;
  const auto* agent = cat.dialect("agent");
  ASSERT_NE(agent, nullptr);
  const auto c = diff::reference_case(
      conf::layer::agent, diff::sample_from_chunks({"data: null\n\ndata: {\"type\":\"x\"}\n\ndata: t\n\n"}), agent);
  ASSERT_EQ(c.dialect_events.size(), 3u);
  const auto line = [&](const json& events) { return json{{"id", c.path()}, {"events", events}}.dump(); };
  const auto missing = diff::judge(c, answer(line(json::array({c.dialect_events[1], c.dialect_events[2]}))), {});
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->fingerprint, "agent.events.missing");
  const auto extra = diff::judge(
      c,
      answer(line(json::array({c.dialect_events[0], c.dialect_events[0], c.dialect_events[1], c.dialect_events[2]}))),
      {});
  ASSERT_TRUE(extra);
  EXPECT_EQ(extra->fingerprint, "agent.events.extra");
  // Two differences are not a count difference.
  const auto two = diff::judge(c, answer(line(json::array({c.dialect_events[2]}))), {});
  ASSERT_TRUE(two);
  EXPECT_EQ(two->fingerprint, "agent.raw.differs");
}

// A repair probe removes bytes to isolate a bug; it must not join a lone CR to
// the LF after the removed bytes, which makes two line ends one and changes
// what the stream means (a dropped event then "disappeared" under `crlf`).
TEST(differential_oracle, repairs_never_join_a_lone_cr_to_an_lf) {
  const auto find = [](const diff::sample& s, std::string_view name) -> std::optional<std::string> {
    for (const auto& r : diff::repairs_of(s)) {
      if (r.name == name) return r.repaired.bytes;
    }
    return std::nullopt;
  };
  EXPECT_EQ(find(diff::sample_from_chunks({"data:a\r\r\n"}), "crlf"), std::nullopt);
  EXPECT_EQ(find(diff::sample_from_chunks({"data:a\r\xEF\xBB\xBF\n"}), "bom"), std::nullopt);
  EXPECT_EQ(find(diff::sample_from_chunks({std::string("data:a\r\0\n", 9)}), "nul"), std::nullopt);
  // (NULs right after a CR begin a field name, which the nul repair keeps too.)
  EXPECT_EQ(find(diff::sample_from_chunks({std::string("data:a\r\0\0\n", 10)}), "nul"), std::nullopt);
  // Elsewhere they repair as before.
  EXPECT_EQ(find(diff::sample_from_chunks({"data:a\r\n\r\n"}), "crlf"), "data:a\n\n");
  EXPECT_EQ(find(diff::sample_from_chunks({"\xEF\xBB\xBF\xEF\xBB\xBF"
                                           "data\n\n"}),
                 "bom"),
            "data\n\n");
  EXPECT_EQ(find(diff::sample_from_chunks({std::string("id:a\0\n\n", 7)}), "nul"), "id:a\n\n");
}

TEST(differential_case_writer, written_case_loads_back_byte_exact) {
  const auto s = diff::sample_from_chunks({"\xEF\xBB",
                                           "\xBF"
                                           "data: \xC3",
                                           "\xA9\r", std::string("\nid: 1\0\n\n", 9)});
  ASSERT_EQ(s.bytes.size(), 21u);
  const auto c = diff::reference_case(conf::layer::wire, s, nullptr);
  diff::divergence d;
  d.fingerprint = "wire.data.differs";
  diff::provenance p;
  p.impl_name = "toy: #1";
  p.reference = "sse-conform test";
  const std::string text = diff::finding_case_text(c, d, p);
  const auto loaded = conf::load_cases_from_text(text, "finding.yaml", "wire.data.differs", project_tags());
  ASSERT_TRUE(loaded.ok()) << loaded.error_text() << text;
  ASSERT_EQ(loaded.value.size(), 1u);
  EXPECT_EQ(loaded.value[0].input, s.bytes);
  EXPECT_EQ(loaded.value[0].written_chunks, c.written_chunks);
  EXPECT_EQ(loaded.value[0].events, c.events);
  EXPECT_EQ(loaded.value[0].verdict, conf::verdict::must);
}

// ---- the command ---------------------------------------------------------------

struct outcome {
  int status = -1;
  std::string out;
  std::string err;
};

class fuzz_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& ch : name) ch = ch == '/' ? '_' : ch;
    dir_ = fs::temp_directory_path() / ("ssec-fuzz-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  outcome run(const std::string& args) const { return shell("'" + tool + "' " + args); }
  // `command` as a shell runs it (a reproduce command the summary printed).
  outcome shell(const std::string& command_line) const {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = command_line + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  }
  json summary() const { return json::parse(read_file(dir_ / "summary.json")); }
  // Tests that count executions bound them with --max-execs under a budget no
  // run reaches, never by the budget alone: an ASan build under CI load starts
  // an adapter in about a second, and a time-bound count would measure that.
  std::string fuzz_args(const std::string& impl, double budget, const std::string& more = "") const {
    return "fuzz --impl \"" + impl + "\" --budget " + std::to_string(budget) +
           " --hello-timeout-ms 120000 --seed 1 --out '" + (dir_ / "found").string() + "' --json '" +
           (dir_ / "summary.json").string() + "' " + more;
  }
  fs::path dir_;
};

TEST_F(fuzz_cli, the_reference_adapter_runs_clean) {
  const auto r = run(fuzz_args("'" + tool + "' adapter", 300, "--jobs 2 --max-execs 150"));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const json j = summary();
  EXPECT_EQ(j["impls"][0]["restarts"], 0);
  EXPECT_EQ(j["fuzz_format"], 1);
  EXPECT_EQ(j["execs"].get<int>(), 150);
  EXPECT_TRUE(j["impls"][0]["findings"].empty()) << j.dump(2);
  EXPECT_NE(r.err.find("execs"), std::string::npos) << r.err;  // progress, also when not a terminal
}

TEST_F(fuzz_cli, the_reference_adapter_runs_clean_at_every_dialect_layer) {
  for (const char* layer : {"chat", "code", "agent", "workflow"}) {
    const auto r = run(fuzz_args("'" + tool + "' adapter", 300, std::string("--max-execs 40 --layer ") + layer));
    EXPECT_EQ(r.status, 0) << layer << "\n" << r.out << r.err;
    EXPECT_EQ(summary()["execs"].get<int>(), 40) << layer;
  }
}

TEST_F(fuzz_cli, the_toy_parser_without_a_bug_runs_clean) {
  const auto r = run(fuzz_args(toy, 300, "--max-execs 200"));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(summary()["execs"].get<int>(), 200);
}

class fuzz_bug : public fuzz_cli, public ::testing::WithParamInterface<const char*> {};

// Each bug is found within 200 samples of seed 1, shrunk to at most 16 bytes, and its
// case fails the variant, passes the correct toy and the reference, via `run`.
TEST_P(fuzz_bug, is_found_shrunk_and_reproduced_by_run) {
  const std::string variant = toy + " --bug " + GetParam();
  const auto r = run(fuzz_args(variant, 300, "--max-execs 200"));
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  const json j = summary();
  const auto& findings = j["impls"][0]["findings"];
  ASSERT_FALSE(findings.empty());
  // Every finding is a failure, or informational where a decision leaves the
  // retry value open (a stream can show both); the smallest failure is tiny.
  std::size_t smallest = SIZE_MAX;
  for (const auto& f : findings) {
    const std::string grade = f["grade"];
    EXPECT_TRUE(grade == "fail" || grade == "informational") << f.dump();
    if (grade == "fail") smallest = std::min<std::size_t>(smallest, f["bytes"].get<std::size_t>());
  }
  EXPECT_LE(smallest, 16u) << j.dump(2);
  EXPECT_NE(r.out.find("reproduce: "), std::string::npos) << r.out;

  const fs::path found = dir_ / "found";
  const auto loaded = conf::load_case_tree(found, "found", project_tags());
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  std::size_t written = 0;
  for (const auto& f : findings) written += f.contains("same_as") ? 0 : 1 + f["also"].size();
  EXPECT_EQ(loaded.value.size(), written);
  const std::string cases = " --cases '" + found.string() + "'";
  EXPECT_EQ(run("run --impl \"" + variant + "\"" + cases).status, 1);
  const auto correct = run("run --impl \"" + toy + "\"" + cases);
  EXPECT_EQ(correct.status, 0) << correct.out << correct.err;
  const auto reference = run("run --impl \"'" + tool + "' adapter\"" + cases);
  EXPECT_EQ(reference.status, 0) << reference.out << reference.err;

  const auto still = run("fuzz --replay '" + found.string() + "' --impl \"" + variant + "\"");
  EXPECT_EQ(still.status, 1) << still.out << still.err;
  EXPECT_NE(still.out.find("still-failing"), std::string::npos) << still.out;
  const auto fixed = run("fuzz --replay '" + found.string() + "' --impl \"" + toy + "\"");
  EXPECT_EQ(fixed.status, 0) << fixed.out << fixed.err;
  EXPECT_NE(fixed.out.find("fixed"), std::string::npos) << fixed.out;
}

INSTANTIATE_TEST_SUITE_P(one_bug_variants, fuzz_bug, ::testing::Values("cr", "nul-id", "first-data", "space-twice"));

TEST_F(fuzz_cli, the_toy_dialect_decoder_without_a_bug_runs_clean) {
  for (const char* layer : {"chat", "agent"}) {
    const auto r = run(fuzz_args(toy_dialect, 300, std::string("--max-execs 150 --layer ") + layer));
    EXPECT_EQ(r.status, 0) << layer << "\n" << r.out << r.err;
    EXPECT_EQ(summary()["execs"].get<int>(), 150) << layer;
  }
}

struct dialect_bug_param {
  const char* layer;
  const char* bug;
  const char* fingerprint;
};

// What ctest shows for a parameter (it names discovered tests by the printed value).
void PrintTo(const dialect_bug_param& p, std::ostream* os) { *os << p.layer << ' ' << p.bug; }

class fuzz_dialect_bug : public fuzz_cli, public ::testing::WithParamInterface<dialect_bug_param> {};

// Each dialect bug is found within 800 samples of seed 1 as exactly one
// fingerprint, shrunk to at most 16 bytes; its case loads, fails the variant,
// passes the correct toy and the reference through `run`, and replays.
TEST_P(fuzz_dialect_bug, is_found_as_one_fingerprint_shrunk_and_reproduced_by_run) {
  const auto& p = GetParam();
  const std::string variant = toy_dialect + " --bug " + p.bug;
  const auto r = run(fuzz_args(variant, 300, std::string("--max-execs 800 --layer ") + p.layer));
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  const json j = summary();
  const auto& findings = j["impls"][0]["findings"];
  ASSERT_EQ(findings.size(), 1u) << j.dump(2);
  EXPECT_EQ(findings[0]["fingerprint"], p.fingerprint) << j.dump(2);
  EXPECT_EQ(findings[0]["grade"], "fail");
  EXPECT_LE(findings[0]["bytes"].get<std::size_t>(), 16u) << j.dump(2);
  EXPECT_TRUE(findings[0]["shrink_complete"].get<bool>());

  const fs::path found = dir_ / "found";
  const auto loaded = conf::load_case_tree(found, "found", project_tags());
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  ASSERT_EQ(loaded.value.size(), 1u);
  EXPECT_EQ(conf::to_string(loaded.value[0].layer), std::string(p.layer));
  EXPECT_TRUE(loaded.value[0].has_dialect_events);
  const std::string cases = " --cases '" + found.string() + "'";
  EXPECT_EQ(run("run --impl \"" + variant + "\"" + cases).status, 1);
  const auto correct = run("run --impl \"" + toy_dialect + "\"" + cases);
  EXPECT_EQ(correct.status, 0) << correct.out << correct.err;
  const auto reference = run("run --impl \"'" + tool + "' adapter\"" + cases);
  EXPECT_EQ(reference.status, 0) << reference.out << reference.err;

  const auto still = run("fuzz --replay '" + found.string() + "' --impl \"" + variant + "\"");
  EXPECT_EQ(still.status, 1) << still.out << still.err;
  EXPECT_NE(still.out.find("still-failing"), std::string::npos) << still.out;
  const auto fixed = run("fuzz --replay '" + found.string() + "' --impl \"" + toy_dialect + "\"");
  EXPECT_EQ(fixed.status, 0) << fixed.out << fixed.err;
}

// Shrunk (seed 1): "data:null\n\n" (11 bytes), "data:[ERROR]\n\n" (14), "data:[ERROR] m\n\n" (16).
INSTANTIATE_TEST_SUITE_P(one_bug_dialect_variants, fuzz_dialect_bug,
                         ::testing::Values(dialect_bug_param{"agent", "drop-non-object", "agent.events.missing"},
                                           dialect_bug_param{"chat", "no-error-prefix",
                                                             "chat.kind.error-vs-plain_text"},
                                           dialect_bug_param{"chat", "error-space", "chat.text.inserted-space"}),
                         // Named after the layer and bug, so ctest names stay the same from build to build.
                         [](const ::testing::TestParamInfo<dialect_bug_param>& info) {
                           std::string name = std::string(info.param.layer) + "_" + info.param.bug;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A toy carrying several bugs at once gives exactly one fingerprint per bug,
// and every case written fails the toy through the command the summary
// prints for it, with nothing skipped.
struct multi_bug_param {
  const char* bugs;
  const char* omit;  // a reporting capability its hello leaves out, or ""
  std::vector<std::string> fingerprints;
};
void PrintTo(const multi_bug_param& p, std::ostream* os) {
  *os << p.bugs << (*p.omit != 0 ? " without " : "") << p.omit;
}
class fuzz_multi_bug : public fuzz_cli, public ::testing::WithParamInterface<multi_bug_param> {};

TEST_P(fuzz_multi_bug, one_fingerprint_per_bug_and_every_case_reproduces) {
  const auto& p = GetParam();
  const std::string variant = toy + " --bug " + p.bugs + (*p.omit != 0 ? std::string(" --omit ") + p.omit : "");
  const auto r = run(fuzz_args(variant, 300, "--max-execs 600 --shrink-seconds 5"));
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  const json j = summary();
  std::vector<std::string> got;
  std::set<std::string> parts;
  std::set<json> written_pairs;
  for (const auto& f : j["impls"][0]["findings"]) {
    if (f.contains("compound_of")) {
      for (const auto& part : f["compound_of"]) parts.insert(part.get<std::string>());
    } else {
      got.push_back(f["fingerprint"]);
    }
    // A compound of the same two parts as an earlier one is listed, not written.
    if (f.contains("same_as")) {
      EXPECT_TRUE(f.contains("not_written") && f["reproduce"].get<std::string>().empty()) << f.dump(2);
      continue;
    }
    if (f.contains("compound_of")) EXPECT_TRUE(written_pairs.insert(f["compound_of"]).second) << f.dump(2);
    EXPECT_FALSE(f.contains("not_written")) << f.dump(2);
    // The finding's own command reproduces it: the case fails (exit 1), not skipped.
    const auto again = shell(f["reproduce"].get<std::string>());
    EXPECT_EQ(again.status, 1) << f.dump(2) << again.out << again.err;
    EXPECT_NE(again.out.find("FAILED: 1 case: 1 fail ("), std::string::npos) << again.out;
    for (const auto& e : f["also"]) EXPECT_EQ(shell(e["reproduce"].get<std::string>()).status, 1) << e.dump(2);
  }
  std::sort(got.begin(), got.end());
  auto want = p.fingerprints;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want) << j.dump(2);
  for (const auto& part : parts) EXPECT_TRUE(std::binary_search(want.begin(), want.end(), part)) << part;
  const auto all = shell(j["impls"][0]["reproduce"].get<std::string>() + " --require-all");
  EXPECT_EQ(all.status, 1) << all.out << all.err;
  std::size_t cases = 0;
  for (const auto& f : j["impls"][0]["findings"]) cases += f.contains("same_as") ? 0 : 1 + f["also"].size();
  const std::string n = std::to_string(cases);
  EXPECT_NE(all.out.find("FAILED: " + n + " cases: " + n + " fail ("), std::string::npos) << all.out;
}

INSTANTIATE_TEST_SUITE_P(
    toys, fuzz_multi_bug,
    ::testing::Values(
        multi_bug_param{"dataless,tail", "", {"wire.events.extra.no-data", "wire.events.extra.unterminated-tail"}},
        multi_bug_param{"bom-lines,first-data,dataless",
                        "last-event-id",
                        {"wire.bom", "wire.data.truncated", "wire.events.extra.no-data"}}),
    [](const ::testing::TestParamInfo<multi_bug_param>& info) {
      return std::string(info.index == 0 ? "two" : "three_without_ids");
    });

// Two bugs that share a fingerprint (a value cut short: at its first colon,
// or to its first data line) keep a case each, and each case fails the toy
// carrying its bug and passes the one carrying the other.
TEST_F(fuzz_cli, two_bugs_sharing_a_fingerprint_keep_an_exemplar_each) {
  const auto r = run(fuzz_args(toy + " --bug first-data,colon-cut", 300, "--max-execs 3000 --shrink-seconds 5"));
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  const json j = summary();
  ASSERT_EQ(j["impls"][0]["findings"].size(), 1u) << j.dump(2);
  const json& f = j["impls"][0]["findings"][0];
  EXPECT_EQ(f["fingerprint"], "wire.data.truncated");
  ASSERT_EQ(f["also"].size(), 1u) << f.dump(2);
  const json& second = f["also"][0];
  EXPECT_EQ((std::set<std::string>{f["input"], second["input"]}),
            (std::set<std::string>{R"(["data::\n\n"])", R"(["data\ndata\n\n"])"}));
  EXPECT_NE(r.out.find("also, another trigger: input"), std::string::npos) << r.out;
  EXPECT_TRUE(second["file"].get<std::string>().ends_with("/wire.data.truncated.2.yaml")) << second.dump();
  const auto colon_first = f["input"] == R"(["data::\n\n"])";
  for (const auto& [command, colon] : {std::pair{f["reproduce"].get<std::string>(), colon_first},
                                       std::pair{second["reproduce"].get<std::string>(), !colon_first}}) {
    EXPECT_EQ(shell(command).status, 1) << command;
    const std::string other = colon ? "first-data" : "colon-cut";
    const auto cmd = std::regex_replace(command, std::regex("first-data,colon-cut"), other);
    EXPECT_EQ(shell(cmd).status, 0) << cmd;
  }
  // --exemplars 1: the first case only.
  const auto one = run(fuzz_args(toy + " --bug first-data,colon-cut", 300, "--max-execs 3000 --exemplars 1"));
  EXPECT_EQ(summary()["impls"][0]["findings"][0]["also"].size(), 0u) << one.out;
}

// A reporting capability left out of the hello (adapter-protocol.md) excuses
// what the adapter cannot show, as `run` skips the cases needing it; a
// parsing bug elsewhere is still found.
TEST_F(fuzz_cli, a_missing_reporting_capability_masks_only_what_it_names) {
  const std::string limits = "--max-execs 400";
  for (const std::string omit : {"retry", "last-event-id"}) {
    const auto r = run(fuzz_args(toy + " --omit " + omit, 300, limits));
    EXPECT_EQ(r.status, 0) << omit << "\n" << r.out << r.err;
    EXPECT_EQ(summary()["execs"].get<int>(), 400) << omit;
  }
  // Wrong retry values: found when the hello lists retry ...
  const std::string wrong_retry = toy + " --bug retry-plus-one";
  const auto found = run(fuzz_args(wrong_retry, 300, limits));
  ASSERT_EQ(found.status, 1) << found.out << found.err;
  const json j = summary();
  std::set<std::string> fingerprints;
  for (const auto& f : j["impls"][0]["findings"]) fingerprints.insert(f["fingerprint"].get<std::string>());
  EXPECT_TRUE(fingerprints.count("wire.retry.differs")) << j.dump(2);
  // ... masked when it does not: the fuzzer is clean, and `run` skips the cases it found.
  const std::string masked = toy + " --omit retry --bug retry-plus-one";
  fs::rename(dir_ / "found", dir_ / "retry-cases");
  const auto clean = run(fuzz_args(masked, 300, limits));
  EXPECT_EQ(clean.status, 0) << clean.out << clean.err;
  EXPECT_EQ(summary()["execs"].get<int>(), 400);
  const std::string cases = " --cases '" + (dir_ / "retry-cases").string() + "'";
  const auto skipped = run("run --impl \"" + masked + "\"" + cases);
  EXPECT_EQ(skipped.status, 0) << skipped.out << skipped.err;
  EXPECT_EQ(run("run --require-all --impl \"" + masked + "\"" + cases).status, 1);
  // Without last-event-id, an id holding NUL is not compared either; a lone CR still is.
  EXPECT_EQ(run(fuzz_args(toy + " --omit last-event-id --bug nul-id", 300, limits)).status, 0);
  EXPECT_EQ(run(fuzz_args(toy + " --omit retry --omit last-event-id --bug cr", 300, limits)).status, 1);
}

TEST_F(fuzz_cli, a_crashing_hanging_or_garbling_adapter_is_a_finding_and_the_run_goes_on) {
  for (const auto& [bug, fingerprint] : std::vector<std::pair<std::string, std::string>>{
           {"crash", "adapter.crash"}, {"hang", "adapter.timeout"}, {"garbage", "adapter.malformed"}}) {
    const auto r = run(fuzz_args(toy + " --bug " + bug, 300, "--max-execs 40 --timeout-ms 300 --shrink-seconds 2"));
    EXPECT_EQ(r.status, 1) << bug << r.out << r.err;
    const json j = summary();
    bool seen = false;
    for (const auto& f : j["impls"][0]["findings"]) {
      if (f["fingerprint"] != fingerprint) continue;
      seen = true;
      EXPECT_LT(f["hits"].get<int>(), j["execs"].get<int>()) << bug;  // it went on after the finding
    }
    EXPECT_TRUE(seen) << bug << "\n" << j.dump(2);
    EXPECT_GT(j["impls"][0]["restarts"].get<int>(), 0) << bug;
  }
}

TEST_F(fuzz_cli, the_same_seed_finds_the_same_cases) {
  const std::string variant = toy + " --bug first-data";
  std::vector<std::string> texts;
  for (int round = 0; round < 2; ++round) {
    fs::remove_all(dir_ / "found");
    ASSERT_EQ(run(fuzz_args(variant, 300, "--max-execs 300")).status, 1);
    std::string all;
    const json j = summary();
    for (const auto& f : j["impls"][0]["findings"]) all += read_file(f["file"].get<std::string>());
    texts.push_back(all);
  }
  EXPECT_FALSE(texts[0].empty());
  EXPECT_EQ(texts[0], texts[1]);
}

// `fuzz --shard K/N` splits the samples by index: the N shards of one seed
// and --max-execs run the unsharded samples, each once.
TEST(differential_shard, the_shards_samples_are_the_unsharded_ones_once) {
  const std::uint64_t max_execs = 1000;
  for (const std::uint64_t n : {1u, 2u, 3u, 4u, 7u}) {
    std::vector<std::uint64_t> together;
    for (std::uint64_t k = 1; k <= n; ++k) {
      for (std::uint64_t i = 0;; ++i) {
        const std::uint64_t index = diff::sample_index(i, ssec::harness::shard{k, n});
        if (index >= max_execs) break;
        together.push_back(index);
      }
    }
    std::sort(together.begin(), together.end());
    std::vector<std::uint64_t> all(max_execs);
    for (std::uint64_t i = 0; i < max_execs; ++i) all[i] = diff::sample_index(i, std::nullopt);
    EXPECT_EQ(together, all) << n << " shards";
  }
}

TEST_F(fuzz_cli, shards_run_the_unsharded_samples_between_them) {
  std::uint64_t execs = 0;
  for (int k = 1; k <= 3; ++k) {
    const auto r = run(fuzz_args(toy, 300, "--max-execs 40 --shard " + std::to_string(k) + "/3"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(summary()["shard"], std::to_string(k) + "/3");
    execs += summary()["execs"].get<std::uint64_t>();
  }
  EXPECT_EQ(execs, 40u);
  EXPECT_EQ(run(fuzz_args(toy, 1, "--shard 4/3")).status, 2);
}

TEST_F(fuzz_cli, several_implementations_that_agree_with_each_other) {
  const std::string variant = toy + " --bug first-data";
  const auto r =
      run("fuzz --impl \"" + variant + "\" --impl \"" + variant + "\" --budget 300 --max-execs 200 --seed 1 --out '" +
          (dir_ / "found").string() + "' --json '" + (dir_ / "summary.json").string() + "'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const json j = summary();
  ASSERT_EQ(j["impls"].size(), 2u);
  ASSERT_FALSE(j["agreements"].empty()) << j.dump(2);
  EXPECT_EQ(j["agreements"][0]["impls"].size(), 2u);
  EXPECT_TRUE(fs::is_directory(dir_ / "found" / "toy-first-data"));
  EXPECT_TRUE(fs::is_directory(dir_ / "found" / "toy-first-data_"));
  EXPECT_NE(r.out.find("agree with each other"), std::string::npos) << r.out;
}

// --hello-timeout-ms: an adapter slower to start than it allows is a setup
// error naming the allowance; a longer one lets the same adapter run, and the
// reproduce commands carry it to `run`.
TEST_F(fuzz_cli, the_hello_timeout_is_the_users_to_set) {
  const fs::path script = dir_ / "slow-start.sh";  // the toy, one second late
  std::ofstream(script) << "sleep 1\nexec '" << toy << "' \"$@\"\n";
  const std::string slow = "sh '" + script.string() + "'";
  const auto refused = run("fuzz --impl \"" + slow + "\" --hello-timeout-ms 200 --max-execs 5 --out '" +
                           (dir_ / "found").string() + "'");
  EXPECT_EQ(refused.status, 2) << refused.out << refused.err;
  EXPECT_NE((refused.out + refused.err).find("no answer within 200 ms"), std::string::npos)
      << refused.out << refused.err;
  const auto found =
      run("fuzz --impl \"" + slow + " --bug first-data\" --hello-timeout-ms 60000 --max-execs 100 " +
          "--seed 1 --out '" + (dir_ / "found").string() + "' --json '" + (dir_ / "summary.json").string() + "'");
  EXPECT_EQ(found.status, 1) << found.out << found.err;
  const json j = summary();
  ASSERT_FALSE(j["impls"][0]["findings"].empty()) << j.dump(2);
  EXPECT_NE(j["impls"][0]["reproduce"].get<std::string>().find(" --hello-timeout-ms 60000"), std::string::npos)
      << j.dump(2);
  EXPECT_EQ(run("fuzz --impl true --hello-timeout-ms 0").status, 2);
}

// --out: each implementation in a folder of its own; a folder that cannot be
// written is a setup error before any sample; a planted symbolic link is
// replaced, not followed.
TEST_F(fuzz_cli, findings_go_to_a_checked_folder_per_implementation) {
  std::ofstream(dir_ / "a-file") << "x";
  const auto unwritable =
      run("fuzz --impl \"" + toy + "\" --budget 300 --max-execs 100000 --no-progress --out '" +
          (dir_ / "a-file" / "found").string() + "' --json '" + (dir_ / "summary.json").string() + "'");
  EXPECT_EQ(unwritable.status, 2) << unwritable.out << unwritable.err;
  EXPECT_NE((unwritable.out + unwritable.err).find("--out"), std::string::npos) << unwritable.out << unwritable.err;
  EXPECT_EQ(summary()["execs"], 0);

  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "linked");
  EXPECT_EQ(run("fuzz --impl \"" + toy + "\" --max-execs 10 --out '" + (dir_ / "linked").string() + "'").status, 2);
  EXPECT_TRUE(fs::is_empty(dir_ / "elsewhere"));

  std::ofstream(dir_ / "victim") << "keep\n";
  fs::create_directories(dir_ / "found" / "toy-first-data");
  fs::create_symlink(dir_ / "victim", dir_ / "found" / "toy-first-data" / "wire.data.truncated.yaml");
  ASSERT_EQ(run(fuzz_args(toy + " --bug first-data", 300, "--max-execs 200")).status, 1);
  EXPECT_EQ(read_file(dir_ / "victim"), "keep\n");
  const fs::path written = dir_ / "found" / "toy-first-data" / "wire.data.truncated.yaml";
  EXPECT_FALSE(fs::is_symlink(written));
  EXPECT_NE(read_file(written).find("# fingerprint: wire.data.truncated"), std::string::npos);
  EXPECT_EQ(summary()["impls"][0]["out"], (dir_ / "found" / "toy-first-data").string());
}

TEST_F(fuzz_cli, usage_errors_exit_2) {
  EXPECT_EQ(run("fuzz --budget 1").status, 2);
  EXPECT_EQ(run("fuzz --impl true --layer nope --budget 1").status, 2);
  EXPECT_EQ(run("fuzz --impl 'exit 0' --budget 1").status, 2);  // no hello: a setup error
}

}  // namespace
