// SPDX-License-Identifier: MIT
// The catalog diff's comparison: dialects, frame shapes, profile differences,
// envelope and event fields (nested ones by dotted path), producer rules.
// Each change names one rule of the table in catalog_diff.cpp.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "catalog_diff_parts.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance::diff_detail {

namespace {

using changes = std::vector<catalog_change>;

// Case and `_`/`-` ignored: the key_casing comparison of spec/FORMAT.md.
std::string fold_key(std::string_view key) {
  std::string out;
  for (char ch : key) {
    if (ch == '_' || ch == '-') continue;
    out.push_back(static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch));
  }
  return out;
}

bool same_trace(const dl::trace& a, const dl::trace& b) { return a.sources == b.sources && a.decision == b.decision; }

// `integer` is part of `number`: compare what the sets admit.
std::uint8_t effective_bits(const dl::type_set& t) {
  std::uint8_t bits = t.bits;
  if (bits & dl::type_set::number) bits |= dl::type_set::integer;
  return bits;
}

std::string default_text(const std::optional<nlohmann::json>& v) { return v ? v->dump() : "none"; }

struct field_context {
  std::string dialect;
  std::string event;  // "*" for the envelope
  // Envelope changes already reported, as "path|rule": the same change of an
  // inherited field is not repeated for every event.
  const std::set<std::string>* envelope_changes = nullptr;
};

void emit_field(changes& out, const field_context& ctx, std::string_view rule, const std::string& path, bool inherited,
                std::string message, const dl::location* ow, const dl::location* nw) {
  if (inherited && ctx.envelope_changes && ctx.envelope_changes->count(path + "|" + std::string(rule))) return;
  out.push_back(make_change(rule, ctx.dialect, ctx.event, path, "", std::move(message), ow, nw));
}

void compare_fields(changes& out, const field_context& ctx, const std::vector<dl::field_spec>& old_fields,
                    const std::vector<dl::field_spec>& new_fields, const std::string& prefix);

void compare_field(changes& out, const field_context& ctx, const dl::field_spec& o, const dl::field_spec& n,
                   const std::string& path) {
  const bool inherited = o.from_envelope || n.from_envelope;
  const std::string where = ctx.event == "*" ? ctx.dialect + " envelope field " + yaml::in_backticks(path)
                                             : ctx.dialect + " " + ctx.event + "." + path;
  const auto ob = effective_bits(o.types), nb = effective_bits(n.types);
  if (ob != nb) {
    const bool narrower = (nb & ob) == nb, wider = (nb & ob) == ob;
    const std::string_view rule = narrower ? "FIELD_TYPE_NARROWED"
                                  : wider  ? "FIELD_TYPE_WIDENED"
                                           : "FIELD_TYPE_CHANGED";
    emit_field(out, ctx, rule, path, inherited, where + ": type " + o.types.to_string() + " -> " + n.types.to_string(),
               &o.where, &n.where);
  }
  if (o.required != n.required)
    emit_field(out, ctx, n.required ? "FIELD_MADE_REQUIRED" : "FIELD_MADE_OPTIONAL", path, inherited,
               where + (n.required ? ": optional -> required" : ": required -> optional"), &o.where, &n.where);
  // A field made required loses its default by the format's rule: that is
  // FIELD_MADE_REQUIRED, not a default change too.
  if (o.required == n.required && o.default_value != n.default_value) {
    const std::string_view rule = !o.default_value   ? "DEFAULT_ADDED"
                                  : !n.default_value ? "DEFAULT_REMOVED"
                                                     : "DEFAULT_CHANGED";
    emit_field(out, ctx, rule, path, inherited,
               where + ": default " + default_text(o.default_value) + " -> " + default_text(n.default_value), &o.where,
               &n.where);
  }
  if (o.purpose != n.purpose || !same_trace(o.origin, n.origin))
    emit_field(out, ctx, "DOC_CHANGED", path, inherited, where + ": purpose or traceability reworded", &o.where,
               &n.where);
  compare_fields(out, ctx, o.fields, n.fields, path + ".");
}

