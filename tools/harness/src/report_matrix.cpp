// SPDX-License-Identifier: MIT
// The reports of several runs: the matrix (markdown), the shape check and
// merge of shard reports, and reports rebuilt from result lines.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "ssec/harness/reports.hpp"
#include "ssec/report/json_shape.hpp"
#include "ssec/report/markdown.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using ordered = nlohmann::ordered_json;

std::string matrix_markdown(const std::vector<nlohmann::json>& reports, const std::string& link_prefix,
                            matrix_part part) {
  // rows: "wire" (all), then "wire/<tag>"; cell: pass / graded.
  std::set<std::string> layers;
  std::set<std::string> tags;
  std::vector<std::map<std::string, std::pair<std::size_t, std::size_t>>> cells(reports.size());
  for (std::size_t a = 0; a < reports.size(); ++a) {
    for (const auto& c : reports[a].value("cases", nlohmann::json::array())) {
      const std::string layer = c.value("layer", "");
      const std::string oc = c.value("outcome", "");
      layers.insert(layer);
      std::vector<std::string> keys{layer};
      for (const auto& t : c.value("tags", nlohmann::json::array())) {
        keys.push_back(layer + "/" + t.get<std::string>());
        tags.insert(layer + "/" + t.get<std::string>());
      }
      for (const auto& k : keys) {
        auto& cell = cells[a][k];
        if (oc == "skip") continue;
        ++cell.second;
        cell.first += oc == "pass";
      }
    }
  }
  std::ostringstream m;
  m << "| layer / tag |";
  for (const auto& r : reports) {
    const std::string version = r["adapter"].value("version", "");
    m << " " << md_text(r["adapter"].value("name", "?")) << (version.empty() ? "" : " " + md_text(version)) << " |";
  }
  m << "\n|---|";
  for (std::size_t a = 0; a < reports.size(); ++a) m << "---|";
  m << "\n";
  const auto row = [&](const std::string& key, bool bold) {
    m << "| " << (bold ? "**" + md_text(key) + "**" : md_text(key)) << " |";
    for (std::size_t a = 0; a < reports.size(); ++a) {
      const auto it = cells[a].find(key);
      if (it == cells[a].end() || it->second.second == 0) m << " n/a |";
      else m << " " << it->second.first << "/" << it->second.second << " |";
    }
    m << "\n";
  };
  // The README's part: a dialect layer only where a column but the first graded something.
  const auto shown = [&](const std::string& layer) {
    if (part == matrix_part::full || layer == "wire") return true;
    for (std::size_t a = 1; a < reports.size(); ++a) {
      const auto it = cells[a].find(layer);
      if (it != cells[a].end() && it->second.second > 0) return true;
    }
    return false;
  };
  for (const auto& l : layers) {
    if (!shown(l)) continue;
    row(l, true);
    for (const auto& t : tags) {
      if (t.starts_with(l + "/")) row(t, false);
    }
  }
  if (part == matrix_part::readme) return m.str();
  m << "\n";
  for (const auto& r : reports) {
    std::string list;
    std::size_t n = 0;
    must_grading must;  // graded vs not graded MUST cases, as every report says
    for (const auto& c : r.value("cases", nlohmann::json::array())) {
      const std::string oc = c.value("outcome", "");
      if (c.value("verdict", "") == "must") {
        if (oc == "skip") {
          ++must.not_graded;
          ++must.reasons[c.value("reason", "")];
        } else {
          ++must.graded;
        }
      }
      if (oc == "pass" || oc == "skip") continue;
      ++n;
      const std::string file = c.value("file", "");
      const std::string target =
          safe_href((file.starts_with("/") ? "" : link_prefix) + file) + "#L" + std::to_string(c.value("line", 0));
      // A link destination ends at a space or an unbalanced parenthesis: those are %XX.
      std::string destination;
      for (const char ch : printable(target)) {
        if (ch == ' ') destination += "%20";
        else if (ch == '(') destination += "%28";
        else if (ch == ')') destination += "%29";
        else if (ch == '<') destination += "%3C";
        else if (ch == '>') destination += "%3E";
        else destination += ch;
      }
      list += (list.empty() ? "" : ", ") + std::string("[") + md_text(c.value("id", "")) + "](" + destination + ")" +
              (oc == "fail" ? "" : " (" + md_text(oc) + ")");
    }
    m << "- " << md_text(r["adapter"].value("name", "?")) << ": "
      << (n == 0 ? "every graded case passes" : std::to_string(n) + " not passing: " + list)
      << "; MUST cases: " << must.sentence(n == 0) << "\n";
  }
  return m.str();
}

