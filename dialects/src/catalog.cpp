// SPDX-License-Identifier: MIT
// The catalog model's small functions; loading lives in catalog_loader.cpp.
#include <algorithm>
#include <cmath>

#include "sse/dialect/catalog.hpp"

namespace sse::dialect {

std::string_view to_string(json_type t) noexcept {
  switch (t) {
    case json_type::null: return "null";
    case json_type::boolean: return "boolean";
    case json_type::number: return "number";
    case json_type::string: return "string";
    case json_type::array: return "array";
    case json_type::object: return "object";
  }
  return "unknown";
}

bool type_set::admits(json_type t, bool integral) const noexcept {
  switch (t) {
    case json_type::null: return (bits & null) != 0;
    case json_type::boolean: return (bits & boolean) != 0;
    case json_type::number: return (bits & number) != 0 || (integral && (bits & integer) != 0);
    case json_type::string: return (bits & string) != 0;
    case json_type::array: return (bits & array) != 0;
    case json_type::object: return (bits & object) != 0;
  }
  return false;
}

bool type_set::admits(const nlohmann::json& value) const noexcept {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return admits(json_type::null, false);
    case nlohmann::json::value_t::boolean: return admits(json_type::boolean, false);
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return admits(json_type::number, true);
    case nlohmann::json::value_t::number_float: {
      const double d = value.get<double>();
      return admits(json_type::number, std::isfinite(d) && std::floor(d) == d);
    }
    case nlohmann::json::value_t::string: return admits(json_type::string, false);
    case nlohmann::json::value_t::array: return admits(json_type::array, false);
    case nlohmann::json::value_t::object: return admits(json_type::object, false);
    default: return false;
  }
}

std::string type_set::to_string() const {
  if (bits == any) return "any";
  static constexpr std::pair<std::uint8_t, std::string_view> names[] = {
      {null, "null"},     {boolean, "boolean"}, {integer, "integer"}, {number, "number"},
      {string, "string"}, {array, "array"},     {object, "object"}};
  std::string out;
  for (const auto& [bit, name] : names) {
    if ((bits & bit) == 0) continue;
    if (bit == integer && (bits & number) != 0) continue;  // number already admits integers
    if (!out.empty()) out += '|';
    out += name;
  }
  return out;
}

std::string location::to_string() const {
  if (line <= 0) return file;
  return file + ':' + std::to_string(line) + ':' + std::to_string(column);
}

