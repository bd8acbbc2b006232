// SPDX-License-Identifier: MIT
// Shared pieces of the exports: names, provenance, the rules and what each
// format can express of them, the event schemas (JSON Schema and OpenAPI).
#include <algorithm>
#include <cctype>
#include <set>

#include "export_parts.hpp"

namespace ssec::conformance {

using sse::dialect::check_kind;
using sse::dialect::dialect_spec;
using sse::dialect::event_spec;
using sse::dialect::field_spec;
using sse::dialect::rule_spec;

std::string_view to_string(export_format f) noexcept {
  switch (f) {
    case export_format::jsonschema: return "jsonschema";
    case export_format::openapi: return "openapi";
    case export_format::typescript: return "typescript";
  }
  return "jsonschema";
}

std::optional<export_format> parse_export_format(std::string_view name) noexcept {
  for (auto f : {export_format::jsonschema, export_format::openapi, export_format::typescript}) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

std::string export_gap::to_string() const { return dialect + ": " + what + ": " + why; }

std::string_view expressed_by(export_format format, check_kind kind) noexcept {
  const bool ts = format == export_format::typescript;
  switch (kind) {
    case check_kind::field_required: return ts ? "optional (?) or not" : "required";
    case check_kind::field_type: return ts ? "the property types" : "type";
    case check_kind::json_object: return ts ? "the interfaces" : "type: object";
    case check_kind::object_has_type:
    case check_kind::type_key_casing: return ts ? "type: string" : "required type, a string";
    case check_kind::forbidden_field: return ts ? "property?: never" : "a property schema {not: {}}";
    case check_kind::content_type: return format == export_format::openapi ? "the text/event-stream media type" : "";
    default: return "";
  }
}

namespace detail {

const char* const unknown_types_note =
    "Unknown types stay valid: the protocols promise that consumers keep or ignore an event type they do not "
    "know. A frame whose `type` is one of the catalog's types must match that type's schema; any other string "
    "is an unknown type, described by the UnknownEvent schema.";

std::string pascal(std::string_view name) {
  std::string out;
  bool up = true;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())) != 0) out = "T" + out;
  return out;
}

std::string union_name(const dialect_spec& d) { return pascal(d.name) + "SseEvent"; }
std::string unknown_name(const dialect_spec& d) { return pascal(d.name) + "UnknownEvent"; }

std::vector<std::string> dialect_names(const dialect_spec& d) {
  return {union_name(d), unknown_name(d), pascal(d.name) + "EventType", pascal(d.name) + "SseItem"};
}

std::vector<std::string> event_names(const dialect_spec& d) {
  const auto own = dialect_names(d);
  std::set<std::string, std::less<>> taken(own.begin(), own.end());
  std::vector<std::string> names;
  names.reserve(d.events.size());
  for (const auto& e : d.events) {
    const std::string plain = pascal(d.name) + pascal(e.type) + "Event";
    std::string name = plain;
    for (int n = 2; taken.contains(name); ++n) name = plain + std::to_string(n);
    taken.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

std::string event_name(const dialect_spec& d, std::string_view type) {
  const auto names = event_names(d);
  for (std::size_t i = 0; i < d.events.size(); ++i) {
    if (d.events[i].type == type) return names[i];
  }
  return pascal(d.name) + pascal(type) + "Event";
}

const sse::dialect::catalog_file* file_of(const sse::dialect::catalog& cat, const dialect_spec& d) {
  for (const auto& f : cat.files()) {
    if (f.name == d.where.file) return &f;
  }
  return nullptr;
}

nlohmann::ordered_json trace_json(const sse::dialect::trace& t) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (!t.sources.empty()) out["sources"] = t.sources;
  if (!t.decision.empty()) out["decision"] = "DECISIONS.md#" + t.decision;
  if (!t.authored.empty()) out["authored"] = t.authored;
  return out;
}

nlohmann::ordered_json catalog_json(const sse::dialect::catalog& cat, const dialect_spec& d) {
  nlohmann::ordered_json out{{"dialect", d.name}};
  if (const auto* f = file_of(cat, d)) {
    out["file"] = f->name;
    out["catalog_version"] = f->catalog_version;
    out["format_version"] = f->format_version;
    out["document"] = f->document;
    out["purpose"] = f->purpose;
  } else {
    out["file"] = d.where.file;
  }
  if (!d.profile_of.empty()) out["profile_of"] = d.profile_of;
  if (!d.frames_from.empty()) out["frames_from"] = d.frames_from;
  out["origin"] = trace_json(d.origin);
  out["where"] = d.where.to_string();
  return out;
}

nlohmann::ordered_json check_params_json(const sse::dialect::check_spec& c) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  const auto paths = [](auto first, auto last) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (; first != last; ++first) a.push_back(first->to_string());
    return a;
  };
  switch (c.kind) {
    case check_kind::refers:
      if (!c.fields.empty()) out["from"] = c.fields.front().to_string();
      out["to"] = c.to.to_string();
      if (c.fields.size() > 1) out["also_from"] = paths(c.fields.begin() + 1, c.fields.end());
      return out;
    case check_kind::unique_value:
      if (!c.fields.empty()) out["field"] = c.fields.front().to_string();
      return out;
    case check_kind::followed_only_by:
      out["after"] = c.types;
      out["allow"] = c.allow;
      return out;
    default: break;
  }
  if (!c.fields.empty()) out["fields"] = paths(c.fields.begin(), c.fields.end());
  if (!c.types.empty()) out["types"] = c.types;
  if (!c.field.empty()) out["field"] = c.field;
  if (!c.open.empty()) out["open"] = c.open;
  if (!c.close.empty()) out["close"] = c.close;
  if (!c.during.empty()) out["during"] = c.during;
  if (!c.key.empty()) out["key"] = c.key;
  if (!c.value.empty()) out["value"] = c.value;
  return out;
}