void compare_fields(changes& out, const field_context& ctx, const std::vector<dl::field_spec>& old_fields,
                    const std::vector<dl::field_spec>& new_fields, const std::string& prefix) {
  const std::string owner = ctx.event == "*" ? ctx.dialect + " envelope" : ctx.dialect + " " + ctx.event;
  std::vector<const dl::field_spec*> removed, added;
  for (const auto& o : old_fields) {
    const auto it = std::find_if(new_fields.begin(), new_fields.end(), [&](const auto& n) { return n.key == o.key; });
    if (it == new_fields.end()) removed.push_back(&o);
    else compare_field(out, ctx, o, *it, prefix + o.key);
  }
  for (const auto& n : new_fields)
    if (std::none_of(old_fields.begin(), old_fields.end(), [&](const auto& o) { return o.key == n.key; }))
      added.push_back(&n);
  // A removed and an added key equal but for case and `_`/`-`: one renamed key.
  for (auto r = removed.begin(); r != removed.end();) {
    const auto a = std::find_if(added.begin(), added.end(),
                                [&](const dl::field_spec* f) { return fold_key(f->key) == fold_key((*r)->key); });
    if (a == added.end()) {
      ++r;
      continue;
    }
    emit_field(
        out, ctx, "FIELD_KEY_CHANGED", prefix + (*a)->key, (*r)->from_envelope || (*a)->from_envelope,
        owner + ": key " + yaml::in_backticks(prefix + (*r)->key) + " -> " + yaml::in_backticks(prefix + (*a)->key),
        &(*r)->where, &(*a)->where);
    added.erase(a);
    r = removed.erase(r);
  }
  for (const auto* r : removed)
    emit_field(out, ctx, r->required ? "FIELD_REMOVED" : "FIELD_REMOVED_OPTIONAL", prefix + r->key, r->from_envelope,
               owner + ": " + (r->required ? "required" : "optional") + " field " +
                   yaml::in_backticks(prefix + r->key) + " removed",
               &r->where, nullptr);
  for (const auto* a : added)
    emit_field(out, ctx, a->required ? "FIELD_ADDED_REQUIRED" : "FIELD_ADDED_OPTIONAL", prefix + a->key,
               a->from_envelope,
               owner + ": " + (a->required ? "required" : "optional") + " field " +
                   yaml::in_backticks(prefix + a->key) + " added (" + a->types.to_string() + ")",
               nullptr, &a->where);
}

// The required fields the generated rule of `d` holds to must for event `type`.
std::vector<std::string> authored_required(const dl::dialect_spec& d, const std::string& type) {
  std::vector<std::string> paths;
  for (const auto* r : d.rules) {
    if (!r->generated) continue;
    for (const auto& p : r->check.fields) {
      if (p.type == type) paths.push_back(p.to_string());
    }
  }
  return paths;
}

// An event that becomes authored (or stops being) moves its required fields
// between the dialect's field_required rule and the generated must rule
// (spec/FORMAT.md, "Authored entries"); the generated rule itself is not
// compared, so a new authored event type is its EVENT_ADDED alone.
void compare_authored(changes& out, const dl::dialect_spec& od, const dl::event_spec& oe, const dl::dialect_spec& nd,
                      const dl::event_spec& ne) {
  if (oe.origin.authored.empty() == ne.origin.authored.empty()) return;
  const bool now = !ne.origin.authored.empty();
  const auto paths = authored_required(now ? nd : od, oe.type);
  if (paths.empty()) return;
  const std::string id = dl::authored_rule_id(nd.name);
  out.push_back(
      make_change(now ? "RULE_TIGHTENED" : "RULE_RELAXED", nd.name, oe.type, "", id,
                  nd.name + " " + oe.type +
                      (now ? ": now authored here (" + ne.origin.authored + ")" : ": no longer authored here") +
                      ", so " + id + (now ? " holds " : " no longer holds ") + "its required fields " +
                      ssec::join(paths, ", ") + (now ? " to must" : ""),
                  &oe.where, &ne.where));
}

