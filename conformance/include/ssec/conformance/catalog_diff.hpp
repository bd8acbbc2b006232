// SPDX-License-Identifier: MIT
// The catalog diff: what changed between two catalog sets (spec/FORMAT.md),
// each change under a stable rule id with a level per role, a fingerprint, a
// counterexample stream and the generated cases that pin it. The rule table
// and its reasoning: tools/docs/catalog-diff.md.
//
// Roles:
//   reader  SDKs and frontends that parse the stream of a producer of NEW
//           while written against OLD;
//   writer  other producers and proxies written against OLD that must now
//           emit what NEW requires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/catalog.hpp"

namespace ssec::conformance {

/// How bad a change is for one role. Ordered: info < warn < err.
enum class change_level : std::uint8_t {
  info = 0,  ///< Nothing breaks.
  warn = 1,  ///< Breaks a consumer that is not tolerant (a strict allow-list, a strict schema).
  err = 2,   ///< Breaks a conforming consumer or producer of OLD.
};

/// "INFO", "WARN", "ERR".
std::string_view to_string(change_level l) noexcept;

/// The level spelled "ERR"/"WARN"/"INFO" (case-insensitive), or nullopt.
std::optional<change_level> parse_change_level(std::string_view s) noexcept;

/// One diff rule: its id, fixed level per role and why.
struct diff_rule {
  std::string_view id;       ///< "EVENT_ADDED"; stable, never renamed.
  change_level reader;       ///< Level for SDKs/frontends reading NEW's streams.
  change_level writer;       ///< Level for producers/proxies that must emit what NEW requires.
  std::string_view meaning;  ///< One line: what the rule detects.
  std::string_view reason;   ///< One line: why these levels.
};

/// Every diff rule, in documentation order. Static storage.
std::span<const diff_rule> diff_rules() noexcept;

/// The rule with this id, or nullptr.
const diff_rule* find_diff_rule(std::string_view id) noexcept;

/// A short stream that a consumer of OLD (role reader) or a producer of NEW
/// compared with OLD (role writer) mishandles.
struct counterexample {
  std::string role;                 ///< "reader" or "writer": who mishandles it.
  std::string dialect;              ///< The dialect the stream is in.
  std::vector<std::string> chunks;  ///< The stream's bytes, one string per chunk (raw bytes).
  std::string input;                ///< The same as a case `input:` list: `["data: ...\n\n"]` (ssec::quote).
  std::string explanation;          ///< One sentence: what goes wrong with it.
};

/// One change between the two sets.
struct catalog_change {
  std::string rule;                   ///< Stable rule id: EVENT_ADDED, FIELD_REMOVED, ...
  std::string dialect, event, field;  ///< field as a dotted path ("payload.resume"); empty where n/a.
  std::string producer_rule;          ///< A catalog rule id for RULE_* and TERMINAL_CHANGED changes, else empty.
  std::string file;                   ///< The catalog file (last path component) the change is in.
  change_level reader = change_level::info;
  change_level writer = change_level::info;
  std::string message;                          ///< One sentence, old -> new.
  std::string fingerprint;                      ///< 16 hex digits: fnv1a of rule + location (never of wording).
  sse::dialect::location old_where, new_where;  ///< Empty file when not present on that side.
  std::optional<counterexample> example;        ///< For every ERR and WARN change (either role).
  std::vector<std::string> pinned_by;           ///< Ids of NEW's generated cases that pin the change (bounded).
  std::size_t pinned_total = 0;                 ///< How many cases pin it before the bound.

  /// The highest of reader and writer.
  change_level worst() const noexcept { return reader > writer ? reader : writer; }
};

/// catalog_version of one file of a set.
struct catalog_file_version {
  std::string file;     ///< The file name as loaded (its last path component for the key).
  std::string version;  ///< catalog_version, "" when the file is not in the set.
};

/// The whole diff.
struct catalog_diff {
  std::string old_version, new_version;  ///< "2.0.0", or "chat.yaml 2.0.0, agent.yaml 1.0.0" for several files.
  std::vector<catalog_file_version> old_files, new_files;
  std::vector<catalog_change> changes;  ///< Sorted by dialect, event, field, rule (stable).
};

/// Bounds and extras of diff_catalogs.
struct diff_options {
  bool counterexamples = true;                 ///< Build counterexamples for ERR/WARN changes.
  bool pin_cases = true;                       ///< Generate NEW's cases and name those that pin each change.
  std::set<std::string> reserved_ids;          ///< Passed to generate_cases (ids of hand-written cases).
  std::size_t max_pinned = 8;                  ///< At most this many case ids per change.
  std::size_t max_counterexample_bytes = 512;  ///< A counterexample stream is cut to at most this.
};

/// The changes from `old_set` to `new_set`, with counterexamples and pinning
/// cases. Deterministic; never throws for loaded catalogs. Files are matched
/// by file name (the last path component), dialects by name, events by type,
/// fields by key, rules by id.
catalog_diff diff_catalogs(const sse::dialect::catalog& old_set, const sse::dialect::catalog& new_set);
catalog_diff diff_catalogs(const sse::dialect::catalog& old_set, const sse::dialect::catalog& new_set,
                           const diff_options& options);

/// The fingerprint of a change with this rule and location: 16 lower-case hex
/// digits of fnv1a("rule|dialect|event|field|producer_rule|"). VERSION_*
/// changes pass "file:<name>" as the dialect.
std::string change_fingerprint(std::string_view rule, std::string_view dialect, std::string_view event,
                               std::string_view field, std::string_view producer_rule);

/// A parsed `MAJOR.MINOR.PATCH` (pre-release/build suffixes ignored).
struct semver {
  int major = 0, minor = 0, patch = 0;
};

/// Parses `MAJOR.MINOR.PATCH[-pre][+build]`, or nullopt.
std::optional<semver> parse_semver(std::string_view s) noexcept;

/// What a version change is: "major", "minor", "patch", "none" or "down" (or
/// "invalid" when either does not parse).
std::string_view bump_kind(std::string_view old_version, std::string_view new_version) noexcept;

}  // namespace ssec::conformance
