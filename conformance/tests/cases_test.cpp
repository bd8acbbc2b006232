// SPDX-License-Identifier: MIT
// The conformance runner: every case of conformance/cases/ is one test
// instance, named <file>_<id>, that runs the reference parser under every
// chunking of the default plan (whole, as written, byte by byte, every split
// point up to 4 KiB, 8 seeded random splits) and compares the log.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "ssec/conformance/dialect_runner.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/conformance/summary.hpp"
#include "ssec/support/input.hpp"

namespace {

namespace conf = ssec::conformance;

const std::filesystem::path source_dir = SSEC_SOURCE_DIR;

struct loaded_suite {
  std::vector<ssec::error> tag_errors;
  conf::tag_list tags;
  ssec::load_result<std::vector<conf::test_case>> result;
};

// Loaded once per process, on first use (gtest asks for the instances while
// registering tests, before main's RUN_ALL_TESTS).
const loaded_suite& suite() {
  static const loaded_suite loaded = [] {
    loaded_suite s;
    s.tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", s.tag_errors);
    s.result = conf::load_case_tree(source_dir / "conformance/cases", "conformance/cases", s.tags);
    return s;
  }();
  return loaded;
}

// Loading problems fail here, with every file:line, rather than quietly
// leaving cases out.
TEST(case_files, load_without_errors) {
  const auto& s = suite();
  std::string tag_errors;
  for (const auto& e : s.tag_errors) tag_errors += e.to_string() + "\n";
  EXPECT_TRUE(s.tag_errors.empty()) << tag_errors;
  EXPECT_TRUE(s.result.ok()) << s.result.error_text();
  EXPECT_GE(s.result.value.size(), 100u) << "the hand-written wire cases went missing";
}

// The repository's cases leave room under the budget a load of case files
// shares (resources.md, "What a load builds"): a quarter of it is enough.
TEST(case_files, build_within_a_quarter_of_the_load_budget) {
  const auto& s = suite();
  const auto quarter = conf::load_case_tree(source_dir / "conformance/cases", "conformance/cases", s.tags,
                                            conf::default_tree_build_budget / 4);
  EXPECT_TRUE(quarter.ok()) << quarter.error_text();
  EXPECT_EQ(quarter.value.size(), s.result.value.size());
}

// The anchors of spec/DECISIONS.md that the cases cite must exist there:
// a Markdown heading (GitHub slug), an id="..." attribute or a {#...} label.
std::set<std::string> decision_anchors(const std::string& text) {
  std::set<std::string> anchors;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("#")) {
      std::string slug;
      for (const char ch : line.substr(line.find_first_not_of('#'))) {
        if (std::isalnum(static_cast<unsigned char>(ch))) slug.push_back(static_cast<char>(std::tolower(ch)));
        else if (ch == '-' || ch == '_') slug.push_back(ch);
        else if (ch == ' ' && !slug.empty()) slug.push_back('-');
      }
      anchors.insert(slug);
    }
    for (const std::string opener : {"id=\"", "{#"}) {
      for (std::size_t at = line.find(opener); at != std::string::npos; at = line.find(opener, at + 1)) {
        const std::size_t start = at + opener.size();
        const std::size_t end = line.find_first_of("\"}", start);
        if (end != std::string::npos) anchors.insert(line.substr(start, end - start));
      }
    }
  }
  return anchors;
}

// Anchors requested from spec/DECISIONS.md's owner and not written yet: a
// case may cite them meanwhile. The list only shrinks: an anchor that now
// exists must leave it.
const std::set<std::string> pending_anchors{};

TEST(case_files, cited_decisions_exist) {
  const auto text = ssec::read_all((source_dir / "spec/DECISIONS.md").string());
  if (!text) GTEST_SKIP() << "spec/DECISIONS.md is not written yet";
  const auto anchors = decision_anchors(text.value());
  for (const auto& pending : pending_anchors) {
    EXPECT_FALSE(anchors.count(pending)) << "spec/DECISIONS.md#" << pending
                                         << " exists now: remove it from pending_anchors in " << __FILE__;
  }
  for (const auto& c : suite().result.value) {
    for (const auto& from : c.from) {
      if (!from.starts_with("spec/DECISIONS.md#")) continue;
      const std::string anchor = from.substr(from.find('#') + 1);
      if (pending_anchors.count(anchor)) continue;
      EXPECT_TRUE(anchors.count(anchor)) << c.where.to_string() << ": case " << c.id << " cites " << from
                                         << ", which spec/DECISIONS.md does not define";
    }
  }
}