void compare_events(changes& out, const dl::dialect_spec& od, const dl::dialect_spec& nd,
                    const std::set<std::string>& envelope_changes) {
  for (const auto& oe : od.events) {
    const auto* ne = nd.event(oe.type);
    if (!ne) {
      out.push_back(make_change("EVENT_REMOVED", od.name, oe.type, "", "",
                                od.name + ": event type " + yaml::in_backticks(oe.type) + " removed", &oe.where,
                                nullptr));
      continue;
    }
    if (oe.open != ne->open)
      out.push_back(make_change(
          ne->open ? "EVENT_OPENED" : "EVENT_CLOSED", od.name, oe.type, "", "",
          od.name + " " + oe.type + ": open " + (oe.open ? "true" : "false") + " -> " + (ne->open ? "true" : "false"),
          &oe.where, &ne->where));
    if (oe.purpose != ne->purpose || !same_trace(oe.origin, ne->origin) ||
        (!oe.origin.authored.empty() && !ne->origin.authored.empty() && oe.origin.authored != ne->origin.authored))
      out.push_back(make_change("DOC_CHANGED", od.name, oe.type, "", "",
                                od.name + " " + oe.type + ": purpose or traceability reworded", &oe.where, &ne->where));
    compare_authored(out, od, oe, nd, *ne);
    compare_fields(out, field_context{od.name, oe.type, &envelope_changes}, oe.fields, ne->fields, "");
  }
  for (const auto& ne : nd.events) {
    if (od.event(ne.type)) continue;
    const auto own = static_cast<std::size_t>(
        std::count_if(ne.fields.begin(), ne.fields.end(), [](const auto& f) { return !f.from_envelope; }));
    out.push_back(make_change("EVENT_ADDED", nd.name, ne.type, "", "",
                              nd.name + ": event type " + yaml::in_backticks(ne.type) + " added (" +
                                  ssec::counted(own, "field") +
                                  (own == ne.fields.size() ? "" : " besides the envelope's") + ")",
                              nullptr, &ne.where));
  }
}

void compare_shapes(changes& out, const dl::dialect_spec& od, const dl::dialect_spec& nd) {
  for (const auto& os : od.shapes) {
    const auto name = std::string(to_string(os.kind));
    const auto ns = std::find_if(nd.shapes.begin(), nd.shapes.end(), [&](const auto& s) { return s.kind == os.kind; });
    if (ns == nd.shapes.end()) {
      out.push_back(make_change("FRAME_SHAPE_REMOVED", od.name, "", "shape:" + name, "",
                                od.name + ": frame shape " + name + " removed", &os.where, nullptr));
      continue;
    }
    if (os.prefix != ns->prefix)
      out.push_back(make_change("FRAME_PREFIX_CHANGED", od.name, "", "shape:" + name, "",
                                od.name + ": error prefix " + ssec::quote(os.prefix) + " -> " + ssec::quote(ns->prefix),
                                &os.where, &ns->where));
    if (os.detection != ns->detection || os.handling != ns->handling || !same_trace(os.origin, ns->origin))
      out.push_back(make_change("DOC_CHANGED", od.name, "", "shape:" + name, "",
                                od.name + ": frame shape " + name + " reworded", &os.where, &ns->where));
  }
  for (const auto& ns : nd.shapes)
    if (std::none_of(od.shapes.begin(), od.shapes.end(), [&](const auto& s) { return s.kind == ns.kind; })) {
      const auto name = std::string(to_string(ns.kind));
      out.push_back(make_change("FRAME_SHAPE_ADDED", nd.name, "", "shape:" + name, "",
                                nd.name + ": frame shape " + name + " added" +
                                    (ns.prefix.empty() ? "" : " (prefix " + ssec::quote(ns.prefix) + ")"),
                                nullptr, &ns.where));
    }
}

