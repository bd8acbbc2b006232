// SPDX-License-Identifier: MIT
// The catalog grammar (spec/FORMAT.md, format_version 1): dialects with their
// frame shapes, envelope, events, fields and profile differences, and rules
// with their checks, each read from one file and checked against the format.
#include "catalog_grammar.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "ssec/support/text.hpp"

namespace sse::dialect::detail {

namespace {

// Hand-written matchers: std::regex is slow and trips GCC 12 warnings.
bool lower_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// [a-z][a-z0-9_]*
bool is_identifier(std::string_view s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return lower_or_digit(c) || c == '_'; });
}

// Words of `word` characters joined by single dashes: at least `min_words`.
template <class Pred>
bool dashed_words(std::string_view s, Pred word, std::size_t min_words) {
  std::size_t words = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t dash = s.find('-', start);
    const std::string_view w = s.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start);
    if (w.empty() || !std::all_of(w.begin(), w.end(), word)) return false;
    ++words;
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  return words >= min_words;
}

// [a-z0-9]+(-[a-z0-9]+)*
bool is_anchor(std::string_view s) { return dashed_words(s, lower_or_digit, 1); }

// A decimal number without a leading zero (0 itself is fine).
bool is_number_part(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), digit) && (s.size() == 1 || s[0] != '0');
}

// [A-Z][A-Z0-9]*(-[A-Z0-9]+)+
bool is_rule_id(std::string_view s) {
  return !s.empty() && s[0] >= 'A' && s[0] <= 'Z' && dashed_words(s, upper_or_digit, 2);
}

}  // namespace

bool is_semver(std::string_view s) {
  const std::size_t dash = s.find('-');
  if (dash != std::string_view::npos) {
    const std::string_view pre = s.substr(dash + 1);
    if (pre.empty() || !std::all_of(pre.begin(), pre.end(), [](char c) {
          return lower_or_digit(c) || (c >= 'A' && c <= 'Z') || c == '.' || c == '-';
        })) {
      return false;
    }
    s = s.substr(0, dash);
  }
  const std::size_t a = s.find('.');
  const std::size_t b = a == std::string_view::npos ? a : s.find('.', a + 1);
  if (b == std::string_view::npos) return false;
  return is_number_part(s.substr(0, a)) && is_number_part(s.substr(a + 1, b - a - 1)) &&
         is_number_part(s.substr(b + 1));
}

location catalog_reader::where(const ssec::yaml::node& n) const {
  const std::size_t line = reader::line(n);
  if (line == 0) return {file(), 0, 0};
  return {file(), static_cast<int>(line), n.mark().column + 1};
}

void catalog_reader::error(const location& at, std::string message) {
  error(static_cast<std::size_t>(std::max(at.line, 0)), static_cast<std::size_t>(std::max(at.column, 0)),
        std::move(message));
}

std::optional<std::string> catalog_reader::text(const mapping& m, std::string_view key, std::string_view what,
                                                bool required) {
  const entry* e = field(m, key, what, required);
  return e != nullptr ? reader::text(*e, what) : std::nullopt;
}

std::optional<bool> catalog_reader::boolean(const mapping& m, std::string_view key, std::string_view what,
                                            bool required) {
  const entry* e = field(m, key, what, required);
  return e != nullptr ? reader::boolean(*e, what) : std::nullopt;
}

std::optional<std::int64_t> catalog_reader::integer(const mapping& m, std::string_view key, std::string_view what,
                                                    bool required) {
  const entry* e = field(m, key, what, required);
  return e != nullptr ? reader::integer(*e, what) : std::nullopt;
}

std::optional<std::vector<std::string>> catalog_reader::strings(const mapping& m, std::string_view key,
                                                                std::string_view what, bool required, bool single_ok,
                                                                bool may_be_empty) {
  const entry* e = field(m, key, what, required);
  if (e == nullptr) return std::nullopt;
  return reader::strings(*e, what, ssec::yaml::list_rules{.single_ok = single_ok, .empty_list_ok = may_be_empty});
}

