// SPDX-License-Identifier: MIT
// The catalog diff's evidence: for each ERR and WARN change a counterexample
// stream, built with the case generator's own frames and model
// (generator_parts.hpp), and the ids of NEW's generated cases that pin the
// change (generate_cases on NEW, matched by the cases' names).
#include <algorithm>
#include <map>

#include "catalog_diff_parts.hpp"
#include "generator_parts.hpp"

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/generator.hpp"
#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance::diff_detail {

namespace {

using gen::ojson;

// A generated case as the diff needs it: its id, name and input chunks.
struct gen_case {
  std::string id, name;
  std::vector<std::string> chunks;
};

// Hex digits to bytes ("FF00" -> "\xFF\x00"); the generator writes bytes
// that are not UTF-8 as `{hex: "FF"}` input items.
std::string from_hex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// The generated cases of a set. Read straight from the generator's YAML (not
// through the case loader: a catalog's dialect names are not case layers).
std::vector<gen_case> generated_cases(const dl::catalog& set, const std::set<std::string>& reserved) {
  std::vector<gen_case> out;
  for (const auto& f : generate_cases(set, reserved)) {
    // The generator's own output; its tests prove it parses.
    const auto doc = ssec::yaml::load_document(f.text, "generated");
    if (!doc || !doc->is_sequence()) continue;
    for (const ssec::yaml::node& generated : doc->items()) {
      gen_case c;
      c.id = generated["id"].scalar();
      c.name = generated["name"].scalar();
      for (const ssec::yaml::node& item : generated["input"].items()) {
        if (item.is_scalar()) c.chunks.push_back(item.scalar());
        else if (item["hex"]) c.chunks.push_back(from_hex(item["hex"].scalar()));
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

const gen_case* case_named(const std::vector<gen_case>& cases, const std::string& name) {
  for (const auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

// Sets a value at a dotted path inside an object (creating objects on the way).
void set_path(ojson& o, const std::string& path, const ojson& value) {
  const auto dot = path.find('.');
  if (dot == std::string::npos) {
    o[path] = value;
    return;
  }
  auto& inner = o[path.substr(0, dot)];
  if (!inner.is_object()) inner = ojson::object();
  set_path(inner, path.substr(dot + 1), value);
}

void erase_path(ojson& o, const std::string& path) {
  const auto dot = path.find('.');
  if (dot == std::string::npos) {
    if (o.is_object()) o.erase(path);
    return;
  }
  const auto top = path.substr(0, dot);
  if (o.is_object() && o.contains(top)) erase_path(o[top], path.substr(dot + 1));
}

const dl::field_spec* field_at(const std::vector<dl::field_spec>& fields, const std::string& path) {
  const auto dot = path.find('.');
  const auto key = path.substr(0, dot);
  for (const auto& f : fields)
    if (f.key == key) return dot == std::string::npos ? &f : field_at(f.fields, path.substr(dot + 1));
  return nullptr;
}

// A value the NEW field admits and the OLD one does not (or the reverse).
std::optional<ojson> value_admitted_by_only(const dl::type_set& yes, const dl::type_set& no) {
  for (const ojson& v :
       {ojson("text"), ojson(7), ojson(2.5), ojson(true), ojson::array({1}), ojson::object({{"x", 1}}), ojson(nullptr)})
    if (gen::admits(yes, v) && !gen::admits(no, v)) return v;
  return std::nullopt;
}

struct builder {
  const dl::catalog& old_set;
  const dl::catalog& new_set;
  const std::vector<gen_case>& old_cases;
  const std::vector<gen_case>& new_cases;
  const diff_options& options;

  // The stream as bytes and as a case input, with the findings NEW's model gives it.
  counterexample finish(std::string role, const dl::dialect_spec& d, const std::vector<gen::frame>& frames,
                        std::string explanation) const {
    gen::stream s;
    s.frames = frames;
    const auto r = gen::render(d, s);
    return finish_chunks(std::move(role), d.name, r.chunks, std::move(explanation), r.findings);
  }

  counterexample finish_chunks(std::string role, const std::string& dialect, std::vector<std::string> chunks,
                               std::string explanation, const std::set<std::string>& findings) const {
    counterexample x;
    x.role = std::move(role);
    x.dialect = dialect;
    std::size_t budget = options.max_counterexample_bytes;
    for (auto& c : chunks) {
      if (budget == 0) break;
      if (c.size() > budget) c.resize(budget);
      budget -= c.size();
      x.chunks.push_back(c);
    }
    std::vector<std::string> items;
    for (const auto& c : x.chunks)
      for (auto& item : input_items(c)) items.push_back(std::move(item));
    x.input = "[" + ssec::join(items, ", ") + "]";
    if (x.role == "writer" && !findings.empty())
      explanation += " NEW's validator reports " + ssec::join(findings, ", ") + ".";
    x.explanation = std::move(explanation);
    return x;
  }

  std::optional<counterexample> from_case(std::string role, const std::vector<gen_case>& cases,
                                          const std::string& dialect, const std::string& name,
                                          std::string explanation) const {
    const auto* c = case_named(cases, dialect + " " + name);
    if (!c) return std::nullopt;
    return finish_chunks(std::move(role), dialect, c->chunks,
                         std::move(explanation) + " (generated case " + c->id + ")", {});
  }

  // A frame of `type` in `d`, minimal, with `edit` applied to its object.
  template <class Edit>
  std::vector<gen::frame> frames(const dl::dialect_spec& d, const std::string& type, Edit edit) const {
    gen::frame f = gen::minimal_frame(d, type);
    ojson o = f.object;
    edit(o);
    return gen::with_context(d, gen::from_object(o), {});
  }

  // An event that became authored (RULE_TIGHTENED) or stopped being
  // (RULE_RELAXED): its frame without the first required field the
  // generated rule holds to must.
  std::optional<counterexample> authored_example(const catalog_change& c, const dl::dialect_spec& od,
                                                 const dl::dialect_spec& nd) const {
    const bool tightened = c.rule == "RULE_TIGHTENED";
    const auto* rule = (tightened ? new_set : old_set).rule(c.producer_rule);
    if (rule == nullptr) return std::nullopt;
    const auto path = std::find_if(rule->check.fields.begin(), rule->check.fields.end(),
                                   [&](const dl::field_path& p) { return p.type == c.event; });
    if (path == rule->check.fields.end()) return std::nullopt;
    const std::string field = ssec::join(path->keys, ".");
    const auto without = [&](ojson& o) { erase_path(o, field); };
    if (tightened)
      return finish("writer", nd, frames(od, c.event, without),
                    "A producer of OLD may omit " + yaml::in_backticks(field) + " from " + yaml::in_backticks(c.event) +
                        " (a should there); NEW's rule " + c.producer_rule + " (must) refuses it.");
    return finish("reader", nd, frames(nd, c.event, without),
                  "A producer of NEW may omit " + yaml::in_backticks(field) + " from " + yaml::in_backticks(c.event) +
                      ", which OLD's rule " + c.producer_rule + " (must) ruled out and a reader of OLD relies on.");
  }

  std::optional<counterexample> build(const catalog_change& c) const {
    const auto* od = old_set.dialect(c.dialect);
    const auto* nd = new_set.dialect(c.dialect);
    const auto* oe = od ? od->event(c.event) : nullptr;
    const auto* ne = nd ? nd->event(c.event) : nullptr;
    const auto* of = oe ? field_at(oe->fields, c.field) : nullptr;
    const auto* nf = ne ? field_at(ne->fields, c.field) : nullptr;
    const auto where = c.dialect + " " + c.event;
    const auto& r = c.rule;
    auto none = [](ojson&) {};
    if (r == "EVENT_ADDED" && nd && ne)
      return finish("reader", *nd, frames(*nd, c.event, none),
                    "A reader of OLD does not know type " + yaml::in_backticks(c.event) +
                        ": a strict allow-list rejects the frame (and may abort the turn).");
    if (r == "EVENT_REMOVED" && od && oe && nd)
      return finish("writer", *nd, frames(*od, c.event, none),
                    "A producer of OLD still sends " + yaml::in_backticks(c.event) + ", which NEW does not list.");
    if ((r == "EVENT_OPENED" && nd && ne) || (r == "EVENT_CLOSED" && od && oe && nd)) {
      const bool reader = r == "EVENT_OPENED";
      const auto& src = reader ? *nd : *od;
      return finish(reader ? "reader" : "writer", *nd, frames(src, c.event, [](ojson& o) { o["extraKey"] = "x"; }),
                    reader ? "A producer of NEW may add undeclared keys; a strict reader of OLD rejects them."
                           : "A producer of OLD adds an undeclared key, which NEW no longer expects.");
    }
    if (c.event == "*") return envelope_example(c, od, nd);
    if (!c.producer_rule.empty() && od && nd && oe && ne) return authored_example(c, *od, *nd);
    if (!od || !nd || !oe || !ne) return shape_or_rule_example(c, od, nd);
    if (r == "FIELD_ADDED_OPTIONAL" && nf)
      return finish("reader", *nd,
                    frames(*nd, c.event, [&](ojson& o) { set_path(o, c.field, gen::sample_value(*nf, false)); }),
                    where + " now carries " + yaml::in_backticks(c.field) +
                        ", which OLD does not declare: a strict reader (no additional keys) rejects it.");
    if ((r == "FIELD_ADDED_REQUIRED" || r == "FIELD_MADE_REQUIRED") && nf)
      return finish("writer", *nd, frames(*od, c.event, [&](ojson& o) { erase_path(o, c.field); }),
                    "A producer of OLD omits " + yaml::in_backticks(c.field) + ", which NEW requires.");
    if ((r == "FIELD_REMOVED" || r == "FIELD_MADE_OPTIONAL") && of)
      return finish("reader", *nd, frames(*nd, c.event, [&](ojson& o) { erase_path(o, c.field); }),
                    "A producer of NEW omits " + yaml::in_backticks(c.field) +
                        ", which a reader of OLD relies on (required in OLD).");
    if (r == "FIELD_REMOVED_OPTIONAL" && of)
      return finish("writer", *nd,
                    frames(*od, c.event, [&](ojson& o) { set_path(o, c.field, gen::sample_value(*of, false)); }),
                    "A producer of OLD sends " + yaml::in_backticks(c.field) + ", which NEW no longer declares.");
    if (r == "FIELD_KEY_CHANGED" && nf)
      return finish("reader", *nd,
                    frames(*nd, c.event, [&](ojson& o) { set_path(o, c.field, gen::sample_value(*nf, false)); }),
                    "A producer of NEW spells the key " + yaml::in_backticks(c.field) +
                        "; a reader of OLD looks it up under its old spelling and finds nothing.");
    if ((r == "FIELD_TYPE_WIDENED" || r == "FIELD_TYPE_CHANGED") && of && nf)
      if (const auto v = value_admitted_by_only(nf->types, of->types))
        return finish("reader", *nd, frames(*nd, c.event, [&](ojson& o) { set_path(o, c.field, *v); }),
                      "A producer of NEW sends " + yaml::in_backticks(c.field) + " as " + v->dump() + " (" +
                          nf->types.to_string() + "); a reader of OLD expects " + of->types.to_string() + ".");
    if (r == "FIELD_TYPE_NARROWED" && of && nf)
      if (const auto v = value_admitted_by_only(of->types, nf->types))
        return finish("writer", *nd, frames(*od, c.event, [&](ojson& o) { set_path(o, c.field, *v); }),
                      "A producer of OLD sends " + yaml::in_backticks(c.field) + " as " + v->dump() + ", which NEW (" +
                          nf->types.to_string() + ") refuses.");
    if ((r == "DEFAULT_ADDED" || r == "DEFAULT_REMOVED" || r == "DEFAULT_CHANGED") && of && nf) {
      const auto show = [](const dl::field_spec& f) { return f.default_value ? f.default_value->dump() : "missing"; };
      return finish("reader", *nd, frames(*nd, c.event, [&](ojson& o) { erase_path(o, c.field); }),
                    "A producer of NEW omits " + yaml::in_backticks(c.field) + " meaning " + show(*nf) +
                        "; a reader of OLD reads " + show(*of) + ".");
    }
    return std::nullopt;
  }

  std::optional<counterexample> envelope_example(const catalog_change& c, const dl::dialect_spec* od,
                                                 const dl::dialect_spec* nd) const {
    if (!od || !nd || nd->events.empty() || od->events.empty()) return std::nullopt;
    // The change as it shows on the first event type both sides share.
    for (const auto& e : nd->events) {
      if (!od->event(e.type)) continue;
      catalog_change on_event = c;
      on_event.event = e.type;
      if (auto x = build(on_event)) {
        x->explanation = "Envelope field, shown on " + yaml::in_backticks(e.type) + ": " + x->explanation;
        return x;
      }
    }
    return std::nullopt;
  }

  std::optional<counterexample> shape_or_rule_example(const catalog_change& c, const dl::dialect_spec* od,
                                                      const dl::dialect_spec* nd) const {
    const auto& r = c.rule;
    if (r == "DIALECT_REMOVED" && od && !od->events.empty())
      return finish("writer", *od, frames(*od, od->events.front().type, [](ojson&) {}),
                    "A producer of OLD's dialect " + yaml::in_backticks(c.dialect) + ", which NEW no longer defines.");
    if (!od || !nd) return std::nullopt;
    if (r == "FRAME_SHAPE_ADDED" || r == "FRAME_SHAPE_REMOVED" || r == "FRAME_PREFIX_CHANGED") {
      const bool reader = r != "FRAME_SHAPE_REMOVED";
      const auto& shaped = reader ? *nd : *od;
      std::string data = "hello";
      if (c.field == "shape:error") data = shaped.error_prefix + " boom";
      if (c.field == "shape:structured") return std::nullopt;
      const auto what =
          reader ? "A producer of NEW sends " + ssec::quote(data) + "; a reader of OLD classifies it as " +
                       (r == "FRAME_PREFIX_CHANGED" || od->error_prefix.empty() ? "plain text" : "another shape") + "."
                 : "A producer of OLD sends " + ssec::quote(data) + ", a frame shape NEW no longer has.";
      return finish(reader ? "reader" : "writer", *nd, {gen::from_text(data)}, what);
    }
    if (r == "ERROR_WIRE_EVENT_CHANGED") {
      const bool reader = !nd->error_wire_event.empty();
      gen::frame f = gen::from_text("boom");
      f.event_line = reader ? nd->error_wire_event : od->error_wire_event;
      return finish(reader ? "reader" : "writer", *nd, {f},
                    reader ? "A producer of NEW signals an error with `event: " + f.event_line +
                                 "`; a reader of OLD shows \"boom\" as text."
                           : "A producer of OLD signals an error with `event: " + f.event_line +
                                 "`; NEW reads it as plain text.");
    }
    if (r == "PROFILE_BASE_CHANGED" && !nd->events.empty())
      return finish("reader", *nd, frames(*nd, nd->events.front().type, [](ojson&) {}),
                    "Everything " + yaml::in_backticks(c.dialect) +
                        " inherited may differ; this frame is decoded under NEW's base.");
    const bool writer_side = r == "RULE_ADDED" || r == "RULE_ADDED_SHOULD" || r == "RULE_TIGHTENED" ||
                             r == "RULE_CHANGED" || r == "TERMINAL_CHANGED";
    const bool reader_side = r == "RULE_REMOVED" || r == "RULE_REMOVED_SHOULD" || r == "RULE_RELAXED";
    if (!writer_side && !reader_side) return std::nullopt;
    auto x = writer_side ? from_case("writer", new_cases, c.dialect, c.producer_rule + " broken",
                                     "A producer of OLD may send this; NEW's rule " + c.producer_rule + " refuses it")
                         : from_case("reader", old_cases, c.dialect, c.producer_rule + " broken",
                                     "A producer of NEW may now send this, which OLD's rule " + c.producer_rule +
                                         " ruled out and a reader of OLD relies on");
    if (x || nd->events.empty()) return x;
    // No generated stream breaks the rule (content_type is judged on the
    // HTTP response, not on the bytes): a conforming frame, and the check.
    const auto* rule = (writer_side ? new_set : old_set).rule(c.producer_rule);
    const auto* other = (writer_side ? old_set : new_set).rule(c.producer_rule);
    std::string what = rule && rule->check.kind == dl::check_kind::content_type
                           ? "served with Content-Type: " + (other && other->check.kind == dl::check_kind::content_type
                                                                 ? other->check.value
                                                                 : std::string("anything"))
                           : "breaking " + c.producer_rule;
    return finish(
        writer_side ? "writer" : "reader", *nd, frames(*nd, nd->events.front().type, [](ojson&) {}),
        "This stream, " + what + ", " + (writer_side ? "is refused by NEW's rule " : "was refused by OLD's rule ") +
            c.producer_rule +
            (rule && rule->check.kind == dl::check_kind::content_type ? " (" + rule->check.value + ")." : "."));
  }
};

bool needs_example(const catalog_change& c) {
  return c.worst() != change_level::info && !c.rule.starts_with("VERSION_");
}

// The names of NEW's generated cases that pin a change: a predicate on the name.
bool pins(const catalog_change& c, const gen_case& t) {
  const auto& n = t.name;
  if (!c.producer_rule.empty())
    return n == c.dialect + " " + c.producer_rule + " kept" || n == c.dialect + " " + c.producer_rule + " broken";
  if (!n.starts_with(c.dialect + " ")) return false;
  if (c.field.starts_with("shape:")) {
    const auto shape = c.field.substr(6);
    return (shape == "error" && n.find("error frame") != std::string::npos) ||
           (shape == "plain_text" && n.find("plain text") != std::string::npos) ||
           (shape == "structured" && n.find("JSON") != std::string::npos);
  }
  if (c.field == "error_wire_event") return n.find("sent as event:") != std::string::npos;
  if (c.rule == "EVENT_REMOVED") return n == c.dialect + " a type the catalog does not list is kept as unknown";
  if (c.event.empty()) return c.rule == "DIALECT_ADDED" || c.rule == "PROFILE_BASE_CHANGED";
  const bool envelope = c.event == "*";
  const std::string prefix = c.dialect + " " + c.event + ": ";
  if (!envelope && !n.starts_with(prefix)) return false;
  if (c.field.empty()) {
    if (c.rule == "EVENT_OPENED" || c.rule == "EVENT_CLOSED")
      return n.ends_with(": an extra field the catalog does not declare");
    return n.ends_with(": full frame, LF") || n.ends_with(": minimal frame, defaults applied");
  }
  const auto top = c.field.substr(0, c.field.find('.'));
  const bool mentions =
      n.find(": " + top + " with a") != std::string::npos || n.find(" instead of " + top) != std::string::npos;
  if (c.rule.starts_with("FIELD_TYPE") || c.rule == "FIELD_KEY_CHANGED") return mentions;
  if (c.rule.starts_with("FIELD_ADDED")) return mentions || n.ends_with(": full frame, LF");
  return n.ends_with(": minimal frame, defaults applied") ||
         (c.rule.starts_with("FIELD_REMOVED") && n.ends_with(": an extra field the catalog does not declare"));
}

}  // namespace

void add_evidence(std::vector<catalog_change>& changes, const dl::catalog& old_set, const dl::catalog& new_set,
                  const diff_options& options) {
  const bool examples =
      options.counterexamples &&
      std::any_of(changes.begin(), changes.end(), [](const catalog_change& c) { return needs_example(c); });
  // Rule counterexamples are generated streams that break a rule: OLD's cases only when a rule went away or looser.
  const bool old_rules = examples && std::any_of(changes.begin(), changes.end(), [](const catalog_change& c) {
                           return needs_example(c) && !c.producer_rule.empty() && c.reader >= c.writer;
                         });
  const bool new_needed = (options.pin_cases && !changes.empty()) ||
                          (examples && std::any_of(changes.begin(), changes.end(), [](const catalog_change& c) {
                             return needs_example(c) && !c.producer_rule.empty();
                           }));
  const auto new_cases = new_needed ? generated_cases(new_set, options.reserved_ids) : std::vector<gen_case>{};
  const auto old_cases = old_rules ? generated_cases(old_set, options.reserved_ids) : std::vector<gen_case>{};
  if (examples) {
    const builder b{old_set, new_set, old_cases, new_cases, options};
    for (auto& c : changes)
      if (needs_example(c)) c.example = b.build(c);
  }
  if (!options.pin_cases) return;
  for (auto& c : changes) {
    if (c.rule == "DOC_CHANGED" || c.rule.starts_with("VERSION_")) continue;
    for (const auto& t : new_cases) {
      if (!pins(c, t)) continue;
      ++c.pinned_total;
      if (c.pinned_by.size() < options.max_pinned) c.pinned_by.push_back(t.id);
    }
  }
}

}  // namespace ssec::conformance::diff_detail
