// SPDX-License-Identifier: MIT
// The one YAML reader under the catalog, case and scenario loaders: loading
// exactly one document, and reading mappings and scalars with every problem
// collected as an `ssec::error` at its file:line:column. One wording for each
// kind of problem across the loaders; keys and names are quoted `so`.
// yaml-cpp throws; nothing here lets a yaml-cpp exception escape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ssec/result.hpp"

namespace ssec::yaml {

/// How much a document may build beyond its own text. yaml-cpp shares the
/// node an alias names, but every loader walks and copies what it reads, so
/// an alias costs what its node costs again: seven levels of ten aliases
/// each are ten million copies from a few kilobytes (an "alias bomb").
struct document_limits {
  /// The most the aliases of one document may add, counted as the bytes of
  /// the scalars they repeat plus `node_cost` for every node they repeat.
  std::uint64_t max_alias_expansion = std::uint64_t{4} << 20;
  /// What one node counts for (a node of the loaders' own structures, a
  /// JSON value, costs about this much even when its scalar is empty).
  std::uint64_t node_cost = 16;
};

/// Parses `text` as exactly one YAML document. Errors name `file`:
/// "malformed YAML: <yaml-cpp's reason>" at the position yaml-cpp gives;
/// "a second YAML document starts here; a file holds one" at the start of
/// a second document (a stray one is an error, never silently ignored);
/// "aliases would build more than N ..." at the alias that crosses
/// `limits.max_alias_expansion` (measured from parser events, before any
/// loader copies a node); "the alias *name refers to a node that contains
/// it" at an alias inside its own anchor (a cycle, which every walk of the
/// tree would follow forever). An empty text is one document, a null node.
result<YAML::Node> load_document(const std::string& text, const std::string& file, document_limits limits = {});

/// What one file may make its loader build (strings, inputs with their
/// repeats multiplied, expected logs): 128 MiB, room for a case's largest
/// input (64 MiB) and its expected log.
inline constexpr std::uint64_t default_build_budget = std::uint64_t{128} << 20;

/// "64 MiB", "3 KiB", "12 bytes": a size as the loaders' messages give it.
std::string size_text(std::uint64_t bytes);

/// `s` quoted as messages quote keys and names: `s`.
std::string in_backticks(std::string_view s);

/// One key of a mapping, with its nodes for error positions.
struct entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

/// A mapping's accepted entries, in file order, each key once.
struct mapping {
  YAML::Node node;
  std::vector<entry> entries;
  bool complete = true;  ///< False when a key was rejected (duplicate, unknown, not a plain name).

  /// The entry with this key, or nullptr.
  const entry* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }
};

/// What a list of strings may look like besides a non-empty list of
/// non-empty strings.
struct list_rules {
  bool single_ok = false;       ///< A single string stands for a list of one.
  bool empty_list_ok = false;   ///< [] is accepted.
  bool empty_items_ok = false;  ///< "" is accepted as an item.
};

/// One string of a list, with its node for error positions.
struct list_item {
  std::string text;
  YAML::Node node;
};

/// Reads one file's nodes, sending every problem to a shared error list with
/// the file's name and the 1-based line and column of the node at fault.
/// Readers return std::nullopt after reporting; they never throw for a
/// node of the wrong shape. Not thread-safe; the error list must outlive it.
class reader {
 public:
  /// `budget`: the most charge() lets the file's loader build.
  reader(std::string file, std::vector<ssec::error>& errors, std::uint64_t budget = default_build_budget)
      : file_(std::move(file)), errors_(&errors), budget_(budget) {}

  const std::string& file() const noexcept { return file_; }
  /// Errors reported through this reader so far.
  std::size_t count() const noexcept { return count_; }

  /// Books `bytes` the loader is about to build for the node `at` against the
  /// file's budget, BEFORE it allocates them. True when they fit; otherwise
  /// reports "<what> would build N bytes, more than the M left of this file's
  /// budget of B (repeats multiplied, aliases expanded)" at `at`, books
  /// nothing, and returns false: the loader must not build them.
  bool charge(const YAML::Node& at, std::uint64_t bytes, std::string_view what);
  /// Bytes booked so far, and what is left of the budget.
  std::uint64_t built() const noexcept { return built_; }
  std::uint64_t remaining() const noexcept { return budget_ - built_; }

  /// 1-based line of a node, 0 when unknown.
  static std::size_t line(const YAML::Node& n);

  /// Reports at a 1-based line and column (0: unknown).
  void error(std::size_t line, std::size_t column, std::string message);
  void error(const YAML::Mark& at, std::string message);
  void error(const YAML::Node& at, std::string message);
  /// At the entry's value, or at its key when the value is empty.
  void error(const entry& at, std::string message);

  /// Checks that `n` is a mapping whose keys are plain names, each once, and
  /// among `allowed` (any name when `allowed` is empty). Rejected keys are
  /// reported ("duplicate key `k` in <what> (first at line N)", "unknown key
  /// `k` in <what> (allowed: a, b)") and left out. std::nullopt when `n` is
  /// not a mapping ("<what> must be a mapping"). An empty `what` drops the
  /// " in <what>" part.
  std::optional<mapping> read_mapping(const YAML::Node& n, std::string_view what,
                                      const std::vector<std::string_view>& allowed);

  /// Reports each of `keys` the mapping lacks ("missing required key `k` in
  /// <what>", at the mapping); true when none is missing.
  bool require(const mapping& m, std::string_view what, const std::vector<std::string_view>& keys);

  /// The entry `key` of `m`, or nullptr; when it is `required`, its absence
  /// is reported as require() does.
  const entry* field(const mapping& m, std::string_view key, std::string_view what, bool required);

  // Typed values. The entry forms name the value "`key` of <what>" ("`key`"
  // when `what` is empty); the node forms take that name whole.

  /// A string scalar; "" only when `may_be_empty`.
  std::optional<std::string> text(const entry& e, std::string_view what, bool may_be_empty = false);
  std::optional<std::string> text(const YAML::Node& n, std::string_view name, bool may_be_empty = false);

  /// true or false, written so and unquoted (YAML 1.2 core schema: no yes/no/on/off).
  std::optional<bool> boolean(const entry& e, std::string_view what);

  /// An unquoted integer in [min, max].
  std::optional<std::int64_t> integer(const entry& e, std::string_view what,
                                      std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                      std::int64_t max = std::numeric_limits<std::int64_t>::max());
  /// An unquoted non-negative integer in [min, max], the whole uint64 range.
  std::optional<std::uint64_t> unsigned_integer(const entry& e, std::string_view what, std::uint64_t min = 0,
                                                std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

  /// A list of strings (see list_rules), each with its node.
  std::optional<std::vector<list_item>> string_items(const entry& e, std::string_view what, list_rules rules = {});
  std::optional<std::vector<list_item>> string_items(const YAML::Node& n, std::string_view name, list_rules rules = {});
  /// The same, the strings only.
  std::optional<std::vector<std::string>> strings(const entry& e, std::string_view what, list_rules rules = {});

 private:
  std::optional<std::string> text_at(const entry& e, const std::string& name, bool may_be_empty);
  std::optional<std::vector<list_item>> items_at(const entry& e, const std::string& name, list_rules rules);

  std::string file_;
  std::vector<ssec::error>* errors_;
  std::size_t count_ = 0;
  std::uint64_t budget_;
  std::uint64_t built_ = 0;
};

}  // namespace ssec::yaml
