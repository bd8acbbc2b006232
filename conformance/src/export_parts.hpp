// SPDX-License-Identifier: MIT
// Shared pieces of the exports (export_*.cpp): names, provenance, rules.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/conformance/export.hpp"

namespace ssec::conformance::detail {

/// "chat" -> "Chat", "tool_call" -> "ToolCall": an identifier (a leading
/// digit or an empty result gets a "T" in front).
std::string pascal(std::string_view name);
/// "ChatToolCallEvent": the schema / interface name of an event type, unique
/// within its dialect (event_names()).
std::string event_name(const sse::dialect::dialect_spec& d, std::string_view type);
/// The names of `d`'s event types in catalog order. Each is
/// pascal(dialect) + pascal(type) + "Event" unless that name is taken by the
/// dialect's own names (dialect_names()) or by an earlier type ("a-b" beside
/// "a_b", a type called "sse" or "unknown"); then the first free "<name>2",
/// "<name>3", ...: deterministic, and listed as a gap by collect_gaps().
std::vector<std::string> event_names(const sse::dialect::dialect_spec& d);
/// The names `d` declares besides its events: the union, the unknown event,
/// the TypeScript type alias and the OpenAPI item schema.
std::vector<std::string> dialect_names(const sse::dialect::dialect_spec& d);
/// "ChatSseEvent", "AgentSseEvent": the union of a dialect's events.
std::string union_name(const sse::dialect::dialect_spec& d);
/// "ChatUnknownEvent".
std::string unknown_name(const sse::dialect::dialect_spec& d);

/// The file facts of the catalog `d` was loaded from, or nullptr.
const sse::dialect::catalog_file* file_of(const sse::dialect::catalog& cat, const sse::dialect::dialect_spec& d);

/// {"sources": [...], "decision": "...", "authored": "..."} (keys only when set).
nlohmann::ordered_json trace_json(const sse::dialect::trace& t);
/// x-sse-conform-catalog of a dialect: file, versions, document, dialect, profile, trace.
nlohmann::ordered_json catalog_json(const sse::dialect::catalog& cat, const sse::dialect::dialect_spec& d);
/// One rule with everything the catalog says of it, and how `format` expresses it
/// ("expressed_by", or "not_expressible": true).
nlohmann::ordered_json rule_json(const sse::dialect::rule_spec& r, export_format format);
/// The check's parameters as the catalog spells them ({"types": ["done"]},
/// {"from": "tool_result.id", "to": "tool_call.id"}); empty when it has none.
nlohmann::ordered_json check_params_json(const sse::dialect::check_spec& c);
/// Where `format` keeps what it cannot express: "kept in <key>" (the schemas),
/// "kept as a @remarks line of <Union>" (TypeScript).
std::string kept_in(export_format format, const sse::dialect::dialect_spec& d, std::string_view key);
/// True when `format` expresses a forbidden_field rule on path `p` of `d`
/// (TypeScript: top-level keys only; the schemas: nested keys too, through
/// declared object fields).
bool forbidden_path_expressed(export_format format, const sse::dialect::dialect_spec& d,
                              const sse::dialect::field_path& p);
/// The forbidden_field paths that apply to event `type` (its own and `*.`), with their rule ids.
std::vector<std::pair<const sse::dialect::field_path*, std::string>> forbidden_fields(
    const sse::dialect::dialect_spec& d, std::string_view type);
/// True when `r` names the event type `type` (or every type, `*`).
bool rule_concerns(const sse::dialect::rule_spec& r, std::string_view type);
/// The ids of the dialect's rules that concern `type`.
std::vector<std::string> rules_of_event(const sse::dialect::dialect_spec& d, std::string_view type);
/// The rules, frame shapes and differences of `d` that `format` cannot hold, into `gaps`.
void collect_gaps(const sse::dialect::dialect_spec& d, export_format format, std::vector<export_gap>& gaps);

/// The JSON Schema types of a type_set: "string", ["object","string"], or null for any.
nlohmann::ordered_json schema_type(const sse::dialect::type_set& t);

/// The event schemas of `d` keyed by event_name(), each referring to others
/// with `ref_prefix` ("#/$defs/", "#/components/schemas/"); then the union
/// under union_name(): JSON Schema, one `if` type / `then` its schema per
/// event type; OpenAPI, a oneOf over the events and the unknown branch with
/// a discriminator on `type`.
nlohmann::ordered_json event_schemas(const sse::dialect::catalog& cat, const sse::dialect::dialect_spec& d,
                                     export_format format, std::string_view ref_prefix);

/// How the unknown types stay valid, in one paragraph (also in export.md).
extern const char* const unknown_types_note;

/// The TypeScript export's run-time list of a dialect's types:
/// "chatEventTypes" for the pascal name "Chat".
std::string runtime_list_name(std::string_view pascal);
/// The TypeScript export's type guard over that list, the whole function:
/// `export function isKnownChatType(type: string): type is ChatEventType {...}`.
std::string known_type_guard(std::string_view pascal);

}  // namespace ssec::conformance::detail
