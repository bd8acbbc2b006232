// SPDX-License-Identifier: MIT
#include "ssec/harness/reports.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "ssec/adapter/interrupt.hpp"
#include "ssec/harness/baseline.hpp"
#include "ssec/report/json_shape.hpp"
#include "ssec/report/junit.hpp"
#include "ssec/report/markdown.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using ordered = nlohmann::ordered_json;

int exit_status(const run_result& r, bool strict) {
  if (!r.setup_error.empty()) return 2;
  if (r.interrupted_by != 0) return 128 + r.interrupted_by;
  return std::any_of(r.cases.begin(), r.cases.end(), [&](const case_result& c) { return counts_as_failure(c, strict); })
             ? 1
             : 0;
}

must_grading grading_of_must_cases(const run_result& r) {
  must_grading g;
  for (const auto& c : r.cases) {
    if (c.c->verdict != conf::verdict::must) continue;
    if (c.outcome == outcome::skip) {
      ++g.not_graded;
      ++g.reasons[c.reason];
    } else {
      ++g.graded;
    }
  }
  return g;
}

std::string must_grading::sentence(bool passed) const {
  if (not_graded == 0) return "all " + std::to_string(graded) + " MUST cases graded";
  std::string s = std::string(passed ? "conforming" : "judged") + " on the " + std::to_string(graded) +
                  " graded MUST cases; " + std::to_string(not_graded) + " not graded: ";
  bool first = true;
  for (const auto& [reason, n] : reasons) {
    s += (first ? "" : "; ") + reason + " (" + std::to_string(n) + ")";
    first = false;
  }
  return s;
}

int exit_status(const run_result& r, const run_options& o) {
  const int status = exit_status(r, o.strict);
  if (status == 0 && o.require_all && grading_of_must_cases(r).not_graded > 0) return 1;
  return status;
}

namespace {

// A label for the result as reports show it: the outcome, or "expected-<outcome>" / "stale".
std::string label(const case_result& r) {
  if (r.stale) return "stale";
  if (r.baselined) return "expected-" + std::string(to_string(r.outcome));
  return std::string(to_string(r.outcome));
}

struct counts {
  std::map<outcome, std::size_t> by_outcome;
  std::size_t baselined = 0, stale = 0, total = 0;
  void add(const case_result& r) {
    ++by_outcome[r.outcome];
    baselined += r.baselined;
    stale += r.stale;
    ++total;
  }
  std::size_t of(outcome o) const {
    const auto it = by_outcome.find(o);
    return it == by_outcome.end() ? 0 : it->second;
  }
};

std::string summary_line(const counts& n) {
  std::string s;
  for (const outcome o : all_outcomes()) {
    if (n.of(o) == 0) continue;
    s += (s.empty() ? "" : ", ") + std::to_string(n.of(o)) + " " + std::string(to_string(o));
  }
  if (n.baselined) s += ", " + std::to_string(n.baselined) + " expected by the baseline";
  if (n.stale) s += ", " + std::to_string(n.stale) + " stale baseline entries";
  return s.empty() ? "no cases" : s;
}

const char* colour_of(outcome o) {
  switch (o) {
    case outcome::pass: return "\x1b[32m";
    case outcome::fail:
    case outcome::error:
    case outcome::timeout: return "\x1b[31m";
    case outcome::non_strict: return "\x1b[33m";
    case outcome::informational:
    case outcome::skip: return "\x1b[36m";
  }
  return "";
}

std::string indent(const std::string& text, const std::string& by) {
  std::string out = by;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out.push_back(text[i]);
    if (text[i] == '\n' && i + 1 < text.size()) out += by;
  }
  return out;
}

}  // namespace