std::string kept_in(export_format format, const dialect_spec& d, std::string_view key) {
  if (format == export_format::typescript) return "kept as a @remarks line of " + union_name(d);
  return "kept in " + std::string(key);
}

bool forbidden_path_expressed(export_format format, const dialect_spec& d, const sse::dialect::field_path& p) {
  if (p.keys.size() == 1) return true;
  // TypeScript marks a top-level key `?: never`; the schemas walk nested keys
  // through declared object fields.
  if (format == export_format::typescript) return false;
  const event_spec* e = d.event(p.type);
  if (e == nullptr) return false;
  const std::vector<field_spec>* level = &e->fields;
  for (std::size_t i = 0; i + 1 < p.keys.size(); ++i) {
    const auto it = std::find_if(level->begin(), level->end(), [&](const field_spec& f) { return f.key == p.keys[i]; });
    if (it == level->end()) return false;
    const auto b = it->types.bits;
    if ((b & sse::dialect::type_set::object) == 0 || (b & sse::dialect::type_set::any) == sse::dialect::type_set::any)
      return false;
    level = &it->fields;
  }
  return true;
}

nlohmann::ordered_json rule_json(const rule_spec& r, export_format format) {
  nlohmann::ordered_json out{{"id", r.id},
                             {"severity", sse::dialect::to_string(r.level)},
                             {"basis", sse::dialect::to_string(r.basis)},
                             {"text", r.text},
                             {"check", sse::dialect::to_string(r.check.kind)}};
  if (auto params = check_params_json(r.check); !params.empty()) out["check_params"] = std::move(params);
  const auto origin = trace_json(r.origin);
  for (const auto& [k, v] : origin.items()) out[k] = v;
  if (!r.quotes.empty()) out["quotes"] = r.quotes;
  out["where"] = r.where.to_string();
  if (r.generated) out["generated"] = true;
  const auto how = expressed_by(format, r.check.kind);
  if (how.empty()) out["not_expressible"] = true;
  else out["expressed_by"] = how;
  return out;
}

std::vector<std::pair<const sse::dialect::field_path*, std::string>> forbidden_fields(const dialect_spec& d,
                                                                                      std::string_view type) {
  std::vector<std::pair<const sse::dialect::field_path*, std::string>> out;
  for (const rule_spec* r : d.rules) {
    if (r->check.kind != check_kind::forbidden_field) continue;
    for (const auto& p : r->check.fields) {
      if ((p.type == type || p.type == "*") && !p.keys.empty()) out.emplace_back(&p, r->id);
    }
  }
  return out;
}

