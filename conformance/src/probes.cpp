// SPDX-License-Identifier: MIT
// Probe streams and their grading (probes.hpp). The frames come from the
// case generator's frame builder (generator_parts.hpp): values of each
// field's type, and the context frames the dialect's ordering rules ask for.
#include "ssec/conformance/probes.hpp"

#include <algorithm>
#include <map>

#include "generator_parts.hpp"
#include "sse/dialect/decoder.hpp"
#include "ssec/support/escape.hpp"

namespace ssec::conformance {
namespace dl = sse::dialect;
using gen::ojson;

namespace {

// A type name no contract uses, for the unknown-type and ping-like probes.
constexpr const char* unknown_type = "x_certify_probe";

probe_frame frame_of(const gen::frame& f, int baseline) {
  probe_frame out;
  out.data = f.data;
  out.event = f.event_line.empty() ? "message" : f.event_line;
  out.block = (f.event_line.empty() ? std::string() : "event: " + f.event_line + "\n") + "data: " + f.data + "\n\n";
  out.baseline = baseline;
  return out;
}

probe_frame object_frame(const ojson& o, int baseline) { return frame_of(gen::from_object(o), baseline); }

bool in_any_rule(const dl::dialect_spec& d, dl::check_kind kind, std::string_view type) {
  return std::any_of(d.rules.begin(), d.rules.end(), [&](const dl::rule_spec* r) {
    return r->check.kind == kind && gen::contains(r->check.types, type);
  });
}

// A full frame of `e` as a producer of the old contract sends it: every
// field of `old` (the same type in the previous contract, if any) with a
// value of its old type, so that a renamed field keeps its old key and a
// replaced type its old value.
ojson old_object(const dl::event_spec& e, const dl::event_spec* old) {
  ojson o = ojson::object();
  o["type"] = e.type;
  for (const auto& f : (old != nullptr ? old->fields : e.fields)) o[f.key] = gen::sample_value(f, true);
  return o;
}

struct builder {
  const dl::dialect_spec& d;
  const dl::dialect_spec* old;  // the same dialect in the previous contract, or null
  std::vector<probe_frame> baseline;
  std::vector<probe> out;
  std::string suffix;  // "@<baseline name>" for a recorded baseline, else empty

  // Where injected frames go: the middle, after the opening frames, before a terminal one.
  std::size_t middle() const {
    std::size_t pos = std::max<std::size_t>(1, baseline.size() / 2);
    return std::min(pos, baseline.size());
  }

  probe& start(std::string klass, const std::string& what, std::string description) {
    probe p;
    p.id = d.name + "/" + klass + "/" + what + suffix;
    p.dialect = d.name;
    p.klass = std::move(klass);
    p.description = std::move(description);
    p.baseline = baseline;
    p.frames = baseline;
    out.push_back(std::move(p));
    return out.back();
  }

  void inject(std::string klass, const std::string& what, std::string description, probe_frame f, std::size_t at) {
    probe& p = start(std::move(klass), what, std::move(description));
    p.frames.insert(p.frames.begin() + static_cast<std::ptrdiff_t>(std::min(at, p.frames.size())), std::move(f));
  }

  // The first baseline frame of `type`, or -1.
  int find(std::string_view type) const {
    for (std::size_t i = 0; i < baseline.size(); ++i) {
      const ojson o = ojson::parse(baseline[i].data, nullptr, false);
      if (o.is_object() && o.value("type", "") == type) return static_cast<int>(i);
    }
    return -1;
  }

