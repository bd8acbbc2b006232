// SPDX-License-Identifier: MIT
// Loading case files and the closed tag list, with every problem reported as
// file:line and what is wrong. The format is in conformance/README.md.
// Not thread-safe per call; separate calls share nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/conformance/case.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// The closed tag list of spec/tags.yaml: tag name -> what it means.
struct tag_list {
  std::map<std::string, std::string, std::less<>> descriptions;
  bool contains(std::string_view tag) const { return descriptions.find(tag) != descriptions.end(); }
};

/// Reads the tag list: a YAML mapping under the key `tags` of lowercase
/// kebab-case names to non-empty one-line descriptions. Errors (unreadable
/// file, malformed YAML, duplicate or malformed names) go to `errors`;
/// `display` names the file in them.
tag_list load_tags(const std::filesystem::path& path, std::string_view display, std::vector<ssec::error>& errors);
/// The same from text (tests).
tag_list load_tags_from_text(std::string_view text, std::string_view display, std::vector<ssec::error>& errors);

/// The loaders below return the cases that loaded (`value`) and every error;
/// callers must treat any error as a failure: a case with an error is left out.

/// Loads one case file's text: `display` names it in errors and in each
/// case's `where`; `topic` becomes each case's topic. Checks the schema,
/// the tags against `tags`, and duplicate ids within the file.
ssec::load_result<std::vector<test_case>> load_cases_from_text(std::string_view text, std::string_view display,
                                                               std::string_view topic, const tag_list& tags);
/// The same with the file's build budget given (tools/docs/resources.md; the
/// default is ssec::yaml::default_build_budget, 128 MiB). The fuzzing harness
/// gives a small one: the same booking and refusals, without building a
/// 64 MiB input on every execution of a seed that asks for one.
ssec::load_result<std::vector<test_case>> load_cases_from_text(std::string_view text, std::string_view display,
                                                               std::string_view topic, const tag_list& tags,
                                                               std::uint64_t build_budget);

/// Loads one case file from disk (topic: the file's stem).
ssec::load_result<std::vector<test_case>> load_case_file(const std::filesystem::path& path, std::string_view display,
                                                         const tag_list& tags);

/// What a whole load of case files (load_case_tree) may build, summed over
/// its files: 256 MiB. One file may use the whole of a file's budget
/// (ssec::yaml::default_build_budget); forty files each just under it would
/// otherwise build forty times as much.
inline constexpr std::uint64_t default_tree_build_budget = std::uint64_t{256} << 20;

/// Loads every `*.yaml` file under `root`, recursively, in sorted path order,
/// and checks that ids are unique across all of them. Files are shown as
/// `display_root` + "/" + their path relative to `root`. Each file builds
/// within what is left of `tree_budget` (and of its own file budget): a
/// file that would build past it is refused, naming the file and the line.
ssec::load_result<std::vector<test_case>> load_case_tree(const std::filesystem::path& root,
                                                         std::string_view display_root, const tag_list& tags,
                                                         std::uint64_t tree_budget = default_tree_build_budget);

/// True for a well-formed case id: 4 characters of A-HJ-NP-Z2-9 (no I, O, 0
/// or 1), at least one letter and one digit (the yaml-test-suite alphabet).
bool is_valid_case_id(std::string_view id) noexcept;

}  // namespace ssec::conformance