trace catalog_reader::origin(const mapping& m, std::string_view what, bool optional) {
  trace t;
  if (auto sources = strings(m, "source", what, false, true)) {
    const entry* e = m.find("source");
    for (auto& s : *sources) {
      if (!valid_source(s)) {
        error(*e, "source " + in_backticks(s) + " of " + std::string(what) + " must be " + document +
                      ":<line> or an https:// URL");
      }
    }
    t.sources = std::move(*sources);
  }
  if (auto d = text(m, "decision", what, false)) {
    if (!is_anchor(*d))
      error(*m.find("decision"), "decision " + in_backticks(*d) + " must be a DECISIONS.md anchor like `done-in-chat`");
    t.decision = std::move(*d);
  }
  if (auto a = text(m, "authored", what, false)) {
    if (a->find_first_of("\r\n") != std::string::npos)
      error(*m.find("authored"),
            "`authored` of " + std::string(what) + " must be one line: the team's own reference (a document, a URL)");
    t.authored = std::move(*a);
  }
  const bool traced = !t.sources.empty() || !t.decision.empty() || !t.authored.empty() || m.find("source") != nullptr ||
                      m.find("decision") != nullptr || m.find("authored") != nullptr;
  if (!traced && !authored_scope.empty()) {
    t.authored = authored_scope;
  } else if (!traced && !optional) {
    error(m.node, std::string(what) + " needs a `source` (document line) or a `decision` (DECISIONS.md anchor)");
  }
  return t;
}

bool catalog_reader::valid_source(const std::string& s) const {
  if (s.rfind("https://", 0) == 0) return s.size() > 8;
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || s.substr(0, colon) != document) return false;
  const std::string line = s.substr(colon + 1);
  if (line.empty() || line[0] == '0') return false;
  return std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; });
}

