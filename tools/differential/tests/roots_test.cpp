// SPDX-License-Identifier: MIT
// How `sse-conform fuzz` names a divergence by its root (tools/docs/fuzz.md,
// "Fingerprints"): the blocks the reference ended without dispatching, the
// edit script over events, what an adapter cannot report masked on both
// sides, an answer event without `data`; and where findings are written
// (a folder per implementation, no symbolic link followed).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ssec/differential/blocks.hpp"
#include "ssec/differential/fuzzer.hpp"
#include "ssec/differential/oracle.hpp"

namespace {

namespace conf = ssec::conformance;
namespace diff = ssec::differential;
namespace fs = std::filesystem;
using nlohmann::json;
using kind = diff::block_kind;

std::vector<std::pair<kind, std::uint64_t>> blocks(std::string_view in) {
  std::vector<std::pair<kind, std::uint64_t>> out;
  for (const auto& b : diff::reference_blocks(in)) out.emplace_back(b.kind, b.offset);
  return out;
}

TEST(differential_blocks, each_block_is_named_by_the_step_that_ended_it) {
  using v = std::vector<std::pair<kind, std::uint64_t>>;
  EXPECT_EQ(blocks("event:x\n\ndata:a\n\ndata\n\n:c\n\n\nid:1"), (v{{kind::no_data, 0},
                                                                    {kind::dispatched, 9},
                                                                    {kind::empty_data, 17},
                                                                    {kind::comment_only, 23},
                                                                    {kind::blank, 27},
                                                                    {kind::unterminated_tail, 28}}));
  EXPECT_EQ(blocks("data:a\n:c\n\n"), (v{{kind::dispatched, 0}}));
  EXPECT_EQ(blocks(""), v{});
}

TEST(differential_blocks, the_edit_script_keeps_the_longest_common_subsequence) {
  const std::string want = "abcde", got = "xabde";
  const auto script =
      diff::edit_script(want.size(), got.size(), [&](std::size_t i, std::size_t j) { return want[i] == got[j]; });
  std::string ops;
  for (const auto& e : script)
    ops += e.what == diff::edit::op::keep ? 'k' : e.what == diff::edit::op::remove ? 'r' : 'i';
  EXPECT_EQ(ops, "ikkrkk");
  // Past the cell bound the middle is replaced whole.
  const auto coarse = diff::edit_script(
      want.size(), got.size(), [&](std::size_t i, std::size_t j) { return want[i] == got[j]; }, 1);
  std::size_t kept = 0;
  for (const auto& e : coarse) kept += e.what == diff::edit::op::keep;
  EXPECT_EQ(kept, 2u);  // the common tail "de"
}

ssec::exchange answer(const conf::test_case& c, json events, json retry = nullptr) {
  return {ssec::exchange_status::ok, json{{"id", c.path()}, {"events", std::move(events)}, {"retry", retry}}.dump(),
          ""};
}
json ev(const std::string& data, const std::string& type = "message", const std::string& id = "") {
  return {{"type", type}, {"data", data}, {"lastEventId", id}};
}
std::string fingerprint(std::string_view stream, json events, const diff::capability_list& caps = {}) {
  const auto c = diff::reference_case(conf::layer::wire, diff::sample_from_chunks({std::string(stream)}), nullptr);
  const auto d = diff::judge(c, answer(c, std::move(events)), caps);
  return d ? d->fingerprint : "none";
}

TEST(differential_roots, an_inserted_or_dropped_event_is_named_by_its_block) {
  // A block without data dispatched, wherever it is and whatever follows.
  EXPECT_EQ(fingerprint("event:x\n\ndata:a\n\n", json::array({ev("", "x"), ev("a")})), "wire.events.extra.no-data");
  EXPECT_EQ(fingerprint("data:a\n\nevent:\xC3\xA9\n\ndata:b\n\n", json::array({ev("a"), ev("", "\xC3\xA9"), ev("b")})),
            "wire.events.extra.no-data");
  // Equal events: the one the reference has is matched where it belongs,
  // the others with the blocks it dispatched nothing for.
  EXPECT_EQ(fingerprint("z\n\ndata\n\n\nevent:e\n\n", json::array({ev(""), ev(""), ev("", "e")})),
            "wire.events.extra.no-data");
  EXPECT_EQ(fingerprint("data\n\n\ndata\n\n", json::array({ev(""), ev(""), ev("")})), "wire.events.extra.blank");
  // The unterminated tail dispatched at the end of the stream.
  EXPECT_EQ(fingerprint("data:a\n\ndata:b", json::array({ev("a"), ev("b")})), "wire.events.extra.unterminated-tail");
  // A blank line alone, or after comments only.
  EXPECT_EQ(fingerprint("\ndata:a\n\n", json::array({ev(""), ev("a")})), "wire.events.extra.blank");
  EXPECT_EQ(fingerprint(":x\n\ndata:a\n\n", json::array({ev(""), ev("a")})), "wire.events.extra.comment-only");
  // An event with empty data dropped, and one with data.
  EXPECT_EQ(fingerprint("data\n\ndata:a\n\n", json::array({ev("a")})), "wire.events.missing.empty-data");
  EXPECT_EQ(fingerprint("data:a\n\ndata:b\n\n", json::array({ev("b")})), "wire.events.missing.data");
  // An event changed in place is named by its first differing member.
  EXPECT_EQ(fingerprint("data:a\n\ndata:b\n\n", json::array({ev("a"), ev("b", "x")})), "wire.type.differs");
}

TEST(differential_roots, what_the_adapter_cannot_report_is_masked_on_both_sides) {
  const std::vector<std::string> no_id{"bom", "cr", "nul", "utf8-repair", "retry"};
  // A data-less block before an id line is one extra event, though every id
  // after it differs in position.
  const json answered = json::array({ev("", "x"), ev("a", "message", ""), ev("b")});
  EXPECT_EQ(fingerprint("event:x\n\ndata:a\n\nid:7\ndata:b\n\n", answered, no_id), "wire.events.extra.no-data");
  // Ids alone differing is no divergence without last-event-id, one with it.
  EXPECT_EQ(fingerprint("id:7\ndata:b\n\n", json::array({ev("b")}), no_id), "none");
  EXPECT_EQ(fingerprint("id:7\ndata:b\n\n", json::array({ev("b")})), "wire.last-id.truncated");
  // The reference's retry is not compared without retry.
  const std::vector<std::string> no_retry{"bom", "cr", "nul", "utf8-repair", "last-event-id"};
  EXPECT_EQ(fingerprint("retry:5\ndata:b\n\n", json::array({ev("b")}), no_retry), "none");
  const auto c = diff::reference_case(conf::layer::wire, diff::sample_from_chunks({"id:7\ndata:b\n\n"}), nullptr);
  const auto masked = diff::masked_case(c, no_id);
  EXPECT_TRUE(conf::missing_capabilities(masked, no_id).empty());
  EXPECT_FALSE(conf::missing_capabilities(c, no_id).empty());
}

TEST(differential_roots, an_answer_event_without_data_has_empty_data) {
  const auto c = diff::reference_case(conf::layer::wire, diff::sample_from_chunks({"data\n\nevent:x\n\n"}), nullptr);
  EXPECT_FALSE(diff::judge(c, answer(c, json::array({{{"type", "message"}, {"lastEventId", ""}}})), {}));
  const auto d = diff::judge(
      c, answer(c, json::array({{{"type", "message"}, {"lastEventId", ""}}, {{"type", "x"}, {"lastEventId", ""}}})),
      {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->fingerprint, "wire.events.extra.no-data");
  // Without a type it is still malformed.
  EXPECT_EQ(diff::judge(c, answer(c, json::array({{{"data", ""}, {"lastEventId", ""}}})), {})->fingerprint,
            "adapter.malformed");
}

TEST(differential_roots, without_fields_removes_whole_lines_and_moves_cuts) {
  diff::sample s;
  s.bytes = "\xEF\xBB\xBFid:1\r\ndata:a\rid\nretry:5\n\n";
  s.cuts = {5, 12, 20};
  const auto t = diff::without_fields(s, {"id"});
  EXPECT_EQ(t.bytes,
            "\xEF\xBB\xBF"
            "data:a\rretry:5\n\n");
  EXPECT_EQ(t.cuts, (std::vector<std::size_t>{3, 6, 11}));
  EXPECT_EQ(diff::without_fields(s, {"retry"}).bytes, "\xEF\xBB\xBFid:1\r\ndata:a\rid\n\n");
}

std::optional<diff::sample> repaired(const diff::sample& s, std::string_view name) {
  for (const auto& r : diff::repairs_of(s)) {
    if (r.name == name) return r.repaired;
  }
  return std::nullopt;
}
diff::sample cut(std::string bytes, std::vector<std::size_t> cuts) {
  diff::sample s;
  s.bytes = std::move(bytes);
  s.cuts = std::move(cuts);
  return s;
}

TEST(differential_repairs, each_keeps_the_meaning_apart_from_what_it_repairs) {
  // A NUL in a field name stays: without it "\0data" would be a data line.
  EXPECT_EQ(repaired(cut(std::string("\0data:a\n\n", 9), {}), "nul"), std::nullopt);
  EXPECT_EQ(repaired(cut(std::string("da\0ta:a\0\n\n", 10), {}), "nul")->bytes, std::string("da\0ta:a\n\n", 9));
  // So does a value of NULs only (`event:\0` is not the empty type).
  EXPECT_EQ(repaired(cut(std::string("event:\0\n\n", 9), {}), "nul"), std::nullopt);
  EXPECT_EQ(repaired(cut(std::string("event: \0\0\n\n", 11), {}), "nul"), std::nullopt);
  EXPECT_EQ(repaired(cut(std::string("data:\0 ", 7), {}), "nul"), std::nullopt);
  EXPECT_EQ(repaired(cut(std::string("event:a\0\n\n", 10), {}), "nul")->bytes, "event:a\n\n");
  // A value of spaces only stays: `event:  ` made `event: ` would be the empty type.
  EXPECT_EQ(repaired(cut("event:  \ndata\n\n", {}), "spaces"), std::nullopt);
  EXPECT_EQ(repaired(cut("data:  a  b\n\n", {}), "spaces")->bytes, "data: a b\n\n");
  // A line of BOMs only goes whole: emptied, it would be a blank line, which dispatches.
  EXPECT_EQ(repaired(cut("data\n\xEF\xBB\xBF\ndata\n\n", {}), "bom")->bytes, "data\ndata\n\n");
  EXPECT_EQ(repaired(cut("data\r\xEF\xBB\xBF\xEF\xBB\xBF\r\ndata\n\n", {}), "bom")->bytes, "data\rdata\n\n");
  EXPECT_EQ(repaired(cut("data\n\xEF\xBB\xBF", {}), "bom")->bytes, "data\n");
  EXPECT_EQ(repaired(cut("data\n\xEF\xBB\xBF"
                         "data:a\n\n",
                         {}),
                     "bom")
                ->bytes,
            "data\ndata:a\n\n");
  // ... unless that would join a lone CR to an LF: then it stays.
  EXPECT_EQ(repaired(cut("a\r\xEF\xBB\xBF\n\n", {}), "bom"), std::nullopt);
}

TEST(differential_repairs, the_dispatch_rules_repairs_take_out_what_the_reference_discards) {
  const auto tail = repaired(cut("data:a\n\nevent:x\ndata", {3, 12}), "unterminated-tail");
  ASSERT_TRUE(tail);
  EXPECT_EQ(tail->bytes, "data:a\n\n");
  EXPECT_EQ(tail->cuts, (std::vector<std::size_t>{3}));
  // Data-less blocks go with their blank line; one with an id or retry stays.
  const auto no_data = repaired(cut("event:x\n:c\n\ndata:a\n\nid:1\n\nz\r\n\r\n", {}), "no-data");
  ASSERT_TRUE(no_data);
  EXPECT_EQ(no_data->bytes, "data:a\n\nid:1\n\n");
  EXPECT_EQ(repaired(cut("retry:1\n\ndata\n\n", {}), "no-data"), std::nullopt);
  EXPECT_EQ(diff::repair_fingerprint("wire", "no-data"), "wire.events.extra.no-data");
  EXPECT_EQ(diff::repair_fingerprint("agent", "unterminated-tail"), "agent.events.extra.unterminated-tail");
  EXPECT_EQ(diff::repair_fingerprint("wire", "bom"), "wire.bom");
}

TEST(differential_repairs, chunk_cuts_move_with_the_bytes_removed) {
  const auto nul = repaired(cut(std::string("data:\0\0ab\n\n", 11), {7, 9}), "nul");
  ASSERT_TRUE(nul);
  EXPECT_EQ(nul->bytes, "data:ab\n\n");
  EXPECT_EQ(nul->cuts, (std::vector<std::size_t>{5, 7}));
  const auto crlf = repaired(cut("data:a\r\n\r\n", {7, 9}), "crlf");
  ASSERT_TRUE(crlf);
  EXPECT_EQ(crlf->bytes, "data:a\n\n");
  EXPECT_EQ(crlf->cuts, (std::vector<std::size_t>{6, 7}));
  const auto utf8 = repaired(cut("data:\xC3\xA9\xFF\n\n", {6, 8}), "invalid-utf8");
  ASSERT_TRUE(utf8);
  EXPECT_EQ(utf8->bytes, "data:\xC3\xA9\xEF\xBF\xBD\n\n");
  EXPECT_EQ(utf8->cuts, (std::vector<std::size_t>{5, 10}));
  const auto bom = repaired(cut("\xEF\xBB\xBF\xEF\xBB\xBF"
                                "data\n\n",
                                {4, 7}),
                            "bom");
  ASSERT_TRUE(bom);
  EXPECT_EQ(bom->bytes, "data\n\n");
  EXPECT_EQ(bom->cuts, (std::vector<std::size_t>{1}));
}

class findings_out : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ssec-fuzz-out-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(findings_out, a_symbolic_link_in_the_folder_is_replaced_not_followed) {
  std::ofstream(dir_ / "target") << "keep\n";
  fs::create_symlink(dir_ / "target", dir_ / "wire.bom.yaml");
  ASSERT_TRUE(diff::write_finding_file(dir_ / "wire.bom.yaml", "finding\n"));
  EXPECT_EQ(read(dir_ / "target"), "keep\n");
  EXPECT_FALSE(fs::is_symlink(dir_ / "wire.bom.yaml"));
  EXPECT_EQ(read(dir_ / "wire.bom.yaml"), "finding\n");
}

TEST_F(findings_out, a_folder_that_is_a_link_or_cannot_be_written_is_refused) {
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "out");
  const auto linked = diff::prepare_out_dir(dir_ / "out" / "toy");
  ASSERT_FALSE(linked);
  EXPECT_NE(linked.error().message.find("symbolic link"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere" / "toy"));
  EXPECT_TRUE(diff::prepare_out_dir(dir_ / "fresh" / "toy"));
  EXPECT_TRUE(fs::is_empty(dir_ / "fresh" / "toy"));
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directories(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    const auto locked = diff::prepare_out_dir(dir_ / "locked" / "toy");
    fs::permissions(dir_ / "locked", fs::perms::owner_all);
    EXPECT_FALSE(locked);
  }
}

TEST(differential_out, folder_names_come_from_the_hello_sanitised) {
  EXPECT_EQ(diff::impl_dir_name("@anthropic-ai/sdk"), "_anthropic-ai_sdk");
  EXPECT_EQ(diff::impl_dir_name(".."), "impl..");
  EXPECT_EQ(diff::impl_dir_name(""), "impl");
  EXPECT_EQ(diff::impl_dir_name("a\nb/../c"), "a_b_.._c");
}

}  // namespace
