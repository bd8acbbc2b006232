// SPDX-License-Identifier: MIT
// The catalogs in the formats the ecosystem reads (tools/docs/export.md):
// JSON Schema 2020-12, an OpenAPI 3.2 fragment, TypeScript declarations.
// Everything is generated at run time from a loaded catalog: a new event type
// or rule is a YAML change only. What a format cannot hold goes into
// documented `x-sse-conform-...` keys (or TSDoc tags) and into `gaps`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"

namespace ssec::conformance {

/// The export formats.
enum class export_format : std::uint8_t { jsonschema, openapi, typescript };

/// "jsonschema", "openapi", "typescript".
std::string_view to_string(export_format f) noexcept;
/// The format with that name, or nullopt.
std::optional<export_format> parse_export_format(std::string_view name) noexcept;

/// One thing of the catalog a format cannot express, kept in an extension key.
struct export_gap {
  std::string dialect;  ///< The dialect concerned.
  std::string what;     ///< A rule id ("CHAT-UTF8") or a catalog aspect ("frame shape plain_text").
  std::string why;      ///< Why the format cannot hold it, and where it is kept instead.
  /// "chat: CHAT-UTF8: <why>".
  std::string to_string() const;
};

/// One generated file.
struct export_file {
  std::string name;  ///< Suggested file name: "chat.schema.json", "sse-conform.openapi.json", "sse-conform.d.ts".
  std::string text;  ///< The content, ending with a newline.
};

/// What an export produced.
struct export_output {
  std::vector<export_file> files;  ///< jsonschema: one per dialect; openapi and typescript: one.
  std::vector<export_gap> gaps;    ///< Everything not expressible in the format, never empty-by-omission.
  /// Names two exported dialects would both declare ("dialects `a-b` and
  /// `a_b` both declare ABSseEvent"): the export is refused when not empty.
  std::vector<std::string> conflicts;
};

/// How `format` holds rules of `kind`: a short phrase ("required", "type"),
/// or empty when it cannot (the rule is then a gap).
std::string_view expressed_by(export_format format, sse::dialect::check_kind kind) noexcept;

/// The JSON Schema (2020-12) of one dialect's structured frame: an object
/// with a string `type`, and per event type an `if` (that type) / `then` (its
/// schema), so a validator reports the one branch a frame's type selects;
/// any other type is unknown and valid. `gaps` receives what it cannot express.
nlohmann::ordered_json json_schema(const sse::dialect::catalog& cat, const sse::dialect::dialect_spec& d,
                                   std::vector<export_gap>& gaps);

/// The OpenAPI 3.2 document: components (the event schemas and, per dialect,
/// the `text/event-stream` item schema) and one example path per dialect.
nlohmann::ordered_json openapi_document(const sse::dialect::catalog& cat,
                                        std::span<const sse::dialect::dialect_spec* const> dialects,
                                        std::vector<export_gap>& gaps);

/// The TypeScript module: per dialect a discriminated union
/// (`<Dialect>SseEvent`: ChatSseEvent, ..., AgentSseEvent), one interface per
/// event type, `<Dialect>UnknownEvent` keeping the raw object, and at run time
/// the list of types (`chatEventTypes`) with its guard (`isKnownChatType`).
std::string typescript_declarations(const sse::dialect::catalog& cat,
                                    std::span<const sse::dialect::dialect_spec* const> dialects,
                                    std::vector<export_gap>& gaps);

/// Where `ts` is more than exported interfaces, type aliases, lists of string
/// literals and the type guard between comments ("byte 812: expected
/// `export`, found a statement the export does not write"), or nullopt. ECMAScript's line terminators (LF, CR, U+2028,
/// U+2029) end a `//` comment; CR, U+2028 and U+2029 anywhere are refused.
/// export_catalog() checks every TypeScript export with it.
std::optional<std::string> typescript_shape_violation(std::string_view ts);

/// The export of `dialects` (all of the catalog's when empty) in `format`.
/// Within a dialect, colliding names are made unique (detail::event_names());
/// names two dialects collide on are `conflicts`, and `files` is then empty.
/// With `one_document` (standard output), the JSON Schemas of several
/// dialects are one document, `sse-conform.schemas.json`: each dialect's
/// schema embedded under `$defs/<dialect>` with its own `$id`
/// (urn:sse-conform:schema:<dialect>, what a validator refers to).
export_output export_catalog(const sse::dialect::catalog& cat, export_format format,
                             std::span<const sse::dialect::dialect_spec* const> dialects = {},
                             bool one_document = false);

}  // namespace ssec::conformance
