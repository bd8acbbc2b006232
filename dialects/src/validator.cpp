// SPDX-License-Identifier: MIT
// The producer validator: one generic implementation per check kind; which
// rules run, on which types and fields, comes from the catalog.
#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sse/dialect/validator.hpp"
#include "ssec/support/escape.hpp"
#include "validator_parts.hpp"

namespace sse::dialect {

using detail::json_error_at;
using detail::line_end;
using detail::type_key_variant;

namespace {

// The pieces joined, with one allocation: a finding's text is built for
// every finding stored, and operator+ chains reallocate as they grow. Copied
// into place, not appended: each append tests the capacity again.
std::string cat(std::initializer_list<std::string_view> pieces) {
  std::size_t size = 0;
  for (const auto piece : pieces) size += piece.size();
  std::string out(size, '\0');
  char* at = out.data();
  for (const auto piece : pieces) {
    if (!piece.empty()) std::memcpy(at, piece.data(), piece.size());
    at += piece.size();
  }
  return out;
}

// A short, single-line excerpt of stream text for expected/seen, in the case
// log syntax (so it pastes into a case).
std::string excerpt(std::string_view s, std::size_t max = 60) { return ssec::quote_clipped(s, max); }

std::string describe(const event_view& ev) {
  switch (ev.kind) {
    case event_kind::structured: return cat({"a ", ev.type, " frame"});
    case event_kind::unknown: return cat({"a frame of unknown type ", excerpt(ev.type)});
    case event_kind::error: return cat({"an error frame ", excerpt(ev.raw)});
    case event_kind::plain_text:
      if (ev.json_object) return cat({"a JSON object without a string type ", excerpt(ev.raw)});
      if (const auto stops = json_error_at(ev.raw)) {
        return cat(
            {"JSON that does not parse (stops at byte ", std::to_string(*stops), " of the data) ", excerpt(ev.raw)});
      }
      return cat({"plain text ", excerpt(ev.raw)});
  }
  return "a frame";
}

std::string describe(const value_view& v) {
  switch (v.type()) {
    case json_type::string: return cat({"string ", excerpt(v.as_string())});
    case json_type::number: return cat({"number ", v.to_json().dump()});
    case json_type::boolean: return v.as_bool() ? "boolean true" : "boolean false";
    case json_type::null: return "null";
    case json_type::array: return "an array";
    case json_type::object: return "an object";
  }
  return "a value";
}

std::string list_text(const std::vector<std::string>& types) {
  std::string out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += i + 1 == types.size() ? " or " : ", ";
    out += types[i];
  }
  return out;
}

// Splits a block into `lines` (terminators removed), stopping after the blank line.
void lines_of(std::string_view block, std::vector<std::string_view>& lines) {
  lines.clear();
  std::size_t p = 0;
  while (p < block.size()) {
    const std::size_t eol = line_end(block, p);
    const std::string_view line = block.substr(p, eol == std::string_view::npos ? std::string_view::npos : eol - p);
    lines.push_back(line);
    if (eol == std::string_view::npos) break;
    p = eol + 1;
    if (block[eol] == '\r' && p < block.size() && block[p] == '\n') ++p;
    if (line.empty()) break;
  }
}

std::string_view field_name(std::string_view line) {
  const auto colon = line.find(':');
  return colon == std::string_view::npos ? line : line.substr(0, colon);
}

struct open_item {
  std::size_t frame;
  std::uint64_t offset;
};

// The items of one pair key still open, oldest first: a vector and the index
// of the oldest, the closed ones cut off once they are half of it (so each
// item is moved at most once on average). A std::deque per key, its first
// 512-byte block and its map allocated with the first item, made a stream
// of many keys open at once hold about 25 times its own size.
class open_items {
 public:
  void push_back(open_item item) { items_.push_back(item); }
  bool empty() const noexcept { return oldest_ == items_.size(); }
  void pop_front() {
    if (++oldest_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(oldest_));
      oldest_ = 0;
    }
  }
  const open_item* begin() const noexcept { return items_.data() + oldest_; }
  const open_item* end() const noexcept { return items_.data() + items_.size(); }