void print_console(std::ostream& out, const run_result& r, const run_options& o, bool colour) {
  const auto paint = [&](outcome oc, const std::string& text) {
    return colour ? std::string(colour_of(oc)) + text + "\x1b[0m" : text;
  };
  // The adapter's hello is the adapter's text: printable() keeps its escape
  // sequences and line breaks off the terminal and out of CI annotations.
  if (o.service.empty()) {
    out << "adapter: " << printable(r.adapter.name) << " " << printable(r.adapter.version) << " (" << printable(o.impl)
        << ")\n";
  } else {
    out << "test service: " << printable(o.service) << " (cases served as written, over HTTP)\n";
  }
  std::string layers;
  for (const auto& l : r.adapter.layers) layers += (layers.empty() ? "" : ", ") + printable(l);
  out << "layers: " << layers << "\n\n";

  for (const auto& c : r.cases) {
    if (c.outcome == outcome::pass && !c.stale) continue;
    if (c.outcome == outcome::skip) continue;
    const bool full = c.outcome != outcome::informational || !c.failure;
    out << paint(c.outcome, "[" + label(c) + "]") << " " << c.path << ": " << c.c->name << "\n";
    out << "  " << c.c->where.to_string() << ", verdict " << conf::to_string(c.c->verdict) << "\n";
    if (c.stale) {
      out << "  listed in the baseline but passes now: remove it from the baseline\n\n";
      continue;
    }
    out << "  " << c.reason << "\n";
    if (c.failure && full) {
      const auto& f = *c.failure;
      out << "  chunking " << f.chunking << ", " << f.chunk_count << " chunks: " << f.input << "\n";
      if (!f.expected.empty()) out << "  expected:\n" << indent(f.expected, "    ") << "\n";
      out << "  received:\n" << indent(f.received, "    ") << "\n";
      out << indent(f.first_difference, "  ") << "\n";
      if (!f.stderr_tail.empty()) out << "  adapter stderr (tail):\n" << indent(f.stderr_tail, "    ") << "\n";
    }
    if (c.failure) out << "  reproduce: " << c.failure->reproduce << "\n";
    out << "\n";
  }

  // Per layer, then per layer/tag.
  std::map<std::string, counts> per_layer;
  std::map<std::string, counts> per_tag;
  counts all;
  std::map<std::string, std::size_t> skip_reasons;
  for (const auto& c : r.cases) {
    const std::string layer(conf::to_string(c.c->layer));
    per_layer[layer].add(c);
    for (const auto& t : c.c->tags) per_tag[layer + "/" + t].add(c);
    all.add(c);
    if (c.outcome == outcome::skip) ++skip_reasons[c.reason];
  }
  const auto table = [&](const std::string& title, const std::map<std::string, counts>& rows) {
    out << std::left << std::setw(36) << title;
    for (const outcome oc : all_outcomes())
      out << std::right << std::setw(8)
          << (oc == outcome::informational ? "info"
              : oc == outcome::non_strict  ? "non-str"
                                           : std::string(to_string(oc)));
    out << "\n";
    for (const auto& [name, n] : rows) {
      out << std::left << std::setw(36) << name;
      for (const outcome oc : all_outcomes()) {
        const std::string cell = n.of(oc) ? std::to_string(n.of(oc)) : ".";
        std::ostringstream padded;
        padded << std::right << std::setw(8) << cell;
        out << (n.of(oc) && oc != outcome::pass ? paint(oc, padded.str()) : padded.str());
      }
      out << "\n";
    }
    out << "\n";
  };
  table("layer", per_layer);
  table("layer/tag", per_tag);
  for (const auto& [reason, n] : skip_reasons) out << "skipped " << n << ": " << reason << "\n";
  if (!skip_reasons.empty()) out << "\n";
  const int status = exit_status(r, o);
  std::ostringstream secs;
  secs << std::fixed << std::setprecision(2) << r.seconds;
  const auto must = grading_of_must_cases(r);
  out << "MUST cases: " << must.sentence(exit_status(r, o.strict) == 0)
      << (must.not_graded > 0 && !o.require_all ? " (--require-all makes that a failure)" : "") << "\n";
  if (r.interrupted_by != 0) {
    out << paint(outcome::fail, "INTERRUPTED") << " by " << interrupt_guard::name(r.interrupted_by) << ": "
        << r.cases.size() << " of " << counted(r.selected, "selected case") << " finished\n";
  }
  out << (status == 0 ? paint(outcome::pass, "PASSED") : paint(outcome::fail, "FAILED")) << ": "
      << counted(all.total, "case") << ": " << summary_line(all) << " (" << secs.str() << " s, jobs " << o.jobs
      << ")\n";
}

