// SPDX-License-Identifier: MIT
// The event catalogs (spec/*.yaml) in memory, and their loader.
// The format is specified in spec/FORMAT.md; everything the decoders and the
// producer validator do is read from here, so a new event type or rule is a
// YAML change only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/support/result.hpp"

namespace sse::dialect {

/// The six JSON value types.
enum class json_type : std::uint8_t {
  null = 0,     ///< null
  boolean = 1,  ///< true or false
  number = 2,   ///< any JSON number
  string = 3,   ///< a string
  array = 4,    ///< an array
  object = 5,   ///< an object
};

/// Stable lower-case name ("string", "object", ...).
std::string_view to_string(json_type t) noexcept;

/// The JSON types a catalog field admits. `integer` admits a number with an
/// integral value (3 and 3.0 alike), `number` every number, `any` everything.
struct type_set {
  static constexpr std::uint8_t null = 1, boolean = 2, integer = 4, number = 8, string = 16, array = 32, object = 64,
                                any = 127;
  std::uint8_t bits = 0;

  /// True when a value of type `t` (integral when `integral`) is admitted.
  bool admits(json_type t, bool integral) const noexcept;
  /// True when a JSON value is admitted.
  bool admits(const nlohmann::json& value) const noexcept;
  /// The catalog spelling: "string", "object|string", "any".
  std::string to_string() const;
};

/// Where something was written: file (as given to the loader), 1-based line and column.
struct location {
  std::string file;
  int line = 0;
  int column = 0;
  /// "file:line:column", or "file" when the line is unknown.
  std::string to_string() const;
};

/// Traceability of a catalog entry: document lines or URLs, and a DECISIONS.md anchor.
struct trace {
  std::vector<std::string> sources;  ///< "<document>:<line>" or an https URL.
  std::string decision;              ///< Anchor in spec/DECISIONS.md, or empty.
  /// An event or rule this catalog authors: the team's own reference for it
  /// (its document, a URL, "this catalog"), or empty. A field of an
  /// authored event without a trace of its own carries its event's.
  std::string authored;
};

/// One field of an event (or of the envelope, or nested in an object field).
struct field_spec {
  std::string key;                              ///< The exact JSON key.
  type_set types;                               ///< Admitted JSON types.
  bool required = false;                        ///< A conforming producer always sends it.
  std::optional<nlohmann::json> default_value;  ///< Applied by the decoder when missing.
  std::string purpose;
  trace origin;
  std::vector<field_spec> fields;  ///< Nested fields of an object field.
  bool from_envelope = false;      ///< Inherited (maybe refined) from the envelope.
  location where;
};

/// One event type of a dialect.
struct event_spec {
  std::string type;
  std::string purpose;
  trace origin;
  bool open = false;               ///< Undeclared fields are expected, not reported.
  std::vector<field_spec> fields;  ///< Effective fields: the envelope's (refined) first, then the event's own.
  location where;

