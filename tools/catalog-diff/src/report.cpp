// SPDX-License-Identifier: MIT
// The reports of `sse-conform catalog diff` and `catalog rules`
// (tools/docs/catalog-diff.md).
#include "ssec/catalog_diff/report.hpp"

#include <algorithm>
#include <sstream>

#include "ssec/report/junit.hpp"
#include "ssec/report/markdown.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec {

namespace {

using conformance::catalog_change;
using conformance::catalog_diff;
using conformance::change_level;
using conformance::diff_role;
using conformance::judged_diff;
using ojson = nlohmann::ordered_json;

// Bounds of the markdown report (a pull-request comment holds 65536 characters).
constexpr std::size_t markdown_max_rows = 100;
constexpr std::size_t markdown_max_examples = 20;

std::string where_text(const sse::dialect::location& w) { return w.file.empty() ? "-" : w.to_string(); }

ojson where_json(const sse::dialect::location& w) {
  if (w.file.empty()) return nullptr;
  return ojson{{"file", w.file}, {"line", w.line}, {"column", w.column}};
}

// The place a change is reported at: NEW's side, else OLD's.
const sse::dialect::location& anchor(const catalog_change& c) {
  return c.new_where.file.empty() ? c.old_where : c.new_where;
}

std::string place(const catalog_change& c) {
  std::vector<std::string> parts;
  for (const auto* p : {&c.dialect, &c.event, &c.field, &c.producer_rule})
    if (!p->empty()) parts.push_back(*p);
  if (parts.empty()) parts.push_back(c.file);
  return ssec::join(parts, " ");
}

std::string level_name(change_level l) { return std::string(conformance::to_string(l)); }

std::string pinned_text(const catalog_change& c) {
  if (c.pinned_by.empty()) return "";
  std::string s = ssec::join(c.pinned_by, ", ");
  if (c.pinned_total > c.pinned_by.size()) s += " (+" + std::to_string(c.pinned_total - c.pinned_by.size()) + " more)";
  return s;
}

std::string summary_line(const catalog_diff& d, const judged_diff& j) {
  std::size_t ignored = 0;
  for (const auto& i : j.ignored) ignored += i ? 1 : 0;
  auto counts = [&](diff_role r) {
    const auto& c = j.counts[static_cast<int>(r)];
    return std::to_string(c[2]) + " ERR, " + std::to_string(c[1]) + " WARN, " + std::to_string(c[0]) + " INFO";
  };
  std::string s = ssec::counted(d.changes.size(), "change");
  if (ignored) s += " (" + std::to_string(ignored) + " ignored)";
  s += "; reader: " + counts(diff_role::reader) + "; writer: " + counts(diff_role::writer) + ". ";
  s += j.fails() ? "FAIL: " + ssec::counted(j.failing, "change") + " at or above " + level_name(j.fail_on) +
                       " for role " + std::string(to_string(j.role))
                 : "PASS: nothing at or above " + level_name(j.fail_on) + " for role " + std::string(to_string(j.role));
  return s;
}

std::string render_text(const catalog_diff& d, const judged_diff& j) {
  // Catalog text goes to a terminal: printable() keeps its escape sequences out.
  std::ostringstream out;
  out << "catalog diff " << printable(d.old_version) << " -> " << printable(d.new_version) << " (role "
      << to_string(j.role) << ", fail on " << level_name(j.fail_on) << ")\n";
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    out << (j.ignored[i] ? "IGNORED" : level_name(level_for(c, j.role))) << "  " << c.rule << "  "
        << printable(place(c)) << "  [reader " << level_name(c.reader) << ", writer " << level_name(c.writer) << "]  "
        << c.fingerprint << "\n";
    out << "    " << printable(c.message) << "\n";
    out << "    at " << printable(where_text(c.old_where)) << " -> " << printable(where_text(c.new_where)) << "\n";
    if (j.ignored[i]) out << "    ignored: " << printable(*j.ignored[i]) << "\n";
    if (c.example) {
      out << "    counterexample (" << c.example->role << ", " << printable(c.example->dialect)
          << "): " << printable(c.example->input) << "\n";
      out << "      " << printable(c.example->explanation) << "\n";
    }
    if (!c.pinned_by.empty()) out << "    pinned by: " << printable(pinned_text(c)) << "\n";
  }
  for (const auto& w : j.unknown_ignores) out << "warning: " << printable(w) << "\n";
  out << printable(summary_line(d, j)) << "\n";
  return out.str();
}

// GitHub workflow command escaping: data, and property values.
std::string gh_data(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '%') out += "%25";
    else if (ch == '\r') out += "%0D";
    else if (ch == '\n') out += "%0A";
    else out.push_back(ch);
  }
  return out;
}

std::string gh_property(std::string_view s) {
  std::string out;
  for (char ch : gh_data(s)) {
    if (ch == ':') out += "%3A";
    else if (ch == ',') out += "%2C";
    else out.push_back(ch);
  }
  return out;
}