// A `must` rests on the words of a protocol document or of the WHATWG rules
// (spec/DECISIONS.md#severity-basis): every must case cites one, a WHATWG
// URL or a document line named by the document alone (`agent-service.txt:9`;
// the documents are not in this repository, so never a path to them).
TEST(case_files, every_must_case_cites_a_document_line_or_whatwg) {
  const auto document_line = [](const std::string& from) {
    const std::size_t at = from.find(".txt:");
    return at != std::string::npos && at > 0 && from.find('/') == std::string::npos && at + 5 < from.size() &&
           std::isdigit(static_cast<unsigned char>(from[at + 5]));
  };
  std::size_t checked = 0;
  for (const auto& c : suite().result.value) {
    for (const auto& from : c.from) {
      EXPECT_FALSE(from.find(".txt:") != std::string::npos && !document_line(from))
          << c.where.to_string() << ": case " << c.id << " cites " << from
          << ": cite a protocol document by its name alone (agent-service.txt:9)";
    }
    if (c.verdict != conf::verdict::must) continue;
    ++checked;
    const bool grounded = std::any_of(c.from.begin(), c.from.end(), [&](const std::string& from) {
      return from.starts_with("https://html.spec.whatwg.org/") ||
             from.starts_with("https://encoding.spec.whatwg.org/") || document_line(from);
    });
    EXPECT_TRUE(grounded) << c.where.to_string() << ": must case " << c.id
                          << " cites neither a WHATWG section nor a protocol document line";
  }
  EXPECT_GT(checked, 500u);
}

// spec/DECISIONS.md reserves case ids for its decisions ("Cases: `H5JQ`"):
// a case with a reserved id must cite the decision that reserved it.
TEST(case_files, reserved_ids_cite_their_decision) {
  const auto text = ssec::read_all((source_dir / "spec/DECISIONS.md").string());
  if (!text) GTEST_SKIP() << "spec/DECISIONS.md is not written yet";
  std::map<std::string, std::string> reserved;  // id -> anchor
  std::istringstream lines(text.value());
  std::string line;
  std::string anchor;
  while (std::getline(lines, line)) {
    if (line.starts_with("## ")) anchor = line.substr(3);
    const auto cases_at = line.find("Cases:");
    if (cases_at == std::string::npos || anchor.empty()) continue;
    for (std::size_t at = line.find('`', cases_at); at != std::string::npos; at = line.find('`', at + 1)) {
      const std::size_t end = line.find('`', at + 1);
      if (end == std::string::npos) break;
      const std::string id = line.substr(at + 1, end - at - 1);
      if (conf::is_valid_case_id(id)) reserved.emplace(id, anchor);
      at = end;
    }
  }
  EXPECT_FALSE(reserved.empty()) << "no reserved case ids found: has the format of spec/DECISIONS.md changed?";
  for (const auto& c : suite().result.value) {
    const auto r = reserved.find(c.id);
    if (r == reserved.end()) continue;
    const std::string cite = "spec/DECISIONS.md#" + r->second;
    EXPECT_NE(std::find(c.from.begin(), c.from.end(), cite), c.from.end())
        << c.where.to_string() << ": case " << c.id << " has an id that spec/DECISIONS.md reserves for " << cite
        << ", but does not cite it";
  }
}

TEST(case_files, summary_counts_every_case) {
  const auto& cases = suite().result.value;
  std::ostringstream out;
  conf::print_summary(out, cases, &suite().tags);
  const std::string table = out.str();
  std::cout << table;
  const auto wire_cases = static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const conf::test_case& c) { return c.layer == conf::layer::wire; }));
  std::istringstream rows(table);
  std::string row;
  std::size_t wire_count = 0;
  std::size_t total_count = 0;
  while (std::getline(rows, row)) {
    std::istringstream cells(row);
    std::string name;
    std::size_t count = 0;
    cells >> name >> count;
    if (name == "wire") wire_count = count;
    if (name == "total") total_count = count;
  }
  EXPECT_EQ(wire_count, wire_cases);
  EXPECT_EQ(total_count, cases.size());
}

class reference_parser : public testing::TestWithParam<std::size_t> {};

TEST_P(reference_parser, matches_case) {
  const conf::test_case& c = suite().result.value[GetParam()];
  const auto failure = conf::check_reference(c, conf::chunking_plan{});
  if (failure) ADD_FAILURE_AT(c.where.file.c_str(), static_cast<int>(c.where.line)) << conf::describe(c, *failure);
  // Dialect layers: the reference decoder under the same chunkings, and the producer validator.
  if (const auto dialect_failure = conf::check_dialect_reference(c, conf::chunking_plan{})) {
    ADD_FAILURE_AT(c.where.file.c_str(), static_cast<int>(c.where.line)) << *dialect_failure;
  }
}

std::vector<std::size_t> case_indices() {
  std::vector<std::size_t> out(suite().result.value.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

INSTANTIATE_TEST_SUITE_P(conformance, reference_parser, testing::ValuesIn(case_indices()),
                         [](const testing::TestParamInfo<std::size_t>& info) {
                           return suite().result.value[info.param].test_name();
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(reference_parser);

}  // namespace