  // Changes baseline frame `i`: `key` set to `value` (nullopt: removed).
  void change(std::string klass, const std::string& what, std::string description, int i, const std::string& key,
              const std::optional<ojson>& value, bool novel) {
    ojson o = ojson::parse(baseline[static_cast<std::size_t>(i)].data);
    if (value) o[key] = *value;
    else o.erase(key);
    probe_frame f = object_frame(o, i);
    f.changed = true;
    f.novel = novel;
    f.touched = {key};
    probe& p = start(std::move(klass), what, std::move(description));
    p.frames[static_cast<std::size_t>(i)] = std::move(f);
  }
};

void build_baseline(builder& b, const std::vector<std::string>& exclude) {
  const dl::dialect_spec& d = b.d;
  std::vector<gen::frame> frames;
  const gen::context_options inner{
      .first = false, .refers = true, .pair_open = true, .pair_close = true, .last = false};
  for (const auto& e : d.events) {
    if (b.old != nullptr && b.old->event(e.type) == nullptr) continue;  // new: a probe, not the baseline
    if (gen::contains(exclude, e.type)) continue;
    if (in_any_rule(d, dl::check_kind::first_frame, e.type) || in_any_rule(d, dl::check_kind::last_frame, e.type) ||
        in_any_rule(d, dl::check_kind::forbidden_type, e.type)) {
      continue;  // placed by the ordering rules, or never sent
    }
    const gen::frame main = gen::from_object(old_object(e, b.old != nullptr ? b.old->event(e.type) : nullptr));
    for (auto& f : gen::with_context(d, main, {}, inner)) {
      if (!gen::contains(exclude, f.type)) frames.push_back(std::move(f));
    }
  }
  // Types OLD has and NEW removes: a producer of OLD sends them, one of NEW never does.
  if (b.old != nullptr) {
    for (const auto& e : b.old->events) {
      if (d.event(e.type) != nullptr || gen::contains(exclude, e.type)) continue;
      if (in_any_rule(*b.old, dl::check_kind::first_frame, e.type) ||
          in_any_rule(*b.old, dl::check_kind::last_frame, e.type) ||
          in_any_rule(*b.old, dl::check_kind::forbidden_type, e.type)) {
        continue;
      }
      frames.push_back(gen::from_object(old_object(e, &e)));
    }
  }
  if (d.has_shape(dl::shape::plain_text)) frames.push_back(gen::from_text("plain text is kept"));
  if (frames.empty()) frames.push_back(gen::from_text("plain text is kept"));
  const gen::context_options outer{
      .first = true, .refers = false, .pair_open = false, .pair_close = false, .last = true};
  const std::vector<gen::frame> rest(frames.begin() + 1, frames.end());
  int i = 0;
  for (const auto& f : gen::with_context(d, frames.front(), rest, outer)) b.baseline.push_back(frame_of(f, i++));
}

std::string describe_event(const dl::event& e) { return to_json(e).dump(); }

std::string shorten(std::string s, std::size_t max = 240) {
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

}  // namespace

std::string probe::stream() const {
  std::string s;
  for (const auto& f : frames) s += f.block;
  return s;
}

std::string probe::baseline_stream() const {
  std::string s;
  for (const auto& f : baseline) s += f.block;
  return s;
}

const std::vector<std::string>& probe_classes() {
  static const std::vector<std::string> classes{
      "new-type",   "new-field",      "new-value",    "optional-field", "removed-field",   "removed-type",
      "open-field", "frame-shape",    "rule-relaxed", "unknown-type",   "unknown-subtype", "keep-alive",
      "ping-like",  "after-terminal", "empty-list",   "usage-only",     "orphan-close",    "terminal"};
  return classes;
}

probe_coverage probe_classes_for(std::string_view diff_rule) {
  using C = std::vector<std::string>;
  static const std::vector<std::pair<std::string_view, probe_coverage>> table{
      {"DIALECT_REMOVED",
       {{},
        "no stream of the dialect is left to probe: a consumer of it speaks none of NEW's dialects, which breaks it"}},
      {"PROFILE_BASE_CHANGED",
       {C{"new-type", "new-field", "new-value", "optional-field", "removed-field", "removed-type"}, ""}},
      {"ERROR_WIRE_EVENT_CHANGED", {C{"frame-shape"}, ""}},
      {"FRAME_SHAPE_ADDED", {C{"frame-shape"}, ""}},
      {"FRAME_SHAPE_REMOVED", {C{"frame-shape"}, ""}},
      {"FRAME_PREFIX_CHANGED", {C{"frame-shape"}, ""}},
      {"EVENT_ADDED", {C{"new-type"}, ""}},
      {"EVENT_REMOVED", {C{"removed-type"}, ""}},
      {"EVENT_OPENED", {C{"open-field"}, ""}},
      {"FIELD_ADDED_OPTIONAL", {C{"new-field"}, ""}},
      {"FIELD_ADDED_REQUIRED", {C{"new-field"}, ""}},
      {"FIELD_REMOVED", {C{"removed-field"}, ""}},
      {"FIELD_REMOVED_OPTIONAL", {C{"removed-field"}, ""}},
      {"FIELD_KEY_CHANGED", {C{"removed-field", "new-field"}, ""}},
      {"FIELD_TYPE_WIDENED", {C{"new-value"}, ""}},
      {"FIELD_TYPE_CHANGED", {C{"new-value"}, ""}},
      {"FIELD_MADE_OPTIONAL", {C{"optional-field"}, ""}},
      {"DEFAULT_ADDED", {C{"optional-field"}, ""}},
      {"DEFAULT_REMOVED", {C{"optional-field"}, ""}},
      {"DEFAULT_CHANGED", {C{"optional-field"}, ""}},
      {"RULE_REMOVED", {C{"rule-relaxed"}, ""}},
      {"RULE_REMOVED_SHOULD", {C{"rule-relaxed"}, ""}},
      {"RULE_RELAXED", {C{"rule-relaxed"}, ""}},
      {"RULE_CHANGED", {C{"rule-relaxed"}, ""}},
      {"TERMINAL_CHANGED", {C{"terminal", "after-terminal"}, ""}},
      {"VERSION_NOT_BUMPED", {{}, "a version number, nothing on the wire: the contract's verdict says it"}},
  };
  for (const auto& [rule, coverage] : table) {
    if (rule == diff_rule) return coverage;
  }
  return {};
}

namespace {

// A type a producer of the new contract may end its stream with, where the
// old contract's rule of the same id did not let it (a last_frame rule that
// admits more types): the baseline cut after a frame of that type (or, when
// the baseline has none, before its old terminal frame with one appended).
void add_terminal_probes(builder& b) {
  for (const auto* r : b.d.rules) {
    if (r->check.kind != dl::check_kind::last_frame) continue;
    const auto before =
        std::find_if(b.old->rules.begin(), b.old->rules.end(), [&](const dl::rule_spec* o) { return o->id == r->id; });
    if (before == b.old->rules.end()) continue;
    for (const auto& type : r->check.types) {
      if (gen::contains((*before)->check.types, type) || b.d.event(type) == nullptr) continue;
      std::vector<probe_frame> cut;
      if (const int at = b.find(type); at >= 0) {
        cut.assign(b.baseline.begin(), b.baseline.begin() + at + 1);
      } else {
        std::size_t end = b.baseline.size();
        for (std::size_t i = 0; i < b.baseline.size(); ++i) {
          const ojson o = ojson::parse(b.baseline[i].data, nullptr, false);
          if (o.is_object() && gen::contains((*before)->check.types, o.value("type", ""))) {
            end = i;
            break;
          }
        }
        cut.assign(b.baseline.begin(), b.baseline.begin() + static_cast<std::ptrdiff_t>(end));
      }
      probe& p = b.start("terminal", type, "the stream ends with `" + type + "` (" + r->id + " now admits it)");
      p.baseline = cut;
      p.frames = cut;
      if (b.find(type) < 0) p.frames.push_back(object_frame(gen::make_object(*b.d.event(type), true), -1));
    }
  }
}

// The rule of id `id` naming `d`, or nullptr.
const dl::rule_spec* rule_in(const dl::dialect_spec& d, std::string_view id) {
  for (const auto* r : d.rules) {
    if (r->id == id) return r;
  }
  return nullptr;
}

// The baseline frame `i` with `key` set (or removed), as a changed frame.
probe_frame keyed(const builder& b, int i, const std::string& key, const std::optional<ojson>& value) {
  ojson o = ojson::parse(b.baseline[static_cast<std::size_t>(i)].data);
  if (value) o[key] = *value;
  else o.erase(key);
  probe_frame f = object_frame(o, i);
  f.changed = true;
  f.touched = {key};
  return f;
}

// What NEW lets a producer send that OLD did not, where it is a frame, a
// frame shape or a rule: a type NEW removes left out, a key on a type NEW
// opens, a frame of a shape NEW classifies otherwise, and a frame breaking
// a rule NEW drops or relaxes (forbidden types and fields, required fields,
// unique and at-most-once frames, references).
void add_contract_probes(builder& b) {
  const dl::dialect_spec& d = b.d;
  const dl::dialect_spec& old = *b.old;
  for (const auto& e : old.events) {
    if (d.event(e.type) != nullptr) continue;
    const int i = b.find(e.type);
    if (i < 0) continue;
    probe& p = b.start("removed-type", e.type, "the stream without `" + e.type + "`, which the new contract removes");
    p.frames.erase(p.frames.begin() + i);
  }
  for (const auto& e : d.events) {
    const dl::event_spec* oe = old.event(e.type);
    const int i = b.find(e.type);
    if (oe == nullptr || !e.open || oe->open || i < 0) continue;
    b.change("open-field", e.type + ".x_certify_probe", "`" + e.type + "` with a key no contract declares", i,
             "x_certify_probe", ojson("an undeclared value"), false);
  }
  const std::size_t mid = b.middle();
  if (!d.error_prefix.empty() && d.error_prefix != old.error_prefix) {
    b.inject("frame-shape", "error-prefix", "an error frame with the new prefix `" + d.error_prefix + "`",
             frame_of(gen::from_text(d.error_prefix + " probe error"), -1), mid);
  }
  if (d.has_shape(dl::shape::plain_text) && !old.has_shape(dl::shape::plain_text)) {
    b.inject("frame-shape", "plain-text", "a frame that is not JSON (a plain-text shape NEW adds)",
             frame_of(gen::from_text("plain text from a new shape"), -1), mid);
  }
  if (!d.error_wire_event.empty() && d.error_wire_event != old.error_wire_event) {
    gen::frame g = gen::from_text("probe error");
    g.event_line = d.error_wire_event;
    b.inject("frame-shape", "error-event", "an `event: " + d.error_wire_event + "` error frame", frame_of(g, -1), mid);
  }
  for (const auto* r : old.rules) {
    const dl::rule_spec* now = rule_in(d, r->id);
    const bool relaxed = now == nullptr || (r->level == dl::severity::must && now->level != dl::severity::must) ||
                         now->check.kind != r->check.kind || now->check.types != r->check.types ||
                         now->check.fields.size() != r->check.fields.size();
    if (!relaxed) continue;
    const std::string what = r->id;
    const std::string why = "what " + r->id + " forbade under OLD";
    switch (r->check.kind) {
      case dl::check_kind::forbidden_type:
        for (const auto& type : r->check.types) {
          if (d.event(type) == nullptr) continue;
          if (now != nullptr && now->check.kind == r->check.kind && gen::contains(now->check.types, type)) continue;
          probe_frame f = object_frame(gen::make_object(*d.event(type), true), -1);
          b.inject("rule-relaxed", what + "." + type, "a `" + type + "` frame: " + why, std::move(f), mid);
        }
        break;
      case dl::check_kind::forbidden_field:
      case dl::check_kind::field_required:
        for (const auto& path : r->check.fields) {
          const int i = b.find(path.type);
          if (i < 0 || path.keys.size() != 1) continue;
          const dl::event_spec* e = d.event(path.type);
          const dl::field_spec* f = e != nullptr ? e->field(path.keys.front()) : nullptr;
          const bool forbid = r->check.kind == dl::check_kind::forbidden_field;
          if (forbid && f == nullptr) continue;
          probe& p = b.start("rule-relaxed", what + "." + path.to_string(),
                             "`" + path.to_string() + (forbid ? "` present: " : "` missing: ") + why);
          p.frames[static_cast<std::size_t>(i)] =
              keyed(b, i, path.keys.front(), forbid ? std::optional<ojson>(gen::sample_value(*f, true)) : std::nullopt);
        }
        break;
      case dl::check_kind::unique_value:
      case dl::check_kind::at_most_once: {
        const std::string type = r->check.kind == dl::check_kind::unique_value
                                     ? (r->check.fields.empty() ? std::string() : r->check.fields.front().type)
                                     : (r->check.types.empty() ? std::string() : r->check.types.front());
        const int i = b.find(type);
        if (i < 0) break;
        probe_frame f = b.baseline[static_cast<std::size_t>(i)];
        f.baseline = -1;
        b.inject("rule-relaxed", what + "." + type, "a second `" + type + "` frame: " + why, std::move(f),
                 static_cast<std::size_t>(i) + 1);
        break;
      }
      case dl::check_kind::refers: {
        for (const auto& from : r->check.fields) {
          if (from.keys.size() != 1 || d.event(from.type) == nullptr) continue;
          gen::frame g = gen::with_key(gen::minimal_frame(d, from.type), from.keys.front(), ojson("x-never-referred"));
          b.inject("rule-relaxed", what + "." + from.to_string(),
                   "`" + from.to_string() + "` naming nothing earlier: " + why, frame_of(g, -1), mid);
        }
        break;
      }
      default: break;
    }
  }
}

// The probes of every class on the baseline `b` holds.
std::vector<probe> add_probes(builder& b) {
  const dl::dialect_spec* d = &b.d;
  const std::size_t mid = b.middle();

  // What the new contract adds or changes.
  if (b.old != nullptr) {
    for (const auto& e : d->events) {
      const dl::event_spec* oe = b.old->event(e.type);
      if (oe == nullptr) {
        probe_frame f = object_frame(gen::make_object(e, true), -1);
        f.novel = true;
        b.inject("new-type", e.type, "a frame of the new type `" + e.type + "` mid-stream", std::move(f), mid);
        continue;
      }
      const int i = b.find(e.type);
      if (i < 0) continue;
      for (const auto& field : e.fields) {
        const dl::field_spec* of = oe->field(field.key);
        if (of == nullptr) {
          b.change("new-field", e.type + "." + field.key, "`" + e.type + "` with the new field `" + field.key + "`", i,
                   field.key, gen::sample_value(field, true), true);
        } else if ((field.types.bits & ~of->types.bits) != 0) {
          // A value of a JSON type the old contract did not admit.
          for (const ojson& v : {ojson("new-value"), ojson(7), ojson(2.5), ojson(true), ojson::array({"new-value"}),
                                 ojson::object({{"new", "value"}}), ojson(nullptr)}) {
            if (gen::admits(field.types, v) && !gen::admits(of->types, v)) {
              b.change("new-value", e.type + "." + field.key,
                       "`" + e.type + "." + field.key + "` with a value of a newly admitted type", i, field.key, v,
                       true);
              break;
            }
          }
        }
      }
      for (const auto& field : e.fields) {
        const dl::field_spec* of = oe->field(field.key);
        if (of != nullptr && of->required && !field.required && !field.default_value) {
          b.change("optional-field", e.type + "." + field.key,
                   "`" + e.type + "` without `" + field.key + "`, which the new contract no longer requires", i,
                   field.key, std::nullopt, false);
        } else if (of != nullptr && !of->required && !field.required && of->default_value != field.default_value) {
          // A default added, removed or changed: the same omission means another value to each side.
          b.change("optional-field", e.type + "." + field.key,
                   "`" + e.type + "` without `" + field.key + "`, whose default the new contract changes", i, field.key,
                   std::nullopt, false);
        }
      }
      for (const auto& field : oe->fields) {
        if (e.field(field.key) == nullptr) {
          b.change("removed-field", e.type + "." + field.key,
                   "`" + e.type + "` without `" + field.key + "`, which the new contract removes", i, field.key,
                   std::nullopt, false);  // nothing to adopt: a consumer can at best do without it
        }
      }
    }
  }

  // The classes that broke real clients.
  if (d->event(unknown_type) == nullptr) {
    b.inject("unknown-type", unknown_type, "a frame of a type no contract has",
             object_frame(ojson{{"type", unknown_type}, {"text", "from an unknown type"}}, -1), mid);
  }
  for (std::size_t i = 0; i < b.baseline.size(); ++i) {
    const ojson o = ojson::parse(b.baseline[i].data, nullptr, false);
    if (!o.is_object()) continue;
    const std::string type = o.value("type", "");
    const dl::event_spec* e = d->event(type);
    if (e == nullptr) continue;
    const auto sub = std::find_if(e->fields.begin(), e->fields.end(), [&o](const dl::field_spec& f) {
      static const std::vector<std::string> names{"kind", "stage", "action", "status", "role", "subtype"};
      return (f.types.bits & dl::type_set::string) != 0 && f.types.bits != dl::type_set::any &&
             gen::contains(names, f.key) && o.contains(f.key);
    });
    if (sub == e->fields.end()) continue;
    b.change("unknown-subtype", type + "." + sub->key, "`" + type + "." + sub->key + "` with a value never seen",
             static_cast<int>(i), sub->key, ojson(unknown_type), false);
    break;
  }
  {
    probe_frame f;
    f.comment = true;
    f.block = ": keep-alive\n\n";
    b.inject("keep-alive", "comment", "a keep-alive comment between frames", std::move(f), mid);
  }
  if (d->event("ping") == nullptr) {
    gen::frame g = gen::from_object(ojson{{"type", "ping"}});
    g.event_line = "ping";
    b.inject("ping-like", "ping", "an `event: ping` frame with data {\"type\":\"ping\"}", frame_of(g, -1), mid);
  }
  for (const auto* r : d->rules) {
    if (r->check.kind != dl::check_kind::last_frame || b.baseline.size() < 2) continue;
    probe_frame f = b.baseline[b.baseline.size() / 2];
    f.baseline = -1;
    b.inject("after-terminal", "after-" + r->check.types.front(),
             "a known frame after the terminal `" + r->check.types.front() + "`", std::move(f), b.baseline.size());
    break;
  }
  for (std::size_t i = 0; i < b.baseline.size(); ++i) {
    const ojson o = ojson::parse(b.baseline[i].data, nullptr, false);
    if (!o.is_object()) continue;
    const dl::event_spec* e = d->event(o.value("type", ""));
    if (e == nullptr) continue;
    const auto list = std::find_if(e->fields.begin(), e->fields.end(), [&o](const dl::field_spec& f) {
      return f.types.bits == dl::type_set::array && o.contains(f.key);
    });
    if (list == e->fields.end()) continue;
    b.change("empty-list", e->type + "." + list->key, "`" + e->type + "." + list->key + "` as an empty list",
             static_cast<int>(i), list->key, ojson::array(), false);
    break;
  }
  for (const auto& e : d->events) {
    if (e.type.find("usage") == std::string::npos) continue;
    if (b.old != nullptr && b.old->event(e.type) == nullptr) continue;
    b.inject("usage-only", e.type, "a `" + e.type + "` frame with only its required fields",
             object_frame(gen::make_object(e, false), -1), mid);
  }
  for (const auto* r : d->rules) {
    if (r->check.kind != dl::check_kind::pair || r->check.close.empty()) continue;
    const std::string& close = r->check.close.front();
    if (b.old != nullptr && b.old->event(close) == nullptr) continue;
    gen::frame g = gen::minimal_frame(*d, close);
    if (!r->check.key.empty()) g = gen::with_key(g, r->check.key, ojson("x-never-opened"));
    b.inject("orphan-close", close, "`" + close + "` whose `" + r->check.open + "` never came", frame_of(g, -1), mid);
  }
  if (b.old != nullptr) {
    add_terminal_probes(b);
    add_contract_probes(b);
  }
  return std::move(b.out);
}

}  // namespace

std::vector<probe> make_probes(const dl::catalog& next, const dl::catalog* prev, std::string_view dialect,
                               const std::vector<std::string>& exclude) {
  const dl::dialect_spec* d = next.dialect(dialect);
  if (d == nullptr) return {};
  builder b{*d, prev != nullptr ? prev->dialect(dialect) : nullptr, {}, {}, {}};
  build_baseline(b, exclude);
  return add_probes(b);
}

std::vector<probe> make_probes_on(const dl::catalog& next, const dl::catalog* prev, std::string_view dialect,
                                  const std::vector<probe_frame>& recorded, std::string_view name,
                                  const std::vector<std::string>& exclude) {
  const dl::dialect_spec* d = next.dialect(dialect);
  if (d == nullptr) return {};
  builder b{*d, prev != nullptr ? prev->dialect(dialect) : nullptr, {}, {}, "@" + std::string(name)};
  dl::decoder dec(*d);
  for (const auto& f : recorded) {
    if (f.comment) continue;
    if (gen::contains(exclude, dec.decode_event(dl::frame{f.data, f.event}).type)) continue;
    probe_frame kept = f;
    kept.baseline = static_cast<int>(b.baseline.size());
    kept.changed = false;
    kept.novel = false;
    kept.touched.clear();
    b.baseline.push_back(std::move(kept));
  }
  if (b.baseline.empty()) return {};
  return add_probes(b);
}

probe_frame recorded_frame(std::string_view event, std::string_view data) {
  probe_frame f;
  f.event = std::string(event.empty() ? "message" : event);
  f.data = std::string(data);
  if (f.event != "message") f.block = "event: " + f.event + "\n";
  std::size_t start = 0;
  while (true) {
    const std::size_t lf = f.data.find('\n', start);
    f.block += "data: " + f.data.substr(start, lf == std::string::npos ? std::string::npos : lf - start) + "\n";
    if (lf == std::string::npos) break;
    start = lf + 1;
  }
  f.block += "\n";
  return f;
}

std::vector<chunking> probe_chunkings(const probe& p, unsigned random_count) {
  test_case c;
  c.id = p.id;
  c.input = p.stream();
  chunking_plan plan;
  plan.as_written = false;
  plan.every_split = false;
  plan.random_count = random_count;
  return chunkings_for(c, plan);
}

std::vector<std::string> probe_chunks(const probe& p, const chunking& k) {
  test_case c;
  c.id = p.id;
  c.input = p.stream();
  std::vector<std::string> out;
  for (const auto v : chunks_of(c, k)) out.emplace_back(v);
  return out;
}

std::string_view to_string(probe_grade g) noexcept {
  switch (g) {
    case probe_grade::tolerated: return "tolerated";
    case probe_grade::adopted: return "adopted";
    case probe_grade::broke: return "broke";
  }
  return "";
}

namespace {

probe_result broke(outcome o, std::string reason) { return {probe_grade::broke, o, std::move(reason)}; }

ssec::result<std::vector<dl::event>> events_of(const std::vector<nlohmann::json>& answer) {
  std::vector<dl::event> out;
  for (std::size_t i = 0; i < answer.size(); ++i) {
    auto e = dl::event_from_json(answer[i]);
    if (!e) return ssec::error{"event " + std::to_string(i + 1) + " of the answer: " + e.error().message};
    out.push_back(std::move(e).value());
  }
  return out;
}

dl::event stripped(dl::event e, const std::vector<std::string>& keys) {
  e.raw.clear();
  e.defaulted.clear();
  if (e.fields.is_object()) {
    for (const auto& k : keys) e.fields.erase(k);
  }
  return e;
}

// Whether the changed frame `f` omits a key it touched (removed-field, optional-field).
bool omits_touched(const probe_frame& f) {
  const ojson o = ojson::parse(f.data, nullptr, false);
  return o.is_object() &&
         std::any_of(f.touched.begin(), f.touched.end(), [&](const std::string& k) { return !o.contains(k); });
}

// A placeholder a consumer renders for a value it could not read
// (`undefined`, `NaN`, `[object Object]`) in `ev`, that the frame's data
// `data` does not hold itself; empty when none.
std::string mangled(const dl::event& ev, std::string_view data) {
  static const std::vector<std::string> marks{"undefined", "NaN", "[object Object]"};
  std::string found;
  const auto look = [&](const std::string& s) {
    for (const auto& m : marks) {
      if (found.empty() && s.find(m) != std::string::npos && data.find(m) == std::string_view::npos) found = m;
    }
  };
  look(ev.text);
  std::vector<const nlohmann::json*> todo{&ev.fields};
  while (!todo.empty() && found.empty()) {
    const nlohmann::json* j = todo.back();
    todo.pop_back();
    if (j->is_string()) look(j->get<std::string>());
    else if (j->is_structured()) {
      for (const auto& v : *j) todo.push_back(&v);
    }
  }
  return found;
}

}  // namespace

probe_result grade_probe(const probe& p, const dl::dialect_spec& d, const answer& base, const answer& probed) {
  if (!probed.malformed.empty()) return broke(outcome::error, "malformed answer: " + probed.malformed);
  if (!base.malformed.empty()) return broke(outcome::error, "malformed answer to the baseline: " + base.malformed);
  if (base.dialect_rejection) {
    return broke(outcome::fail, "rejects the baseline stream, without the probe: " + *base.dialect_rejection);
  }
  if (probed.dialect_rejection) return broke(outcome::fail, "rejected the stream: " + *probed.dialect_rejection);
  if (!base.dialect || !probed.dialect) return broke(outcome::error, "the answer holds no dialect events");
  const auto b = events_of(*base.dialect);
  if (!b) return broke(outcome::error, "baseline answer: " + b.error().message);
  const auto a = events_of(*probed.dialect);
  if (!a) return broke(outcome::error, a.error().message);

  // Which baseline frame each baseline answer event stands for.
  std::map<int, const dl::event*> handled;
  std::size_t cursor = 0;
  for (const auto& e : *b) {
    for (std::size_t j = cursor; j < p.baseline.size(); ++j) {
      if (!p.baseline[j].comment && p.baseline[j].data == e.raw) {
        handled[static_cast<int>(j)] = &e;
        cursor = j + 1;
        break;
      }
    }
  }
  const auto lost = [&](std::size_t from, std::size_t to) -> std::optional<probe_result> {
    for (std::size_t k = from; k < to; ++k) {
      const auto& f = p.frames[k];
      if (f.baseline >= 0 && handled.count(f.baseline) != 0) {
        return broke(outcome::fail, "lost a known event (frame " + std::to_string(k + 1) +
                                        "): " + shorten(describe_event(*handled[f.baseline])));
      }
    }
    return std::nullopt;
  };

  dl::decoder reference(d);
  bool adopted = false;
  std::size_t next = 0;
  for (const auto& ev : *a) {
    std::size_t at = next;
    while (at < p.frames.size() && (p.frames[at].comment || p.frames[at].data != ev.raw)) ++at;
    if (at == p.frames.size()) {
      return broke(outcome::fail, "reported an event the stream does not hold: " + shorten(describe_event(ev)));
    }
    if (auto l = lost(next, at)) return *l;
    const probe_frame& f = p.frames[at];
    const dl::event ref = reference.decode_event(dl::frame{f.data, f.event});
    const auto known = f.baseline >= 0 ? handled.find(f.baseline) : handled.end();
    if (f.baseline < 0 || f.changed) {
      // The answer's values are compared, not only its shape.
      if (const std::string m = mangled(ev, f.data); !m.empty()) {
        return broke(outcome::fail, "rendered `" + m + "` for the " +
                                        std::string(f.baseline >= 0 ? "changed" : "injected") + " frame " +
                                        std::to_string(at + 1) + ": " + shorten(describe_event(ev)));
      }
      // A key the consumer answered for the baseline frame, gone with the
      // field the probe omits: it relies on what NEW may leave out.
      if (f.changed && known != handled.end() && known->second->fields.is_object()) {
        const ojson o = ojson::parse(f.data, nullptr, false);
        for (const auto& k : f.touched) {
          if (o.is_object() && !o.contains(k) && known->second->fields.contains(k) &&
              !(ev.fields.is_object() && ev.fields.contains(k))) {
            return broke(outcome::fail, "lost `" + k + "` from its answer for frame " + std::to_string(at + 1) +
                                            " when the frame omits it (it answered " +
                                            shorten(describe_event(*known->second)) + " with it)");
          }
        }
      }
    }
    if (f.baseline >= 0 && !f.changed) {
      const bool same =
          known != handled.end() ? ev == *known->second : (ev == ref || ev.kind == dl::event_kind::unknown);
      if (!same) {
        return broke(
            outcome::fail,
            "changed a known event (frame " + std::to_string(at + 1) + "): " + shorten(describe_event(ev)) +
                (known != handled.end() ? "; without the probe: " + shorten(describe_event(*known->second)) : ""));
      }
    } else if (ev == ref) {
      adopted = adopted || f.novel;
    } else if (ev.kind == dl::event_kind::unknown && ev.raw == f.data) {
      // surfaced as unknown with its raw bytes
    } else if (f.changed && known != handled.end() && stripped(ev, f.touched) == stripped(*known->second, f.touched)) {
      // the changed key ignored, everything else as before
    } else if (f.changed && known != handled.end() && omits_touched(f) && ev.kind == known->second->kind &&
               ev.type == known->second->type) {
      // done without the omitted field: no key lost, nothing mangled (checked above); what it
      // derives from the field may differ (a total without the omitted count)
    } else {
      return broke(outcome::fail, "decoded the " + std::string(f.baseline >= 0 ? "changed" : "injected") + " frame " +
                                      std::to_string(at + 1) + " as " + shorten(describe_event(ev)) +
                                      "; the reference decodes " + shorten(describe_event(ref)));
    }
    next = at + 1;
  }
  if (auto l = lost(next, p.frames.size())) return *l;
  return {adopted ? probe_grade::adopted : probe_grade::tolerated, outcome::pass, ""};
}

}  // namespace ssec::conformance
