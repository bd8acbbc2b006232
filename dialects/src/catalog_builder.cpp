// SPDX-License-Identifier: MIT
// Builds a catalog set: reads every file with the catalog grammar, then
// resolves names across files (duplicate dialects and rule ids, frames_from,
// profiles and their differences, the fields and types rules name).
#include <algorithm>
#include <map>

#include "catalog_grammar.hpp"
#include "ssec/support/text.hpp"

namespace sse::dialect {

namespace {

using detail::catalog_reader;
using detail::entry;
using detail::in_backticks;
using detail::raw_dialect;

constexpr int supported_format_version = 1;

}  // namespace

// Builds the set: reads every file, then resolves names across files.
class catalog_builder {
 public:
  ssec::load_result<std::shared_ptr<const catalog>> build(std::span<const catalog_source> sources,
                                                          std::span<const ssec::yaml::node> documents) {
    auto cat = std::make_shared<catalog>();
    readers_.reserve(sources.size());
    for (std::size_t k = 0; k < sources.size(); ++k) {
      read_file(sources[k], k < documents.size() ? documents[k] : ssec::yaml::node(), *cat);
    }
    if (errors_.empty()) resolve_dialects(*cat);
    if (errors_.empty()) add_authored_rules(*cat);
    if (errors_.empty()) resolve_rules(*cat);
    ssec::load_result<std::shared_ptr<const catalog>> out;
    if (errors_.empty()) {
      out.value = std::move(cat);
    } else {
      out.errors = std::move(errors_);
    }
    return out;
  }

 private:
  // `document`: the text already read, or an undefined node (read it here).
  void read_file(const catalog_source& src, const ssec::yaml::node& document, catalog& cat) {
    readers_.push_back(std::make_unique<catalog_reader>(src.name, errors_));
    catalog_reader& r = *readers_.back();
    if (document) {
      read_root(r, document, cat);
      return;
    }
    const auto root = ssec::yaml::load_document(src.text, src.name);
    if (!root) {
      errors_.push_back(root.error());
      return;
    }
    read_root(r, *root, cat);
  }

