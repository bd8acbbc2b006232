// SPDX-License-Identifier: MIT
// The TypeScript export: per dialect a discriminated union of one interface
// per event type, field docs from `purpose` (TSDoc), optional fields as the
// catalog has them, an unknown-event type that keeps the raw object, and the
// list of types at run time with its type guard.
#include <algorithm>
#include <cctype>

#include "export_parts.hpp"

namespace ssec::conformance {
namespace {

using sse::dialect::dialect_spec;
using sse::dialect::field_spec;
using sse::dialect::type_set;

// Text safe inside a `/** */` and a `//` comment: `*/` cannot close the
// block, and none of ECMAScript's line terminators (LF, CR, U+2028 LINE
// SEPARATOR, U+2029 PARAGRAPH SEPARATOR) can end the line comment, so catalog
// text never becomes code. Each terminator becomes a space.
std::string doc_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/') {
      out += "*\\/";
      ++i;
    } else if (s[i] == '\n' || s[i] == '\r') {
      out += ' ';
    } else if (s.substr(i, 3) == "\xE2\x80\xA8" || s.substr(i, 3) == "\xE2\x80\xA9") {
      out += ' ';
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// A TypeScript string literal: JSON's escapes with every non-ASCII character
// as \uXXXX (U+2028 and U+2029 included) and invalid UTF-8 replaced.
std::string ts_string(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

bool is_identifier(std::string_view k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k.front())) != 0) return false;
  return std::all_of(k.begin(), k.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$'; });
}

std::string property_name(std::string_view k) { return is_identifier(k) ? std::string(k) : ts_string(k); }

std::string ts_type(const field_spec& f, const std::string& indent);
std::string field_doc(const field_spec& f, const std::string& indent);

// "chat-and-code-sessions.txt:19, DECISIONS.md#anchor": a trace in one line.
std::string trace_text(const sse::dialect::trace& t) {
  std::string out;
  for (const auto& s : t.sources) out += (out.empty() ? "" : ", ") + s;
  if (!t.decision.empty()) out += (out.empty() ? "" : ", ") + ("DECISIONS.md#" + t.decision);
  if (!t.authored.empty()) out += (out.empty() ? "" : ", ") + ("authored: " + t.authored);
  return out;
}

std::string object_type(const std::vector<field_spec>& fields, const std::string& indent) {
  std::string out = "{\n";
  for (const auto& f : fields) {
    out += field_doc(f, indent + "  ");
    out += indent + "  readonly " + property_name(f.key) + (f.required ? "" : "?") + ": " + ts_type(f, indent + "  ") +
           ";\n";
  }
  out += indent + "  readonly [key: string]: unknown;\n" + indent + "}";
  return out;
}

std::string ts_type(const field_spec& f, const std::string& indent) {
  const auto b = f.types.bits;
  if ((b & type_set::any) == type_set::any) return "unknown";
  std::vector<std::string> parts;
  if ((b & type_set::null) != 0) parts.emplace_back("null");
  if ((b & type_set::boolean) != 0) parts.emplace_back("boolean");
  if ((b & (type_set::number | type_set::integer)) != 0) parts.emplace_back("number");
  if ((b & type_set::string) != 0) parts.emplace_back("string");
  if ((b & type_set::array) != 0) parts.emplace_back("readonly unknown[]");
  if ((b & type_set::object) != 0) {
    parts.push_back(f.fields.empty() ? "{ readonly [key: string]: unknown }" : object_type(f.fields, indent));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " | ") + p;
  return out;
}

std::string field_doc(const field_spec& f, const std::string& indent) {
  std::string out = indent + "/**\n";
  if (!f.purpose.empty()) out += indent + " * " + doc_text(f.purpose) + "\n";
  if ((f.types.bits & type_set::any) != type_set::any && (f.types.bits & type_set::integer) != 0 &&
      (f.types.bits & type_set::number) == 0) {
    out += indent + " * An integer (the catalog's `integer`).\n";
  }
  if (f.default_value) out += indent + " * @defaultValue `" + doc_text(f.default_value->dump()) + "`\n";
  if (const auto trace = trace_text(f.origin); !trace.empty()) out += indent + " * @see " + doc_text(trace) + "\n";
  return out + indent + " */\n";
}

void dialect_declarations(const sse::dialect::catalog& cat, const dialect_spec& d, std::string& out) {
  const std::string union_name = detail::union_name(d);
  const auto* file = detail::file_of(cat, d);
  out += "// ---- dialect " + doc_text(d.name) + " (" +
         doc_text(file ? file->name + " " + file->catalog_version : d.where.file) + ") ----\n\n";

  out += "/**\n * " + doc_text(d.purpose) + "\n *\n * A frame of a type the catalog does not list is a `" +
         detail::unknown_name(d) + "`.\n";
  if (!d.origin.sources.empty() || !d.origin.decision.empty()) {
    out += " * @see " + doc_text(trace_text(d.origin)) + "\n";
  }
  // What a type cannot hold, one @remarks line each (tools/docs/export.md):
  // the rules with their check, basis and trace, the frame shapes, the differences.
  for (const auto* r : d.rules) {
    std::string check(sse::dialect::to_string(r->check.kind));
    if (auto params = detail::check_params_json(r->check); !params.empty()) check += " " + params.dump();
    out += " * @remarks rule " + doc_text(r->id) + " (" + std::string(sse::dialect::to_string(r->level)) + ", basis " +
           std::string(sse::dialect::to_string(r->basis)) + ", check " + doc_text(check) + "): " + doc_text(r->text);
    if (const auto t = trace_text(r->origin); !t.empty()) out += " [" + doc_text(t) + "]";
    out += " (" + doc_text(r->where.to_string()) + ")\n";
  }
  for (const auto& sh : d.shapes) {
    out += " * @remarks frame shape " + std::string(sse::dialect::to_string(sh.kind));
    if (!sh.prefix.empty()) out += " (prefix " + doc_text(nlohmann::json(sh.prefix).dump()) + ")";
    out += ": " + doc_text(sh.detection) + " " + doc_text(sh.handling);
    if (const auto t = trace_text(sh.origin); !t.empty()) out += " [" + doc_text(t) + "]";
    out += "\n";
  }
  if (!d.error_wire_event.empty()) {
    out += " * @remarks error frames are also marked by the SSE event type " +
           doc_text(nlohmann::json(d.error_wire_event).dump()) + "\n";
  }
  for (const auto& diff : d.differences) {
    out += " * @remarks difference from " + doc_text(d.profile_of) + ", " + doc_text(diff.aspect) + ": " +
           doc_text(diff.base) + " -> " + doc_text(diff.profile);
    if (const auto t = trace_text(diff.origin); !t.empty()) out += " [" + doc_text(t) + "]";
    out += "\n";
  }
  out += " */\nexport type " + union_name + " =\n";
  for (std::size_t i = 0; i < d.events.size(); ++i) {
    out += "  | " + detail::event_name(d, d.events[i].type) + (i + 1 == d.events.size() ? ";\n\n" : "\n");
  }
  if (d.events.empty()) out += "  never;\n\n";
  const std::string pascal = detail::pascal(d.name);
  out += "/** The event types of the " + doc_text(d.name) + " dialect. */\nexport type " + pascal +
         "EventType = " + union_name + "[\"type\"];\n\n";
  // The same list at run time, and the guard a consumer needs before it
  // switches on `type`; typescript_shape_violation() admits exactly this form.
  const std::string list = detail::runtime_list_name(pascal);
  out += "/** The event types of the " + doc_text(d.name) + " dialect, at run time. */\nexport const " + list +
         ": readonly " + pascal + "EventType[] = [";
  for (std::size_t i = 0; i < d.events.size(); ++i) out += (i == 0 ? "" : ", ") + ts_string(d.events[i].type);
  out += "];\n\n";
  out += "/** True when `type` is one the " + doc_text(d.name) + " catalog lists; any other is a " +
         detail::unknown_name(d) + ". */\n" + detail::known_type_guard(pascal) + "\n\n";

  for (const auto& e : d.events) {
    out += "/**\n * " + doc_text(e.purpose) + "\n";
    for (const auto& s : e.origin.sources) out += " * @see " + doc_text(s) + "\n";
    if (!e.origin.decision.empty()) out += " * @see DECISIONS.md#" + doc_text(e.origin.decision) + "\n";
    for (const auto& id : detail::rules_of_event(d, e.type)) out += " * @remarks rule " + doc_text(id) + "\n";
    out += " */\nexport interface " + detail::event_name(d, e.type) + " {\n";
    out += "  /** The event type (the discriminator). */\n  readonly type: " + ts_string(e.type) + ";\n";
    for (const auto& f : e.fields) {
      if (f.key == "type") continue;
      out += field_doc(f, "  ");
      out += "  readonly " + property_name(f.key) + (f.required ? "" : "?") + ": " + ts_type(f, "  ") + ";\n";
    }
    for (const auto& [path, id] : detail::forbidden_fields(d, e.type)) {
      if (path->keys.size() != 1) continue;  // a gap (collect_gaps)
      out += "  /** Never sent (" + doc_text(id) + "). */\n  readonly " + property_name(path->keys.front()) +
             "?: never;\n";
    }
    if (e.open) out += "  /** Open event: undeclared fields are expected. */\n  readonly [key: string]: unknown;\n";
    out += "}\n\n";
  }

  out += "/**\n * An event whose type the " + doc_text(d.name) +
         " catalog does not list. Consumers keep or ignore it; it is never lost.\n */\nexport interface " +
         detail::unknown_name(d) +
         " {\n  /** The type as sent; not one of the catalog's. */\n  readonly type: string;\n"
         "  /** The frame's JSON object, whole. */\n  readonly raw: { readonly type: string; readonly [key: string]: "
         "unknown };\n}\n\n";
}

}  // namespace