bool rule_concerns(const rule_spec& r, std::string_view type) {
  const auto& c = r.check;
  const auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), type) != v.end(); };
  const auto path = [&](const sse::dialect::field_path& p) { return p.type == type || p.type == "*"; };
  if (std::any_of(c.fields.begin(), c.fields.end(), path)) return true;
  if (!c.to.type.empty() && path(c.to)) return true;
  if (has(c.types) || has(c.allow) || has(c.close) || has(c.during) || c.open == type) return true;
  // Rules without a subject (field_required, field_type, ...) concern every type.
  return c.fields.empty() && c.to.type.empty() && c.types.empty() && c.open.empty() &&
         (c.kind == check_kind::field_required || c.kind == check_kind::field_type ||
          c.kind == check_kind::key_casing || c.kind == check_kind::undeclared_field);
}

std::vector<std::string> rules_of_event(const dialect_spec& d, std::string_view type) {
  std::vector<std::string> ids;
  for (const rule_spec* r : d.rules) {
    if (rule_concerns(*r, type)) ids.push_back(r->id);
  }
  return ids;
}

namespace {

// "usage.promptTokens", "resume_update.payload.resume": integer fields, nested ones included.
void integer_fields(const std::vector<field_spec>& fields, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& f : fields) {
    const auto b = f.types.bits;
    if ((b & sse::dialect::type_set::any) != sse::dialect::type_set::any &&
        (b & sse::dialect::type_set::integer) != 0 && (b & sse::dialect::type_set::number) == 0) {
      out.push_back(prefix + f.key);
    }
    integer_fields(f.fields, prefix + f.key + ".", out);
  }
}

}  // namespace

void collect_gaps(const dialect_spec& d, export_format format, std::vector<export_gap>& gaps) {
  const auto names = event_names(d);
  for (std::size_t i = 0; i < d.events.size(); ++i) {
    const std::string plain = pascal(d.name) + pascal(d.events[i].type) + "Event";
    if (names[i] == plain) continue;
    gaps.push_back({d.name, "the name of event type " + nlohmann::json(d.events[i].type).dump(),
                    plain + " is taken (by the dialect's own names or an earlier type), so it is " + names[i]});
  }
  const std::string rules_kept = kept_in(format, d, "x-sse-conform-rules");
  for (const rule_spec* r : d.rules) {
    if (!expressed_by(format, r->check.kind).empty()) {
      // Expressed, but maybe not every parameter: nested forbidden keys in TypeScript.
      for (const auto& p : r->check.fields) {
        if (r->check.kind == check_kind::forbidden_field && !forbidden_path_expressed(format, d, p)) {
          gaps.push_back(
              {d.name, r->id,
               "forbidden_field on the nested key " + p.to_string() + " (" +
                   std::string(sse::dialect::to_string(r->level)) + "): " +
                   (format == export_format::typescript ? "only top-level keys are `?: never`; "
                                                        : "a key on the way is not a declared object field; ") +
                   rules_kept});
        }
      }
      continue;
    }
    std::string why = std::string(sse::dialect::to_string(r->check.kind)) + " (" +
                      std::string(sse::dialect::to_string(r->level)) + ")";
    if (r->check.kind == check_kind::known_type) why += ": unknown types stay valid by design";
    else if (r->check.kind == check_kind::undeclared_field)
      why += ": undeclared fields stay valid (forward compatible)";
    why += "; " + rules_kept;
    gaps.push_back({d.name, r->id, why});
  }
  if (format != export_format::openapi) {
    for (const auto& s : d.shapes) {
      if (s.kind == sse::dialect::shape::structured) continue;
      gaps.push_back({d.name, "frame shape " + std::string(sse::dialect::to_string(s.kind)),
                      "not JSON, so outside a " + std::string(format == export_format::typescript ? "type" : "schema") +
                          " of the JSON payload; " + kept_in(format, d, "x-sse-conform-frame-shapes")});
    }
  }
  for (const auto& diff : d.differences) {
    if (!diff.no_default.empty() && diff.error_wire_event.empty() && diff.events.size() <= 1) {
      continue;  // A removed default is expressed: the field has no default.
    }
    if (format == export_format::openapi && !diff.error_wire_event.empty()) {
      continue;  // The item schema has a branch for the error frames marked by their SSE event type.
    }
    gaps.push_back(
        {d.name, "difference " + diff.aspect,
         "a behaviour of the consumer (" + diff.profile + "); " + kept_in(format, d, "x-sse-conform-differences")});
  }
  if (format == export_format::typescript) {
    std::vector<std::string> ints;
    for (const auto& e : d.events) integer_fields(e.fields, e.type + ".", ints);
    if (!ints.empty()) {
      std::string list;
      for (const auto& i : ints) list += (list.empty() ? "" : ", ") + i;
      gaps.push_back(
          {d.name, "integer fields",
           "TypeScript has no integer type, so they are `number` and their TSDoc says \"An integer\": " + list});
    }
  }
}