  /// The field with exactly this key, or nullptr.
  const field_spec* field(std::string_view key) const noexcept;
};

/// The frame shapes of the chat protocol.
enum class shape : std::uint8_t {
  structured = 0,  ///< A JSON object with a string `type`.
  plain_text = 1,  ///< Anything else; kept whole.
  error = 2,       ///< Data starting with the error prefix.
};

/// Stable name: "structured", "plain_text", "error".
std::string_view to_string(shape s) noexcept;

struct frame_shape_spec {
  shape kind = shape::structured;
  std::string detection;
  std::string handling;
  std::string prefix;  ///< error shape only: the exact leading bytes.
  trace origin;
  location where;
};

/// A documented difference of a profile from its base dialect.
struct difference_spec {
  std::string aspect, base, profile;
  trace origin;
  std::vector<std::string> events;      ///< Event types concerned.
  std::string error_wire_event;         ///< SSE event type that marks an error frame, or empty.
  std::vector<std::string> no_default;  ///< "type.field" whose default the profile removes.
  location where;
};

/// Producer rule severity.
enum class severity : std::uint8_t {
  must = 0,    ///< Breaking it makes a producer non-conforming.
  should = 1,  ///< Breaking it is allowed but reported.
};

/// "must" or "should".
std::string_view to_string(severity s) noexcept;

/// What a rule's severity rests on (spec/DECISIONS.md#severity-basis).
enum class basis : std::uint8_t {
  document = 0,  ///< The quoted words of a protocol document or of the WHATWG rules.
  decision = 1,  ///< A reading recorded in spec/DECISIONS.md (never a must).
  authored = 2,  ///< The catalog's own word: an entry its authors define (`authored`), not a transcription.
};

/// "document", "decision" or "authored".
std::string_view to_string(basis b) noexcept;

/// What the validator checks for a rule; see spec/FORMAT.md for each kind.
enum class check_kind : std::uint8_t {
  utf8,
  frame_terminated,
  lf_line_ends,
  single_data_line,
  data_only,
  data_space,
  known_field,
  json_object,
  object_has_type,
  type_key_casing,
  known_type,
  field_required,
  field_type,
  key_casing,
  undeclared_field,
  unique_keys,
  forbidden_field,
  forbidden_type,
  refers,
  unique_value,
  constant_field,
  increasing,
  pair,
  pair_closed,
  first_frame,
  last_frame,
  at_most_once,
  followed_only_by,
  content_type,
};

/// The catalog name of a check kind ("field_required").
std::string_view to_string(check_kind k) noexcept;

/// The fold behind `key_casing` and `type_key_casing` (spec/FORMAT.md): `key`
/// with ASCII letters lower-cased and every '_' and '-' removed, other bytes
/// kept. Two keys with the same fold differ only in casing or separators
/// ("runId", "run_id", "RUN-ID"). The validator and the case generator's
/// model both use it.
std::string folded_key(std::string_view key);

/// "type.key[.key...]"; type "*" means every type.
struct field_path {
  std::string type;
  std::vector<std::string> keys;
  std::string to_string() const;
};

/// A check and its parameters (only those of its kind are set).
struct check_spec {
  check_kind kind = check_kind::utf8;
  std::vector<field_path> fields;   ///< field_required, forbidden_field; refers: from and also_from; unique_value: one.
  field_path to;                    ///< refers.
  std::vector<std::string> types;   ///< forbidden_type, first_frame, last_frame, at_most_once; followed_only_by: after.
  std::vector<std::string> allow;   ///< followed_only_by.
  std::string field;                ///< constant_field, increasing: a top-level key.
  std::string open;                 ///< pair, pair_closed.
  std::vector<std::string> close;   ///< pair, pair_closed.
  std::vector<std::string> during;  ///< pair.
  std::string key;                  ///< pair, pair_closed: the pairing key, or empty (pair by count).
  std::string value;                ///< content_type: the media type (essence), lower case.
};

struct rule_spec {
  std::string id;
  severity level = severity::must;
  std::vector<std::string> dialects;
  std::string text;
  trace origin;
  /// What the severity rests on. A must rule always rests on the document.
  sse::dialect::basis basis = basis::document;
  /// The verbatim words the rule rests on, one per `origin.sources` entry
  /// (same order), or empty. Every must rule has them.
  std::vector<std::string> quotes;
  check_spec check;
  location where;
  /// Built by the loader, not written in a file: the must field_required
  /// rule of a dialect's authored events (authored_rule_id()). Catalog diff
  /// compares the events it comes from, not the rule.
  bool generated = false;
};

/// The id of the rule that holds the required fields of a dialect's
/// authored events to must: "CHAT-AUTHORED-FIELD-REQUIRED" for `chat`
/// (upper case, `_` as a dash).
std::string authored_rule_id(std::string_view dialect);

/// The DECISIONS.md beside the catalog file that holds `r` (its
/// `where.file`): "spec/DECISIONS.md" for the built-in catalogs,
/// "my-spec/DECISIONS.md" for a rule of my-spec/chat.yaml. The load-time
/// check holds its `decision` to that file's headings.
std::string decisions_file(const rule_spec& r);

/// What a rule rests on, in one line for a finding: `document, <source>
/// "<quote>"` (the first source and its quote, "+N more" for the others),
/// `decision, <decisions_file(r)>#<anchor>` or `authored, <reference>`.
std::string basis_text(const rule_spec& r);

/// What a frame of one type is to one rule: whether the rule's type lists
/// name it.
struct type_roles {
  bool in_types =
      false;  ///< check.types: forbidden_type, first_frame, last_frame, at_most_once, followed_only_by (after)
  bool in_allow = false;   ///< check.allow: followed_only_by
  bool opens = false;      ///< check.open: pair, pair_closed
  bool in_close = false;   ///< check.close
  bool in_during = false;  ///< check.during
};

/// One event type against every rule of a dialect: its roles (in the order
/// of dialect_spec::rules), and the rules that can act on a frame of that
/// type from one frame to the next (the others name only other types, or are
/// judged within a frame or at the end).
struct type_rules {
  std::vector<type_roles> roles;
  std::vector<std::size_t> acting;  ///< Indices into dialect_spec::rules, ascending.
};

/// The most (event type, rule) pairs the loader indexes for one dialect
/// (dialect_spec::rules_by_event, a few bytes a pair): past it, a catalog of
/// very many types and very many rules is loaded without the index, and a
/// validator works each frame's type out as it comes, so what the loader
/// builds grows with the catalog's size, never with its square.
inline constexpr std::size_t max_indexed_type_rules = std::size_t{1} << 16;

/// One dialect with everything inherited resolved: a profile holds its base's
/// shapes and events with the differences applied.
struct dialect_spec {
  std::string name;
  std::string purpose;
  trace origin;
  std::string profile_of;   ///< Base dialect of a profile, or empty.
  std::string frames_from;  ///< Dialect whose frame shapes this one uses, or empty.
  std::vector<frame_shape_spec> shapes;
  std::vector<difference_spec> differences;
  std::vector<field_spec> envelope;  ///< Fields every event may carry (agent), or empty.
  std::vector<event_spec> events;
  std::vector<const rule_spec*> rules;  ///< The rules that name this dialect, in catalog order.
  std::string error_prefix;             ///< The error shape's prefix; empty when the dialect has none.
  std::string error_wire_event;         ///< SSE event type marking error frames (code profile), or empty.
  location where;