const field_spec* event_spec::field(std::string_view key) const noexcept {
  for (const auto& f : fields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

std::string_view to_string(shape s) noexcept {
  switch (s) {
    case shape::structured: return "structured";
    case shape::plain_text: return "plain_text";
    case shape::error: return "error";
  }
  return "unknown";
}

std::string_view to_string(severity s) noexcept { return s == severity::must ? "must" : "should"; }

std::string_view to_string(basis b) noexcept {
  switch (b) {
    case basis::document: return "document";
    case basis::decision: return "decision";
    case basis::authored: return "authored";
  }
  return "document";
}

std::string authored_rule_id(std::string_view dialect) {
  std::string id;
  for (const char c : dialect) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    const char up = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    if (alnum) id += up;
    else if (!id.empty() && id.back() != '-') id += '-';
  }
  while (!id.empty() && id.back() == '-') id.pop_back();
  return id + "-AUTHORED-FIELD-REQUIRED";
}

std::string decisions_file(const rule_spec& r) {
  const auto slash = r.where.file.find_last_of('/');
  return slash == std::string::npos ? "DECISIONS.md" : r.where.file.substr(0, slash + 1) + "DECISIONS.md";
}

std::string basis_text(const rule_spec& r) {
  std::string out(to_string(r.basis));
  if (r.basis == basis::decision) return out + ", " + decisions_file(r) + "#" + r.origin.decision;
  if (r.basis == basis::authored) return out + ", " + r.origin.authored;
  if (r.origin.sources.empty()) return out;
  out += ", " + r.origin.sources.front();
  if (!r.quotes.empty()) out += " \"" + r.quotes.front() + "\"";
  if (r.origin.sources.size() > 1) out += " (+" + std::to_string(r.origin.sources.size() - 1) + " more)";
  return out;
}

std::string_view to_string(check_kind k) noexcept {
  switch (k) {
    case check_kind::utf8: return "utf8";
    case check_kind::frame_terminated: return "frame_terminated";
    case check_kind::lf_line_ends: return "lf_line_ends";
    case check_kind::single_data_line: return "single_data_line";
    case check_kind::data_only: return "data_only";
    case check_kind::data_space: return "data_space";
    case check_kind::known_field: return "known_field";
    case check_kind::json_object: return "json_object";
    case check_kind::object_has_type: return "object_has_type";
    case check_kind::type_key_casing: return "type_key_casing";
    case check_kind::known_type: return "known_type";
    case check_kind::field_required: return "field_required";
    case check_kind::field_type: return "field_type";
    case check_kind::key_casing: return "key_casing";
    case check_kind::undeclared_field: return "undeclared_field";
    case check_kind::unique_keys: return "unique_keys";
    case check_kind::forbidden_field: return "forbidden_field";
    case check_kind::forbidden_type: return "forbidden_type";
    case check_kind::refers: return "refers";
    case check_kind::unique_value: return "unique_value";
    case check_kind::constant_field: return "constant_field";
    case check_kind::increasing: return "increasing";
    case check_kind::pair: return "pair";
    case check_kind::pair_closed: return "pair_closed";
    case check_kind::first_frame: return "first_frame";
    case check_kind::last_frame: return "last_frame";
    case check_kind::at_most_once: return "at_most_once";
    case check_kind::followed_only_by: return "followed_only_by";
    case check_kind::content_type: return "content_type";
  }
  return "unknown";
}

std::string folded_key(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '_' || c == '-') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string field_path::to_string() const {
  std::string out = type;
  for (const auto& k : keys) {
    out += '.';
    out += k;
  }
  return out;
}

const event_spec* dialect_spec::event(std::string_view type) const noexcept {
  const auto it = event_index.find(type);
  return it == event_index.end() ? nullptr : it->second;
}

bool dialect_spec::has_shape(shape s) const noexcept {
  for (const auto& fs : shapes) {
    if (fs.kind == s) return true;
  }
  return false;
}

const field_spec* dialect_spec::envelope_field(std::string_view key) const noexcept {
  for (const auto& f : envelope) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

const type_rules* dialect_spec::indexed_rules(const event_spec* listed) const noexcept {
  if (listed == nullptr || rules_by_event.size() != events.size() || listed < events.data() ||
      listed >= events.data() + events.size()) {
    return nullptr;
  }
  return &rules_by_event[static_cast<std::size_t>(listed - events.data())];
}

void index_rules_for_type(const dialect_spec& d, std::string_view type, type_rules& out) {
  const auto named = [&](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), type) != list.end();
  };
  out.roles.assign(d.rules.size(), type_roles{});
  out.acting.clear();
  for (std::size_t i = 0; i < d.rules.size(); ++i) {
    const check_spec& c = d.rules[i]->check;
    type_roles& r = out.roles[i];
    bool acts = false;
    switch (c.kind) {
      case check_kind::forbidden_type:
      case check_kind::at_most_once:
        r.in_types = named(c.types);
        acts = r.in_types;
        break;
      case check_kind::last_frame:
        r.in_types = named(c.types);
        acts = true;
        break;
      case check_kind::followed_only_by:
        r.in_types = named(c.types);
        r.in_allow = named(c.allow);
        acts = true;
        break;
      case check_kind::pair:
      case check_kind::pair_closed:
        r.opens = type == c.open;
        r.in_close = named(c.close);
        r.in_during = named(c.during);
        acts = r.opens || r.in_close || r.in_during;
        break;
      case check_kind::refers:
        acts = c.to.type == type ||
               std::any_of(c.fields.begin(), c.fields.end(), [&](const field_path& f) { return f.type == type; });
        break;
      case check_kind::unique_value: acts = !c.fields.empty() && c.fields.front().type == type; break;
      case check_kind::constant_field:
      case check_kind::increasing: acts = !type.empty(); break;
      case check_kind::first_frame:
        r.in_types = named(c.types);
        acts = true;
        break;
      default: break;
    }
    if (acts) out.acting.push_back(i);
  }
}

const dialect_spec* catalog::dialect(std::string_view name) const noexcept {
  for (const auto& d : dialects_) {
    if (d->name == name) return d.get();
  }
  return nullptr;
}

const rule_spec* catalog::rule(std::string_view id) const noexcept {
  for (const auto& r : rules_) {
    if (r->id == id) return r.get();
  }
  return nullptr;
}

}  // namespace sse::dialect
