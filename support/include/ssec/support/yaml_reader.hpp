// SPDX-License-Identifier: MIT
// The one YAML reader under the catalog, case and scenario loaders: loading
// exactly one document, and reading mappings and scalars with every problem
// collected as an `ssec::error` at its file:line:column. One wording for each
// kind of problem across the loaders; keys and names are quoted `so`.
// The document is read in one pass of yaml-cpp's parser events into a tree of
// our own (`node`): yaml-cpp's own tree would need a second parse (its
// builder does not report what the limits below need), and parsing twice
// would double every loader's time (tools/docs/benchmarks.md, "The fuzz
// harnesses").
// yaml-cpp throws; nothing here lets a yaml-cpp exception escape, and no
// yaml-cpp type is in this interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ssec/support/result.hpp"

namespace ssec::yaml {

/// A position in the text, as the parser gives it: 0-based byte offset, line
/// and column; -1 where there is none (a node that does not exist).
struct mark {
  int pos = -1;
  int line = -1;
  int column = -1;
};

/// What a node is. `null` is an empty value, `~` or `null` written plain.
enum class node_kind : std::uint8_t {
  undefined,  ///< No node: a key a mapping lacks, a default-made node.
  null,       ///< An empty value (also the whole of an empty document).
  scalar,     ///< A string as written (`tag()` tells plain from quoted).
  sequence,   ///< A list: items().
  map,        ///< A mapping: pairs(), every key in file order, repeated keys too.
};

namespace detail {
struct tree;
}

struct node_pair;
template <class Value>
class node_range;

/// One node of a loaded document. A handle: copying it is cheap and shares the
/// document, which lives while any of its nodes does. An alias is the node it
/// names (the same node, with the anchor's position). Read-only, so
/// thread-safe to read from several threads.
class node {
 public:
  /// An undefined node (false, kind undefined).
  node() = default;

  /// False only for an undefined node.
  explicit operator bool() const noexcept { return kind() != node_kind::undefined; }
  node_kind kind() const noexcept;
  bool is_null() const noexcept { return kind() == node_kind::null; }
  bool is_scalar() const noexcept { return kind() == node_kind::scalar; }
  bool is_sequence() const noexcept { return kind() == node_kind::sequence; }
  bool is_map() const noexcept { return kind() == node_kind::map; }

  /// A scalar's text; empty for every other kind.
  const std::string& scalar() const noexcept;
  /// The tag as the parser resolved it: "?" for a plain scalar, "!" for a
  /// quoted one, the tag written otherwise; empty for null and undefined nodes.
  const std::string& tag() const noexcept;
  /// Where the node starts in the text; all -1 for an undefined node.
  yaml::mark mark() const noexcept;

  /// Items of a sequence, pairs of a mapping, 0 for every other kind.
  std::size_t size() const noexcept;
  /// The value of the first pair whose key is the scalar `key`; an undefined
  /// node when there is none, or when this node is not a mapping.
  node operator[](std::string_view key) const;

  /// A sequence's items in order; empty for every other kind.
  node_range<node> items() const;
  /// A mapping's pairs in file order; empty for every other kind.
  node_range<node_pair> pairs() const;

 private:
  friend struct detail::tree;
  template <class Value>
  friend class node_range;
  node(std::shared_ptr<const detail::tree> tree, std::uint32_t index) : tree_(std::move(tree)), index_(index) {}
  node child(std::size_t k) const;

  std::shared_ptr<const detail::tree> tree_;
  std::uint32_t index_ = 0;
};

/// One key and its value, as a mapping holds them.
struct node_pair {
  node first;   ///< The key.
  node second;  ///< The value.
};

/// The children of one node: items of a sequence (as nodes), pairs of a
/// mapping (as node_pair); empty for every other kind. The range and its
/// iterators hold the node, so they may outlive the node they were asked of.
template <class Value>
class node_range {
 public:
  class iterator {
   public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(node of, std::size_t at) : of_(std::move(of)), at_(at) {}
    Value operator*() const {
      if constexpr (std::is_same_v<Value, node_pair>) {
        return node_pair{of_.child(2 * at_), of_.child(2 * at_ + 1)};
      } else {
        return of_.child(at_);
      }
    }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator was = *this;
      ++at_;
      return was;
    }
    bool operator==(const iterator& other) const noexcept { return at_ == other.at_; }