 private:
  std::vector<open_item> items_;
  std::size_t oldest_ = 0;
};

// Looks keys up by std::string_view: a value seen in a frame is compared
// without a copy of it (most are strings); only a new one is stored.
struct key_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

// Per-rule memory across frames.
struct rule_state {
  const rule_spec* rule = nullptr;
  std::optional<std::string> first_value;  // constant_field
  std::size_t first_frame = 0;
  std::optional<double> last_number;  // increasing
  std::size_t last_number_frame = 0;
  std::unordered_set<std::string, key_hash, std::equal_to<>> values;  // refers (the `to` values), unique_value
  std::map<std::string, open_items, std::less<>> open;                // pair, pair_closed
  std::size_t count = 0;                                              // at_most_once
  bool triggered = false;                                             // last_frame, followed_only_by
  std::string trigger;
  std::size_t trigger_frame = 0;
  std::size_t reported = 0;  // findings of this rule, stored or not
};

}  // namespace

struct validator::impl {
  impl(const dialect_spec& d, std::size_t cap) : dialect(&d), max_per_rule(cap) {
    states.resize(d.rules.size());
    for (std::size_t i = 0; i < states.size(); ++i) states[i].rule = d.rules[i];
    // by_kind: the states' indices, stably sorted by kind (a counting sort);
    // kind_start[k] .. kind_start[k + 1] are kind k's. One allocation, not a
    // vector per kind: a validator is made per stream (and per fuzz input).
    for (const rule_spec* r : d.rules) ++kind_start[kind_slot(r->check.kind) + 1];
    for (std::size_t k = 1; k < kind_start.size(); ++k) kind_start[k] += kind_start[k - 1];
    by_kind.resize(states.size());
    auto next = kind_start;
    for (std::size_t i = 0; i < states.size(); ++i) by_kind[next[kind_slot(states[i].rule->check.kind)]++] = i;
  }

  static constexpr std::size_t kind_slot(check_kind k) noexcept { return static_cast<std::size_t>(k); }

  const dialect_spec* dialect;
  std::vector<rule_state> states;
  // The states of each check kind, in order: each() visits only its kind's.
  // One slot per value of the enum's byte (and one past), so a kind added anywhere fits.
  std::vector<std::size_t> by_kind;
  std::array<std::size_t, std::size_t{std::numeric_limits<std::underlying_type_t<check_kind>>::max()} + 2> kind_start{};
  std::vector<finding> found;
  std::size_t max_per_rule;
  std::size_t not_stored = 0;
  std::size_t must = 0;
  std::size_t should = 0;
  std::size_t decision = 0;
  std::size_t frames = 0;
  // The latest frame, for end-of-stream findings (described only if needed).
  event_kind last_kind = event_kind::plain_text;
  bool last_json_object = false;
  std::string last_type;
  std::string last_raw;    // its first bytes
  bool finishing = false;  // finish() is reporting: the end of the stream
  std::optional<std::size_t> utf8_reported_frame;
  // Scratch reused by every frame.
  std::vector<std::pair<std::string_view, value_view>> members;
  std::vector<const field_spec*> member_specs;  // of members: the decoder's field_view::spec
  std::vector<std::string> path;
  std::vector<std::string_view> lines;  // of the frame's block, or of the tail
  // The rules against a frame's type: the loader's index for a catalog
  // type (a structured frame's entry is looked up by its exact type), else
  // worked out here, again only when the type changes.
  const type_rules& rules_for(const event_view& ev, std::string_view type) {
    if (ev.kind == event_kind::structured) {
      if (const type_rules* listed = dialect->indexed_rules(ev.spec)) return *listed;
    }
    if (!unlisted_known || type != unlisted_type) {
      index_rules_for_type(*dialect, type, unlisted_rules);
      unlisted_type.assign(type);
      unlisted_known = true;
    }
    return unlisted_rules;
  }
  type_rules unlisted_rules;  // of unlisted_type, a type the catalog does not list ("" for untyped frames)
  std::string unlisted_type;
  bool unlisted_known = false;