nlohmann::ordered_json schema_type(const sse::dialect::type_set& t) {
  using ts = sse::dialect::type_set;
  if ((t.bits & ts::any) == ts::any) return nullptr;
  std::vector<std::string> names;
  if ((t.bits & ts::null) != 0) names.emplace_back("null");
  if ((t.bits & ts::boolean) != 0) names.emplace_back("boolean");
  if ((t.bits & ts::number) != 0) names.emplace_back("number");
  else if ((t.bits & ts::integer) != 0) names.emplace_back("integer");
  if ((t.bits & ts::string) != 0) names.emplace_back("string");
  if ((t.bits & ts::array) != 0) names.emplace_back("array");
  if ((t.bits & ts::object) != 0) names.emplace_back("object");
  if (names.size() == 1) return names.front();
  return names;
}

namespace {

nlohmann::ordered_json field_schema(const field_spec& f) {
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  if (auto t = schema_type(f.types); !t.is_null()) s["type"] = t;
  if (!f.purpose.empty()) s["description"] = f.purpose;
  if (f.default_value) s["default"] = *f.default_value;
  if (!f.fields.empty()) {
    nlohmann::ordered_json props = nlohmann::ordered_json::object();
    nlohmann::ordered_json req = nlohmann::ordered_json::array();
    for (const auto& sub : f.fields) {
      props[sub.key] = field_schema(sub);
      if (sub.required) req.push_back(sub.key);
    }
    s["properties"] = std::move(props);
    if (!req.empty()) s["required"] = std::move(req);
  }
  nlohmann::ordered_json origin = trace_json(f.origin);
  origin["where"] = f.where.to_string();
  if (f.from_envelope) origin["from_envelope"] = true;
  s["x-sse-conform-origin"] = std::move(origin);
  return s;
}

// Marks the key at `keys` as never sent: its schema admits nothing. The keys
// on the way are declared object fields (forbidden_path_expressed()).
void forbid(nlohmann::ordered_json& schema, std::span<const std::string> keys, const std::string& rule_id) {
  auto& props = schema["properties"];
  if (keys.size() == 1) {
    props[keys.front()] = {{"not", nlohmann::ordered_json::object()}, {"description", "Never sent (" + rule_id + ")."}};
    return;
  }
  forbid(props[keys.front()], keys.subspan(1), rule_id);
}

nlohmann::ordered_json event_schema(const dialect_spec& d, const event_spec& e, export_format format) {
  nlohmann::ordered_json s{{"title", e.type}};
  if (!e.purpose.empty()) s["description"] = e.purpose;
  s["type"] = "object";
  nlohmann::ordered_json props = nlohmann::ordered_json::object();
  props["type"] = {{"const", e.type}, {"description", "The event type (the discriminator)."}};
  nlohmann::ordered_json req = nlohmann::ordered_json::array({"type"});
  for (const auto& f : e.fields) {
    if (f.key == "type") continue;
    props[f.key] = field_schema(f);
    if (f.required) req.push_back(f.key);
  }
  s["properties"] = std::move(props);
  s["required"] = std::move(req);
  for (const auto& [path, id] : forbidden_fields(d, e.type)) {
    if (forbidden_path_expressed(format, d, *path)) forbid(s, path->keys, id);  // else a gap
  }
  nlohmann::ordered_json origin = trace_json(e.origin);
  origin["where"] = e.where.to_string();
  s["x-sse-conform-origin"] = std::move(origin);
  if (e.open) s["x-sse-conform-open"] = true;
  if (auto ids = rules_of_event(d, e.type); !ids.empty()) s["x-sse-conform-rules"] = std::move(ids);
  return s;
}

}  // namespace