std::string report_shape_problem(const nlohmann::json& report) {
  using nlohmann::json;
  // What a member must be when it is there (absent is fine: the readers give
  // each a default), and how that is said.
  struct member_type {
    const char* key;
    bool (*is)(const json&);
    const char* want;
  };
  constexpr auto string = [](const json& v) { return v.is_string(); };
  constexpr auto object = [](const json& v) { return v.is_object(); };
  constexpr auto array = [](const json& v) { return v.is_array(); };
  constexpr auto boolean = [](const json& v) { return v.is_boolean(); };
  constexpr auto number = [](const json& v) { return v.is_number(); };
  constexpr auto whole = [](const json& v) { return v.is_number_integer(); };
  // A JSON text gives 7 as unsigned; a document built in code, as signed.
  constexpr auto count = [](const json& v) {
    return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
  };
  constexpr const char* a_count = "a whole number, 0 or more";
  const auto problem_in = [](const json& in, const std::string& at,
                             std::initializer_list<member_type> members) -> std::string {
    for (const auto& m : members) {
      const auto it = in.find(m.key);
      if (it != in.end() && !m.is(*it)) return expected_json(at + m.key, m.want, *it);
    }
    return {};
  };
  if (!report.is_object()) return expected_json("the report", "an object", report);
  if (!report.contains("adapter")) return "adapter: missing";  // the matrix's column names it
  std::string problem = problem_in(report, "",
                                   {{"adapter", object, "an object"},
                                    {"options", object, "an object"},
                                    {"setup_error", string, "a string"},
                                    {"cases_selected", count, a_count},
                                    {"seconds", number, "a number"},
                                    {"exit", whole, "a whole number"},
                                    {"cases", array, "an array"}});
  if (problem.empty() && report.contains("interrupted") && !report["interrupted"].is_null() &&
      !report["interrupted"].is_string()) {
    problem = expected_json("interrupted", "a string or null", report["interrupted"]);
  }
  if (problem.empty()) {
    problem =
        problem_in(report["adapter"], "adapter.",
                   {{"command", string, "a string"}, {"name", string, "a string"}, {"version", string, "a string"}});
  }
  if (problem.empty() && report.contains("options")) {
    problem = problem_in(report["options"], "options.", {{"shard", string, "a string"}});
  }
  if (!problem.empty() || !report.contains("cases")) return problem;
  const auto& cases = report["cases"];
  for (std::size_t i = 0; i < cases.size() && problem.empty(); ++i) {
    const std::string at = "cases[" + std::to_string(i) + "]";
    if (!cases[i].is_object()) return expected_json(at, "an object", cases[i]);
    problem = problem_in(cases[i], at + ".",
                         {{"id", string, "a string"},
                          {"file", string, "a string"},
                          {"line", count, a_count},
                          {"layer", string, "a string"},
                          {"tags", array, "an array"},
                          {"verdict", string, "a string"},
                          {"outcome", string, "a string"},
                          {"reason", string, "a string"},
                          {"baselined", boolean, "true or false"},
                          {"stale", boolean, "true or false"}});
    if (problem.empty() && cases[i].contains("tags")) {
      const auto& tags = cases[i]["tags"];
      for (std::size_t t = 0; t < tags.size(); ++t) {
        if (!tags[t].is_string()) return expected_json(at + ".tags[" + std::to_string(t) + "]", "a string", tags[t]);
      }
    }
  }
  return problem;
}