   private:
    node of_;
    std::size_t at_ = 0;
  };

  explicit node_range(node of) : of_(std::move(of)) {}
  iterator begin() const { return iterator(of_, 0); }
  iterator end() const { return iterator(node(), of_.size()); }
  std::size_t size() const noexcept { return of_.size(); }

 private:
  node of_;
};

inline node_range<node> node::items() const { return node_range<node>(is_sequence() ? *this : node()); }
inline node_range<node_pair> node::pairs() const { return node_range<node_pair>(is_map() ? *this : node()); }

/// How much a document may build beyond its own text. The tree holds the
/// node an alias names once, but every loader walks and copies what it reads, so
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
result<node> load_document(std::string_view text, const std::string& file, document_limits limits = {});

/// A loaded document's tree as bytes, for a build step to compile into a
/// program: load_compiled() gives back the same nodes (kinds, scalars, tags,
/// marks, aliases shared) without parsing YAML. Parsing the built-in catalogs
/// would be most of every command's start-up (tools/docs/benchmarks.md,
/// "Start-up"). Not an
/// interchange format: it follows this reader's tree, so it is written by the
/// build that reads it, never kept.
std::string compile_document(const node& document);

/// The document compile_document() wrote. Checks what it reads before it
/// builds it: every length and count within the bytes, every link to a node
/// that exists, no node inside itself; anything else is an error naming
/// `file` ("not a compiled YAML document: ..."). `document` must be a
/// document's root (what load_document gave).
result<node> load_compiled(std::string_view bytes, const std::string& file);

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
  node key_node;
  node value;
};

/// A mapping's accepted entries, in file order, each key once.
struct mapping {
  yaml::node node;
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
  yaml::node node;
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
  bool charge(const node& at, std::uint64_t bytes, std::string_view what);
  /// Names the budget in charge()'s refusal, in place of "this file's budget
  /// of <budget>": a load that shares one budget across files says so.
  void name_budget(std::string name) { budget_name_ = std::move(name); }
  /// Bytes booked so far, and what is left of the budget.
  std::uint64_t built() const noexcept { return built_; }
  std::uint64_t remaining() const noexcept { return budget_ - built_; }

  /// 1-based line of a node, 0 when unknown.
  static std::size_t line(const node& n);

  /// Reports at a 1-based line and column (0: unknown).
  void error(std::size_t line, std::size_t column, std::string message);
  void error(const yaml::mark& at, std::string message);
  void error(const node& at, std::string message);
  /// At the entry's value, or at its key when the value is empty.
  void error(const entry& at, std::string message);

  /// Checks that `n` is a mapping whose keys are plain names, each once, and
  /// among `allowed` (any name when `allowed` is empty). Rejected keys are
  /// reported ("duplicate key `k` in <what> (first at line N)", "unknown key
  /// `k` in <what> (allowed: a, b)") and left out. std::nullopt when `n` is
  /// not a mapping ("<what> must be a mapping"). An empty `what` drops the
  /// " in <what>" part.
  std::optional<mapping> read_mapping(const node& n, std::string_view what,
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
  std::optional<std::string> text(const node& n, std::string_view name, bool may_be_empty = false);

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
  std::optional<std::vector<list_item>> string_items(const node& n, std::string_view name, list_rules rules = {});
  /// The same, the strings only.
  std::optional<std::vector<std::string>> strings(const entry& e, std::string_view what, list_rules rules = {});

 private:
  std::optional<std::string> text_at(const entry& e, const std::string& name, bool may_be_empty);
  std::optional<std::vector<list_item>> items_at(const entry& e, const std::string& name, list_rules rules);

  std::string file_;
  std::vector<ssec::error>* errors_;
  std::size_t count_ = 0;
  std::uint64_t budget_;
  std::string budget_name_;  // empty: "this file's budget of <budget>"
  std::uint64_t built_ = 0;
};

}  // namespace ssec::yaml