std::string render_github(const catalog_diff& d, const judged_diff& j) {
  std::ostringstream out;
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    if (j.ignored[i]) continue;
    const auto level = level_for(c, j.role);
    const char* command = level == change_level::err ? "error" : level == change_level::warn ? "warning" : "notice";
    const auto& w = anchor(c);
    out << "::" << command << " file=" << gh_property(w.file);
    if (w.line > 0) out << ",line=" << w.line;
    if (w.column > 0) out << ",col=" << w.column;
    out << ",title=" << gh_property(c.rule + " (" + level_name(level) + ")") << "::" << gh_data(c.message);
    if (c.example) out << gh_data("\ncounterexample: " + c.example->input + "\n" + c.example->explanation);
    out << gh_data("\nfingerprint: " + c.fingerprint) << "\n";
  }
  for (const auto& w : j.unknown_ignores) out << "::warning::" << gh_data(w) << "\n";
  out << "::" << (j.fails() ? "error" : "notice") << "::" << gh_data(summary_line(d, j)) << "\n";
  return out.str();
}

std::string render_markdown(const catalog_diff& d, const judged_diff& j) {
  std::ostringstream out;
  out << "### Catalog diff " << (j.fails() ? "❌" : "✅") << "\n\n";
  // Versions, places, messages and counterexamples come from the catalogs:
  // md_text / md_code / md_block keep them text in a pull-request comment.
  out << md_code(d.old_version) << " → " << md_code(d.new_version) << ", role **" << to_string(j.role)
      << "**, fail on **" << level_name(j.fail_on) << "**\n\n";
  out << md_text(summary_line(d, j)) << "\n\n";
  // A pull-request comment holds 65536 characters: the table and the
  // counterexamples are cut, the JSON report has everything.
  const std::size_t rows = std::min(d.changes.size(), markdown_max_rows);
  if (!d.changes.empty()) {
    out << "| level | rule | where | change | reader | writer | fingerprint |\n";
    out << "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (std::size_t i = 0; i < rows; ++i) {
      const auto& c = d.changes[i];
      out << "| " << (j.ignored[i] ? "ignored" : level_name(level_for(c, j.role))) << " | " << md_code(c.rule) << " | "
          << md_text(place(c)) << " | " << md_text(c.message) << " | " << level_name(c.reader) << " | "
          << level_name(c.writer) << " | " << md_code(c.fingerprint) << " |\n";
    }
    if (rows < d.changes.size())
      out << "\n… and " << d.changes.size() - rows << " more changes (`--format json` lists them all)\n";
    out << "\n";
  }
  bool any_example = false;
  std::size_t examples = 0, left_out = 0;
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    if (!c.example || j.ignored[i]) continue;
    if (examples == markdown_max_examples) {
      ++left_out;
      continue;
    }
    ++examples;
    if (!any_example) out << "<details><summary>Counterexamples and pinning cases</summary>\n\n";
    any_example = true;
    out << "**" << md_text(c.rule) << "** " << md_text(place(c)) << " (" << md_text(c.example->role)
        << "): " << md_text(c.example->explanation) << "\n\n"
        << md_block("input: " + c.example->input, "yaml");
    if (!c.pinned_by.empty()) out << "Pinned by: " << md_text(pinned_text(c)) << "\n";
    out << "\n";
  }
  if (left_out) out << "… and " << left_out << " more counterexamples (`--format json` lists them all)\n\n";
  if (any_example) out << "</details>\n\n";
  for (const auto& w : j.unknown_ignores) out << "> warning: " << md_text(w) << "\n";
  if (!j.unknown_ignores.empty()) out << "\n";
  out << "Rules and levels: `sse-conform catalog rules`; accept a change with `--ignore FILE` "
         "(`<fingerprint> <reason>`).\n";
  return out.str();
}

std::string render_junit(const catalog_diff& d, const judged_diff& j) {
  junit::testsuite suite;
  std::size_t failures = 0, skipped = 0;
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    const auto level = level_for(c, j.role);
    junit::testcase tc{{{"classname", "catalog_diff." + (c.dialect.empty() ? c.file : c.dialect)},
                        {"name", c.rule + " " + place(c) + " [" + c.fingerprint + "]"}},
                       {}};
    const auto& w = anchor(c);
    if (!w.file.empty()) tc.attributes.push_back({"file", w.file});
    if (w.line > 0) tc.attributes.push_back({"line", std::to_string(w.line)});
    std::string detail = c.message + "\nreader " + level_name(c.reader) + ", writer " + level_name(c.writer);
    if (c.example) detail += "\ncounterexample: " + c.example->input + "\n" + c.example->explanation;
    if (!c.pinned_by.empty()) detail += "\npinned by: " + pinned_text(c);
    if (j.ignored[i]) {
      ++skipped;
      tc.results.push_back({"skipped", {{"message", "ignored: " + *j.ignored[i]}}, ""});
    } else if (level >= j.fail_on) {
      ++failures;
      tc.results.push_back({"failure", {{"message", c.message}, {"type", level_name(level)}}, detail});
    } else {
      tc.results.push_back({"system-out", {}, detail});
    }
    suite.cases.push_back(std::move(tc));
  }
  suite.attributes = {{"name", "catalog diff " + d.old_version + " -> " + d.new_version},
                      {"tests", std::to_string(d.changes.size())},
                      {"failures", std::to_string(failures)},
                      {"skipped", std::to_string(skipped)}};
  junit::document doc;
  doc.attributes = {{"name", "sse-conform catalog diff"}};
  doc.suites.push_back(std::move(suite));
  return junit::write(doc);
}

}  // namespace

