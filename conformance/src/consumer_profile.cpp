// SPDX-License-Identifier: MIT
// Consumer profiles: the loader and the static check (consumer_profile.hpp).
#include "ssec/conformance/consumer_profile.hpp"

#include <algorithm>

#include "ssec/support/input.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance {
namespace dl = sse::dialect;

std::string_view to_string(unknown_policy p) noexcept {
  switch (p) {
    case unknown_policy::ignore: return "ignore";
    case unknown_policy::surface: return "surface";
    case unknown_policy::reject: return "reject";
  }
  return "";
}

const profile_type* consumer_profile::find(std::string_view type) const noexcept {
  for (const auto& t : handles) {
    if (t.type == type) return &t;
  }
  return nullptr;
}

namespace {

// A JSON Pointer (RFC 6901): empty (the whole object) or "/" tokens, `~`
// only as ~0 or ~1.
bool is_json_pointer(std::string_view p) {
  if (p.empty()) return true;
  if (p.front() != '/') return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '~' && (i + 1 == p.size() || (p[i + 1] != '0' && p[i + 1] != '1'))) return false;
  }
  return true;
}

std::vector<std::string> pointer_tokens(std::string_view p) {
  std::vector<std::string> out;
  if (p.empty()) return out;
  std::string cur;
  for (std::size_t i = 1; i <= p.size(); ++i) {
    if (i == p.size() || p[i] == '/') {
      out.push_back(cur);
      cur.clear();
    } else if (p[i] == '~') {
      cur += p[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      cur += p[i];
    }
  }
  return out;
}

bool is_index(const std::string& t) {
  return t == "-" || (!t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

// Where a pointer leads in an event type: a declared field, somewhere the
// catalog does not describe (inside `any`, an object without nested fields,
// an array, an open event), or nowhere.
struct resolved {
  enum class kind { field, opaque, missing } how = kind::missing;
  const dl::field_spec* field = nullptr;
};

resolved resolve(const dl::event_spec& e, const std::string& pointer) {
  const auto tokens = pointer_tokens(pointer);
  if (tokens.empty()) return {resolved::kind::opaque, nullptr};
  if (tokens.front() == "type") return {tokens.size() == 1 ? resolved::kind::opaque : resolved::kind::missing, nullptr};
  const std::vector<dl::field_spec>* level = &e.fields;
  const dl::field_spec* found = nullptr;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto it =
        std::find_if(level->begin(), level->end(), [&](const dl::field_spec& f) { return f.key == tokens[i]; });
    if (it == level->end()) {
      // Undescribed structure: an open event's extra keys, or inside a field
      // the catalog gives no nested fields for.
      if (found == nullptr) return {e.open ? resolved::kind::opaque : resolved::kind::missing, nullptr};
      return {found->fields.empty() ? resolved::kind::opaque : resolved::kind::missing, found};
    }
    found = &*it;
    if (i + 1 < tokens.size()) {
      const auto bits = found->types.bits;
      if ((bits & dl::type_set::array) != 0 && is_index(tokens[i + 1])) return {resolved::kind::opaque, found};
      if (found->fields.empty()) return {resolved::kind::opaque, found};
      level = &found->fields;
    }
  }
  return {resolved::kind::field, found};
}

void add(std::vector<profile_finding>& out, std::string rule, change_level level, std::string type, std::string pointer,
         std::string message, std::size_t line) {
  out.push_back({std::move(rule), level, std::move(type), std::move(pointer), std::move(message), line});
}

}  // namespace

ssec::load_result<consumer_profile> load_profile_text(std::string_view text, std::string_view display) {
  ssec::load_result<consumer_profile> out;
  out.value.file = std::string(display);
  yaml::reader r(std::string(display), out.errors);
  auto root = yaml::load_document(std::string(text), r.file());
  if (!root) {
    out.errors.push_back(root.error());
    return out;
  }
  const auto m =
      r.read_mapping(*root, "a consumer profile",
                     {"profile_format", "name", "dialect", "unknown_types", "aborts_on", "requires", "handles"});
  if (!m) return out;
  r.require(*m, "a consumer profile", {"profile_format", "name", "dialect", "unknown_types", "handles"});
  if (const auto* e = m->find("profile_format")) {
    if (const auto v = r.integer(*e, "")) {
      if (*v != profile_format_version) {
        r.error(*e, "profile_format " + std::to_string(*v) + " is not known to this build (it reads 1)");
      }
    }
  }
  if (const auto* e = m->find("name")) out.value.name = r.text(*e, "").value_or("");
  if (const auto* e = m->find("dialect")) out.value.dialect = r.text(*e, "").value_or("");
  if (const auto* e = m->find("unknown_types")) {
    if (const auto v = r.text(*e, "")) {
      if (*v == "ignore") out.value.unknown_types = unknown_policy::ignore;
      else if (*v == "surface") out.value.unknown_types = unknown_policy::surface;
      else if (*v == "reject") out.value.unknown_types = unknown_policy::reject;
      else r.error(*e, "`unknown_types` must be ignore, surface or reject, not " + yaml::in_backticks(*v));
    }
  }
  if (const auto* e = m->find("aborts_on")) {
    out.value.aborts_on = r.strings(*e, "", {.empty_list_ok = true}).value_or(std::vector<std::string>{});
  }
  if (const auto* e = m->find("requires")) {
    out.value.requires_types = r.strings(*e, "", {.empty_list_ok = true}).value_or(std::vector<std::string>{});
    out.value.requires_given = true;
  }
  if (const auto* e = m->find("handles")) {
    const auto types = r.read_mapping(e->value, "`handles`", {});
    if (types && types->entries.empty()) r.error(*e, "`handles` must name at least one event type");
    if (types) {
      for (const auto& t : types->entries) {
        profile_type pt;
        pt.type = t.key;
        pt.line = yaml::reader::line(t.key_node);
        const std::string what = "the fields read from " + yaml::in_backticks(t.key);
        if (const auto items = r.string_items(t.value, what, {.single_ok = false, .empty_list_ok = true})) {
          for (const auto& item : *items) {
            if (!is_json_pointer(item.text)) {
              r.error(item.node, yaml::in_backticks(item.text) + " is not a JSON Pointer (\"/key\", \"/key/sub\")");
              continue;
            }
            pt.reads.push_back(item.text);
          }
        }
        out.value.handles.push_back(std::move(pt));
      }
    }
  }
  return out;
}

ssec::load_result<consumer_profile> load_profile_file(const std::filesystem::path& path, std::string_view display) {
  auto text = ssec::read_document(path.string());
  if (!text) {
    ssec::load_result<consumer_profile> out;
    out.errors.push_back(text.error());
    return out;
  }
  return load_profile_text(text.value(), display);
}

std::vector<profile_finding> check_profile(const consumer_profile& p, const dl::catalog& next,
                                           const dl::catalog* prev) {
  std::vector<profile_finding> out;
  const dl::dialect_spec* nd = next.dialect(p.dialect);
  const dl::dialect_spec* od = prev != nullptr ? prev->dialect(p.dialect) : nullptr;
  if (nd == nullptr) {
    add(out, od != nullptr ? "DIALECT_REMOVED" : "DIALECT_UNKNOWN", change_level::err, "", "",
        "the contract has no dialect " + yaml::in_backticks(p.dialect) + " for this consumer", 0);
    return out;
  }
  for (const auto& t : p.handles) {
    const dl::event_spec* ne = nd->event(t.type);
    const dl::event_spec* oe = od != nullptr ? od->event(t.type) : nullptr;
    if (ne == nullptr) {
      if (oe != nullptr) {
        // As catalog diff's EVENT_REMOVED for readers: WARN, unless the
        // consumer needs the type (`requires`; without it, every handled type).
        const bool needed = p.requires_type(t.type);
        add(out, "TYPE_REMOVED", needed ? change_level::err : change_level::warn, t.type, "",
            "the consumer handles " + yaml::in_backticks(t.type) + ", which the new contract removes" +
                (needed ? "" : " (it does not require it)"),
            t.line);
      } else {
        add(out, "TYPE_NOT_IN_CATALOG", change_level::warn, t.type, "",
            "the consumer handles " + yaml::in_backticks(t.type) + ", which neither contract has", t.line);
      }
      continue;
    }
    for (const auto& ptr : t.reads) {
      const resolved now = resolve(*ne, ptr);
      // A type the old contract lacks resolves as missing there (a plain
      // value, not an optional: GCC 12 at -O2 warned it may be uninitialized).
      const resolved before = oe != nullptr ? resolve(*oe, ptr) : resolved{};
      const std::string where = yaml::in_backticks(t.type + ptr);
      if (now.how == resolved::kind::missing) {
        if (before.how == resolved::kind::field && !before.field->required) {
          // catalog diff's FIELD_REMOVED_OPTIONAL: WARN for readers, who already do without it when absent.
          add(out, "FIELD_REMOVED_OPTIONAL", change_level::warn, t.type, ptr,
              "the consumer reads " + where + ", an optional field the new contract removes", t.line);
        } else if (before.how != resolved::kind::missing) {
          add(out, "FIELD_REMOVED", change_level::err, t.type, ptr,
              "the consumer reads " + where + ", which the new contract removes", t.line);
        } else {
          add(out, "FIELD_NOT_IN_CATALOG", change_level::warn, t.type, ptr,
              "the consumer reads " + where + ", which the contract does not declare", t.line);
        }
        continue;
      }
      if (now.how != resolved::kind::field || before.how != resolved::kind::field) continue;
      const dl::field_spec& nf = *now.field;
      const dl::field_spec& of = *before.field;
      // Reader levels as catalog diff rates them (FIELD_MADE_OPTIONAL,
      // FIELD_TYPE_CHANGED: ERR); a pure widening is WARN here, the
      // new-value probe decides what the consumer does with the new type.
      if (of.required && !nf.required && !nf.default_value) {
        add(out, "FIELD_NOW_OPTIONAL", change_level::err, t.type, ptr,
            "the consumer reads " + where + ", which the new contract no longer requires and gives no default", t.line);
      }
      if ((nf.types.bits & ~of.types.bits) != 0 && (of.types.bits & ~nf.types.bits) != 0) {
        add(out, "FIELD_TYPE_CHANGED", change_level::err, t.type, ptr,
            "the consumer reads " + where + " as " + of.types.to_string() + "; the new contract admits " +
                nf.types.to_string() + " instead",
            t.line);
      } else if ((nf.types.bits & ~of.types.bits) != 0) {
        add(out, "FIELD_TYPE_WIDENED", change_level::warn, t.type, ptr,
            "the consumer reads " + where + " as " + of.types.to_string() + "; the new contract also admits " +
                nf.types.to_string(),
            t.line);
      } else if (nf.types.bits != of.types.bits) {
        add(out, "FIELD_TYPE_NARROWED", change_level::info, t.type, ptr,
            "the consumer reads " + where + "; the new contract admits fewer JSON types (" + nf.types.to_string() + ")",
            t.line);
      }
    }
  }
  if (od != nullptr) {
    for (const auto& e : nd->events) {
      if (od->event(e.type) != nullptr || p.find(e.type) != nullptr) continue;
      const bool reject = p.unknown_types == unknown_policy::reject;
      add(out,
          "NEW_TYPE_" + std::string(reject                                       ? "REJECTED"
                                    : p.unknown_types == unknown_policy::surface ? "SURFACED"
                                                                                 : "IGNORED"),
          reject ? change_level::err : change_level::info, e.type, "",
          "the new contract adds " + yaml::in_backticks(e.type) + "; this consumer " +
              (reject ? "rejects a stream with an unknown type"
                      : std::string(p.unknown_types == unknown_policy::surface ? "surfaces" : "ignores") +
                            " unknown types"),
          0);
    }
  }
  return out;
}

}  // namespace ssec::conformance