void compare_differences(changes& out, const dl::dialect_spec& od, const dl::dialect_spec& nd) {
  for (const auto& o : od.differences) {
    const auto n =
        std::find_if(nd.differences.begin(), nd.differences.end(), [&](const auto& d) { return d.aspect == o.aspect; });
    if (n == nd.differences.end())
      out.push_back(make_change("PROFILE_DIFFERENCE_REMOVED", od.name, "", "difference:" + o.aspect, "",
                                od.name + ": difference " + yaml::in_backticks(o.aspect) + " removed", &o.where,
                                nullptr));
    else if (o.base != n->base || o.profile != n->profile || o.events != n->events || o.no_default != n->no_default ||
             !same_trace(o.origin, n->origin))
      out.push_back(make_change("DOC_CHANGED", od.name, "", "difference:" + o.aspect, "",
                                od.name + ": difference " + yaml::in_backticks(o.aspect) + " reworded", &o.where,
                                &n->where));
  }
  for (const auto& n : nd.differences)
    if (std::none_of(od.differences.begin(), od.differences.end(), [&](const auto& d) { return d.aspect == n.aspect; }))
      out.push_back(make_change("PROFILE_DIFFERENCE_ADDED", nd.name, "", "difference:" + n.aspect, "",
                                nd.name + ": difference " + yaml::in_backticks(n.aspect) + " added", nullptr,
                                &n.where));
  if (od.error_wire_event != nd.error_wire_event) {
    auto show = [](const std::string& e) { return e.empty() ? std::string("none") : yaml::in_backticks(e); };
    out.push_back(
        make_change("ERROR_WIRE_EVENT_CHANGED", nd.name, "", "error_wire_event", "",
                    nd.name + ": error wire event " + show(od.error_wire_event) + " -> " + show(nd.error_wire_event),
                    &od.where, &nd.where));
  }
}

void compare_dialect(changes& out, const dl::dialect_spec& od, const dl::dialect_spec& nd) {
  if (od.profile_of != nd.profile_of || od.frames_from != nd.frames_from) {
    auto base = [](const dl::dialect_spec& d) {
      return !d.profile_of.empty()    ? "profile_of " + d.profile_of
             : !d.frames_from.empty() ? "frames_from " + d.frames_from
                                      : std::string("own");
    };
    out.push_back(make_change("PROFILE_BASE_CHANGED", nd.name, "", "", "",
                              nd.name + ": " + base(od) + " -> " + base(nd), &od.where, &nd.where));
  }
  if (od.purpose != nd.purpose || !same_trace(od.origin, nd.origin))
    out.push_back(make_change("DOC_CHANGED", nd.name, "", "", "", nd.name + ": purpose or traceability reworded",
                              &od.where, &nd.where));
  compare_shapes(out, od, nd);
  compare_differences(out, od, nd);
  changes envelope;
  compare_fields(envelope, field_context{nd.name, "*", nullptr}, od.envelope, nd.envelope, "");
  std::set<std::string> seen;
  for (const auto& c : envelope) seen.insert(c.field + "|" + c.rule);
  compare_events(out, od, nd, seen);
  for (auto& c : envelope) out.push_back(std::move(c));
}

}  // namespace

void compare_rules(changes& out, const dl::catalog& old_set, const dl::catalog& new_set);  // catalog_diff_rules.cpp

std::vector<catalog_change> compare_sets(const dl::catalog& old_set, const dl::catalog& new_set) {
  changes out;
  for (const auto& od : old_set.dialects()) {
    const auto* nd = new_set.dialect(od->name);
    if (!nd)
      out.push_back(make_change("DIALECT_REMOVED", od->name, "", "", "",
                                "dialect " + yaml::in_backticks(od->name) + " removed", &od->where, nullptr));
    else compare_dialect(out, *od, *nd);
  }
  for (const auto& nd : new_set.dialects())
    if (!old_set.dialect(nd->name))
      out.push_back(make_change(
          "DIALECT_ADDED", nd->name, "", "", "",
          "dialect " + yaml::in_backticks(nd->name) + " added (" + ssec::counted(nd->events.size(), "event type") + ")",
          nullptr, &nd->where));
  compare_rules(out, old_set, new_set);
  // Set-level wording: a file's document or purpose.
  for (const auto& of : old_set.files())
    for (const auto& nf : new_set.files())
      if (base_name(of.name) == base_name(nf.name) && (of.document != nf.document || of.purpose != nf.purpose)) {
        const dl::location ow{of.name, 0, 0}, nw{nf.name, 0, 0};
        auto c =
            make_change("DOC_CHANGED", "", "", "", "", base_name(nf.name) + ": document or purpose reworded", &ow, &nw);
        c.fingerprint = change_fingerprint(c.rule, "file:" + base_name(nf.name), "", "", "");
        out.push_back(std::move(c));
      }
  return out;
}

}  // namespace ssec::conformance::diff_detail