  // What a stored finding says: its `expected` and `seen`.
  struct texts {
    std::string expected;
    std::string seen;
  };

  // Every finding is counted, in its rule's state too; the first max_per_rule
  // of each rule are stored. `write_texts()` returns a texts and is called
  // only for a finding that is stored: past a rule's cap a finding is only
  // counted, and on a stream that breaks one rule at every frame, building
  // texts to drop them was most of what each finding cost.
  template <class WriteTexts>
  void report(rule_state& state, std::size_t frame, std::uint64_t offset, WriteTexts&& write_texts) {
    const rule_spec* rule = state.rule;
    (rule->level == severity::must ? must : should) += 1;
    decision += rule->basis == basis::decision;
    if (++state.reported > max_per_rule) {
      ++not_stored;
      return;
    }
    texts said = std::forward<WriteTexts>(write_texts)();
    // At the end, a finding at the frame count is about the end itself; before
    // it, the count is the frame a line in progress belongs to (utf8, known_field).
    found.push_back(
        finding{rule, frame, offset, std::move(said.expected), std::move(said.seen), finishing && frame == frames});
  }

  // Whether the dialect has a rule of this kind.
  bool has(check_kind k) const noexcept {
    const std::size_t slot = kind_slot(k);
    return kind_start[slot] != kind_start[slot + 1];
  }

  template <class F>
  void each(check_kind k, F&& f) {
    const std::size_t slot = kind_slot(k);
    for (std::size_t at = kind_start[slot]; at < kind_start[slot + 1]; ++at) f(states[by_kind[at]]);
  }

  // The field_required rule a missing field breaks: type.path, then *.path, then the one without fields.
  rule_state* required_rule(std::string_view type, const std::vector<std::string>& path) {
    rule_state* exact = nullptr;
    rule_state* any_type = nullptr;
    rule_state* fallback = nullptr;
    for (auto& s : states) {
      const check_spec& c = s.rule->check;
      if (c.kind != check_kind::field_required) continue;
      if (c.fields.empty()) fallback = &s;
      for (const auto& p : c.fields) {
        if (p.keys != path) continue;
        if (p.type == type && exact == nullptr) exact = &s;
        if (p.type == "*" && any_type == nullptr) any_type = &s;
      }
    }
    return exact != nullptr ? exact : any_type != nullptr ? any_type : fallback;
  }

  // A field a forbidden_field rule names is reported by that rule only.
  bool forbidden(std::string_view type, std::string_view key) const {
    return std::any_of(states.begin(), states.end(), [&](const rule_state& s) {
      if (s.rule->check.kind != check_kind::forbidden_field) return false;
      return std::any_of(s.rule->check.fields.begin(), s.rule->check.fields.end(), [&](const field_path& p) {
        return p.type == type && p.keys.size() == 1 && p.keys.front() == key;
      });
    });
  }

