// SPDX-License-Identifier: MIT
// The outputs of check: JSON, JUnit XML (through the tools' one JUnit
// writer, ssec/report/junit.hpp) and text.
#include <algorithm>
#include <sstream>

#include "sse/dialect/validator.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/check.hpp"
#include "ssec/report/junit.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::live {

nlohmann::ordered_json to_json(const check_report& r) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) {
    nlohmann::ordered_json j{{"rule", f.rule}, {"severity", f.severity}};
    j["frame"] = f.frame ? nlohmann::ordered_json(*f.frame) : nlohmann::ordered_json(nullptr);
    j["frame_number"] = f.frame ? sse::dialect::frame_number(*f.frame, f.at_end) : nlohmann::ordered_json(nullptr);
    j["offset"] = f.offset;
    j["message"] = f.message;
    j["expected"] = f.expected;
    j["seen"] = f.seen;
    if (!f.basis.empty()) {
      j["basis"] = f.basis;
      j["grounds"] = f.grounds;
    }
    if (r.resume) j["stream"] = f.stream == 0 ? "first" : "resumed";
    findings.push_back(std::move(j));
  }
  const auto num = [](double v) { return v < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); };
  nlohmann::ordered_json out{{"source", r.source}, {"dialect", r.dialect.empty() ? "wire" : r.dialect}};
  out["response"] = {{"status", r.status},
                     {"content_type", r.content_type},
                     {"content_encoding", r.content_encoding},
                     {"end", r.end},
                     {"error", r.error},
                     {"redirect", r.redirect_url},
                     {"protocol", r.protocol}};
  out["sizes"] = {{"bytes", r.bytes},
                  {"reads", r.pieces},
                  {"events", r.events},
                  {"comments", r.comments},
                  {"frames", r.frames},
                  {"event_reads", r.event_reads},
                  {"frames_split_across_reads", r.frames_split_across_reads}};
  out["timing"] = {{"first_byte_s", num(r.timing.first_byte)},
                   {"first_event_s", num(r.timing.first_event)},
                   {"last_byte_s", num(r.timing.last_byte)},
                   {"total_s", r.timing.total},
                   {"max_gap_s", r.timing.max_gap},
                   {"max_event_gap_s", r.timing.max_event_gap},
                   {"mean_event_gap_s", r.timing.mean_event_gap}};
  out["chunking"] = {{"tried", r.chunkings_tried}, {"invariant", r.chunking_invariant}};
  out["last_event_id"] = r.last_event_id;
  if (r.resume) {
    const auto& x = *r.resume;
    out["resume"] = {{"verdict", x.verdict},         {"reason", x.reason},     {"last_event_id", x.last_event_id},
                     {"status", x.status},           {"end", x.end},           {"bytes", x.bytes},
                     {"events", x.events},           {"replayed", x.replayed}, {"first_id", x.first_id},
                     {"join_offset", x.join_offset}, {"new_from", x.new_from}, {"total_s", x.seconds_total}};
  }
  out["findings"] = std::move(findings);
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", r.conforming()}, {"sampled", r.sampled}};
  out["summary"]["findings_not_shown"] = r.findings_not_shown;
  if (r.strict) out["summary"]["strict_promoted"] = r.decision_findings();
  return out;
}

namespace {
std::string where(const check_finding& f) {
  return std::string(f.stream == 1 ? "resumed stream, " : "") +
         (f.frame ? sse::dialect::frame_text(*f.frame, f.at_end) + ", " : "") + "byte " + std::to_string(f.offset);
}
}  // namespace

std::string level_of(std::string_view rule) {
  if (rule.starts_with("HTTP-") || rule.starts_with("STREAM-")) return "response";
  if (rule.starts_with("WIRE-")) return "wire";
  if (rule.starts_with("RESUME-")) return "resume";
  if (rule.starts_with("SCENARIO-")) return "scenario";
  return "producer";
}

std::string to_junit(const std::vector<junit_suite>& suites) {
  junit::document doc;
  for (const auto& suite : suites) {
    std::size_t tests = 0, failures = 0;
    junit::testsuite out;
    for (const auto& [name, report] : suite.reports) {
      const auto& r = *report;
      std::vector<std::string> levels{"response", "wire", "producer"};
      if (r.resume) levels.emplace_back("resume");
      const bool scenario = std::any_of(r.findings.begin(), r.findings.end(),
                                        [](const check_finding& f) { return level_of(f.rule) == "scenario"; });
      if (suite.scenario || scenario) levels.emplace_back("scenario");
      for (const auto& level : levels) {
        ++tests;
        // A MUST fails the case; with --strict, so does a decision-based
        // finding (promoted). Every other finding of the level is written in
        // the case's <system-out>, so a CI page shows SHOULD findings too.
        std::string fails, others;
        std::vector<std::string> failing_rules;
        for (const auto& f : r.findings) {
          if (level_of(f.rule) != level) continue;
          const bool promoted = r.strict && f.basis == "decision";
          const bool fails_the_case = f.severity == "must" || promoted;
          // A MUST line is the rule alone; every other says its severity.
          const std::string severity = f.severity == "must" ? std::string()
                                       : promoted           ? " (" + f.severity + ", promoted by --strict)"
                                                            : " (" + f.severity + ")";
          const std::string line = f.rule + severity + " at " + where(f) + ": " + f.message + " (expected " +
                                   f.expected + ", seen " + f.seen + ")" +
                                   (f.grounds.empty() ? "" : "; basis: " + f.grounds) + "\n";
          (fails_the_case ? fails : others) += line;
          if (fails_the_case && std::find(failing_rules.begin(), failing_rules.end(), f.rule) == failing_rules.end()) {
            failing_rules.push_back(f.rule);
          }
        }
        junit::testcase tc{{{"classname", name}, {"name", level}, {"time", std::to_string(r.timing.total)}}, {}};
        if (!fails.empty()) {
          ++failures;
          const auto count = static_cast<std::size_t>(std::count(fails.begin(), fails.end(), '\n'));
          tc.results.push_back(
              {"failure", {{"message", counted(count, "finding") + ": " + join(failing_rules)}}, fails});
        }
        if (!others.empty()) tc.results.push_back({"system-out", {}, others});
        out.cases.push_back(std::move(tc));
      }
    }
    out.attributes = {{"name", suite.name}, {"tests", std::to_string(tests)}, {"failures", std::to_string(failures)}};
    doc.suites.push_back(std::move(out));
  }
  return junit::write(doc);
}