result<std::vector<nlohmann::json>> merge_shard_reports(std::vector<nlohmann::json> reports) {
  using nlohmann::json;
  std::vector<json> out;
  // key (command, name, version) -> index in `out` of the merged report, and its shards seen.
  std::map<std::string, std::size_t> merged_at;
  std::map<std::string, std::set<std::uint64_t>> seen;
  std::map<std::string, std::uint64_t> count_of;
  std::map<std::string, std::set<std::string>> ids;
  for (auto& r : reports) {
    const json options = r.value("options", json::object());
    const std::string shard = options.is_object() ? options.value("shard", "") : "";
    if (shard.empty()) {
      out.push_back(std::move(r));
      continue;
    }
    const auto part = shard_from_string(shard);
    if (!part) return error{"a report's options.shard: " + part.error().message};
    const json adapter = r.value("adapter", json::object());
    const std::string key =
        adapter.value("command", "") + "\n" + adapter.value("name", "") + "\n" + adapter.value("version", "");
    const std::string who = adapter.value("name", "?") + " (" + adapter.value("command", "") + ")";
    if (count_of.contains(key) && count_of[key] != part->count) {
      return error{"shards of " + who + " split into different numbers of parts"};
    }
    count_of[key] = part->count;
    if (!seen[key].insert(part->index).second) return error{"shard " + shard + " of " + who + " is given twice"};
    for (const auto& c : r.value("cases", json::array())) {
      if (!ids[key].insert(c.value("id", "")).second) {
        return error{"case " + c.value("id", "") + " is in two shards of " + who};
      }
    }
    const auto at = merged_at.find(key);
    if (at == merged_at.end()) {
      merged_at.emplace(key, out.size());
      r["options"].erase("shard");
      r["options"]["shards"] = part->count;
      out.push_back(std::move(r));
      continue;
    }
    json& m = out[at->second];
    for (auto& c : r["cases"]) m["cases"].push_back(std::move(c));
    m["seconds"] = std::max(m.value("seconds", 0.0), r.value("seconds", 0.0));  // the shards ran side by side
    m["exit"] = std::max(m.value("exit", 0), r.value("exit", 0));
    if (!r.value("setup_error", "").empty()) m["setup_error"] = r["setup_error"];
    if (!r.value("interrupted", json()).is_null()) m["interrupted"] = r["interrupted"];
    m["cases_selected"] = m.value("cases_selected", std::size_t{0}) + r.value("cases_selected", std::size_t{0});
  }
  for (const auto& [key, parts] : seen) {
    if (parts.size() != count_of[key]) {
      const std::string who = key.substr(key.find('\n') + 1, key.rfind('\n') - key.find('\n') - 1);
      return error{"only " + std::to_string(parts.size()) + " of the " + std::to_string(count_of[key]) + " shards of " +
                   who + " are given"};
    }
  }
  // The merged reports: cases in case-file order (as an unsharded run lists
  // them), totals and the MUST count recomputed from the cases.
  for (const auto& [key, at] : merged_at) {
    json& m = out[at];
    auto& cases = m["cases"];
    std::stable_sort(cases.begin(), cases.end(), [](const json& a, const json& b) {
      return std::pair(a.value("file", ""), a.value("line", 0)) < std::pair(b.value("file", ""), b.value("line", 0));
    });
    json totals = json::object();
    totals["cases"] = cases.size();
    for (const outcome oc : all_outcomes()) totals[std::string(to_string(oc))] = 0;
    std::size_t baselined = 0, stale = 0, graded = 0, not_graded = 0;
    json reasons = json::object();
    for (const auto& c : cases) {
      const std::string oc = c.value("outcome", "");
      if (totals.contains(oc)) totals[oc] = totals[oc].get<std::size_t>() + 1;
      baselined += c.value("baselined", false);
      stale += c.value("stale", false);
      if (c.value("verdict", "") != "must") continue;
      if (oc == "skip") {
        ++not_graded;
        const std::string reason = c.value("reason", "");
        reasons[reason] = reasons.value(reason, std::size_t{0}) + 1;
      } else {
        ++graded;
      }
    }
    totals["baselined"] = baselined;
    totals["stale"] = stale;
    m["totals"] = totals;
    must_grading g;
    g.graded = graded;
    g.not_graded = not_graded;
    for (const auto& [reason, n] : reasons.items()) g.reasons[reason] = n.get<std::size_t>();
    m["must_cases"] = json{{"graded", graded},
                           {"not_graded", not_graded},
                           {"not_graded_reasons", reasons},
                           {"verdict", g.sentence(m.value("exit", 1) == 0)}};
  }
  return out;
}

}  // namespace ssec::harness