ordered to_json_report(const run_result& r, const run_options& o) {
  ordered j;
  j["format"] = "sse-conform-run";
  j["format_version"] = report_format_version;
  ordered adapter;
  adapter["command"] = o.impl;
  if (!o.service.empty()) adapter["service"] = o.service;
  adapter["name"] = r.adapter.name;
  adapter["version"] = r.adapter.version;
  adapter["layers"] = r.adapter.layers;
  adapter["capabilities"] = r.adapter.capabilities ? ordered(*r.adapter.capabilities) : ordered(nullptr);
  j["adapter"] = adapter;
  j["options"] = ordered{{"chunking", o.only_chunking ? o.only_chunking->name() : ""},
                         {"timeout_ms", o.timeout.base.count()},
                         {"timeout_per_mib_ms", o.timeout.per_mib.count()},
                         {"timeout_per_kchunk_ms", o.timeout.per_kchunk.count()},
                         {"jobs", o.jobs},
                         {"strict", o.strict}};
  if (!o.shard.empty()) j["options"]["shard"] = o.shard;
  j["setup_error"] = r.setup_error;
  // Set when a signal stopped the run: `cases` holds only the finished ones.
  j["interrupted"] = r.interrupted_by != 0 ? ordered(interrupt_guard::name(r.interrupted_by)) : ordered(nullptr);
  j["cases_selected"] = std::max(r.selected, r.cases.size());
  j["seconds"] = r.seconds;
  j["exit"] = exit_status(r, o);
  {
    const auto must = grading_of_must_cases(r);
    ordered reasons = ordered::object();
    for (const auto& [reason, n] : must.reasons) reasons[reason] = n;
    j["must_cases"] = ordered{{"graded", must.graded},
                              {"not_graded", must.not_graded},
                              {"not_graded_reasons", std::move(reasons)},
                              {"verdict", must.sentence(exit_status(r, o.strict) == 0)}};
  }
  counts all;
  for (const auto& c : r.cases) all.add(c);
  ordered totals;
  totals["cases"] = all.total;
  for (const outcome oc : all_outcomes()) totals[std::string(to_string(oc))] = all.of(oc);
  totals["baselined"] = all.baselined;
  totals["stale"] = all.stale;
  j["totals"] = totals;
  ordered cases = ordered::array();
  for (const auto& c : r.cases) {
    ordered e;
    e["id"] = c.path;
    e["case_id"] = c.c->id;
    e["name"] = c.c->name;
    e["file"] = c.c->where.file;
    e["line"] = c.c->where.line;
    e["layer"] = conf::to_string(c.c->layer);
    e["topic"] = c.c->topic;
    e["tags"] = c.c->tags;
    e["verdict"] = conf::to_string(c.c->verdict);
    e["outcome"] = to_string(c.outcome);
    e["reason"] = c.reason;
    e["baselined"] = c.baselined;
    e["stale"] = c.stale;
    e["chunkings_run"] = c.chunkings_run;
    e["chunkings_failed"] = c.chunkings_failed;
    e["seconds"] = c.seconds;
    if (c.failure) {
      const auto& f = *c.failure;
      e["failure"] = ordered{
          {"chunking", f.chunking},       {"chunk_count", f.chunk_count}, {"input", f.input},
          {"expected", f.expected},       {"received", f.received},       {"first_difference", f.first_difference},
          {"stderr_tail", f.stderr_tail}, {"reproduce", f.reproduce}};
      if (f.budget) {
        const auto& b = *f.budget;
        e["failure"]["budget"] =
            ordered{{"total_ms", b.total.count()},        {"base_ms", b.of.base.count()},
                    {"per_mib_ms", b.of.per_mib.count()}, {"per_kchunk_ms", b.of.per_kchunk.count()},
                    {"request_bytes", b.request_bytes},   {"chunks", b.chunks}};
      }
    }
    cases.push_back(std::move(e));
  }
  j["cases"] = std::move(cases);
  return j;
}