namespace {

// YAML value -> JSON, for defaults. Quoted scalars are strings; plain ones
// follow the YAML 1.2 core schema (null, true/false, integers, floats).
nlohmann::json to_json(const ssec::yaml::node& n) {
  switch (n.kind()) {
    case ssec::yaml::node_kind::null: return nullptr;
    case ssec::yaml::node_kind::sequence: {
      auto out = nlohmann::json::array();
      for (const auto& item : n.items()) out.push_back(to_json(item));
      return out;
    }
    case ssec::yaml::node_kind::map: {
      auto out = nlohmann::json::object();
      for (const auto& [key, value] : n.pairs()) out[key.scalar()] = to_json(value);
      return out;
    }
    case ssec::yaml::node_kind::scalar: {
      const std::string& s = n.scalar();
      if (n.tag() != "?") return s;
      if (s == "null" || s == "~") return nullptr;
      if (s == "true") return true;
      if (s == "false") return false;
      // YAML 1.2 core schema numbers; from_chars accepts no leading '+' or spaces.
      std::int64_t i = 0;
      if (const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
          ec == std::errc() && end == s.data() + s.size()) {
        return i;
      }
      double d = 0;
      if (const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
          ec == std::errc() && end == s.data() + s.size() && std::isfinite(d)) {
        return d;
      }
      return s;
    }
    default: return nullptr;
  }
}

std::optional<type_set> parse_types(catalog_reader& r, const entry& e, std::string_view what) {
  static const std::pair<std::string_view, std::uint8_t> names[] = {
      {"string", type_set::string},   {"number", type_set::number}, {"integer", type_set::integer},
      {"boolean", type_set::boolean}, {"object", type_set::object}, {"array", type_set::array},
      {"null", type_set::null},       {"any", type_set::any}};
  std::vector<ssec::yaml::node> items;
  if (e.value.is_scalar()) {
    items.push_back(e.value);
  } else if (e.value.is_sequence() && e.value.size() > 0) {
    for (const auto& item : e.value.items()) items.push_back(item);
  } else {
    r.error(e, "`type` of " + std::string(what) + " must be a type name or a non-empty list of them");
    return std::nullopt;
  }
  type_set out;
  for (const auto& item : items) {
    const auto* found = item.is_scalar() ? std::find_if(std::begin(names), std::end(names),
                                                        [&](const auto& p) { return p.first == item.scalar(); })
                                         : std::end(names);
    if (found == std::end(names)) {
      r.error(item, "unknown type " + in_backticks(item.is_scalar() ? item.scalar() : "?") + " of " +
                        std::string(what) + " (expected string, number, integer, boolean, object, array, null or any)");
      return std::nullopt;
    }
    out.bits = static_cast<std::uint8_t>(out.bits | found->second);
  }
  return out;
}

// Reads one field. `base` is the envelope field this one refines, if any.
std::optional<field_spec> parse_field(catalog_reader& r, const ssec::yaml::node& n, std::string_view owner,
                                      const field_spec* base);

bool parse_fields(catalog_reader& r, const ssec::yaml::node& list, std::string_view owner,
                  const std::vector<field_spec>* envelope, std::vector<field_spec>& out) {
  if (!list.is_sequence()) {
    r.error(list, "`fields` of " + std::string(owner) + " must be a list (use [] for none)");
    return false;
  }
  std::map<std::string, int> seen;  // key -> line
  bool ok = true;
  for (const auto& item : list.items()) {
    const field_spec* base = nullptr;
    if (envelope != nullptr && item.is_map() && item["key"] && item["key"].is_scalar()) {
      for (const auto& ef : *envelope) {
        if (ef.key == item["key"].scalar()) base = &ef;
      }
    }
    auto f = parse_field(r, item, owner, base);
    if (!f) {
      ok = false;
      continue;
    }
    if (const auto it = seen.find(f->key); it != seen.end()) {
      r.error(f->where, "duplicate field " + in_backticks(f->key) + " in " + std::string(owner) + " (first at line " +
                            std::to_string(it->second) + ")");
      ok = false;
      continue;
    }
    seen.emplace(f->key, f->where.line);
    out.push_back(std::move(*f));
  }
  return ok;
}

std::optional<field_spec> parse_field(catalog_reader& r, const ssec::yaml::node& n, std::string_view owner,
                                      const field_spec* base) {
  auto m =
      r.read_mapping(n, "field", {"key", "type", "required", "default", "purpose", "source", "decision", "fields"});
  if (!m) return std::nullopt;
  field_spec f;
  if (base != nullptr) {
    f = *base;
    f.from_envelope = true;
  }
  f.where = r.where(n);
  const auto key = r.text(*m, "key", "field", true);
  if (!key) return std::nullopt;
  f.key = *key;
  const std::string what = "field " + in_backticks(f.key) + " of " + std::string(owner);
  bool ok = true;
  if (f.key == "type") {
    r.error(n, "field `type` of " + std::string(owner) + " is the event discriminator and is not declared as a field");
    ok = false;
  }
  if (const entry* e = m->find("type")) {
    if (auto t = parse_types(r, *e, what)) f.types = *t;
    else ok = false;
  } else if (base == nullptr) {
    r.require(*m, what, {"type"});
    ok = false;
  }
  if (auto req = r.boolean(*m, "required", what, base == nullptr)) f.required = *req;
  else if (m->find("required") != nullptr || base == nullptr) ok = false;
  if (auto p = r.text(*m, "purpose", what, true)) f.purpose = *p;
  else ok = false;
  const bool has_trace = m->find("source") != nullptr || m->find("decision") != nullptr;
  if (has_trace || base == nullptr) f.origin = r.origin(*m, what);
  if (const entry* e = m->find("default")) {
    f.default_value = to_json(e->value);
    if (f.required) {
      r.error(*e, what + " is required, so it cannot have a default");
      ok = false;
    } else if (!f.types.admits(*f.default_value)) {
      r.error(*e, "default of " + what + " is not of its type " + f.types.to_string());
      ok = false;
    }
  }
  if (const entry* e = m->find("fields")) {
    if ((f.types.bits & type_set::object) == 0) {
      r.error(*e, what + " has nested fields but its type does not admit an object");
      ok = false;
    } else {
      std::vector<field_spec> nested;
      if (!parse_fields(r, e->value, what, nullptr, nested)) ok = false;
      f.fields = std::move(nested);
    }
  }
  if (!ok) return std::nullopt;
  return f;
}

std::optional<frame_shape_spec> parse_shape(catalog_reader& r, const ssec::yaml::node& n, std::string_view dialect) {
  auto m = r.read_mapping(n, "frame shape", {"shape", "detection", "handling", "prefix", "source", "decision"});
  if (!m) return std::nullopt;
  frame_shape_spec s;
  s.where = r.where(n);
  const std::string what = "frame shape of dialect " + in_backticks(dialect);
  const auto name = r.text(*m, "shape", what, true);
  bool ok = name.has_value();
  if (name) {
    if (*name == "structured") s.kind = shape::structured;
    else if (*name == "plain_text") s.kind = shape::plain_text;
    else if (*name == "error") s.kind = shape::error;
    else {
      r.error(*m->find("shape"),
              "unknown shape " + in_backticks(*name) + " (expected structured, plain_text or error)");
      ok = false;
    }
  }
  if (auto d = r.text(*m, "detection", what, true)) s.detection = *d;
  else ok = false;
  if (auto h = r.text(*m, "handling", what, true)) s.handling = *h;
  else ok = false;
  if (auto p = r.text(*m, "prefix", what, false)) s.prefix = *p;
  if (ok && s.kind == shape::error && s.prefix.empty()) {
    if (m->find("prefix") == nullptr) r.require(*m, "the error shape", {"prefix"});
    ok = false;
  }
  if (ok && s.kind != shape::error && m->find("prefix") != nullptr) {
    r.error(*m->find("prefix"), "`prefix` belongs to the error shape only");
    ok = false;
  }
  s.origin = r.origin(*m, what);
  if (!ok) return std::nullopt;
  return s;
}

std::optional<event_spec> parse_event(catalog_reader& r, const ssec::yaml::node& n, std::string_view dialect,
                                      const std::vector<field_spec>& envelope) {
  auto m = r.read_mapping(n, "event", {"type", "purpose", "source", "decision", "authored", "open", "fields"});
  if (!m) return std::nullopt;
  event_spec ev;
  ev.where = r.where(n);
  const auto type = r.text(*m, "type", "event of dialect " + in_backticks(dialect), true);
  if (!type) return std::nullopt;
  ev.type = *type;
  const std::string what = "event " + in_backticks(ev.type);
  bool ok = true;
  if (auto p = r.text(*m, "purpose", what, true)) ev.purpose = *p;
  else ok = false;
  ev.origin = r.origin(*m, what);
  if (auto o = r.boolean(*m, "open", what, false)) ev.open = *o;
  else if (m->find("open") != nullptr) ok = false;
  std::vector<field_spec> own;
  if (const entry* e = m->find("fields")) {
    r.authored_scope = ev.origin.authored;
    if (!parse_fields(r, e->value, what, envelope.empty() ? nullptr : &envelope, own)) ok = false;
    r.authored_scope.clear();
  } else {
    r.require(*m, what + " (use [] for none)", {"fields"});
    ok = false;
  }
  // Effective fields: the envelope's, refined where the event names them, then the event's own.
  for (const auto& ef : envelope) {
    const auto refined = std::find_if(own.begin(), own.end(), [&](const field_spec& f) { return f.key == ef.key; });
    ev.fields.push_back(refined != own.end() ? *refined : ef);
    ev.fields.back().from_envelope = true;
  }
  for (auto& f : own) {
    if (!f.from_envelope) ev.fields.push_back(std::move(f));
  }
  if (!ok) return std::nullopt;
  return ev;
}

std::optional<difference_spec> parse_difference(catalog_reader& r, const ssec::yaml::node& n) {
  auto m = r.read_mapping(
      n, "difference", {"aspect", "base", "profile", "source", "decision", "events", "error_wire_event", "no_default"});
  if (!m) return std::nullopt;
  difference_spec d;
  d.where = r.where(n);
  bool ok = true;
  if (auto a = r.text(*m, "aspect", "difference", true)) d.aspect = *a;
  else ok = false;
  const std::string what = "difference " + in_backticks(d.aspect);
  if (auto b = r.text(*m, "base", what, true)) d.base = *b;
  else ok = false;
  if (auto p = r.text(*m, "profile", what, true)) d.profile = *p;
  else ok = false;
  d.origin = r.origin(*m, what);
  if (auto ev = r.strings(*m, "events", what, false, false)) d.events = *ev;
  else if (m->find("events") != nullptr) ok = false;
  if (auto w = r.text(*m, "error_wire_event", what, false)) d.error_wire_event = *w;
  else if (m->find("error_wire_event") != nullptr) ok = false;
  if (auto nd = r.strings(*m, "no_default", what, false, false)) d.no_default = *nd;
  else if (m->find("no_default") != nullptr) ok = false;
  if (!ok) return std::nullopt;
  return d;
}

std::optional<field_path> parse_path(catalog_reader& r, const entry& at, const std::string& text) {
  field_path p;
  std::size_t start = 0;
  std::vector<std::string> parts;
  while (true) {
    const auto dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() < 2 || std::any_of(parts.begin(), parts.end(), [](const auto& s) { return s.empty(); })) {
    r.error(at, "field path " + in_backticks(text) + " must be type.field (or *.field)");
    return std::nullopt;
  }
  p.type = parts[0];
  p.keys.assign(parts.begin() + 1, parts.end());
  return p;
}

struct check_grammar {
  std::string_view name;
  check_kind kind;
  std::initializer_list<std::string_view> params;  // besides `kind`
  std::initializer_list<std::string_view> required;
};

const check_grammar check_grammars[] = {
    {"utf8", check_kind::utf8, {}, {}},
    {"frame_terminated", check_kind::frame_terminated, {}, {}},
    {"lf_line_ends", check_kind::lf_line_ends, {}, {}},
    {"single_data_line", check_kind::single_data_line, {}, {}},
    {"data_only", check_kind::data_only, {}, {}},
    {"data_space", check_kind::data_space, {}, {}},
    {"known_field", check_kind::known_field, {}, {}},
    {"json_object", check_kind::json_object, {}, {}},
    {"object_has_type", check_kind::object_has_type, {}, {}},
    {"type_key_casing", check_kind::type_key_casing, {}, {}},
    {"known_type", check_kind::known_type, {}, {}},
    {"field_required", check_kind::field_required, {"fields"}, {}},
    {"field_type", check_kind::field_type, {}, {}},
    {"key_casing", check_kind::key_casing, {}, {}},
    {"undeclared_field", check_kind::undeclared_field, {}, {}},
    {"unique_keys", check_kind::unique_keys, {}, {}},
    {"forbidden_field", check_kind::forbidden_field, {"fields"}, {"fields"}},
    {"forbidden_type", check_kind::forbidden_type, {"types"}, {"types"}},
    {"refers", check_kind::refers, {"from", "to", "also_from"}, {"from", "to"}},
    {"unique_value", check_kind::unique_value, {"field"}, {"field"}},
    {"constant_field", check_kind::constant_field, {"field"}, {"field"}},
    {"increasing", check_kind::increasing, {"field"}, {"field"}},
    {"pair", check_kind::pair, {"open", "close", "during", "key"}, {"open", "close"}},
    {"pair_closed", check_kind::pair_closed, {"open", "close", "key"}, {"open", "close"}},
    {"first_frame", check_kind::first_frame, {"types"}, {"types"}},
    {"last_frame", check_kind::last_frame, {"types"}, {"types"}},
    {"at_most_once", check_kind::at_most_once, {"types"}, {"types"}},
    {"followed_only_by", check_kind::followed_only_by, {"after", "allow"}, {"after", "allow"}},
    {"content_type", check_kind::content_type, {"value"}, {"value"}},
};

std::optional<check_spec> parse_check(catalog_reader& r, const entry& at, const std::string& rule) {
  const std::string what = "check of rule " + in_backticks(rule);
  if (!at.value.is_map()) {
    r.error(at, what + " must be a mapping with a `kind`");
    return std::nullopt;
  }
  const ssec::yaml::node kind_node = at.value["kind"];
  if (!kind_node || !kind_node.is_scalar()) {
    r.error(at, what + " needs a `kind`");
    return std::nullopt;
  }
  const auto* g = std::find_if(std::begin(check_grammars), std::end(check_grammars),
                               [&](const check_grammar& c) { return c.name == kind_node.scalar(); });
  if (g == std::end(check_grammars)) {
    std::vector<std::string_view> names;
    for (const auto& c : check_grammars) names.push_back(c.name);
    r.error(kind_node,
            "unknown check kind " + in_backticks(kind_node.scalar()) + " (expected one of: " + ssec::join(names) + ")");
    return std::nullopt;
  }
  std::vector<std::string_view> allowed{"kind"};
  allowed.insert(allowed.end(), g->params.begin(), g->params.end());
  // Named with the kind: which keys are allowed depends on it.
  const std::string with_kind = what + " (" + std::string(g->name) + ")";
  const auto read = r.read_mapping(at.value, with_kind, allowed);
  if (!read) return std::nullopt;
  const mapping& m = *read;
  bool ok = read->complete;
  if (!r.require(m, with_kind, std::vector<std::string_view>(g->required))) ok = false;
  if (!ok) return std::nullopt;
  check_spec c;
  c.kind = g->kind;
  const auto paths = [&](std::string_view key, std::vector<field_path>& out) {
    if (const entry* e = m.find(key)) {
      if (auto list = r.strings(m, key, what, false, key == "from" || key == "to")) {
        for (const auto& s : *list) {
          if (auto p = parse_path(r, *e, s)) out.push_back(std::move(*p));
          else ok = false;
        }
      } else {
        ok = false;
      }
    }
  };
  const auto names = [&](std::string_view key, std::vector<std::string>& out, bool may_be_empty) {
    if (m.find(key) == nullptr) return;
    if (auto list = r.strings(m, key, what, false, key == "close", may_be_empty)) out = std::move(*list);
    else ok = false;
  };
  const auto name = [&](std::string_view key, std::string& out) {
    if (m.find(key) == nullptr) return;
    if (auto s = r.text(m, key, what, false)) out = std::move(*s);
    else ok = false;
  };
  switch (c.kind) {
    case check_kind::field_required:
    case check_kind::forbidden_field: paths("fields", c.fields); break;
    case check_kind::refers: {
      paths("from", c.fields);
      paths("also_from", c.fields);
      std::vector<field_path> to;
      paths("to", to);
      if (to.size() == 1) c.to = to.front();
      else if (ok) {
        r.error(*m.find("to"), "`to` of " + what + " must be one type.field");
        ok = false;
      }
      break;
    }
    case check_kind::unique_value: {
      std::string s;
      name("field", s);
      if (!s.empty()) {
        if (auto p = parse_path(r, *m.find("field"), s)) c.fields.push_back(std::move(*p));
        else ok = false;
      }
      break;
    }
    case check_kind::constant_field:
    case check_kind::increasing: name("field", c.field); break;
    case check_kind::pair:
    case check_kind::pair_closed:
      name("open", c.open);
      names("close", c.close, false);
      names("during", c.during, false);
      name("key", c.key);
      break;
    case check_kind::forbidden_type:
    case check_kind::first_frame:
    case check_kind::last_frame:
    case check_kind::at_most_once: names("types", c.types, false); break;
    case check_kind::followed_only_by:
      names("after", c.types, false);
      names("allow", c.allow, true);
      break;
    case check_kind::content_type:
      name("value", c.value);
      std::transform(c.value.begin(), c.value.end(), c.value.begin(),
                     [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch; });
      break;
    default: break;
  }
  if (!ok) return std::nullopt;
  return c;
}

}  // namespace