  void read_root(catalog_reader& r, const ssec::yaml::node& root, catalog& cat) {
    if (!root || root.is_null()) {
      r.error(1, 1, "empty catalog");
      return;
    }
    auto m = r.read_mapping(root, "catalog",
                            {"format_version", "catalog_version", "document", "purpose", "dialects", "rules"});
    if (!m) return;
    catalog_file info;
    info.name = r.file();
    if (auto v = r.integer(*m, "format_version", "catalog", true)) {
      if (*v != supported_format_version) {
        r.error(*m->find("format_version"), "format_version " + std::to_string(*v) +
                                                " is not supported (this loader reads " +
                                                std::to_string(supported_format_version) + ")");
        return;
      }
      info.format_version = supported_format_version;
    } else {
      return;
    }
    if (auto v = r.text(*m, "catalog_version", "catalog", true)) {
      if (!detail::is_semver(*v))
        r.error(*m->find("catalog_version"),
                "catalog_version " + in_backticks(*v) + " must be a semantic version like 1.2.0");
      info.catalog_version = *v;
    }
    if (auto d = r.text(*m, "document", "catalog", true)) {
      info.document = *d;
      r.document = *d;
    }
    if (auto p = r.text(*m, "purpose", "catalog", true)) info.purpose = *p;
    if (const entry* e = m->find("dialects")) {
      if (!e->value.is_sequence() || e->value.size() == 0) {
        r.error(*e, "`dialects` must be a non-empty list");
      } else {
        for (const auto& item : e->value.items()) {
          if (auto d = detail::parse_dialect(r, item)) raw_.push_back(std::move(*d));
        }
      }
    } else {
      r.require(*m, "catalog", {"dialects"});
    }
    if (const entry* e = m->find("rules")) {
      if (!e->value.is_sequence()) {
        r.error(*e, "`rules` must be a list");
      } else {
        for (const auto& item : e->value.items()) {
          if (auto rule = detail::parse_rule(r, item)) {
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
          raw_[i].reader->error(raw_[i].spec->where, "duplicate dialect " + in_backticks(raw_[i].spec->name) +
                                                         " (first at " + raw_[j].spec->where.to_string() + ")");
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
        raw.reader->error(d.where, "dialect " + in_backticks(d.name) + ": frames_from names unknown dialect " +
                                       in_backticks(d.frames_from));
      } else if (!from->has_own_shapes) {
        raw.reader->error(d.where, "dialect " + in_backticks(d.name) + ": frames_from " + in_backticks(d.frames_from) +
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
        raw.reader->error(d.where, "dialect " + in_backticks(d.name) + ": profile_of names unknown dialect " +
                                       in_backticks(d.profile_of));
        continue;
      }
      if (!base->spec->profile_of.empty()) {
        raw.reader->error(d.where, "dialect " + in_backticks(d.name) + ": its base " + in_backticks(d.profile_of) +
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
      dialect_readers_.emplace(d.name, raw.reader);
      cat.dialects_.push_back(std::move(raw.spec));
    }
    raw_.clear();
  }

  // The required fields of a dialect's authored events are the catalog's own
  // word, so a must: one generated field_required rule per dialect names
  // them (spec/FORMAT.md, "Authored entries"). It covers the events' own
  // fields and what they nest, not the envelope's (the document's), and
  // leaves out a path an explicit field_required rule of the dialect names.
  void add_authored_rules(catalog& cat) {
    for (const auto& d : cat.dialects_) {
      const event_spec* first = nullptr;
      rule_spec rule;
      for (const auto& e : d->events) {
        if (e.origin.authored.empty()) continue;
        if (first == nullptr) first = &e;
        std::vector<std::string> keys;
        for (const auto& f : e.fields) {
          if (!f.from_envelope) add_required_paths(cat, *d, e.type, f, keys, rule.check.fields);
        }
      }
      if (first == nullptr || rule.check.fields.empty()) continue;
      catalog_reader& r = *dialect_readers_.at(d->name);
      rule.id = authored_rule_id(d->name);  // a rule id: dialect names are [a-z][a-z0-9_]*
      rule.where = first->where;
      const auto taken = std::find_if(cat.rules_.begin(), cat.rules_.end(),
                                      [&](const std::unique_ptr<rule_spec>& x) { return x->id == rule.id; });
      if (taken != cat.rules_.end()) {
        r.error(first->where, "rule id " + in_backticks(rule.id) +
                                  " belongs to the required fields of the authored events of dialect " +
                                  in_backticks(d->name) + ", but the rule at " + (*taken)->where.to_string() +
                                  " has it: rename that rule");
        continue;
      }
      rule.level = severity::must;
      rule.basis = basis::authored;
      rule.dialects = {d->name};
      rule.text = "An event type this catalog authors carries every field the catalog marks required.";
      // Every reference the events give, once each, in catalog order.
      std::vector<std::string> refs;
      for (const auto& e : d->events) {
        if (!e.origin.authored.empty() && std::find(refs.begin(), refs.end(), e.origin.authored) == refs.end())
          refs.push_back(e.origin.authored);
      }
      rule.origin.authored = ssec::join(refs, "; ");
      rule.check.kind = check_kind::field_required;
      rule.generated = true;
      rule_files_.push_back(&r);
      cat.rules_.push_back(std::make_unique<rule_spec>(std::move(rule)));
    }
  }

  // Appends `f`'s path under `type` when required, then its nested fields'.
  static void add_required_paths(const catalog& cat, const dialect_spec& d, const std::string& type,
                                 const field_spec& f, std::vector<std::string>& keys, std::vector<field_path>& out) {
    keys.push_back(f.key);
    if (f.required && !named_by_a_rule(cat, d, type, keys)) out.push_back(field_path{type, keys});
    for (const auto& nested : f.fields) add_required_paths(cat, d, type, nested, keys, out);
    keys.pop_back();
  }

  static bool named_by_a_rule(const catalog& cat, const dialect_spec& d, const std::string& type,
                              const std::vector<std::string>& keys) {
    return std::any_of(cat.rules_.begin(), cat.rules_.end(), [&](const std::unique_ptr<rule_spec>& r) {
      if (r->check.kind != check_kind::field_required) return false;
      if (std::find(r->dialects.begin(), r->dialects.end(), d.name) == r->dialects.end()) return false;
      return std::any_of(r->check.fields.begin(), r->check.fields.end(),
                         [&](const field_path& p) { return p.type == type && p.keys == keys; });
    });
  }

  void apply_differences(raw_dialect& raw) {
    dialect_spec& d = *raw.spec;
    catalog_reader& r = *raw.reader;
    for (const auto& diff : d.differences) {
      for (const auto& type : diff.events) {
        if (std::none_of(d.events.begin(), d.events.end(), [&](const event_spec& e) { return e.type == type; })) {
          r.error(diff.where, "difference " + in_backticks(diff.aspect) + " names event type " + in_backticks(type) +
                                  " that " + in_backticks(d.profile_of) + " does not have");
        }
      }
      if (!diff.error_wire_event.empty()) {
        if (!d.has_shape(shape::error)) {
          r.error(diff.where, "difference " + in_backticks(diff.aspect) + " sets error_wire_event but " +
                                  in_backticks(d.profile_of) + " has no error frame shape");
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
          r.error(diff.where, "no_default " + in_backticks(path) + " must name a field of " +
                                  in_backticks(d.profile_of) + " that has a default");
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
      catalog_reader& r = *rule_files_[i];
      if (const auto it = ids.find(rule.id); it != ids.end()) {
        r.error(rule.where,
                "duplicate rule id " + in_backticks(rule.id) + " (first at " + it->second->where.to_string() + ")");
        continue;
      }
      ids.emplace(rule.id, &rule);
      for (const auto& name : rule.dialects) {
        const dialect_spec* d = cat.dialect(name);
        if (d == nullptr) {
          r.error(rule.where, "rule " + in_backticks(rule.id) + " names unknown dialect " + in_backticks(name));
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
          errors_.push_back(ssec::error{"dialect " + in_backticks(d->name) +
                                            " has two field_required rules without `fields` (" + fallback->id +
                                            " and " + rule->id + ")",
                                        rule->where.file, static_cast<std::size_t>(std::max(rule->where.line, 0)),
                                        static_cast<std::size_t>(std::max(rule->where.column, 0))});
        }
        fallback = rule;
      }
      if (d->events.size() * d->rules.size() <= max_indexed_type_rules) {
        d->rules_by_event.resize(d->events.size());
        for (std::size_t e = 0; e < d->events.size(); ++e)
          index_rules_for_type(*d, d->events[e].type, d->rules_by_event[e]);
      }
    }
  }

  void check_references(catalog_reader& r, const rule_spec& rule, const dialect_spec& d) {
    const std::string in = " in dialect " + in_backticks(d.name);
    const auto type_exists = [&](const std::string& type) {
      if (d.event(type) == nullptr)
        r.error(rule.where,
                "rule " + in_backticks(rule.id) + " names event type " + in_backticks(type) + " unknown" + in);
    };
    const auto declared = [&](const field_path& p) {
      if (p.type != "*") type_exists(p.type);
      if ((p.type == "*" || d.event(p.type) != nullptr) && !declares(d, p)) {
        r.error(rule.where,
                "rule " + in_backticks(rule.id) + " names field " + in_backticks(p.to_string()) + " not declared" + in);
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
            r.error(rule.where, "rule " + in_backticks(rule.id) + ": forbidden_field needs a type, not `*`");
            continue;
          }
          type_exists(p.type);
          if (d.event(p.type) != nullptr && declares(d, p)) {
            r.error(rule.where, "rule " + in_backticks(rule.id) + " forbids " + in_backticks(p.to_string()) +
                                    ", which the catalog declares" + in);
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
        if (!declares_key(d, c.field))
          r.error(rule.where,
                  "rule " + in_backticks(rule.id) + " names field " + in_backticks(c.field) + " not declared" + in);
        break;
      case check_kind::pair:
      case check_kind::pair_closed:
        type_exists(c.open);
        for (const auto& t : c.close) type_exists(t);
        for (const auto& t : c.during) type_exists(t);
        if (!c.key.empty() && d.event(c.open) != nullptr && d.event(c.open)->field(c.key) == nullptr) {
          r.error(rule.where, "rule " + in_backticks(rule.id) + ": key " + in_backticks(c.key) + " is not a field of " +
                                  in_backticks(c.open) + in);
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

  std::vector<ssec::error> errors_;
  std::vector<std::unique_ptr<catalog_reader>> readers_;
  std::vector<raw_dialect> raw_;
  std::map<std::string, catalog_reader*, std::less<>> dialect_readers_;  // each dialect's file
  std::vector<catalog_reader*> rule_files_;
};

namespace detail {

ssec::load_result<std::shared_ptr<const catalog>> build_catalogs(std::span<const catalog_source> sources,
                                                                 std::span<const ssec::yaml::node> documents) {
  return catalog_builder().build(sources, documents);
}

}  // namespace detail

}  // namespace sse::dialect