  /// The event type, or nullptr. O(1).
  const event_spec* event(std::string_view type) const noexcept;
  /// True when the dialect has that frame shape.
  bool has_shape(shape s) const noexcept;
  /// The envelope field with this key, or nullptr.
  const field_spec* envelope_field(std::string_view key) const noexcept;

  /// rules_by_event's entry for `listed`, an entry of `events`; nullptr for
  /// anything else (work an unlisted type out with index_rules_for_type).
  const type_rules* indexed_rules(const event_spec* listed) const noexcept;

  // Index into `events`, built by the loader; views point into events' strings.
  std::unordered_map<std::string_view, const event_spec*> event_index;
  // One per `events` entry, same order, built by the loader once the rules
  // are known: a validator reads it for every frame, and a frame's type
  // changes often, so the rules' type lists are not searched frame by frame.
  // Empty past max_indexed_type_rules.
  std::vector<type_rules> rules_by_event;
};

/// `type` against every rule of `d` (dialect_spec::rules_by_event's entries).
void index_rules_for_type(const dialect_spec& d, std::string_view type, type_rules& out);

/// Facts about one loaded file.
struct catalog_file {
  std::string name;
  int format_version = 0;
  std::string catalog_version;
  std::string document;
  std::string purpose;
};

/// A loaded, checked set of catalogs. Immutable; share it freely between threads.
class catalog {
 public:
  catalog() = default;
  catalog(const catalog&) = delete;
  catalog& operator=(const catalog&) = delete;

  /// The dialect with this name, or nullptr.
  const dialect_spec* dialect(std::string_view name) const noexcept;
  /// All dialects, in load order.
  std::span<const std::unique_ptr<dialect_spec>> dialects() const noexcept { return dialects_; }
  /// All rules, in load order.
  std::span<const std::unique_ptr<rule_spec>> rules() const noexcept { return rules_; }
  /// The rule with this id, or nullptr.
  const rule_spec* rule(std::string_view id) const noexcept;
  /// The files the set came from.
  std::span<const catalog_file> files() const noexcept { return files_; }

 private:
  friend class catalog_builder;  // catalog_builder.cpp
  std::vector<std::unique_ptr<dialect_spec>> dialects_;
  std::vector<std::unique_ptr<rule_spec>> rules_;
  std::vector<catalog_file> files_;
};

/// A catalog's text and the name its errors are reported under.
struct catalog_source {
  std::string name;
  std::string text;
};

/// Loads and checks catalogs as one set (names unique across them; a profile's
/// base may be in another file). Never throws: every problem, including YAML
/// syntax errors, comes back as an ssec::error with file:line:column. The
/// value is the catalog, null when there are errors (never both).
ssec::load_result<std::shared_ptr<const catalog>> load_catalogs(std::span<const catalog_source> sources);

/// Reads the files, then load_catalogs(). An unreadable file is an error
/// naming it and the system's reason.
ssec::load_result<std::shared_ptr<const catalog>> load_catalog_files(std::span<const std::string> paths);

/// The built-in set (spec/chat.yaml and spec/agent.yaml, compiled in), loaded
/// on first use. Thread-safe. A test proves it loads; should it not, the
/// result carries the errors.
const ssec::load_result<std::shared_ptr<const catalog>>& builtin_catalog();

/// The built-in dialect with this name, or nullptr (also if the built-in set
/// failed to load).
const dialect_spec* builtin_dialect(std::string_view name) noexcept;

/// The names of the built-in dialects, in catalog order: chat, code, workflow, agent.
std::vector<std::string> builtin_dialect_names();

}  // namespace sse::dialect