std::optional<rule_spec> parse_rule(catalog_reader& r, const ssec::yaml::node& n) {
  auto m = r.read_mapping(
      n, "rule", {"id", "severity", "basis", "dialects", "text", "source", "quote", "decision", "authored", "check"});
  if (!m) return std::nullopt;
  rule_spec rule;
  rule.where = r.where(n);
  const auto id = r.text(*m, "id", "rule", true);
  if (!id) return std::nullopt;
  rule.id = *id;
  const std::string what = "rule " + in_backticks(rule.id);
  bool ok = true;
  if (!is_rule_id(rule.id)) {
    r.error(*m->find("id"), "rule id " + in_backticks(rule.id) + " must look like AGENT-DONE-LAST (A-Z, 0-9, dashes)");
    ok = false;
  }
  if (auto s = r.text(*m, "severity", what, true)) {
    if (*s == "must") rule.level = severity::must;
    else if (*s == "should") rule.level = severity::should;
    else {
      r.error(*m->find("severity"), "severity of " + what + " must be must or should, got " + in_backticks(*s));
      ok = false;
    }
  } else {
    ok = false;
  }
  if (auto d = r.strings(*m, "dialects", what, true, false)) rule.dialects = *d;
  else ok = false;
  if (auto t = r.text(*m, "text", what, true)) rule.text = *t;
  else ok = false;
  rule.origin = r.origin(*m, what);
  // basis: optional in format 1 (catalogs written before it existed); then a
  // rule with a decision rests on it, an authored one on its authors' word,
  // any other on the document.
  if (auto b = r.text(*m, "basis", what, false)) {
    if (*b == "document") rule.basis = basis::document;
    else if (*b == "decision") rule.basis = basis::decision;
    else if (*b == "authored") rule.basis = basis::authored;
    else {
      r.error(*m->find("basis"),
              "basis of " + what + " must be document, decision or authored, got " + in_backticks(*b));
      ok = false;
    }
  } else if (m->has("basis")) {
    ok = false;
  } else {
    rule.basis = !rule.origin.decision.empty()   ? basis::decision
                 : !rule.origin.authored.empty() ? basis::authored
                                                 : basis::document;
  }
  if (auto q = r.strings(*m, "quote", what, false, true)) rule.quotes = std::move(*q);
  else if (m->has("quote")) ok = false;
  if (ok && !rule.quotes.empty() && rule.quotes.size() != rule.origin.sources.size()) {
    r.error(*m->find("quote"), "quote of " + what + " needs one entry per source (" +
                                   std::to_string(rule.origin.sources.size()) + "), got " +
                                   std::to_string(rule.quotes.size()));
    ok = false;
  }
  // spec/DECISIONS.md#severity-basis: a must rests on the words of a
  // document, quoted, or on the authors' own word for what their catalog
  // adds (`authored`, checked below); an inference is at most a should.
  if (ok && rule.level == severity::must && rule.basis != basis::authored) {
    if (rule.basis != basis::document) {
      r.error(*m->find("severity"), "a must rule rests on the document's words: " + what +
                                        " has basis decision (make it should, or quote the document)");
      ok = false;
    } else if (rule.quotes.empty()) {
      r.error(*m->find("severity"), "a must rule quotes the words it rests on: " + what + " has no `quote`");
      ok = false;
    }
  }
  if (ok && rule.basis == basis::decision && rule.origin.decision.empty()) {
    r.error(*m->find("basis"), what + " rests on a decision but names none (`decision:` anchor)");
    ok = false;
  }
  if (ok && rule.basis == basis::authored && rule.origin.authored.empty()) {
    r.error(*m->find("basis"), what + " rests on its authors' word but names no reference (`authored:`)");
    ok = false;
  }
  if (const entry* e = m->find("check")) {
    if (auto c = parse_check(r, *e, rule.id)) rule.check = std::move(*c);
    else ok = false;
  } else {
    r.require(*m, what, {"check"});
    ok = false;
  }
  if (!ok) return std::nullopt;
  return rule;
}

