// SPDX-License-Identifier: MIT
#include "ssec/conformance/coverage.hpp"

#include <algorithm>
#include <iomanip>
#include <map>

#include <nlohmann/json.hpp>

namespace ssec::conformance {

namespace {

namespace dl = sse::dialect;

bool has_path(const nlohmann::json& object, const std::vector<std::string>& keys) {
  const nlohmann::json* at = &object;
  for (const auto& k : keys) {
    if (!at->is_object() || !at->contains(k)) return false;
    at = &(*at)[k];
  }
  return true;
}

// The JSON the producer sent in an expected structured event (its raw data,
// so that defaults applied by the decoder do not count as sent).
nlohmann::json sent_object(const nlohmann::json& event) {
  if (!event.contains("raw") || !event["raw"].is_string()) return nullptr;
  auto j = nlohmann::json::parse(event["raw"].get<std::string>(), nullptr, false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

void add_fields(coverage_report& r, std::span<const test_case> cases, const dl::dialect_spec& d,
                const dl::event_spec& e, const std::vector<dl::field_spec>& fields, std::vector<std::string>& path) {
  for (const auto& f : fields) {
    path.push_back(f.key);
    coverage_item item{"field", d.name + "." + e.type, {}, {}};
    for (const auto& k : path) item.what += "." + k;
    for (const auto& c : cases) {
      if (to_string(c.layer) != d.name) continue;
      const bool hit = std::any_of(c.dialect_events.begin(), c.dialect_events.end(), [&](const nlohmann::json& ev) {
        return ev.value("kind", "") == "structured" && ev.value("type", "") == e.type &&
               has_path(sent_object(ev), path);
      });
      if (hit) item.case_ids.push_back(c.id);
    }
    r.items.push_back(std::move(item));
    add_fields(r, cases, d, e, f.fields, path);
    path.pop_back();
  }
}

}  // namespace

std::size_t coverage_report::uncovered() const {
  return static_cast<std::size_t>(
      std::count_if(items.begin(), items.end(), [](const coverage_item& i) { return i.uncovered(); }));
}

coverage_report compute_coverage(const dl::catalog& cat, std::span<const test_case> cases) {
  coverage_report r;
  for (const auto& dp : cat.dialects()) {
    const auto& d = *dp;
    const auto of_layer = [&](const test_case& c) { return to_string(c.layer) == d.name; };
    for (const auto& s : d.shapes) {
      coverage_item item{"shape", d.name + "." + std::string(dl::to_string(s.kind)), {}, {}};
      for (const auto& c : cases) {
        if (!of_layer(c)) continue;
        if (std::any_of(c.dialect_events.begin(), c.dialect_events.end(),
                        [&](const nlohmann::json& ev) { return ev.value("kind", "") == dl::to_string(s.kind); })) {
          item.case_ids.push_back(c.id);
        }
      }
      r.items.push_back(std::move(item));
    }
    for (const auto& e : d.events) {
      coverage_item item{"event", d.name + "." + e.type, {}, {}};
      for (const auto& c : cases) {
        if (!of_layer(c)) continue;
        if (std::any_of(c.dialect_events.begin(), c.dialect_events.end(), [&](const nlohmann::json& ev) {
              return ev.value("kind", "") == "structured" && ev.value("type", "") == e.type;
            })) {
          item.case_ids.push_back(c.id);
        }
      }
      r.items.push_back(std::move(item));
      std::vector<std::string> path;
      add_fields(r, cases, d, e, e.fields, path);
    }
    for (const auto* rule : d.rules) {
      const std::string what = rule->id + " (" + d.name + ")";
      std::string excluded;
      if (rule->check.kind == dl::check_kind::content_type) {
        excluded = "needs the HTTP response, not a stream: sse-conform check, validate --content-type";
      }
      const bool any_required = std::any_of(d.events.begin(), d.events.end(), [](const dl::event_spec& e) {
        return std::any_of(e.fields.begin(), e.fields.end(), [](const dl::field_spec& f) { return f.required; });
      });
      const bool unbreakable = rule->check.kind == dl::check_kind::field_required && !any_required;
      coverage_item kept{"rule-kept", what, {}, excluded};
      coverage_item broken{
          "rule-broken", what, {}, unbreakable ? "no event type of the dialect has a required field" : excluded};
      for (const auto& c : cases) {
        if (!of_layer(c)) continue;
        const bool listed = std::find(c.findings.begin(), c.findings.end(), rule->id) != c.findings.end();
        if (listed) broken.case_ids.push_back(c.id);
        const bool cites = std::any_of(c.from.begin(), c.from.end(),
                                       [&](const std::string& f) { return f.ends_with("#" + rule->id); });
        if (cites && !listed && (c.conforming || !c.findings.empty())) kept.case_ids.push_back(c.id);
      }
      r.items.push_back(std::move(kept));
      r.items.push_back(std::move(broken));
    }
  }
  std::map<std::string, std::vector<std::string>> anchors;
  const std::string whatwg = "https://html.spec.whatwg.org/";
  for (const auto& c : cases) {
    for (const auto& f : c.from) {
      if (f.starts_with(whatwg)) anchors[f.substr(whatwg.size())].push_back(c.id);
    }
  }
  for (auto& [anchor, ids] : anchors) r.items.push_back({"whatwg", anchor, std::move(ids), {}});
  return r;
}

void print_coverage(std::ostream& out, const coverage_report& report, std::size_t max_ids) {
  struct totals {
    std::size_t items = 0, covered = 0, excluded = 0;
  };
  std::map<std::string, totals> per_kind;
  for (const auto& i : report.items) {
    auto& t = per_kind[i.kind];
    ++t.items;
    const char* status = i.uncovered() ? "UNCOVERED" : i.case_ids.empty() ? "excluded" : "ok";
    if (!i.case_ids.empty()) ++t.covered;
    else if (!i.excluded.empty()) ++t.excluded;
    out << std::left << std::setw(10) << status << std::setw(12) << i.kind << std::setw(44) << i.what << std::right
        << std::setw(5) << i.case_ids.size();
    for (std::size_t k = 0; k < i.case_ids.size() && k < max_ids; ++k) out << ' ' << i.case_ids[k];
    if (i.case_ids.size() > max_ids) out << " ...";
    if (i.case_ids.empty() && !i.excluded.empty()) out << "  (" << i.excluded << ")";
    out << "\n";
  }
  out << "\ncoverage        items  covered  excluded  uncovered\n";
  for (const auto& [kind, t] : per_kind) {
    out << std::left << std::setw(14) << kind << std::right << std::setw(7) << t.items << std::setw(9) << t.covered
        << std::setw(10) << t.excluded << std::setw(11) << (t.items - t.covered - t.excluded) << "\n";
  }
  out << "uncovered: " << report.uncovered() << "\n";
}

}  // namespace ssec::conformance