std::optional<diff_format> parse_diff_format(std::string_view s) noexcept {
  if (s == "text") return diff_format::text;
  if (s == "json") return diff_format::json;
  if (s == "junit") return diff_format::junit;
  if (s == "github-actions") return diff_format::github_actions;
  if (s == "markdown") return diff_format::markdown;
  return std::nullopt;
}

nlohmann::ordered_json catalog_diff_json(const catalog_diff& d, const judged_diff& j) {
  auto side = [](const std::string& version, const std::vector<conformance::catalog_file_version>& files) {
    ojson f = ojson::array();
    for (const auto& v : files) f.push_back({{"file", v.file}, {"catalog_version", v.version}});
    return ojson{{"version", version}, {"files", f}};
  };
  ojson changes = ojson::array();
  std::size_t ignored = 0;
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    ojson x{{"rule", c.rule},
            {"dialect", c.dialect},
            {"event", c.event},
            {"field", c.field},
            {"producer_rule", c.producer_rule},
            {"file", c.file},
            {"level", {{"reader", level_name(c.reader)}, {"writer", level_name(c.writer)}}},
            {"fingerprint", c.fingerprint},
            {"message", c.message},
            {"old_where", where_json(c.old_where)},
            {"new_where", where_json(c.new_where)}};
    if (c.example)
      x["counterexample"] = {{"role", c.example->role},
                             {"dialect", c.example->dialect},
                             {"input", c.example->input},
                             {"bytes",
                              [&] {
                                std::size_t n = 0;
                                for (const auto& ch : c.example->chunks) n += ch.size();
                                return n;
                              }()},
                             {"explanation", c.example->explanation}};
    else x["counterexample"] = nullptr;
    x["pinned_by"] = c.pinned_by;
    x["pinned_total"] = c.pinned_total;
    x["ignored"] = j.ignored[i].has_value();
    x["ignore_reason"] = j.ignored[i] ? ojson(*j.ignored[i]) : ojson(nullptr);
    ignored += j.ignored[i] ? 1 : 0;
    changes.push_back(std::move(x));
  }
  auto counts = [&](diff_role r) {
    const auto& c = j.counts[static_cast<int>(r)];
    return ojson{{"ERR", c[2]}, {"WARN", c[1]}, {"INFO", c[0]}};
  };
  return ojson{{"catalog_diff_format", catalog_diff_format},
               {"old", side(d.old_version, d.old_files)},
               {"new", side(d.new_version, d.new_files)},
               {"role", std::string(to_string(j.role))},
               {"fail_on", level_name(j.fail_on)},
               {"changes", changes},
               {"unknown_ignores", j.unknown_ignores},
               {"summary",
                {{"changes", d.changes.size()},
                 {"ignored", ignored},
                 {"failing", j.failing},
                 {"reader", counts(diff_role::reader)},
                 {"writer", counts(diff_role::writer)},
                 {"result", j.fails() ? "fail" : "pass"}}}};
}

std::string render_catalog_diff(const catalog_diff& d, const judged_diff& j, diff_format format) {
  switch (format) {
    case diff_format::text: return render_text(d, j);
    case diff_format::json: return catalog_diff_json(d, j).dump(2) + "\n";
    case diff_format::junit: return render_junit(d, j);
    case diff_format::github_actions: return render_github(d, j);
    case diff_format::markdown: return render_markdown(d, j);
  }
  return render_text(d, j);
}

std::string render_diff_rules(bool json) {
  if (json) {
    ojson rules = ojson::array();
    for (const auto& r : conformance::diff_rules())
      rules.push_back({{"id", r.id},
                       {"reader", level_name(r.reader)},
                       {"writer", level_name(r.writer)},
                       {"meaning", r.meaning},
                       {"reason", r.reason}});
    return ojson{{"catalog_diff_format", catalog_diff_format}, {"rules", rules}}.dump(2) + "\n";
  }
  std::size_t width = 0;
  for (const auto& r : conformance::diff_rules()) width = std::max(width, r.id.size());
  std::ostringstream out;
  out << std::string("rule") << std::string(width - 4 + 2, ' ') << "reader writer meaning\n";
  for (const auto& r : conformance::diff_rules()) {
    const auto reader = level_name(r.reader), writer = level_name(r.writer);
    out << r.id << std::string(width - r.id.size() + 2, ' ') << reader << std::string(7 - reader.size(), ' ') << writer
        << std::string(7 - writer.size(), ' ') << r.meaning << "\n";
  }
  return out.str();
}

}  // namespace ssec
