// SPDX-License-Identifier: MIT
#include "ssec/conformance/rule_listing.hpp"

#include <algorithm>

namespace ssec::conformance {

namespace dl = sse::dialect;

namespace {

std::string case_name(const test_case& c) { return std::string(to_string(c.layer)) + "/" + c.topic + "/" + c.id; }

bool of_rule_dialects(const dl::rule_spec& r, const test_case& c) {
  const std::string layer(to_string(c.layer));
  return std::find(r.dialects.begin(), r.dialects.end(), layer) != r.dialects.end();
}

}  // namespace

std::vector<pinned_rule> pin_rules(const dl::catalog& contract, std::span<const test_case> cases,
                                   std::string_view dialect) {
  std::vector<pinned_rule> out;
  for (const auto& rule : contract.rules()) {
    if (!dialect.empty() && std::find(rule->dialects.begin(), rule->dialects.end(), dialect) == rule->dialects.end()) {
      continue;
    }
    pinned_rule p{rule.get(), {}, {}};
    for (const auto& c : cases) {
      if (!of_rule_dialects(*rule, c)) continue;
      const bool listed = std::find(c.findings.begin(), c.findings.end(), rule->id) != c.findings.end();
      const bool cites =
          std::any_of(c.from.begin(), c.from.end(), [&](const std::string& f) { return f.ends_with("#" + rule->id); });
      if (listed) p.broken_by.push_back(case_name(c));
      else if (cites) p.kept_by.push_back(case_name(c));
    }
    out.push_back(std::move(p));
  }
  return out;
}

nlohmann::ordered_json rules_to_json(const dl::catalog& contract, std::span<const pinned_rule> rules) {
  nlohmann::ordered_json catalogs = nlohmann::ordered_json::array();
  for (const auto& f : contract.files()) catalogs.push_back({{"file", f.name}, {"catalog_version", f.catalog_version}});
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& p : rules) {
    const dl::rule_spec& r = *p.rule;
    list.push_back({{"id", r.id},
                    {"severity", dl::to_string(r.level)},
                    {"basis", dl::to_string(r.basis)},
                    {"dialects", r.dialects},
                    {"text", r.text},
                    {"sources", r.origin.sources},
                    {"quotes", r.quotes},
                    {"decision", r.origin.decision},
                    {"decisions_file", r.origin.decision.empty() ? std::string() : dl::decisions_file(r)},
                    {"authored", r.origin.authored},
                    {"generated", r.generated},
                    {"grounds", dl::basis_text(r)},
                    {"check", dl::to_string(r.check.kind)},
                    {"where", r.where.to_string()},
                    {"broken_by", p.broken_by},
                    {"kept_by", p.kept_by}});
  }
  return {{"rules_format", rules_format_version}, {"catalogs", std::move(catalogs)}, {"rules", std::move(list)}};
}

void print_rule_lines(std::ostream& out, std::span<const pinned_rule> rules) {
  std::size_t width = 0;
  for (const auto& p : rules) width = std::max(width, p.rule->id.size());
  for (const auto& p : rules) {
    const dl::rule_spec& r = *p.rule;
    const std::string_view level = dl::to_string(r.level);
    const std::string_view basis = dl::to_string(r.basis);
    out << r.id << std::string(width - r.id.size() + 2, ' ') << level << std::string(8 - level.size(), ' ') << basis
        << std::string(10 - basis.size(), ' ');
    for (std::size_t i = 0; i < r.dialects.size(); ++i) out << (i ? "," : "") << r.dialects[i];
    out << "  " << p.broken_by.size() << " broken, " << p.kept_by.size() << " kept  " << dl::basis_text(r) << "\n";
  }
  out << rules.size() << (rules.size() == 1 ? " rule" : " rules") << "; `sse-conform explain ID` shows one\n";
}

void print_rule_explained(std::ostream& out, const pinned_rule& p) {
  const dl::rule_spec& r = *p.rule;
  out << r.id << " (" << dl::to_string(r.level) << ", basis: " << dl::to_string(r.basis) << ")\n"
      << "  " << r.text << "\n"
      << (r.generated ? "  generated at " : "  written at ") << r.where.to_string() << "; applies to ";
  for (std::size_t i = 0; i < r.dialects.size(); ++i) out << (i ? ", " : "") << r.dialects[i];
  out << "\n  check: " << dl::to_string(r.check.kind) << "\n";
  for (std::size_t i = 0; i < r.origin.sources.size(); ++i) {
    out << "  source: " << r.origin.sources[i];
    if (i < r.quotes.size()) out << "\n          \"" << r.quotes[i] << "\"";
    out << "\n";
  }
  if (!r.origin.decision.empty()) out << "  decision: " << dl::decisions_file(r) << "#" << r.origin.decision << "\n";
  if (!r.origin.authored.empty()) out << "  authored: " << r.origin.authored << "\n";
  if (r.generated) {
    out << "  generated from the authored events' required fields:";
    for (const auto& f : r.check.fields) out << " " << f.to_string();
    out << "\n";
  }
  const auto list = [&](std::string_view what, const std::vector<std::string>& ids) {
    out << "  " << what << " (" << ids.size() << "):";
    for (const auto& id : ids) out << " " << id;
    out << "\n";
  };
  list("cases that break it", p.broken_by);
  list("cases that keep it", p.kept_by);
}

}  // namespace ssec::conformance