std::optional<raw_dialect> parse_dialect(catalog_reader& r, const ssec::yaml::node& n) {
  auto m = r.read_mapping(n, "dialect",
                          {"name", "purpose", "source", "decision", "frame_shapes", "frames_from", "profile_of",
                           "differences", "envelope", "events"});
  if (!m) return std::nullopt;
  raw_dialect raw;
  raw.spec = std::make_unique<dialect_spec>();
  raw.reader = &r;
  dialect_spec& d = *raw.spec;
  d.where = r.where(n);
  const auto name = r.text(*m, "name", "dialect", true);
  if (!name) return std::nullopt;
  d.name = *name;
  const std::string what = "dialect " + in_backticks(d.name);
  bool ok = true;
  if (!is_identifier(d.name)) {
    r.error(*m->find("name"), "dialect name " + in_backticks(d.name) + " must match [a-z][a-z0-9_]*");
    ok = false;
  }
  if (auto p = r.text(*m, "purpose", what, true)) d.purpose = *p;
  else ok = false;
  d.origin = r.origin(*m, what);
  if (auto p = r.text(*m, "profile_of", what, false)) d.profile_of = *p;
  if (auto f = r.text(*m, "frames_from", what, false)) d.frames_from = *f;
  const bool profile = m->find("profile_of") != nullptr;
  if (profile) {
    for (const auto key : {"frame_shapes", "frames_from", "envelope", "events"}) {
      if (const entry* e = m->find(key)) {
        r.error(e->key_node, what + " is a profile: " + in_backticks(key) +
                                 " comes from its base; state changes under `differences`");
        ok = false;
      }
    }
  } else if (const entry* e = m->find("differences")) {
    r.error(e->key_node, "`differences` belongs to a profile (a dialect with `profile_of`)");
    ok = false;
  }
  if (const entry* e = m->find("frame_shapes")) {
    if (m->find("frames_from") != nullptr) {
      r.error(e->key_node, what + " has both `frame_shapes` and `frames_from`");
      ok = false;
    } else if (!e->value.is_sequence()) {
      r.error(*e, "`frame_shapes` of " + what + " must be a list");
      ok = false;
    } else {
      std::map<shape, int> seen;
      for (const auto& item : e->value.items()) {
        auto s = parse_shape(r, item, d.name);
        if (!s) {
          ok = false;
          continue;
        }
        if (const auto it = seen.find(s->kind); it != seen.end()) {
          r.error(s->where, "duplicate frame shape " + in_backticks(to_string(s->kind)) + " in " + what +
                                " (first at line " + std::to_string(it->second) + ")");
          ok = false;
          continue;
        }
        seen.emplace(s->kind, s->where.line);
        d.shapes.push_back(std::move(*s));
      }
      if (ok && !d.has_shape(shape::structured)) {
        r.error(*e, what + " needs a `structured` frame shape");
        ok = false;
      }
      raw.has_own_shapes = true;
    }
  } else if (!profile && m->find("frames_from") == nullptr) {
    r.require(*m, what + " (or `frames_from`)", {"frame_shapes"});
    ok = false;
  }
  if (const entry* e = m->find("envelope")) {
    auto env = r.read_mapping(e->value, "envelope", {"fields", "source", "decision"});
    if (!env) {
      ok = false;
    } else {
      r.origin(*env, "envelope of " + what, true);
      if (const entry* fe = env->find("fields")) {
        if (!parse_fields(r, fe->value, "the envelope of " + what, nullptr, d.envelope)) ok = false;
      } else {
        r.require(*env, "envelope", {"fields"});
        ok = false;
      }
    }
  }
  if (const entry* e = m->find("events")) {
    if (!e->value.is_sequence()) {
      r.error(*e, "`events` of " + what + " must be a list");
      ok = false;
    } else {
      for (const auto& item : e->value.items()) {
        auto ev = parse_event(r, item, d.name, d.envelope);
        if (!ev) {
          ok = false;
          continue;
        }
        const auto dup =
            std::find_if(d.events.begin(), d.events.end(), [&](const event_spec& x) { return x.type == ev->type; });
        if (dup != d.events.end()) {
          r.error(ev->where, "duplicate event type " + in_backticks(ev->type) + " in " + what + " (first at line " +
                                 std::to_string(dup->where.line) + ")");
          ok = false;
          continue;
        }
        d.events.push_back(std::move(*ev));
      }
    }
  } else if (!profile) {
    r.require(*m, what, {"events"});
    ok = false;
  }
  if (const entry* e = m->find("differences")) {
    if (!e->value.is_sequence()) {
      r.error(*e, "`differences` of " + what + " must be a list");
      ok = false;
    } else {
      for (const auto& item : e->value.items()) {
        if (auto diff = parse_difference(r, item)) d.differences.push_back(std::move(*diff));
        else ok = false;
      }
    }
  }
  if (!ok) return std::nullopt;
  return raw;
}

}  // namespace sse::dialect::detail