  static std::string path_text(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& k : path) {
      if (!out.empty()) out += '.';
      out += k;
    }
    return out;
  }

  // Fields of one object level against their declarations.
  // `specs`, when given: each member's declaration as the decoder found it
  // in `declared` (null: undeclared), and no key repeats (the decoder's
  // fields are one per key); else they are looked up here.
  void check_object(const std::vector<std::pair<std::string_view, value_view>>& members,
                    const std::vector<field_spec>& declared, std::string_view type, std::vector<std::string>& path,
                    bool top, bool report_undeclared, std::size_t frame, std::uint64_t offset,
                    const std::vector<const field_spec*>* specs = nullptr) {
    const auto present = [&](std::string_view key) {
      return std::any_of(members.begin(), members.end(), [&](const auto& m) { return m.first == key; });
    };
    // With one member per key, as many required members as required
    // declarations means none is missing: the search below is skipped.
    bool all_required_present = false;
    if (specs != nullptr) {
      const auto required = [](const field_spec* f) { return f != nullptr && f->required; };
      all_required_present =
          std::count_if(specs->begin(), specs->end(), required) ==
          std::count_if(declared.begin(), declared.end(), [](const field_spec& f) { return f.required; });
    }
    for (const auto& f : declared) {
      if (all_required_present) break;
      if (!f.required || present(f.key)) continue;
      path.push_back(f.key);
      if (rule_state* r = required_rule(type, path)) {
        report(*r, frame, offset, [&] {
          const std::string at = path_text(path);
          return texts{cat({"field ", at, " (", f.types.to_string(), ") on ", type}), cat({"no ", at})};
        });
      }
      path.pop_back();
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      // Named copies, not a structured binding: clang 14 (the fuzz and
      // OSS-Fuzz compiler) cannot capture bindings in the lambda below.
      const auto& key = members[i].first;
      const auto& value = members[i].second;
      const field_spec* spec = nullptr;
      if (specs != nullptr) {
        spec = (*specs)[i];
      } else if (const auto it =
                     std::find_if(declared.begin(), declared.end(), [&](const field_spec& f) { return f.key == key; });
                 it != declared.end()) {
        spec = &*it;
      }
      if (spec != nullptr) {
        const bool admitted = spec->types.admits(value.type(), value.is_integral());
        const bool nested = admitted && !spec->fields.empty() && value.type() == json_type::object;
        if (admitted && !nested) continue;  // the usual case: nothing to say, no path to build
        path.emplace_back(key);
        if (!admitted) {
          each(check_kind::field_type, [&](rule_state& s) {
            report(s, frame, offset, [&] {
              const std::string at = path_text(path);
              return texts{cat({at, " of type ", spec->types.to_string()}), cat({at, " is ", describe(value)})};
            });
          });
        } else {
          check_object(value.members(), spec->fields, type, path, false, false, frame, offset);
        }
        path.pop_back();
      } else if (!(top && key == "type")) {
        const std::string f = folded_key(key);
        const auto twin =
            std::find_if(declared.begin(), declared.end(), [&](const field_spec& d) { return folded_key(d.key) == f; });
        // A variant written instead of the mapped key is a casing finding;
        // beside the mapped key it loses nothing: an undeclared field
        // (DECISIONS.md#chat-key-casing).
        if (twin != declared.end() && !present(twin->key)) {
          each(check_kind::key_casing, [&](rule_state& s) {
            report(s, frame, offset, [&] {
              return texts{cat({"key ", excerpt(twin->key)}), cat({"key ", excerpt(key)})};
            });
          });
        } else if (report_undeclared && !forbidden(type, key)) {
          each(check_kind::undeclared_field, [&](rule_state& s) {
            report(s, frame, offset, [&] {
              return texts{cat({"only the fields the catalog declares for ", type}),
                           cat({"undeclared field ", excerpt(key)})};
            });
          });
        }
      }
    }
  }

  // The value at type-less path keys of a frame (defaults do not count: the producer did not send them).
  static std::optional<value_view> lookup(const event_view& ev, const std::vector<std::string>& keys) {
    const field_view* top = ev.find(keys.front());
    if (top == nullptr || top->defaulted) return std::nullopt;
    std::optional<value_view> v = top->value;
    for (std::size_t i = 1; i < keys.size() && v; ++i) v = v->member(keys[i]);
    return v;
  }

  static std::optional<value_view> lookup(const event_view& ev, std::string_view key) {
    const field_view* top = ev.find(key);
    if (top == nullptr || top->defaulted) return std::nullopt;
    return top->value;
  }

  // What identifies a value across frames: a string's text, else its JSON.
  // A view of the value, or of `key_scratch` (valid until the next call).
  std::string_view value_key(const value_view& v) {
    if (v.type() == json_type::string) return v.as_string();
    key_scratch = v.to_json().dump();
    return key_scratch;
  }
  std::string key_scratch;

  // Stores `key` unless present; true when it was new.
  static bool remember(rule_state& s, std::string_view key) {
    if (s.values.contains(key)) return false;
    s.values.emplace(key);
    return true;
  }

  void block_checks(std::string_view block, std::string_view data, std::size_t frame, std::uint64_t offset) {
    if (block.empty()) return;
    // The usual frame, one `data: ` line and an LF blank line: when the first
    // line end is the first of the two final LFs, there is no CR and no other
    // line, so every check below passes. The parser's view of the data, when
    // it is the line's own bytes (it holds no line end), decides it without
    // a scan; else one scan does.
    if (block.size() == data.size() + 8 && data.data() == block.data() + 6 && block.starts_with("data: ") &&
        block.ends_with("\n\n")) {
      return;
    }
    if (block.size() > 7 && block.starts_with("data: ") && block.ends_with("\n\n") &&
        sse::detail::find_line_end(block.data(), block.data() + block.size()) == block.data() + block.size() - 2) {
      return;
    }
    if (block.find('\r') != std::string_view::npos) {
      each(check_kind::lf_line_ends, [&](rule_state& s) {
        report(s, frame, offset, [&] {
          const bool crlf = block.find("\r\n") != std::string_view::npos;
          return texts{"lines ending in LF and a blank line \\n\\n",
                       cat({crlf ? "CRLF" : "CR", " line ends in ", excerpt(block)})};
        });
      });
    }
    lines_of(block, lines);
    for (const auto line : lines) {
      if (line.empty()) break;
      // A comment (no name) or a field a reader knows. A line of a field no
      // reader knows is lost: the known_field rule's finding, where the
      // dialect has one, not this one.
      const std::string_view name = field_name(line);
      if (name == "data") continue;
      if (name == "event" || name == "id" || name == "retry" || name.empty() || !has(check_kind::known_field)) {
        each(check_kind::data_only, [&](rule_state& s) {
          report(s, frame, offset, [&] { return texts{"a frame made of one data line", "the line " + excerpt(line)}; });
        });
        break;
      }
    }
    for (const auto line : lines) {
      if (field_name(line) == "data" && !line.starts_with("data: ")) {
        each(check_kind::data_space, [&](rule_state& s) {
          report(s, frame, offset, [&] { return texts{"a line starting with 'data: '", "the line " + excerpt(line)}; });
        });
        break;
      }
    }
  }

  void on_frame(const event_view& ev, std::string_view block) {
    const std::size_t frame = frames++;
    const std::uint64_t offset = ev.offset;
    const bool typed = ev.kind == event_kind::structured || ev.kind == event_kind::unknown;
    const std::string_view type = typed ? ev.type : std::string_view();

    block_checks(block, ev.raw, frame, offset);
    if (ev.raw.find('\n') != std::string_view::npos) {
      each(check_kind::single_data_line, [&](rule_state& s) {
        report(s, frame, offset, [&] {
          return texts{"data on one line", "data over several lines " + excerpt(ev.raw)};
        });
      });
    }
    if (!typed) {
      each(check_kind::json_object, [&](rule_state& s) {
        report(s, frame, offset, [&] { return texts{"a JSON object with a string type", describe(ev)}; });
      });
      if (ev.kind == event_kind::plain_text && ev.json_object) {
        // `Type` instead of `type` is the type_key_casing rule's finding,
        // where the dialect has one; any other object without a string type,
        // the object_has_type one.
        std::optional<std::string> variant;
        if (has(check_kind::type_key_casing)) variant = type_key_variant(ev.raw);
        if (variant) {
          each(check_kind::type_key_casing, [&](rule_state& s) {
            report(s, frame, offset, [&] { return texts{"key \"type\"", cat({"key ", excerpt(*variant)})}; });
          });
        } else {
          each(check_kind::object_has_type, [&](rule_state& s) {
            report(s, frame, offset, [&] { return texts{"a string type member", describe(ev)}; });
          });
        }
      }
    } else {
      if (ev.kind == event_kind::unknown) {
        each(check_kind::known_type, [&](rule_state& s) {
          report(s, frame, offset, [&] { return texts{"a type the catalog lists", cat({"type ", excerpt(ev.type)})}; });
        });
      }
      if (ev.duplicate_keys) {
        each(check_kind::unique_keys, [&](rule_state& s) {
          report(s, frame, offset, [&] {
            return texts{"each key once", "a key given more than once in " + excerpt(ev.raw)};
          });
        });
      }
      // Fields: the catalog entry, or for an unknown type the envelope (spec/DECISIONS.md, unknown-types).
      const std::vector<field_spec>& declared = ev.spec != nullptr ? ev.spec->fields : dialect->envelope;
      members.clear();
      member_specs.clear();
      for (const auto& f : ev.fields) {
        if (f.defaulted) continue;
        members.emplace_back(f.key, f.value);
        member_specs.push_back(f.spec);
      }
      path.clear();
      check_object(members, declared, type, path, true, ev.spec != nullptr && !ev.spec->open, frame, offset,
                   &member_specs);
      each(check_kind::forbidden_field, [&](rule_state& s) {
        for (const auto& p : s.rule->check.fields) {
          if (p.type == type && lookup(ev, p.keys)) {
            report(s, frame, offset, [&] {
              return texts{cat({"no ", path_text(p.keys), " on ", p.type}), cat({p.to_string(), " present"})};
            });
          }
        }
      });
    }
    cross_frame(ev, type, frame, offset);
    last_kind = ev.kind;
    last_json_object = ev.json_object;
    last_type.assign(ev.type);
    last_raw.assign(ev.raw.substr(0, 64));
  }

  std::string last_description() const {
    event_view v;
    v.kind = last_kind;
    v.json_object = last_json_object;
    v.type = last_type;
    v.raw = last_raw;
    return describe(v);
  }

  void cross_frame(const event_view& ev, std::string_view type, std::size_t frame, std::uint64_t offset) {
    const type_rules& rules = rules_for(ev, type);
    for (const std::size_t i : rules.acting) {
      rule_state& s = states[i];
      const type_roles& role = rules.roles[i];
      const check_spec& c = s.rule->check;
      switch (c.kind) {
        case check_kind::forbidden_type:
          if (role.in_types)
            report(s, frame, offset, [&] { return texts{cat({"no ", type, " frame"}), describe(ev)}; });
          break;
        case check_kind::refers: {
          for (const auto& from : c.fields) {
            if (from.type != type) continue;
            const auto v = lookup(ev, from.keys);
            if (v && !s.values.contains(value_key(*v))) {
              report(s, frame, offset, [&] {
                const std::string from_text = from.to_string();
                return texts{cat({from_text, " naming an earlier ", c.to.to_string()}),
                             cat({from_text, " ", describe(*v), " that no earlier ", c.to.type, " has"})};
              });
            }
          }
          if (c.to.type == type) {
            if (const auto v = lookup(ev, c.to.keys)) remember(s, value_key(*v));
          }
          break;
        }
        case check_kind::unique_value: {
          const field_path& p = c.fields.front();
          if (p.type != type) break;
          if (const auto v = lookup(ev, p.keys)) {
            if (!remember(s, value_key(*v))) {
              report(s, frame, offset, [&] {
                const std::string p_text = p.to_string();
                return texts{cat({"a ", p_text, " not used before"}), cat({p_text, " ", describe(*v), " again"})};
              });
            }
          }
          break;
        }
        case check_kind::constant_field: {
          if (type.empty()) break;
          const auto v = lookup(ev, std::string_view(c.field));
          if (!v) break;
          if (!s.first_value) {
            s.first_value = std::string(value_key(*v));
            s.first_frame = frame;
          } else if (v->type() == json_type::string ? *s.first_value != v->as_string()
                                                    : *s.first_value != value_key(*v)) {
            report(s, frame, offset, [&] {
              return texts{
                  cat({c.field, " ", excerpt(*s.first_value), " as in frame ", std::to_string(s.first_frame + 1)}),
                  cat({c.field, " ", describe(*v)})};
            });
          }
          break;
        }
        case check_kind::increasing: {
          if (type.empty()) break;
          const auto v = lookup(ev, std::string_view(c.field));
          if (!v || v->type() != json_type::number) break;
          if (s.last_number && !(v->as_number() > *s.last_number)) {
            report(s, frame, offset, [&] {
              return texts{cat({c.field, " greater than ", nlohmann::json(*s.last_number).dump(), " (frame ",
                                std::to_string(s.last_number_frame + 1), ")"}),
                           cat({c.field, " ", describe(*v)})};
            });
          }
          s.last_number = v->as_number();
          s.last_number_frame = frame;
          break;
        }
        case check_kind::pair:
        case check_kind::pair_closed: pair_step(s, role, ev, type, frame, offset); break;
        case check_kind::first_frame:
          if (frame == 0 && !role.in_types) {
            report(s, frame, offset, [&] {
              return texts{cat({"a first frame of type ", list_text(c.types)}), describe(ev)};
            });
          }
          break;
        case check_kind::last_frame:
          if (s.triggered) {
            report(s, frame, offset, [&] {
              return texts{cat({"the end of the stream after the ", s.trigger, " of frame ",
                                std::to_string(s.trigger_frame + 1)}),
                           describe(ev)};
            });
          } else if (role.in_types) {
            s.triggered = true;
            s.trigger = std::string(type);
            s.trigger_frame = frame;
          }
          break;
        case check_kind::at_most_once:
          if (role.in_types && ++s.count > 1) {
            report(s, frame, offset, [&] {
              return texts{cat({"at most one ", list_text(c.types), " frame"}),
                           cat({describe(ev), ", number ", std::to_string(s.count)})};
            });
          }
          break;
        case check_kind::followed_only_by:
          if (s.triggered && !role.in_allow) {
            report(s, frame, offset, [&] {
              return texts{cat({c.allow.empty() ? "nothing" : "only ", list_text(c.allow), " after the ", s.trigger,
                                " of frame ", std::to_string(s.trigger_frame + 1)}),
                           describe(ev)};
            });
          }
          if (!s.triggered && role.in_types) {
            s.triggered = true;
            s.trigger = std::string(type);
            s.trigger_frame = frame;
          }
          break;
        default: break;
      }
    }
  }

  void pair_step(rule_state& s, const type_roles& role, const event_view& ev, std::string_view type, std::size_t frame,
                 std::uint64_t offset) {
    const check_spec& c = s.rule->check;
    const bool opens = role.opens;
    const bool closes = role.in_close;
    const bool during = role.in_during;
    // Most frames take no part in a pair: their key is not made.
    if (!opens && !closes && !during) return;
    std::string_view key;  // frames without the key pair among themselves
    if (!c.key.empty()) {
      if (const auto v = lookup(ev, std::string_view(c.key))) key = value_key(*v);
    }
    auto it = s.open.find(key);
    if (opens) {
      if (it == s.open.end()) it = s.open.emplace(std::string(key), open_items()).first;
      it->second.push_back(open_item{frame, offset});
      return;
    }
    const bool is_open = it != s.open.end() && !it->second.empty();
    if (!is_open) {
      if (c.kind == check_kind::pair) {
        report(s, frame, offset, [&] {
          const std::string with_key = c.key.empty() ? std::string() : cat({" with ", c.key, " ", excerpt(key)});
          return texts{cat({"an open ", c.open, with_key, " before this ", type}),
                       cat({describe(ev), " with none open"})};
        });
      }
      return;
    }
    if (closes) {
      it->second.pop_front();
      if (it->second.empty()) s.open.erase(it);
    }
  }

  void on_diagnostic(const diagnostic& d) {
    if (d.code == diag::unknown_field) {
      // Every reader ignores the line, so what it carries is lost: reported at
      // the line, with the index of the frame it is in, or of the frame a
      // block of such lines would have been (nothing is dispatched for it).
      each(check_kind::known_field, [&](rule_state& s) {
        report(s, frames, d.offset, [&] {
          return texts{"the field name data (or event, id, retry)",
                       cat({"the field name ", excerpt(d.detail), ", which every reader ignores"})};
        });
      });
      return;
    }
    if (d.code != diag::invalid_utf8 || utf8_reported_frame == frames) return;
    utf8_reported_frame = frames;
    each(check_kind::utf8, [&](rule_state& s) {
      report(s, frames, d.offset, [&] {
        return texts{"UTF-8 text", "bytes that are not UTF-8 in " + excerpt(d.detail)};
      });
    });
  }

  // The media type essence: before any parameter, trimmed, lower case.
  void on_content_type(std::string_view header) {
    std::string_view essence = header.substr(0, header.find(';'));
    while (!essence.empty() && (essence.front() == ' ' || essence.front() == '\t')) essence.remove_prefix(1);
    while (!essence.empty() && (essence.back() == ' ' || essence.back() == '\t')) essence.remove_suffix(1);
    std::string lower(essence);
    for (auto& ch : lower) {
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    }
    each(check_kind::content_type, [&](rule_state& s) {
      if (lower != s.rule->check.value) {
        report(s, 0, 0, [&] {
          return texts{"Content-Type: " + s.rule->check.value, "Content-Type: " + excerpt(header)};
        });
      }
    });
  }

  void finish(std::uint64_t stream_size, std::uint64_t tail_offset, std::string_view tail) {
    finishing = true;
    // A frame cut off: the discarded tail holds a data line.
    bool cut = false;
    lines_of(tail, lines);
    for (const auto line : lines) {
      if (field_name(line) == "data") cut = true;
    }
    if (cut) {
      each(check_kind::frame_terminated, [&](rule_state& s) {
        report(s, frames, tail_offset, [&] {
          return texts{"a blank line ending the frame", "the stream ends inside the frame " + excerpt(tail)};
        });
      });
    }
    const std::string after =
        frames == 0 ? std::string("an empty stream") : "the stream ends after " + last_description();
    for (auto& s : states) {
      const check_spec& c = s.rule->check;
      if (c.kind == check_kind::last_frame && !s.triggered) {
        report(s, frames, stream_size, [&] { return texts{cat({"a final ", list_text(c.types), " frame"}), after}; });
      }
      if (c.kind == check_kind::pair_closed) {
        for (const auto& [key, items] : s.open) {
          const std::string of_key = c.key.empty() ? std::string() : cat({" (", c.key, " ", excerpt(key), ")"});
          for (const auto& item : items) {
            report(s, item.frame, item.offset, [&] {
              return texts{cat({list_text(c.close), " for this ", c.open, of_key, " before the end of the stream"}),
                           "still open at the end of the stream"};
            });
          }
        }
      }
    }
  }
};