std::string to_junit(const run_result& r, const run_options& o) {
  std::map<std::string, std::vector<const case_result*>> suites;
  for (const auto& c : r.cases) suites[std::string(conf::to_string(c.c->layer))].push_back(&c);
  const auto is_failure = [&](const case_result& c) {
    return counts_as_failure(c, o.strict) && c.outcome != outcome::error && c.outcome != outcome::timeout;
  };
  const auto is_error = [&](const case_result& c) {
    return !c.baselined && (c.outcome == outcome::error || c.outcome == outcome::timeout);
  };
  const auto is_skipped = [](const case_result& c) { return c.outcome == outcome::skip || c.baselined; };
  // Numbers as an ostream writes them (the report's format since the start).
  const auto number = [](auto v) {
    std::ostringstream n;
    n << v;
    return n.str();
  };
  std::size_t failures = 0, errors = 0, skipped = 0;
  for (const auto& c : r.cases) {
    failures += is_failure(c);
    errors += is_error(c);
    skipped += is_skipped(c);
  }
  junit::document doc;
  // "sse-conform <adapter>", without doubling an adapter name that already
  // says it (the reference adapter is "sse-conform reference").
  const std::string suite =
      r.adapter.name.starts_with("sse-conform") ? r.adapter.name : "sse-conform " + r.adapter.name;
  doc.attributes = {{"name", suite},
                    {"tests", number(r.cases.size())},
                    {"failures", number(failures)},
                    {"errors", number(errors)},
                    {"skipped", number(skipped)},
                    {"time", number(r.seconds)}};
  // Extra attributes (JUnit readers ignore them): how many MUST cases were graded.
  const auto must = grading_of_must_cases(r);
  doc.attributes.emplace_back("must_graded", number(must.graded));
  doc.attributes.emplace_back("must_not_graded", number(must.not_graded));
  if (r.interrupted_by != 0) doc.attributes.emplace_back("interrupted", interrupt_guard::name(r.interrupted_by));
  for (const auto& [layer, list] : suites) {
    std::size_t f = 0, e = 0, s = 0;
    double t = 0;
    for (const auto* c : list) {
      f += is_failure(*c);
      e += is_error(*c);
      s += is_skipped(*c);
      t += c->seconds;
    }
    junit::testsuite suite;
    suite.attributes = {{"name", layer},       {"tests", number(list.size())}, {"failures", number(f)},
                        {"errors", number(e)}, {"skipped", number(s)},         {"time", number(t)}};
    for (const auto* c : list) {
      junit::testcase tc;
      tc.attributes = {{"classname", layer + "." + c->c->topic},
                       {"name", c->path + " " + c->c->name},
                       {"file", c->c->where.file},
                       {"line", number(c->c->where.line)},
                       {"time", number(c->seconds)}};
      std::string body;
      if (c->failure) {
        const auto& d = *c->failure;
        body = "chunking " + d.chunking + ": " + d.input + "\nexpected:\n" + d.expected + "\nreceived:\n" + d.received +
               "\n" + d.first_difference + (d.stderr_tail.empty() ? "" : "\nadapter stderr:\n" + d.stderr_tail) +
               "\nreproduce: " + d.reproduce;
      }
      const std::string type(to_string(c->outcome));
      if (c->stale) {
        tc.results.push_back(
            {"failure", {{"type", "stale"}, {"message", "listed in the baseline but passes now"}}, ""});
      } else if (is_skipped(*c)) {
        tc.results.push_back(
            {"skipped",
             {{"message", c->baselined ? "expected " + type + " (baseline): " + c->reason : c->reason}},
             ""});
      } else if (is_error(*c)) {
        tc.results.push_back({"error", {{"type", type}, {"message", c->reason}}, body});
      } else if (is_failure(*c)) {
        tc.results.push_back({"failure", {{"type", type}, {"message", c->reason}}, body});
      } else if (c->outcome != outcome::pass) {
        tc.results.push_back({"system-out", {}, type + ": " + c->reason + "\n" + body});
      }
      suite.cases.push_back(std::move(tc));
    }
    doc.suites.push_back(std::move(suite));
  }
  return junit::write(doc);
}

namespace {

// Display order of the HTML report: what needs attention first.
int attention_rank(const case_result& c) {
  if (c.stale) return 0;
  switch (c.outcome) {
    case outcome::fail:
    case outcome::error:
    case outcome::timeout: return c.baselined ? 2 : 0;
    case outcome::non_strict: return 1;
    case outcome::informational: return 3;
    case outcome::pass: return 4;
    case outcome::skip: return 5;
  }
  return 5;
}

std::string or_no_events(const std::string& log) { return log.empty() ? "(no events)" : log; }

void html_case_rows(std::ostringstream& h, const std::vector<const case_result*>& rows, const std::string& prefix) {
  h << "<table><thead><tr><th>case</th><th>outcome</th><th>verdict</th><th>name / "
       "detail</th></tr></thead><tbody>\n";
  for (const auto* cp : rows) {
    const auto& c = *cp;
    const std::string& file = c.c->where.file;
    const std::string link =
        safe_href((file.starts_with("/") ? "" : prefix) + file) + "#L" + std::to_string(c.c->where.line);
    h << "<tr id=\"" << xml_escape(c.path) << "\" class=\"" << to_string(c.outcome) << (c.stale ? " stale" : "")
      << "\"><td><a href=\"#" << xml_escape(c.path) << "\">" << xml_escape(c.path) << "</a></td><td class=\"o\">"
      << xml_escape(label(c)) << "</td><td>" << conf::to_string(c.c->verdict) << "</td><td>" << xml_escape(c.c->name)
      << " <small>(<a href=\"" << xml_escape(link) << "\">" << xml_escape(c.c->where.to_string()) << "</a>)</small>";
    if (!c.reason.empty()) h << "<br>" << xml_escape(c.reason);
    if (c.failure) {
      const auto& f = *c.failure;
      h << "<details><summary>detail (chunking " << xml_escape(f.chunking) << ")</summary>"
        << "<b>input</b><pre>" << xml_escape(f.input) << "</pre><b>expected</b><pre>"
        << xml_escape(or_no_events(f.expected)) << "</pre><b>received</b><pre>" << xml_escape(or_no_events(f.received))
        << "</pre><b>first difference</b><pre>" << xml_escape(f.first_difference) << "</pre>";
      if (!f.stderr_tail.empty()) h << "<b>adapter stderr</b><pre>" << xml_escape(f.stderr_tail) << "</pre>";
      h << "<b>reproduce</b><pre>" << xml_escape(f.reproduce) << "</pre></details>";
    }
    h << "</td></tr>\n";
  }
  h << "</tbody></table>\n";
}

}  // namespace