nlohmann::ordered_json event_schemas(const sse::dialect::catalog& cat, const dialect_spec& d, export_format format,
                                     std::string_view ref_prefix) {
  nlohmann::ordered_json defs = nlohmann::ordered_json::object();
  nlohmann::ordered_json one_of = nlohmann::ordered_json::array();
  nlohmann::ordered_json known = nlohmann::ordered_json::array();
  std::vector<std::string> refs;  // the events' references, in catalog order
  for (const auto& e : d.events) {
    const std::string name = event_name(d, e.type);
    defs[name] = event_schema(d, e, format);
    refs.push_back(std::string(ref_prefix).append(name));
    one_of.push_back({{"$ref", refs.back()}});
    known.push_back(e.type);
  }
  const std::string unknown = unknown_name(d);
  defs[unknown] = {
      {"title", "unknown type"},
      {"description", unknown_types_note},
      {"type", "object"},
      {"properties",
       {{"type",
         {{"type", "string"}, {"not", {{"enum", known}}}, {"description", "A type the catalog does not list."}}}}},
      {"required", {"type"}},
      {"x-sse-conform-unknown-type", true}};
  one_of.push_back({{"$ref", std::string(ref_prefix) + unknown}});

  nlohmann::ordered_json u{{"title", d.name + " event"}};
  if (!d.purpose.empty()) u["description"] = d.purpose;
  if (format == export_format::jsonschema) {
    // One `if`/`then` per listed type: a validator reports the errors of the
    // one schema the frame's type selects (a `oneOf` reports every
    // branch's). A type no `if` selects is unknown, valid by design.
    u["type"] = "object";
    nlohmann::ordered_json type_property{{"type", "string"},
                                         {"description",
                                          "The event type: a type the catalog lists selects its "
                                          "schema (allOf); any other string is an unknown type."}};
    u["properties"] = nlohmann::ordered_json::object();
    u["properties"]["type"] = std::move(type_property);
    u["required"] = nlohmann::ordered_json::array({"type"});
    nlohmann::ordered_json all_of = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < d.events.size(); ++i) {
      nlohmann::ordered_json selects = nlohmann::ordered_json::object();
      selects["properties"]["type"]["const"] = d.events[i].type;
      selects["required"] = nlohmann::ordered_json::array({"type"});
      nlohmann::ordered_json branch = nlohmann::ordered_json::object();
      branch["if"] = std::move(selects);
      branch["then"]["$ref"] = refs[i];
      all_of.push_back(std::move(branch));
    }
    u["allOf"] = std::move(all_of);
  } else {
    // OpenAPI: the oneOf its tools generate code from, with the discriminator
    // that names the branch (OpenAPI 3.2's defaultMapping: the unknown types).
    nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < d.events.size(); ++i) mapping[d.events[i].type] = refs[i];
    u["oneOf"] = std::move(one_of);
    u["discriminator"] = nlohmann::ordered_json::object();
    u["discriminator"]["propertyName"] = "type";
    u["discriminator"]["mapping"] = std::move(mapping);
    u["discriminator"]["defaultMapping"] = std::string(ref_prefix) + unknown;
  }
  u["x-sse-conform-catalog"] = catalog_json(cat, d);
  u["x-sse-conform-unknown-types"] = unknown_types_note;
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const rule_spec* r : d.rules) rules.push_back(rule_json(*r, format));
  u["x-sse-conform-rules"] = std::move(rules);
  nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
  for (const auto& s : d.shapes) {
    nlohmann::ordered_json j{
        {"shape", sse::dialect::to_string(s.kind)}, {"detection", s.detection}, {"handling", s.handling}};
    if (!s.prefix.empty()) j["prefix"] = s.prefix;
    const auto origin = trace_json(s.origin);
    for (const auto& [k, v] : origin.items()) j[k] = v;
    j["where"] = s.where.to_string();
    shapes.push_back(std::move(j));
  }
  u["x-sse-conform-frame-shapes"] = std::move(shapes);
  if (!d.differences.empty()) {
    nlohmann::ordered_json diffs = nlohmann::ordered_json::array();
    for (const auto& diff : d.differences) {
      nlohmann::ordered_json j{{"aspect", diff.aspect}, {"base", diff.base}, {"profile", diff.profile}};
      if (!diff.events.empty()) j["events"] = diff.events;
      if (!diff.error_wire_event.empty()) j["error_wire_event"] = diff.error_wire_event;
      if (!diff.no_default.empty()) j["no_default"] = diff.no_default;
      const auto origin = trace_json(diff.origin);
      for (const auto& [k, v] : origin.items()) j[k] = v;
      j["where"] = diff.where.to_string();
      diffs.push_back(std::move(j));
    }
    u["x-sse-conform-differences"] = std::move(diffs);
  }
  defs[union_name(d)] = std::move(u);
  return defs;
}

}  // namespace detail
}  // namespace ssec::conformance