std::string to_junit(const std::vector<check_report>& reports, const std::vector<std::string>& names) {
  junit_suite suite{"sse-conform check", {}, false};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    suite.reports.emplace_back(i < names.size() ? names[i] : reports[i].source, &reports[i]);
  }
  return to_junit(std::vector<junit_suite>{suite});
}

std::string to_text(const check_report& r) {
  std::ostringstream out;
  const std::string src = r.source.empty() ? "<stdin>" : r.source;
  if (r.end == "connect_error") {
    // No connection, so nothing about the endpoint was checked: a setup
    // problem (exit 2), said as one, not a verdict. The reports keep the
    // STREAM-CONNECT finding.
    out << src << ": setup error: could not connect"
        << (r.findings.empty() ? std::string() : ": " + r.findings.front().seen) << "; nothing was checked\n";
    return out.str();
  }
  if (r.status != 0) {
    // Header values are the server's text: printable() keeps escape sequences off the terminal.
    out << src << ": " << (r.protocol.empty() ? "HTTP" : r.protocol) << " " << r.status
        << ", Content-Type: " << (r.content_type.empty() ? "(none)" : printable(r.content_type))
        << (r.content_encoding.empty() ? "" : ", Content-Encoding: " + printable(r.content_encoding))
        << ", ended: " << r.end << '\n';
  }
  for (const auto& f : r.findings) {
    out << src << ": " << where(f) << ": " << f.rule << " (" << f.severity << ") " << f.message
        << "\n    expected: " << f.expected << "\n    seen:     " << f.seen << '\n';
    if (!f.grounds.empty()) out << "    basis:    " << f.grounds << '\n';
  }
  if (r.findings_not_shown > 0) {
    out << src << ": " << counted(r.findings_not_shown, "more finding") << " not shown (at most "
        << sse::dialect::default_max_findings_per_rule << " of each rule are kept; the counts below include them)\n";
  }
  out.precision(3);
  out << std::fixed;
  out << src << ": " << counted(r.bytes, "byte") << " in " << counted(r.pieces, "read") << ", "
      << counted(r.events, "event") << " (" << counted(r.event_reads, "read") << " completed events, "
      << r.frames_split_across_reads << " split across reads), " << counted(r.comments, "comment")
      << "; chunkings re-parsed: " << r.chunkings_tried << (r.chunking_invariant ? " (all agree)" : " (DIFFER)")
      << '\n';
  if (r.timing.first_byte >= 0) {
    out << src << ": first byte " << r.timing.first_byte << " s, first event " << r.timing.first_event
        << " s, last byte " << r.timing.last_byte << " s, total " << r.timing.total << " s, longest silence "
        << r.timing.max_gap << " s, event gaps max " << r.timing.max_event_gap << " s mean " << r.timing.mean_event_gap
        << " s\n";
  }
  if (r.resume) {
    const auto& x = *r.resume;
    out << src << ": resume: ";
    if (x.verdict == "not_applicable") {
      out << "not applicable: " << x.reason << '\n';
    } else {
      out << "Last-Event-ID \"" << printable(x.last_event_id) << "\" -> ";
      if (x.status != 0) out << "HTTP " << x.status << ", ";
      out << counted(x.events, "event") << ", " << x.replayed << " replayed, ended: " << x.end << ": " << x.verdict
          << " (" << x.reason << ")\n";
    }
  }
  out << src << ": " << (r.dialect.empty() ? "wire" : r.dialect) << ": " << counted(r.must + r.should, "finding")
      << " (" << r.must << " must, " << r.should << " should"
      << (r.strict && r.decision_findings() > 0
              ? ", " + std::to_string(r.decision_findings()) + " decision-based promoted by --strict"
              : std::string())
      << "): " << (r.conforming() ? "conforming" : "NOT conforming");
  if (r.sampled) out << " (sampled: " << counted(r.events, "event") << " read, end of stream not graded)";
  out << '\n';
  return out.str();
}

}  // namespace ssec::live