namespace detail {

std::string runtime_list_name(std::string_view pascal) {
  std::string name(pascal);
  if (!name.empty()) name.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(name.front())));
  return name + "EventTypes";
}

std::string known_type_guard(std::string_view pascal) {
  const std::string p(pascal);
  return "export function isKnown" + p + "Type(type: string): type is " + p + "EventType {\n  return (" +
         runtime_list_name(p) + " as readonly string[]).includes(type);\n}";
}

}  // namespace detail

std::string typescript_declarations(const sse::dialect::catalog& cat,
                                    std::span<const sse::dialect::dialect_spec* const> dialects,
                                    std::vector<export_gap>& gaps) {
  std::string out =
      "// GENERATED by `sse-conform export --to typescript` from the catalogs (tools/docs/export.md): do not edit.\n";
  for (const auto& f : cat.files()) {
    out += "// " + doc_text(f.name) + ": catalog " + doc_text(f.catalog_version) + ", format " +
           std::to_string(f.format_version) + ", document " + doc_text(f.document) + ": " + doc_text(f.purpose) + "\n";
  }
  out += "\n";
  for (const auto* d : dialects) {
    dialect_declarations(cat, *d, out);
    detail::collect_gaps(*d, export_format::typescript, gaps);
  }
  return out;
}

}  // namespace ssec::conformance
