// SPDX-License-Identifier: MIT
// Loads catalogs (spec/FORMAT.md, format_version 1) with yaml-cpp and checks
// them against the format. yaml-cpp throws; every exception is caught here and
// becomes a load_error, so nothing escapes the library API.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <map>
#include <cmath>
#include <set>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include "sse/dialect/catalog.hpp"

namespace sse::dialect {

namespace {

constexpr int supported_format_version = 1;

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

// [A-Z][A-Z0-9]*(-[A-Z0-9]+)+
bool is_rule_id(std::string_view s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z' && dashed_words(s, upper_or_digit, 2); }

// [a-z0-9]+(-[a-z0-9]+)*
bool is_anchor(std::string_view s) { return dashed_words(s, lower_or_digit, 1); }

// A decimal number without a leading zero (0 itself is fine).
bool is_number_part(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), digit) && (s.size() == 1 || s[0] != '0');
}

// MAJOR.MINOR.PATCH with an optional -prerelease.
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
  return is_number_part(s.substr(0, a)) && is_number_part(s.substr(a + 1, b - a - 1)) && is_number_part(s.substr(b + 1));
}

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string joined(std::span<const std::string_view> items) {
  std::string out;
  for (const auto item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

// One key of a YAML mapping, with the nodes for error positions.
struct entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

// A checked YAML mapping: known keys only, each once.
struct map_view {
  YAML::Node node;
  std::vector<entry> entries;
  const entry* find(std::string_view key) const {
    for (const auto& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }
};

// Reads one file; all problems go to `errors` with this file's name.
class file_reader {
 public:
  file_reader(std::string file, std::vector<load_error>& errors) : file_(std::move(file)), errors_(&errors) {}

  const std::string& file() const { return file_; }
  std::string document;  // the file's `document`, for checking `source` values

  location where(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    if (m.line < 0) return {file_, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }

  // Position of an entry's value, or of its key when the value is empty.
  location where(const entry& e) const {
    if (!e.value || e.value.IsNull()) return where(e.key_node);
    const location l = where(e.value);
    return l.line > 0 ? l : where(e.key_node);
  }

  void error(location at, std::string message) { errors_->push_back(load_error{std::move(at), std::move(message)}); }
  void error(const YAML::Node& at, std::string message) { error(where(at), std::move(message)); }
  void error(const entry& at, std::string message) { error(where(at), std::move(message)); }

  // Checks that `n` is a mapping with keys from `allowed`, each once.
  std::optional<map_view> mapping(const YAML::Node& n, std::string_view what,
                                  std::initializer_list<std::string_view> allowed) {
    if (!n.IsMap()) {
      error(n, std::string(what) + " must be a mapping");
      return std::nullopt;
    }
    map_view out{n, {}};
    const std::vector<std::string_view> names(allowed);
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, "a key of " + std::string(what) + " must be a plain string");
        continue;
      }
      std::string key = it->first.Scalar();
      if (const entry* first = out.find(key)) {
        error(it->first, "duplicate key " + in_quotes(key) + " in " + std::string(what) + " (first at line " +
                             std::to_string(where(first->key_node).line) + ")");
        continue;
      }
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        error(it->first, "unknown key " + in_quotes(key) + " in " + std::string(what) + " (expected one of: " +
                             joined(names) + ")");
        continue;
      }
      out.entries.push_back(entry{std::move(key), it->first, it->second});
    }
    return out;
  }

  void missing(const map_view& m, std::string_view key, std::string_view what) {
    error(m.node, "missing required key " + in_quotes(key) + " in " + std::string(what));
  }

  // A non-empty string scalar.
  std::optional<std::string> text(const map_view& m, std::string_view key, std::string_view what, bool required) {
    const entry* e = m.find(key);
    if (e == nullptr) {
      if (required) missing(m, key, what);
      return std::nullopt;
    }
    if (!e->value.IsScalar()) {
      error(*e, in_quotes(key) + " of " + std::string(what) + " must be a string");
      return std::nullopt;
    }
    if (e->value.Scalar().empty()) {
      error(*e, in_quotes(key) + " of " + std::string(what) + " must not be empty");
      return std::nullopt;
    }
    return e->value.Scalar();
  }

  // true or false, spelled so (YAML 1.2 core schema; no yes/no/on/off).
  std::optional<bool> boolean(const map_view& m, std::string_view key, std::string_view what, bool required) {
    const entry* e = m.find(key);
    if (e == nullptr) {
      if (required) missing(m, key, what);
      return std::nullopt;
    }
    if (e->value.IsScalar() && e->value.Tag() == "?") {
      if (e->value.Scalar() == "true") return true;
      if (e->value.Scalar() == "false") return false;
    }
    error(*e, in_quotes(key) + " of " + std::string(what) + " must be true or false");
    return std::nullopt;
  }

  std::optional<int> integer(const map_view& m, std::string_view key, std::string_view what, bool required) {
    const entry* e = m.find(key);
    if (e == nullptr) {
      if (required) missing(m, key, what);
      return std::nullopt;
    }
    if (e->value.IsScalar() && e->value.Tag() == "?") {
      const std::string& s = e->value.Scalar();
      int v = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc() && end == s.data() + s.size()) return v;
    }
    error(*e, in_quotes(key) + " of " + std::string(what) + " must be an integer");
    return std::nullopt;
  }

  // A list of non-empty strings; a single string too when `scalar_ok`.
  std::optional<std::vector<std::string>> strings(const map_view& m, std::string_view key, std::string_view what,
                                                  bool required, bool scalar_ok, bool may_be_empty = false) {
    const entry* e = m.find(key);
    if (e == nullptr) {
      if (required) missing(m, key, what);
      return std::nullopt;
    }
    std::vector<std::string> out;
    if (scalar_ok && e->value.IsScalar() && !e->value.Scalar().empty()) {
      out.push_back(e->value.Scalar());
      return out;
    }
    if (!e->value.IsSequence()) {
      error(*e, in_quotes(key) + " of " + std::string(what) + " must be a list of strings");
      return std::nullopt;
    }
    bool ok = true;
    for (const auto& item : e->value) {
      if (!item.IsScalar() || item.Scalar().empty()) {
        error(item, in_quotes(key) + " of " + std::string(what) + " must hold non-empty strings");
        ok = false;
        continue;
      }
      out.push_back(item.Scalar());
    }
    if (ok && out.empty() && !may_be_empty) {
      error(*e, in_quotes(key) + " of " + std::string(what) + " must not be empty");
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
    return out;
  }

  // source / decision; at least one unless `optional`.
  trace origin(const map_view& m, std::string_view what, bool optional = false) {
    trace t;
    if (auto sources = strings(m, "source", what, false, true)) {
      const entry* e = m.find("source");
      for (auto& s : *sources) {
        if (!valid_source(s)) {
          error(*e, "source " + in_quotes(s) + " of " + std::string(what) + " must be " + document +
                        ":<line> or an https:// URL");
        }
      }
      t.sources = std::move(*sources);
    }
    if (auto d = text(m, "decision", what, false)) {
      if (!is_anchor(*d)) error(*m.find("decision"), "decision " + in_quotes(*d) + " must be a DECISIONS.md anchor like 'done-in-chat'");
      t.decision = std::move(*d);
    }
    if (!optional && t.sources.empty() && t.decision.empty() && m.find("source") == nullptr &&
        m.find("decision") == nullptr) {
      error(m.node, std::string(what) + " needs a 'source' (document line) or a 'decision' (DECISIONS.md anchor)");
    }
    return t;
  }

 private:
  bool valid_source(const std::string& s) const {
    if (s.rfind("https://", 0) == 0) return s.size() > 8;
    const auto colon = s.rfind(':');
    if (colon == std::string::npos || s.substr(0, colon) != document) return false;
    const std::string line = s.substr(colon + 1);
    if (line.empty() || line[0] == '0') return false;
    return std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  std::string file_;
  std::vector<load_error>* errors_;
};

// YAML value -> JSON, for defaults. Quoted scalars are strings; plain ones
// follow the YAML 1.2 core schema (null, true/false, integers, floats).
nlohmann::json to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return nullptr;
    case YAML::NodeType::Sequence: {
      auto out = nlohmann::json::array();
      for (const auto& item : n) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      auto out = nlohmann::json::object();
      for (auto it = n.begin(); it != n.end(); ++it) out[it->first.Scalar()] = to_json(it->second);
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (n.Tag() != "?") return s;
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

std::optional<type_set> parse_types(file_reader& r, const entry& e, std::string_view what) {
  static const std::pair<std::string_view, std::uint8_t> names[] = {
      {"string", type_set::string}, {"number", type_set::number}, {"integer", type_set::integer},
      {"boolean", type_set::boolean}, {"object", type_set::object}, {"array", type_set::array},
      {"null", type_set::null},     {"any", type_set::any}};
  std::vector<YAML::Node> items;
  if (e.value.IsScalar()) {
    items.push_back(e.value);
  } else if (e.value.IsSequence() && e.value.size() > 0) {
    for (const auto& item : e.value) items.push_back(item);
  } else {
    r.error(e, "'type' of " + std::string(what) + " must be a type name or a non-empty list of them");
    return std::nullopt;
  }
  type_set out;
  for (const auto& item : items) {
    const auto* found = item.IsScalar()
                            ? std::find_if(std::begin(names), std::end(names),
                                           [&](const auto& p) { return p.first == item.Scalar(); })
                            : std::end(names);
    if (found == std::end(names)) {
      r.error(item, "unknown type " + in_quotes(item.IsScalar() ? item.Scalar() : "?") + " of " + std::string(what) +
                        " (expected string, number, integer, boolean, object, array, null or any)");
      return std::nullopt;
    }
    out.bits = static_cast<std::uint8_t>(out.bits | found->second);
  }
  return out;
}

// Reads one field. `base` is the envelope field this one refines, if any.
std::optional<field_spec> parse_field(file_reader& r, const YAML::Node& n, std::string_view owner,
                                      const field_spec* base);

bool parse_fields(file_reader& r, const YAML::Node& list, std::string_view owner, const std::vector<field_spec>* envelope,
                  std::vector<field_spec>& out) {
  if (!list.IsSequence()) {
    r.error(list, "'fields' of " + std::string(owner) + " must be a list (use [] for none)");
    return false;
  }
  std::map<std::string, int> seen;  // key -> line
  bool ok = true;
  for (const auto& item : list) {
    const field_spec* base = nullptr;
    if (envelope != nullptr && item.IsMap() && item["key"] && item["key"].IsScalar()) {
      for (const auto& ef : *envelope) {
        if (ef.key == item["key"].Scalar()) base = &ef;
      }
    }
    auto f = parse_field(r, item, owner, base);
    if (!f) {
      ok = false;
      continue;
    }
    if (const auto it = seen.find(f->key); it != seen.end()) {
      r.error(f->where, "duplicate field " + in_quotes(f->key) + " in " + std::string(owner) + " (first at line " +
                            std::to_string(it->second) + ")");
      ok = false;
      continue;
    }
    seen.emplace(f->key, f->where.line);
    out.push_back(std::move(*f));
  }
  return ok;
}

std::optional<field_spec> parse_field(file_reader& r, const YAML::Node& n, std::string_view owner,
                                      const field_spec* base) {
  auto m = r.mapping(n, "field", {"key", "type", "required", "default", "purpose", "source", "decision", "fields"});
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
  const std::string what = "field " + in_quotes(f.key) + " of " + std::string(owner);
  bool ok = true;
  if (f.key == "type") {
    r.error(n, "field 'type' of " + std::string(owner) + " is the event discriminator and is not declared as a field");
    ok = false;
  }
  if (const entry* e = m->find("type")) {
    if (auto t = parse_types(r, *e, what)) f.types = *t;
    else ok = false;
  } else if (base == nullptr) {
    r.missing(*m, "type", what);
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

std::optional<frame_shape_spec> parse_shape(file_reader& r, const YAML::Node& n, std::string_view dialect) {
  auto m = r.mapping(n, "frame shape", {"shape", "detection", "handling", "prefix", "source", "decision"});
  if (!m) return std::nullopt;
  frame_shape_spec s;
  s.where = r.where(n);
  const std::string what = "frame shape of dialect " + in_quotes(dialect);
  const auto name = r.text(*m, "shape", what, true);
  bool ok = name.has_value();
  if (name) {
    if (*name == "structured") s.kind = shape::structured;
    else if (*name == "plain_text") s.kind = shape::plain_text;
    else if (*name == "error") s.kind = shape::error;
    else {
      r.error(*m->find("shape"), "unknown shape " + in_quotes(*name) + " (expected structured, plain_text or error)");
      ok = false;
    }
  }
  if (auto d = r.text(*m, "detection", what, true)) s.detection = *d;
  else ok = false;
  if (auto h = r.text(*m, "handling", what, true)) s.handling = *h;
  else ok = false;
  if (auto p = r.text(*m, "prefix", what, false)) s.prefix = *p;
  if (ok && s.kind == shape::error && s.prefix.empty()) {
    if (m->find("prefix") == nullptr) r.missing(*m, "prefix", "the error shape");
    ok = false;
  }
  if (ok && s.kind != shape::error && m->find("prefix") != nullptr) {
    r.error(*m->find("prefix"), "'prefix' belongs to the error shape only");
    ok = false;
  }
  s.origin = r.origin(*m, what);
  if (!ok) return std::nullopt;
  return s;
}

std::optional<event_spec> parse_event(file_reader& r, const YAML::Node& n, std::string_view dialect,
                                      const std::vector<field_spec>& envelope) {
  auto m = r.mapping(n, "event", {"type", "purpose", "source", "decision", "open", "fields"});
  if (!m) return std::nullopt;
  event_spec ev;
  ev.where = r.where(n);
  const auto type = r.text(*m, "type", "event of dialect " + in_quotes(dialect), true);
  if (!type) return std::nullopt;
  ev.type = *type;
  const std::string what = "event " + in_quotes(ev.type);
  bool ok = true;
  if (auto p = r.text(*m, "purpose", what, true)) ev.purpose = *p;
  else ok = false;
  ev.origin = r.origin(*m, what);
  if (auto o = r.boolean(*m, "open", what, false)) ev.open = *o;
  else if (m->find("open") != nullptr) ok = false;
  std::vector<field_spec> own;
  if (const entry* e = m->find("fields")) {
    if (!parse_fields(r, e->value, what, envelope.empty() ? nullptr : &envelope, own)) ok = false;
  } else {
    r.missing(*m, "fields", what + " (use [] for none)");
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

std::optional<difference_spec> parse_difference(file_reader& r, const YAML::Node& n) {
  auto m = r.mapping(n, "difference",
                     {"aspect", "base", "profile", "source", "decision", "events", "error_wire_event", "no_default"});
  if (!m) return std::nullopt;
  difference_spec d;
  d.where = r.where(n);
  bool ok = true;
  if (auto a = r.text(*m, "aspect", "difference", true)) d.aspect = *a;
  else ok = false;
  const std::string what = "difference " + in_quotes(d.aspect);
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

std::optional<field_path> parse_path(file_reader& r, const entry& at, const std::string& text) {
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
    r.error(at, "field path " + in_quotes(text) + " must be type.field (or *.field)");
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
    {"json_object", check_kind::json_object, {}, {}},
    {"object_has_type", check_kind::object_has_type, {}, {}},
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

std::optional<check_spec> parse_check(file_reader& r, const entry& at, const std::string& rule) {
  const std::string what = "check of rule " + in_quotes(rule);
  if (!at.value.IsMap()) {
    r.error(at, what + " must be a mapping with a 'kind'");
    return std::nullopt;
  }
  const YAML::Node kind_node = at.value["kind"];
  if (!kind_node || !kind_node.IsScalar()) {
    r.error(at, what + " needs a 'kind'");
    return std::nullopt;
  }
  const auto* g = std::find_if(std::begin(check_grammars), std::end(check_grammars),
                               [&](const check_grammar& c) { return c.name == kind_node.Scalar(); });
  if (g == std::end(check_grammars)) {
    std::vector<std::string_view> names;
    for (const auto& c : check_grammars) names.push_back(c.name);
    r.error(kind_node, "unknown check kind " + in_quotes(kind_node.Scalar()) + " (expected one of: " + joined(names) + ")");
    return std::nullopt;
  }
  std::vector<std::string_view> allowed{"kind"};
  allowed.insert(allowed.end(), g->params.begin(), g->params.end());
  // mapping() takes an initializer list; check the keys by hand to name the kind in the message.
  map_view m{at.value, {}};
  bool ok = true;
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
    if (m.find(key) != nullptr) {
      r.error(it->first, "duplicate key " + in_quotes(key) + " in " + what);
      ok = false;
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      r.error(it->first, "unknown key " + in_quotes(key) + " for check kind " + std::string(g->name) +
                             (allowed.size() > 1 ? " (expected: " + joined(allowed) + ")" : " (it takes no parameters)"));
      ok = false;
      continue;
    }
    m.entries.push_back(entry{key, it->first, it->second});
  }
  for (const auto req : g->required) {
    if (m.find(req) == nullptr) {
      r.missing(m, req, what + " (" + std::string(g->name) + ")");
      ok = false;
    }
  }
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
        r.error(*m.find("to"), "'to' of " + what + " must be one type.field");
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

std::optional<rule_spec> parse_rule(file_reader& r, const YAML::Node& n) {
  auto m = r.mapping(n, "rule", {"id", "severity", "dialects", "text", "source", "decision", "check"});
  if (!m) return std::nullopt;
  rule_spec rule;
  rule.where = r.where(n);
  const auto id = r.text(*m, "id", "rule", true);
  if (!id) return std::nullopt;
  rule.id = *id;
  const std::string what = "rule " + in_quotes(rule.id);
  bool ok = true;
  if (!is_rule_id(rule.id)) {
    r.error(*m->find("id"), "rule id " + in_quotes(rule.id) + " must look like AGENT-DONE-LAST (A-Z, 0-9, dashes)");
    ok = false;
  }
  if (auto s = r.text(*m, "severity", what, true)) {
    if (*s == "must") rule.level = severity::must;
    else if (*s == "should") rule.level = severity::should;
    else {
      r.error(*m->find("severity"), "severity of " + what + " must be must or should, got " + in_quotes(*s));
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
  if (const entry* e = m->find("check")) {
    if (auto c = parse_check(r, *e, rule.id)) rule.check = std::move(*c);
    else ok = false;
  } else {
    r.missing(*m, "check", what);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return rule;
}

// A dialect as read from its file, before profiles and frames_from resolve.
struct raw_dialect {
  std::unique_ptr<dialect_spec> spec;
  file_reader* reader = nullptr;
  bool has_own_shapes = false;
};

std::optional<raw_dialect> parse_dialect(file_reader& r, const YAML::Node& n) {
  auto m = r.mapping(n, "dialect", {"name", "purpose", "source", "decision", "frame_shapes", "frames_from",
                                    "profile_of", "differences", "envelope", "events"});
  if (!m) return std::nullopt;
  raw_dialect raw;
  raw.spec = std::make_unique<dialect_spec>();
  raw.reader = &r;
  dialect_spec& d = *raw.spec;
  d.where = r.where(n);
  const auto name = r.text(*m, "name", "dialect", true);
  if (!name) return std::nullopt;
  d.name = *name;
  const std::string what = "dialect " + in_quotes(d.name);
  bool ok = true;
  if (!is_identifier(d.name)) {
    r.error(*m->find("name"), "dialect name " + in_quotes(d.name) + " must match [a-z][a-z0-9_]*");
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
        r.error(e->key_node, what + " is a profile: '" + std::string(key) +
                                 "' comes from its base; state changes under 'differences'");
        ok = false;
      }
    }
  } else if (const entry* e = m->find("differences")) {
    r.error(e->key_node, "'differences' belongs to a profile (a dialect with 'profile_of')");
    ok = false;
  }
  if (const entry* e = m->find("frame_shapes")) {
    if (m->find("frames_from") != nullptr) {
      r.error(e->key_node, what + " has both 'frame_shapes' and 'frames_from'");
      ok = false;
    } else if (!e->value.IsSequence()) {
      r.error(*e, "'frame_shapes' of " + what + " must be a list");
      ok = false;
    } else {
      std::map<shape, int> seen;
      for (const auto& item : e->value) {
        auto s = parse_shape(r, item, d.name);
        if (!s) {
          ok = false;
          continue;
        }
        if (const auto it = seen.find(s->kind); it != seen.end()) {
          r.error(s->where, "duplicate frame shape " + in_quotes(to_string(s->kind)) + " in " + what + " (first at line " +
                                std::to_string(it->second) + ")");
          ok = false;
          continue;
        }
        seen.emplace(s->kind, s->where.line);
        d.shapes.push_back(std::move(*s));
      }
      if (ok && !d.has_shape(shape::structured)) {
        r.error(*e, what + " needs a 'structured' frame shape");
        ok = false;
      }
      raw.has_own_shapes = true;
    }
  } else if (!profile && m->find("frames_from") == nullptr) {
    r.missing(*m, "frame_shapes", what + " (or 'frames_from')");
    ok = false;
  }
  if (const entry* e = m->find("envelope")) {
    auto env = r.mapping(e->value, "envelope", {"fields", "source", "decision"});
    if (!env) {
      ok = false;
    } else {
      r.origin(*env, "envelope of " + what, true);
      if (const entry* fe = env->find("fields")) {
        if (!parse_fields(r, fe->value, "the envelope of " + what, nullptr, d.envelope)) ok = false;
      } else {
        r.missing(*env, "fields", "envelope");
        ok = false;
      }
    }
  }
  if (const entry* e = m->find("events")) {
    if (!e->value.IsSequence()) {
      r.error(*e, "'events' of " + what + " must be a list");
      ok = false;
    } else {
      for (const auto& item : e->value) {
        auto ev = parse_event(r, item, d.name, d.envelope);
        if (!ev) {
          ok = false;
          continue;
        }
        const auto dup = std::find_if(d.events.begin(), d.events.end(),
                                      [&](const event_spec& x) { return x.type == ev->type; });
        if (dup != d.events.end()) {
          r.error(ev->where, "duplicate event type " + in_quotes(ev->type) + " in " + what + " (first at line " +
                                 std::to_string(dup->where.line) + ")");
          ok = false;
          continue;
        }
        d.events.push_back(std::move(*ev));
      }
    }
  } else if (!profile) {
    r.missing(*m, "events", what);
    ok = false;
  }
  if (const entry* e = m->find("differences")) {
    if (!e->value.IsSequence()) {
      r.error(*e, "'differences' of " + what + " must be a list");
      ok = false;
    } else {
      for (const auto& item : e->value) {
        if (auto diff = parse_difference(r, item)) d.differences.push_back(std::move(*diff));
        else ok = false;
      }
    }
  }
  if (!ok) return std::nullopt;
  return raw;
}

}  // namespace

// Builds the set: reads every file, then resolves names across files.
class catalog_builder {
 public:
  load_result build(std::span<const catalog_source> sources) {
    auto cat = std::make_shared<catalog>();
    readers_.reserve(sources.size());
    for (const auto& src : sources) read_file(src, *cat);
    if (errors_.empty()) resolve_dialects(*cat);
    if (errors_.empty()) resolve_rules(*cat);
    load_result out;
    if (errors_.empty()) {
      out.value = std::move(cat);
    } else {
      out.errors = std::move(errors_);
    }
    return out;
  }

 private:
  void read_file(const catalog_source& src, catalog& cat) {
    readers_.push_back(std::make_unique<file_reader>(src.name, errors_));
    file_reader& r = *readers_.back();
    YAML::Node root;
    try {
      root = YAML::Load(src.text);
    } catch (const YAML::Exception& e) {
      r.error(location{src.name, e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: " + e.msg);
      return;
    }
    if (const auto second = second_yaml_document(src.text)) {
      r.error(location{src.name, static_cast<int>(second->first) + 1, static_cast<int>(second->second) + 1},
              "a catalog is one YAML document: a second one starts here");
      return;
    }
    try {
      read_root(r, root, cat);
    } catch (const YAML::Exception& e) {
      // Defensive: the checks above look before they convert, so this is not expected.
      r.error(location{src.name, e.mark.line + 1, e.mark.column + 1}, "malformed catalog: " + e.msg);
    }
  }

  void read_root(file_reader& r, const YAML::Node& root, catalog& cat) {
    if (!root || root.IsNull()) {
      r.error(location{r.file(), 1, 1}, "empty catalog");
      return;
    }
    auto m = r.mapping(root, "catalog", {"format_version", "catalog_version", "document", "purpose", "dialects", "rules"});
    if (!m) return;
    catalog_file info;
    info.name = r.file();
    if (auto v = r.integer(*m, "format_version", "catalog", true)) {
      if (*v != supported_format_version) {
        r.error(*m->find("format_version"), "format_version " + std::to_string(*v) + " is not supported (this loader reads " +
                                                std::to_string(supported_format_version) + ")");
        return;
      }
      info.format_version = *v;
    } else {
      return;
    }
    if (auto v = r.text(*m, "catalog_version", "catalog", true)) {
      if (!is_semver(*v)) r.error(*m->find("catalog_version"), "catalog_version " + in_quotes(*v) + " must be a semantic version like 1.2.0");
      info.catalog_version = *v;
    }
    if (auto d = r.text(*m, "document", "catalog", true)) {
      info.document = *d;
      r.document = *d;
    }
    if (auto p = r.text(*m, "purpose", "catalog", true)) info.purpose = *p;
    if (const entry* e = m->find("dialects")) {
      if (!e->value.IsSequence() || e->value.size() == 0) {
        r.error(*e, "'dialects' must be a non-empty list");
      } else {
        for (const auto& item : e->value) {
          if (auto d = parse_dialect(r, item)) raw_.push_back(std::move(*d));
        }
      }
    } else {
      r.missing(*m, "dialects", "catalog");
    }
    if (const entry* e = m->find("rules")) {
      if (!e->value.IsSequence()) {
        r.error(*e, "'rules' must be a list");
      } else {
        for (const auto& item : e->value) {
          if (auto rule = parse_rule(r, item)) {
            rule_files_.push_back(&r);
            cat.rules_.push_back(std::make_unique<rule_spec>(std::move(*rule)));
          }
        }
      }
    }
    cat.files_.push_back(std::move(info));
  }

  raw_dialect* find_raw(std::string_view name) {
    for (auto& d : raw_) {
      if (d.spec->name == name) return &d;
    }
    return nullptr;
  }

  void resolve_dialects(catalog& cat) {
    for (std::size_t i = 0; i < raw_.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (raw_[i].spec->name == raw_[j].spec->name) {
          raw_[i].reader->error(raw_[i].spec->where, "duplicate dialect " + in_quotes(raw_[i].spec->name) + " (first at " +
                                                         raw_[j].spec->where.to_string() + ")");
        }
      }
    }
    if (!errors_.empty()) return;
    // frames_from first, then profiles (a profile copies its base whole).
    for (auto& raw : raw_) {
      dialect_spec& d = *raw.spec;
      if (d.frames_from.empty()) continue;
      const raw_dialect* from = find_raw(d.frames_from);
      if (from == nullptr) {
        raw.reader->error(d.where, "dialect " + in_quotes(d.name) + ": frames_from names unknown dialect " + in_quotes(d.frames_from));
      } else if (!from->has_own_shapes) {
        raw.reader->error(d.where, "dialect " + in_quotes(d.name) + ": frames_from " + in_quotes(d.frames_from) +
                                       " must name a dialect with its own frame_shapes");
      } else {
        d.shapes = from->spec->shapes;
      }
    }
    for (auto& raw : raw_) {
      dialect_spec& d = *raw.spec;
      if (d.profile_of.empty()) continue;
      const raw_dialect* base = find_raw(d.profile_of);
      if (base == nullptr) {
        raw.reader->error(d.where, "dialect " + in_quotes(d.name) + ": profile_of names unknown dialect " + in_quotes(d.profile_of));
        continue;
      }
      if (!base->spec->profile_of.empty()) {
        raw.reader->error(d.where, "dialect " + in_quotes(d.name) + ": its base " + in_quotes(d.profile_of) +
                                       " is itself a profile; profile the base dialect directly");
        continue;
      }
      d.shapes = base->spec->shapes;
      d.envelope = base->spec->envelope;
      d.events = base->spec->events;
      apply_differences(raw);
    }
    for (auto& raw : raw_) {
      dialect_spec& d = *raw.spec;
      for (const auto& s : d.shapes) {
        if (s.kind == shape::error) d.error_prefix = s.prefix;
      }
      for (const auto& e : d.events) d.event_index.emplace(e.type, &e);
      cat.dialects_.push_back(std::move(raw.spec));
    }
    raw_.clear();
  }

  void apply_differences(raw_dialect& raw) {
    dialect_spec& d = *raw.spec;
    file_reader& r = *raw.reader;
    for (const auto& diff : d.differences) {
      for (const auto& type : diff.events) {
        if (std::none_of(d.events.begin(), d.events.end(), [&](const event_spec& e) { return e.type == type; })) {
          r.error(diff.where, "difference " + in_quotes(diff.aspect) + " names event type " + in_quotes(type) +
                                  " that " + in_quotes(d.profile_of) + " does not have");
        }
      }
      if (!diff.error_wire_event.empty()) {
        if (!d.has_shape(shape::error)) {
          r.error(diff.where, "difference " + in_quotes(diff.aspect) + " sets error_wire_event but " + in_quotes(d.profile_of) +
                                  " has no error frame shape");
        }
        d.error_wire_event = diff.error_wire_event;
      }
      for (const auto& path : diff.no_default) {
        const auto dot = path.find('.');
        field_spec* target = nullptr;
        if (dot != std::string::npos) {
          for (auto& e : d.events) {
            if (e.type != path.substr(0, dot)) continue;
            for (auto& f : e.fields) {
              if (f.key == path.substr(dot + 1)) target = &f;
            }
          }
        }
        if (target == nullptr || !target->default_value) {
          r.error(diff.where, "no_default " + in_quotes(path) + " must name a field of " + in_quotes(d.profile_of) +
                                  " that has a default");
          continue;
        }
        target->default_value.reset();
      }
    }
  }

  // Does `type` (or every type for "*") declare the path?
  static bool declares(const dialect_spec& d, const field_path& p) {
    const auto walk = [&](const std::vector<field_spec>& top) {
      const std::vector<field_spec>* level = &top;
      for (const auto& key : p.keys) {
        const auto it = std::find_if(level->begin(), level->end(), [&](const field_spec& f) { return f.key == key; });
        if (it == level->end()) return false;
        level = &it->fields;
      }
      return true;
    };
    if (p.type == "*") {
      if (!d.envelope.empty()) return walk(d.envelope);
      return std::any_of(d.events.begin(), d.events.end(), [&](const event_spec& e) { return walk(e.fields); });
    }
    const event_spec* e = d.event(p.type);
    return e != nullptr && walk(e->fields);
  }

  static bool declares_key(const dialect_spec& d, const std::string& key) {
    if (d.envelope_field(key) != nullptr) return true;
    return std::any_of(d.events.begin(), d.events.end(), [&](const event_spec& e) { return e.field(key) != nullptr; });
  }

  void resolve_rules(catalog& cat) {
    std::map<std::string, const rule_spec*> ids;
    for (std::size_t i = 0; i < cat.rules_.size(); ++i) {
      rule_spec& rule = *cat.rules_[i];
      file_reader& r = *rule_files_[i];
      if (const auto it = ids.find(rule.id); it != ids.end()) {
        r.error(rule.where, "duplicate rule id " + in_quotes(rule.id) + " (first at " + it->second->where.to_string() + ")");
        continue;
      }
      ids.emplace(rule.id, &rule);
      for (const auto& name : rule.dialects) {
        const dialect_spec* d = cat.dialect(name);
        if (d == nullptr) {
          r.error(rule.where, "rule " + in_quotes(rule.id) + " names unknown dialect " + in_quotes(name));
          continue;
        }
        check_references(r, rule, *d);
        for (auto& owned : cat.dialects_) {
          if (owned.get() == d) owned->rules.push_back(&rule);
        }
      }
    }
    // One default field_required rule per dialect at most: otherwise which one a field breaks is ambiguous.
    for (const auto& d : cat.dialects_) {
      const rule_spec* fallback = nullptr;
      for (const rule_spec* rule : d->rules) {
        if (rule->check.kind != check_kind::field_required || !rule->check.fields.empty()) continue;
        if (fallback != nullptr) {
          errors_.push_back(load_error{rule->where, "dialect " + in_quotes(d->name) + " has two field_required rules without 'fields' (" +
                                                        fallback->id + " and " + rule->id + ")"});
        }
        fallback = rule;
      }
    }
  }

  void check_references(file_reader& r, const rule_spec& rule, const dialect_spec& d) {
    const std::string in = " in dialect " + in_quotes(d.name);
    const auto type_exists = [&](const std::string& type) {
      if (d.event(type) == nullptr) r.error(rule.where, "rule " + in_quotes(rule.id) + " names event type " + in_quotes(type) + " unknown" + in);
    };
    const auto declared = [&](const field_path& p) {
      if (p.type != "*") type_exists(p.type);
      if ((p.type == "*" || d.event(p.type) != nullptr) && !declares(d, p)) {
        r.error(rule.where, "rule " + in_quotes(rule.id) + " names field " + in_quotes(p.to_string()) + " not declared" + in);
      }
    };
    const check_spec& c = rule.check;
    switch (c.kind) {
      case check_kind::field_required:
        for (const auto& p : c.fields) declared(p);
        break;
      case check_kind::forbidden_field:
        for (const auto& p : c.fields) {
          if (p.type == "*") {
            r.error(rule.where, "rule " + in_quotes(rule.id) + ": forbidden_field needs a type, not '*'");
            continue;
          }
          type_exists(p.type);
          if (d.event(p.type) != nullptr && declares(d, p)) {
            r.error(rule.where, "rule " + in_quotes(rule.id) + " forbids " + in_quotes(p.to_string()) + ", which the catalog declares" + in);
          }
        }
        break;
      case check_kind::refers:
      case check_kind::unique_value:
        for (const auto& p : c.fields) declared(p);
        if (c.kind == check_kind::refers) declared(c.to);
        break;
      case check_kind::constant_field:
      case check_kind::increasing:
        if (!declares_key(d, c.field)) r.error(rule.where, "rule " + in_quotes(rule.id) + " names field " + in_quotes(c.field) + " not declared" + in);
        break;
      case check_kind::pair:
      case check_kind::pair_closed:
        type_exists(c.open);
        for (const auto& t : c.close) type_exists(t);
        for (const auto& t : c.during) type_exists(t);
        if (!c.key.empty() && d.event(c.open) != nullptr && d.event(c.open)->field(c.key) == nullptr) {
          r.error(rule.where, "rule " + in_quotes(rule.id) + ": key " + in_quotes(c.key) + " is not a field of " + in_quotes(c.open) + in);
        }
        break;
      case check_kind::forbidden_type:
      case check_kind::first_frame:
      case check_kind::last_frame:
      case check_kind::at_most_once:
        for (const auto& t : c.types) type_exists(t);
        break;
      case check_kind::followed_only_by:
        for (const auto& t : c.types) type_exists(t);
        for (const auto& t : c.allow) type_exists(t);
        break;
      default: break;
    }
  }

  std::vector<load_error> errors_;
  std::vector<std::unique_ptr<file_reader>> readers_;
  std::vector<raw_dialect> raw_;
  std::vector<file_reader*> rule_files_;
};

load_result load_catalogs(std::span<const catalog_source> sources) {
  try {
    return catalog_builder().build(sources);
  } catch (const std::exception& e) {
    // Only allocation failure or a yaml-cpp surprise can land here.
    load_result out;
    out.errors.push_back(load_error{location{}, std::string("catalog loader failed: ") + e.what()});
    return out;
  }
}

load_result load_catalog_files(std::span<const std::string> paths) {
  std::vector<catalog_source> sources;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      load_result out;
      out.errors.push_back(load_error{location{path, 0, 0}, "cannot read the file"});
      return out;
    }
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back(catalog_source{path, text.str()});
  }
  return load_catalogs(sources);
}

namespace detail {
std::span<const std::pair<std::string_view, std::string_view>> builtin_catalog_sources() noexcept;
}  // namespace detail

const load_result& builtin_catalog() {
  static const load_result loaded = [] {
    std::vector<catalog_source> sources;
    for (const auto& [name, text] : detail::builtin_catalog_sources()) {
      sources.push_back(catalog_source{std::string(name), std::string(text)});
    }
    return load_catalogs(sources);
  }();
  return loaded;
}

namespace {
// Counts documents from parser events; the nodes themselves are not built.
class document_counter final : public YAML::EventHandler {
 public:
  std::size_t documents = 0;
  std::pair<std::size_t, std::size_t> last_start{0, 0};
  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents;
    last_start = {static_cast<std::size_t>(std::max(mark.line, 0)), static_cast<std::size_t>(std::max(mark.column, 0))};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};
}  // namespace

std::optional<std::pair<std::size_t, std::size_t>> second_yaml_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  document_counter counter;
  try {
    // At most two rounds: the second document is all we look for, and a bound
    // is what keeps yaml-cpp 0.7 from looping.
    while (counter.documents < 2 && parser.HandleNextDocument(counter)) {
    }
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
  if (counter.documents < 2) return std::nullopt;
  return counter.last_start;
}

const dialect_spec* builtin_dialect(std::string_view name) noexcept {
  const load_result& loaded = builtin_catalog();
  return loaded ? loaded.value->dialect(name) : nullptr;
}

std::vector<std::string> builtin_dialect_names() {
  std::vector<std::string> names;
  if (const load_result& loaded = builtin_catalog()) {
    for (const auto& d : loaded.value->dialects()) names.push_back(d->name);
  }
  return names;
}

}  // namespace sse::dialect