validator::validator(const dialect_spec& d, std::size_t max_findings_per_rule)
    : impl_(std::make_unique<impl>(d, max_findings_per_rule)) {}
validator::~validator() = default;
validator::validator(validator&&) noexcept = default;
validator& validator::operator=(validator&&) noexcept = default;

void validator::on_frame(const event_view& ev, std::string_view block) { impl_->on_frame(ev, block); }
void validator::on_diagnostic(const diagnostic& d) { impl_->on_diagnostic(d); }
void validator::on_content_type(std::string_view header_value) { impl_->on_content_type(header_value); }
void validator::finish(std::uint64_t stream_size, std::uint64_t tail_offset, std::string_view tail) {
  impl_->finish(stream_size, tail_offset, tail);
}
const std::vector<finding>& validator::findings() const noexcept { return impl_->found; }
std::vector<finding> validator::take_findings() noexcept { return std::exchange(impl_->found, {}); }
std::size_t validator::not_stored() const noexcept { return impl_->not_stored; }
std::size_t validator::must() const noexcept { return impl_->must; }
std::size_t validator::should() const noexcept { return impl_->should; }
std::size_t validator::decision() const noexcept { return impl_->decision; }
std::size_t validator::frames() const noexcept { return impl_->frames; }

}  // namespace sse::dialect
