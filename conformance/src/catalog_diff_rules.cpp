// SPDX-License-Identifier: MIT
// The catalog diff's comparison of producer rules: per rule and per dialect it
// names (a rule that starts or stops naming a dialect is added or removed
// there), severity and check compared as stricter, looser or changed.
#include <algorithm>
#include <set>

#include "catalog_diff_parts.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance::diff_detail {

namespace {

using changes = std::vector<catalog_change>;

enum class order : std::uint8_t { same, tighter, looser, changed };

order combine(order a, order b) {
  if (a == order::same) return b;
  if (b == order::same || a == b) return a;
  return order::changed;
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }
std::set<std::string> as_set(const std::vector<dl::field_path>& v) {
  std::set<std::string> s;
  for (const auto& p : v) s.insert(p.to_string());
  return s;
}

// NEW's set against OLD's: a superset covers more.
order covers(const std::set<std::string>& o, const std::set<std::string>& n) {
  if (o == n) return order::same;
  if (std::includes(n.begin(), n.end(), o.begin(), o.end())) return order::tighter;
  if (std::includes(o.begin(), o.end(), n.begin(), n.end())) return order::looser;
  return order::changed;
}

bool is_terminal(dl::check_kind k) {
  using K = dl::check_kind;
  return k == K::first_frame || k == K::last_frame || k == K::followed_only_by || k == K::at_most_once ||
         k == K::pair || k == K::pair_closed;
}

// The check's parameters in one line: "last_frame types=[done, error]".
std::string describe(const dl::check_spec& c) {
  std::string s(to_string(c.kind));
  auto list = [&](std::string_view name, const auto& items) {
    if (!items.empty()) s += " " + std::string(name) + "=[" + ssec::join(as_set(items), ", ") + "]";
  };
  list("fields", c.fields);
  if (!c.to.type.empty()) s += " to=" + c.to.to_string();
  list("types", c.types);
  list("allow", c.allow);
  if (!c.field.empty()) s += " field=" + c.field;
  if (!c.open.empty()) s += " open=" + c.open;
  list("close", c.close);
  list("during", c.during);
  if (!c.key.empty()) s += " key=" + c.key;
  if (!c.value.empty()) s += " value=" + c.value;
  return s;
}

// How NEW's check compares with OLD's (same kind assumed).
order compare_check(const dl::check_spec& o, const dl::check_spec& n) {
  using K = dl::check_kind;
  if (o.kind != n.kind) return order::changed;
  switch (o.kind) {
    case K::field_required:
      if (o.fields.empty() != n.fields.empty()) return order::changed;  // "every other field" vs a list
      return covers(as_set(o.fields), as_set(n.fields));
    case K::forbidden_field: return covers(as_set(o.fields), as_set(n.fields));
    case K::forbidden_type:
    case K::at_most_once: return covers(as_set(o.types), as_set(n.types));
    case K::first_frame:
    case K::last_frame: {
      // Fewer allowed types is stricter.
      const auto c = covers(as_set(o.types), as_set(n.types));
      return c == order::tighter ? order::looser : c == order::looser ? order::tighter : c;
    }
    case K::followed_only_by: {
      const auto after = covers(as_set(o.types), as_set(n.types));
      auto allow = covers(as_set(o.allow), as_set(n.allow));
      allow = allow == order::tighter ? order::looser : allow == order::looser ? order::tighter : allow;
      return combine(after, allow);
    }
    default: return describe(o) == describe(n) ? order::same : order::changed;
  }
}

void compare_rule(changes& out, const dl::rule_spec& o, const dl::rule_spec& n, const std::string& dialect) {
  const std::string who = dialect + " " + n.id;
  const order sev = o.level == n.level ? order::same : n.level == dl::severity::must ? order::tighter : order::looser;
  const order chk = compare_check(o.check, n.check);
  const std::string sev_text = std::string(to_string(o.level)) + " -> " + std::string(to_string(n.level));
  const std::string chk_text = describe(o.check) + " -> " + describe(n.check);
  if (chk != order::same && is_terminal(o.check.kind) && is_terminal(n.check.kind)) {
    out.push_back(make_change("TERMINAL_CHANGED", dialect, "", "", n.id, who + ": " + chk_text, &o.where, &n.where));
    if (sev != order::same)
      out.push_back(make_change(sev == order::tighter ? "RULE_TIGHTENED" : "RULE_RELAXED", dialect, "", "", n.id,
                                who + ": severity " + sev_text, &o.where, &n.where));
  } else if (const auto all = combine(sev, chk); all != order::same) {
    std::string what;
    if (sev != order::same) what += "severity " + sev_text;
    if (chk != order::same) what += std::string(what.empty() ? "" : "; ") + "check " + chk_text;
    const std::string_view rule = all == order::tighter  ? "RULE_TIGHTENED"
                                  : all == order::looser ? "RULE_RELAXED"
                                                         : "RULE_CHANGED";
    out.push_back(make_change(rule, dialect, "", "", n.id, who + ": " + what, &o.where, &n.where));
  }
  if (o.text != n.text || o.quotes != n.quotes || o.basis != n.basis || o.origin.sources != n.origin.sources ||
      o.origin.decision != n.origin.decision || o.origin.authored != n.origin.authored)
    out.push_back(make_change("DOC_CHANGED", dialect, "", "", n.id, who + ": text, quote or traceability reworded",
                              &o.where, &n.where));
}

}  // namespace

void compare_rules(changes& out, const dl::catalog& old_set, const dl::catalog& new_set) {
  auto in_both = [&](const std::string& d) { return old_set.dialect(d) && new_set.dialect(d); };
  // A generated rule follows its authored events, which compare_events compares.
  for (const auto& o : old_set.rules()) {
    if (o->generated) continue;
    const auto* n = new_set.rule(o->id);
    for (const auto& d : o->dialects) {
      if (!in_both(d)) continue;  // DIALECT_ADDED / DIALECT_REMOVED say it
      const bool still = n && std::find(n->dialects.begin(), n->dialects.end(), d) != n->dialects.end();
      if (still) {
        compare_rule(out, *o, *n, d);
        continue;
      }
      const bool must = o->level == dl::severity::must;
      out.push_back(make_change(must ? "RULE_REMOVED" : "RULE_REMOVED_SHOULD", d, "", "", o->id,
                                d + " " + o->id + ": " + std::string(to_string(o->level)) + " rule " +
                                    (n ? "no longer names this dialect" : "removed") + " (" + describe(o->check) + ")",
                                &o->where, n ? &n->where : nullptr));
    }
  }
  for (const auto& n : new_set.rules()) {
    if (n->generated) continue;
    const auto* o = old_set.rule(n->id);
    for (const auto& d : n->dialects) {
      if (!in_both(d)) continue;
      if (o && std::find(o->dialects.begin(), o->dialects.end(), d) != o->dialects.end()) continue;
      const bool must = n->level == dl::severity::must;
      out.push_back(make_change(must ? "RULE_ADDED" : "RULE_ADDED_SHOULD", d, "", "", n->id,
                                d + " " + n->id + ": " + std::string(to_string(n->level)) + " rule " +
                                    (o ? "now names this dialect" : "added") + " (" + describe(n->check) + ")",
                                o ? &o->where : nullptr, &n->where));
    }
  }
}

}  // namespace ssec::conformance::diff_detail