namespace ssec::harness {

result<std::vector<ordered>> reports_from_result_lines(std::string_view text, std::string_view display,
                                                       const std::vector<conf::test_case>& cases) {
  std::map<std::string, const conf::test_case*, std::less<>> by_name;
  // The case's path (what serve writes); its older test name is still read.
  for (const auto& c : cases) {
    by_name.emplace(c.path(), &c);
    by_name.emplace(c.test_name(), &c);
  }
  // Per impl: the status line of each case it lists.
  std::vector<std::string> impls;
  std::map<std::string, std::map<const conf::test_case*, std::string>> statuses;
  std::size_t line_no = 0;
  const auto fail = [&](const std::string& reason) -> result<std::vector<ordered>> {
    return error{reason, std::string(display), line_no, 0};
  };
  while (!text.empty()) {
    const std::size_t lf = text.find('\n');
    std::string_view line = text.substr(0, lf);
    text = lf == std::string_view::npos ? std::string_view() : text.substr(lf + 1);
    ++line_no;
    std::vector<std::string> fields;
    std::istringstream words{std::string(line)};
    for (std::string w; words >> w;) fields.push_back(w);
    if (fields.empty() || fields[0].starts_with("#")) continue;
    if (fields.size() != 3)
      return fail("expected `<impl>  <case>  <STATUS>`, got `" + std::string(line.substr(0, 200)) + "`");
    const auto c = by_name.find(fields[1]);
    if (c == by_name.end()) return fail("no case named `" + fields[1] + "` in the case files");
    if (!conf::outcome_from_result_status(fields[2], c->second->verdict)) {
      return fail("unknown status `" + fields[2] + "` (known: " + std::string(conf::known_result_statuses()) + ")");
    }
    if (!statuses.contains(fields[0])) impls.push_back(fields[0]);
    if (!statuses[fields[0]].emplace(c->second, fields[2]).second) {
      return fail("`" + fields[1] + "` is listed twice for " + fields[0]);
    }
  }
  std::vector<ordered> reports;
  for (const auto& impl : impls) {
    run_result r;
    r.adapter.name = impl.starts_with("browser:") ? impl.substr(8) : impl;
    r.adapter.layers = {"wire"};
    const auto& mine = statuses[impl];
    // A browser's client rows grade its whole behaviour as a client (serve's page).
    if (std::any_of(mine.begin(), mine.end(), [](const auto& m) { return m.first->layer == conf::layer::client; })) {
      r.adapter.layers.push_back("client");
    }
    for (const auto& c : cases) {
      case_result cr;
      cr.c = &c;
      cr.path = case_path(c);
      const auto it = mine.find(&c);
      if (it == mine.end()) {
        cr.outcome = outcome::skip;
        cr.reason = "no result for this case in " + std::string(display);
      } else if (c.layer != conf::layer::wire && c.layer != conf::layer::client) {
        cr.outcome = outcome::skip;
        cr.reason = "the result grades the wire events only, not the " + std::string(conf::to_string(c.layer)) +
                    " layer's dialect events (wire-level result: " + it->second + ")";
      } else if (c.limits) {
        // As for adapters: the expectation holds under limits the implementation was never given.
        cr.outcome = outcome::skip;
        cr.reason =
            "the case sets parser limits, which the implementation was not given (its result: " + it->second + ")";
      } else {
        const std::string& st = it->second;
        cr.chunkings_run = st == "SKIPPED" ? 0 : 1;
        cr.outcome = conf::outcome_from_result_status(st, c.verdict).value_or(outcome::skip);
        cr.chunkings_failed = cr.outcome == outcome::pass || cr.outcome == outcome::skip ? 0 : 1;
        if (cr.outcome != outcome::pass) cr.reason = impl + " reported " + st + " (" + std::string(display) + ")";
      }
      r.cases.push_back(std::move(cr));
    }
    run_options o;
    o.impl = "";
    o.timeout.base = std::chrono::milliseconds(0);
    ordered j = to_json_report(r, o);
    j["adapter"]["results_file"] = std::string(display);
    reports.push_back(std::move(j));
  }
  if (reports.empty()) {
    line_no = 0;
    return fail("no result lines");
  }
  return reports;
}

}  // namespace ssec::harness