std::string to_html(const run_result& r, const run_options& o, const std::string& link_prefix) {
  counts all;
  std::map<std::string, counts> per_layer;
  for (const auto& c : r.cases) {
    all.add(c);
    per_layer[std::string(conf::to_string(c.c->layer))].add(c);
  }
  const int status = exit_status(r, o);
  std::vector<const case_result*> attention, passed, skipped;
  for (const auto& c : r.cases) {
    const int rank = attention_rank(c);
    (rank == 5 ? skipped : rank == 4 ? passed : attention).push_back(&c);
  }
  std::stable_sort(attention.begin(), attention.end(),
                   [](const case_result* a, const case_result* b) { return attention_rank(*a) < attention_rank(*b); });
  std::ostringstream h;
  h << R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sse-conform: )"
    << xml_escape(r.adapter.name) << " " << (status == 0 ? "PASS" : "FAIL") << R"(</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
pre{background:#f6f6f6;padding:6px;overflow:auto;max-height:24em;white-space:pre-wrap;word-break:break-all}
.banner{font-size:1.6em;font-weight:bold;padding:.4em .6em;color:#fff}.banner.pass{background:#080}.banner.fail{background:#c00}
.o{font-weight:bold}.pass .o{color:#080}.fail .o,.error .o,.timeout .o,.stale .o{color:#c00}
.non-strict .o{color:#b60}.informational .o,.skip .o{color:#068}table.layers{width:auto}
summary{cursor:pointer;margin:.6em 0}
</style></head><body>
<div class="banner )"
    << (status == 0 ? "pass\">PASS" : "fail\">FAIL") << ": " << xml_escape(r.adapter.name + " " + r.adapter.version)
    << "</div>\n<p>"
    << (o.service.empty() ? "command <code>" + xml_escape(o.impl) : "test service <code>" + xml_escape(o.service))
    << "</code>; " << r.cases.size() << " cases: " << xml_escape(summary_line(all)) << "; " << std::fixed
    << std::setprecision(2) << r.seconds << " s; exit " << status
    << "</p>\n<p>MUST cases: " << xml_escape(grading_of_must_cases(r).sentence(exit_status(r, o.strict) == 0))
    << "</p>\n";
  if (!r.setup_error.empty()) h << "<p><b>setup error:</b> " << xml_escape(r.setup_error) << "</p>\n";
  if (r.interrupted_by != 0) {
    h << "<p class=\"interrupted\"><b>INTERRUPTED</b> by " << interrupt_guard::name(r.interrupted_by) << ": "
      << r.cases.size() << " of " << r.selected << " selected cases finished</p>\n";
  }
  h << "<table class=\"layers\"><thead><tr><th>layer</th>";
  for (const outcome oc : all_outcomes()) h << "<th>" << to_string(oc) << "</th>";
  h << "</tr></thead><tbody>\n";
  for (const auto& [layer, n] : per_layer) {
    h << "<tr><td>" << xml_escape(layer) << "</td>";
    for (const outcome oc : all_outcomes()) h << "<td>" << (n.of(oc) ? std::to_string(n.of(oc)) : ".") << "</td>";
    h << "</tr>\n";
  }
  h << "</tbody></table>\n";
  h << "<h2>Not passing (" << attention.size() << ")</h2>\n";
  if (attention.empty()) h << "<p>Every graded case passes.</p>\n";
  else html_case_rows(h, attention, link_prefix);
  h << "<details class=\"passed\"><summary>Passed (" << passed.size() << "): show</summary>\n";
  html_case_rows(h, passed, link_prefix);
  h << "</details>\n<details class=\"skipped\"><summary>Skipped (" << skipped.size() << "): show</summary>\n";
  html_case_rows(h, skipped, link_prefix);
  h << "</details>\n</body></html>\n";
  return h.str();
}

}  // namespace ssec::harness
