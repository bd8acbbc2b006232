// SPDX-License-Identifier: MIT
// The certify report as JSON (certify_format 1), text, markdown, HTML and
// JUnit (through the tools' one writer, ssec/report/junit.hpp).
#include <sstream>

#include "sse/dialect/validator.hpp"
#include "ssec/adapter/interrupt.hpp"
#include "ssec/certify/certify.hpp"
#include "ssec/report/junit.hpp"
#include "ssec/report/markdown.hpp"
#include "ssec/support/text.hpp"

namespace ssec::certify {
namespace conf = ssec::conformance;
using ojson = nlohmann::ordered_json;

namespace {

bool broke_anything(const report& r) {
  if (r.contract == verdict::broke || r.reference.disagreements > 0) return true;
  for (const auto& p : r.producers) {
    if (p.result == verdict::broke) return true;
  }
  for (const auto& c : r.consumers) {
    if (c.result == verdict::broke) return true;
  }
  return false;
}

std::string verdict_line(const report& r) {
  if (r.interrupted_by != 0)
    return std::string("NOT CERTIFIED: interrupted by ") + interrupt_guard::name(r.interrupted_by);
  if (r.deadline_reached) return "NOT CERTIFIED: the deadline passed (--deadline-s)";
  if (r.certified()) return "CERTIFIED: nothing breaks";
  if (broke_anything(r)) return "NOT CERTIFIED: something breaks";
  if (!r.allow_unchecked && !r.unchecked().empty()) {
    return "NOT CERTIFIED: unchecked: " + join(r.unchecked()) + " (no producer, consumer or profile checked it)";
  }
  return "NOT CERTIFIED: already failing under OLD (--fail-on-existing)";
}

// "chat: consumer X, profile Y" / "code: via chat" / "agent: UNCHECKED".
std::string checked_text(const dialect_check& d) {
  if (d.unchecked()) return d.dialect == "*" ? "nothing was checked" : "UNCHECKED";
  return (d.via.empty() ? "" : "through " + d.via + ": ") + join(d.checked_by);
}

// "by SIGTERM: not finished: consumer CMD, profile FILE" (interrupted reports only).
std::string interruption(const report& r) {
  return std::string("by ") + interrupt_guard::name(r.interrupted_by) + ": not finished: " + join(r.unfinished);
}

std::string counts(const std::map<std::string, std::size_t>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + std::to_string(v) + " " + k;
  return s.empty() ? "none run" : s;
}

std::string seconds_text(double s) {
  std::ostringstream out;
  out.precision(1);
  out << std::fixed << s << " s";
  return out.str();
}

std::string paint(bool on, const char* code, const std::string& text) {
  return on ? "\x1b[" + std::string(code) + "m" + text + "\x1b[0m" : text;
}

const char* colour_of(verdict v) { return v == verdict::broke ? "31" : v == verdict::warned ? "33" : "32"; }

}  // namespace

ojson to_json(const report& r) {
  ojson out;
  out["certify_format"] = certify_format_version;
  out["certified"] = r.certified();
  // Set when a signal stopped the run: the report holds what finished, `unfinished` names the rest.
  out["interrupted"] = r.interrupted_by != 0 ? ojson(interrupt_guard::name(r.interrupted_by)) : ojson(nullptr);
  out["unfinished"] = r.unfinished;
  out["deadline_reached"] = r.deadline_reached;
  // Each changed dialect and who checked it; `unchecked` those nobody did.
  ojson dialects = ojson::array();
  for (const auto& d : r.dialects) {
    dialects.push_back(
        {{"dialect", d.dialect}, {"checked_by", d.checked_by}, {"via", d.via}, {"unchecked", d.unchecked()}});
  }
  out["unchecked"] = r.unchecked();
  out["dialects"] = dialects;
  out["old"] = {{"name", r.old_name}, {"version", r.old_version}};
  out["new"] = {{"name", r.new_name}, {"version", r.new_version}};
  ojson changes = ojson::array();
  for (const auto& c : r.changes) {
    changes.push_back({{"rule", c.rule},
                       {"dialect", c.dialect},
                       {"event", c.event},
                       {"field", c.field},
                       {"level", {{"reader", c.reader}, {"writer", c.writer}}},
                       {"message", c.message},
                       {"fingerprint", c.fingerprint}});
  }
  out["contract"] = {{"verdict", to_string(r.contract)},
                     {"reason", r.contract_reason},
                     {"diff_available", r.diff_available},
                     {"changes", changes}};
  out["reference"] = {{"cases", r.reference.cases},
                      {"new_cases", r.reference.new_cases},
                      {"disagreements", r.reference.disagreements},
                      {"failures", r.reference.first_failures}};
  ojson producers = ojson::array();
  for (const auto& p : r.producers) {
    ojson findings = ojson::array();
    for (const auto& f : p.findings) {
      ojson j{{"rule", f.rule}, {"severity", f.severity}, {"message", f.message}, {"new_since_old", f.new_since_old}};
      j["frame"] = f.frame ? ojson(*f.frame) : ojson(nullptr);
      j["frame_number"] = f.frame ? sse::dialect::frame_number(*f.frame, f.at_end) : ojson(nullptr);
      findings.push_back(std::move(j));
    }
    producers.push_back({{"source", p.source},
                         {"dialect", p.dialect},
                         {"verdict", to_string(p.result)},
                         {"error", p.error},
                         {"frames", p.frames},
                         {"must", p.must},
                         {"should", p.should},
                         {"old_must", p.old_must},
                         {"findings", findings}});
  }
  out["producers"] = producers;
  ojson consumers = ojson::array();
  for (const auto& c : r.consumers) {
    ojson statics = ojson::array();
    for (const auto& f : c.static_findings) {
      statics.push_back({{"rule", f.rule},
                         {"level", conf::to_string(f.level)},
                         {"type", f.type},
                         {"pointer", f.pointer},
                         {"message", f.message},
                         {"line", f.line}});
    }
    ojson probes = ojson::array();
    for (const auto& p : c.probes) {
      ojson j{{"id", p.id},
              {"class", p.klass},
              {"baseline", p.baseline},
              {"grade", conf::to_string(p.grade)},
              {"outcome", conf::to_string(p.outcome)},
              {"description", p.description}};
      if (p.grade == conf::probe_grade::broke) {
        j["chunking"] = p.chunking;
        j["reason"] = p.reason;
        j["input"] = p.reproduce;
        j["injected"] = p.injected;
        j["already_failing_under_old"] = p.existing;
        j["old_reason"] = p.old_reason;
      }
      probes.push_back(std::move(j));
    }
    consumers.push_back({{"name", c.name},
                         {"command", c.command},
                         {"profile", c.profile},
                         {"dialects", c.dialects},
                         {"verdict", to_string(c.result)},
                         {"error", c.error},
                         {"static", statics},
                         {"aborts_on_inferred", c.aborts_on_inferred},
                         {"existing", c.existing + c.case_existing},
                         {"probes",
                          {{"tolerated", c.tolerated},
                           {"adopted", c.adopted},
                           {"broke", c.broke},
                           {"existing", c.existing},
                           {"results", probes}}},
                         {"cases",
                          {{"outcomes", c.cases},
                           {"new_broke", c.case_new_broke},
                           {"broke", c.case_broke},
                           {"existing", c.case_existing},
                           {"failures", c.case_failures},
                           {"existing_failures", c.case_existing_failures}}}});
  }
  out["consumers"] = consumers;
  out["seconds"] = r.seconds;
  return out;
}

std::string to_text(const report& r, bool colour) {
  std::ostringstream out;
  out << "certify " << r.old_name << " (" << r.old_version << ") -> " << r.new_name << " (" << r.new_version << ")\n\n";
  out << "contract: " << paint(colour, colour_of(r.contract), to_string(r.contract));
  if (!r.contract_reason.empty()) out << " (" << r.contract_reason << ")";
  out << '\n';
  if (!r.diff_available) out << "  catalog diff: not available in this build\n";
  if (r.diff_available && r.changes.empty()) out << "  no changes\n";
  for (const auto& c : r.changes) {
    out << "  " << c.rule << "  " << c.dialect << (c.event.empty() ? "" : "/" + c.event)
        << (c.field.empty() ? "" : "." + c.field) << "  reader " << c.reader << ", writer " << c.writer << ": "
        << c.message << '\n';
  }
  // Unchecked dialects first: a green run must have checked something.
  for (const auto& d : r.dialects) {
    if (d.unchecked()) {
      out << paint(colour, "31", "unchecked") << ": "
          << (d.dialect == "*" ? "nothing was checked (no producer, consumer or profile)"
                               : d.dialect + " changed and no producer, consumer or profile speaks it")
          << '\n';
    }
  }
  for (const auto& d : r.dialects) {
    if (!d.unchecked()) {
      out << "checked " << (d.dialect == "*" ? "(no change on the wire)" : d.dialect) << ": " << checked_text(d)
          << '\n';
    }
  }
  out << "reference: " << r.reference.cases << " cases of NEW (" << r.reference.new_cases << " new since OLD), "
      << r.reference.disagreements << " disagree\n";
  for (const auto& f : r.reference.first_failures) out << "  " << f << '\n';
  for (const auto& p : r.producers) {
    out << "\nproducer " << p.source << ": " << paint(colour, colour_of(p.result), to_string(p.result)) << '\n';
    if (!p.error.empty()) out << "  " << p.error << '\n';
    else
      out << "  " << p.frames << " frames; against NEW " << p.must << " must, " << p.should << " should; against OLD "
          << p.old_must << " must\n";
    for (const auto& f : p.findings) {
      out << "  " << (f.new_since_old ? "NEW " : "    ") << f.rule << " (" << f.severity << ")"
          << (f.frame ? ", " + sse::dialect::frame_text(*f.frame, f.at_end) : std::string()) << ": " << f.message
          << '\n';
    }
  }
  for (const auto& c : r.consumers) {
    out << "\nconsumer " << c.name << (c.dialects.empty() ? "" : " [" + join(c.dialects) + "]") << ": "
        << paint(colour, colour_of(c.result), to_string(c.result)) << '\n';
    if (!c.error.empty()) out << "  " << c.error << '\n';
    if (!c.profile.empty()) out << "  profile " << c.profile << '\n';
    for (const auto& f : c.static_findings) {
      out << "  " << conf::to_string(f.level) << " " << f.rule << ": " << f.message << '\n';
    }
    if (!c.command.empty()) {
      for (const auto& t : c.aborts_on_inferred) {
        out << "  aborts on `" << t << "` by design (its baseline without `" << t
            << "` passes): say so with `aborts_on: [" << t << "]` in its profile\n";
      }
      out << "  probes: " << c.tolerated << " tolerated, " << c.adopted << " adopted, " << c.broke << " broke, "
          << c.existing << " already failing under OLD\n";
      for (const auto& p : c.probes) {
        if (p.grade == conf::probe_grade::tolerated) continue;
        out << "    " << (p.existing ? "already failing under OLD" : std::string(conf::to_string(p.grade))) << "  "
            << p.id;
        if (p.grade == conf::probe_grade::broke) {
          out << " (" << p.chunking << ", " << conf::to_string(p.outcome) << "): " << p.reason;
          if (p.existing) {
            out << '\n';
            continue;
          }
          if (!p.old_reason.empty()) out << "\n      under OLD: " << p.old_reason;
          out << "\n      injected: " << p.injected << "\n      input: " << p.reproduce;
        }
        out << '\n';
      }
      out << "  cases of NEW: " << counts(c.cases) << "; " << c.case_broke
          << " break it (an error, timeout or rejection where OLD's case of the same path passed), " << c.case_existing
          << " already failing under OLD\n";
      for (const auto& f : c.case_failures) out << "    breaks: " << f << '\n';
      for (const auto& f : c.case_existing_failures) out << "    already failing under OLD: " << f << '\n';
    }
  }
  out << '\n';
  if (r.interrupted_by != 0) out << paint(colour, "31", "INTERRUPTED") << " " << interruption(r) << '\n';
  if (r.deadline_reached) out << paint(colour, "31", "DEADLINE") << " not finished: " << join(r.unfinished) << '\n';
  out << paint(colour, r.certified() ? "32" : "31", verdict_line(r)) << " (" << seconds_text(r.seconds) << ")\n";
  return out.str();
}

std::string to_markdown(const report& r) {
  // Names, versions, reasons and messages come from catalogs, profiles and
  // consumers: md_text / md_code keep them text in a pull-request comment.
  std::ostringstream out;
  out << "## certify " << md_text(r.old_name + " " + r.old_version) << " → "
      << md_text(r.new_name + " " + r.new_version) << "\n\n";
  out << "**" << md_text(verdict_line(r)) << "**\n\n";
  if (r.interrupted_by != 0) out << "**INTERRUPTED** " << md_text(interruption(r)) << "\n\n";
  for (const auto& d : r.dialects) {
    if (d.unchecked())
      out << "**UNCHECKED** " << (d.dialect == "*" ? "nothing was checked" : md_text(d.dialect)) << "\n\n";
  }
  out << "| subject | verdict | details |\n| --- | --- | --- |\n";
  out << "| contract | " << to_string(r.contract) << " | " << r.changes.size() << " changes"
      << (r.contract_reason.empty() ? "" : "; " + md_text(r.contract_reason)) << " |\n";
  out << "| reference | " << (r.reference.disagreements == 0 ? "certified" : "broke") << " | " << r.reference.cases
      << " cases of NEW, " << r.reference.disagreements << " disagree |\n";
  for (const auto& p : r.producers) {
    out << "| producer " << md_code(p.source) << " | " << to_string(p.result) << " | " << p.must << " must, "
        << p.should << " should" << (p.error.empty() ? "" : "; " + md_text(p.error)) << " |\n";
  }
  for (const auto& c : r.consumers) {
    std::size_t err = 0;
    for (const auto& f : c.static_findings) err += f.level == conf::change_level::err;
    out << "| consumer " << md_text(c.name) << " | " << to_string(c.result) << " | ";
    if (!c.error.empty()) out << md_text(c.error) << "; ";
    out << c.tolerated << " tolerated, " << c.adopted << " adopted, " << c.broke << " broke; " << err
        << " profile ERR |\n";
  }
  for (const auto& c : r.consumers) {
    for (const auto& p : c.probes) {
      if (p.grade == conf::probe_grade::broke && !p.existing) {
        out << "\n- " << md_text(c.name) << ": " << md_code(p.id) << " broke under " << md_text(p.chunking) << ": "
            << md_text(p.reason);
      }
    }
    for (const auto& f : c.static_findings) {
      if (f.level != conf::change_level::info) {
        out << "\n- " << md_text(c.name) << ": " << conf::to_string(f.level) << " " << md_code(f.rule) << ": "
            << md_text(f.message);
      }
    }
  }
  out << "\n";
  return out.str();
}

std::string to_html(const report& r) {
  std::ostringstream out;
  out << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>certify</title>"
         "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:2px 6px}"
         ".broke{color:#b00}.certified{color:#070}</style></head><body>\n";
  out << "<h1>certify " << xml_escape(r.old_name + " " + r.old_version) << " &rarr; "
      << xml_escape(r.new_name + " " + r.new_version) << "</h1>\n<p><b>" << xml_escape(verdict_line(r)) << "</b></p>\n";
  if (r.interrupted_by != 0) {
    out << "<p class=\"interrupted\"><b>INTERRUPTED</b> " << xml_escape(interruption(r)) << "</p>\n";
  }
  out << "<table><tr><th>subject</th><th>verdict</th><th>details</th></tr>\n";
  const auto row = [&](const std::string& subject, verdict v, const std::string& details) {
    out << "<tr><td>" << xml_escape(subject) << "</td><td class=\"" << (v == verdict::broke ? "broke" : "certified")
        << "\">" << xml_escape(to_string(v)) << "</td><td>" << xml_escape(details) << "</td></tr>\n";
  };
  // Unchecked dialects first, as in the text: a green run must have checked something.
  for (const auto& d : r.dialects) {
    if (!d.unchecked()) continue;
    out << "<tr><td>dialect " << xml_escape(d.dialect == "*" ? std::string("(none changed)") : d.dialect)
        << "</td><td class=\"" << (r.allow_unchecked ? "certified" : "broke") << "\">unchecked</td><td>"
        << xml_escape(d.dialect == "*" ? "nothing was checked (no producer, consumer or profile)"
                                       : "changed, and no producer, consumer or profile speaks it" +
                                             std::string(r.allow_unchecked ? " (allowed: --allow-unchecked)" : ""))
        << "</td></tr>\n";
  }
  row("contract", r.contract, std::to_string(r.changes.size()) + " changes " + r.contract_reason);
  row("reference", r.reference.disagreements == 0 ? verdict::certified : verdict::broke,
      std::to_string(r.reference.cases) + " cases of NEW, " + std::to_string(r.reference.disagreements) + " disagree");
  for (const auto& p : r.producers) {
    row("producer " + p.source, p.result,
        std::to_string(p.must) + " must, " + std::to_string(p.should) + " should " + p.error);
  }
  for (const auto& c : r.consumers) {
    row("consumer " + c.name, c.result,
        std::to_string(c.tolerated) + " tolerated, " + std::to_string(c.adopted) + " adopted, " +
            std::to_string(c.broke) + " broke, " + std::to_string(c.existing + c.case_existing) +
            " already failing under OLD" +
            (c.existing + c.case_existing > 0 && !r.fail_on_existing
                 ? " (not counted against NEW; --fail-on-existing counts them)"
                 : "") +
            (c.error.empty() ? "" : " " + c.error));
  }
  out << "</table>\n<h2>Details</h2>\n<pre>" << xml_escape(to_text(r)) << "</pre>\n</body></html>\n";
  return out.str();
}

std::string to_junit(const report& r) {
  junit::document doc;
  doc.attributes = {{"name", "sse-conform certify"}};
  if (r.interrupted_by != 0) doc.attributes.emplace_back("interrupted", interrupt_guard::name(r.interrupted_by));
  junit::testsuite contract;
  contract.attributes = {{"name", "contract"}};
  for (const auto& d : r.dialects) {
    if (!d.unchecked()) continue;
    junit::testcase u;
    u.attributes = {{"classname", "contract"}, {"name", "checked " + d.dialect}};
    const std::string why = d.dialect == "*" ? "nothing was checked" : d.dialect + ": no producer, consumer or profile";
    u.results.push_back({r.allow_unchecked ? "skipped" : "failure", {{"message", "unchecked: " + why}}, ""});
    contract.cases.push_back(std::move(u));
  }
  {
    junit::testcase t;
    t.attributes = {{"classname", "contract"}, {"name", "versions and changes"}};
    if (r.contract == verdict::broke) t.results.push_back({"failure", {{"message", r.contract_reason}}, ""});
    contract.cases.push_back(std::move(t));
    junit::testcase ref;
    ref.attributes = {{"classname", "contract"}, {"name", "reference on the cases of NEW"}};
    if (r.reference.disagreements > 0) {
      std::string text;
      for (const auto& f : r.reference.first_failures) text += f + "\n";
      ref.results.push_back({"failure", {{"message", std::to_string(r.reference.disagreements) + " disagree"}}, text});
    }
    contract.cases.push_back(std::move(ref));
  }
  doc.suites.push_back(std::move(contract));
  for (const auto& p : r.producers) {
    junit::testsuite s;
    s.attributes = {{"name", "producer " + p.source}};
    junit::testcase t;
    t.attributes = {{"classname", "producer"}, {"name", "producer rules of NEW"}};
    if (p.result == verdict::broke) {
      std::string text = p.error;
      for (const auto& f : p.findings) text += (f.new_since_old ? "NEW " : "") + f.rule + ": " + f.message + "\n";
      t.results.push_back({"failure", {{"message", std::to_string(p.must) + " must findings"}}, text});
    }
    s.cases.push_back(std::move(t));
    doc.suites.push_back(std::move(s));
  }
  for (const auto& c : r.consumers) {
    junit::testsuite s;
    s.attributes = {{"name", "consumer " + c.name}};
    junit::testcase st;
    st.attributes = {{"classname", "consumer.profile"}, {"name", c.profile.empty() ? "no profile" : c.profile}};
    std::string errs;
    for (const auto& f : c.static_findings) {
      if (f.level == conf::change_level::err) errs += f.rule + ": " + f.message + "\n";
    }
    if (!c.error.empty()) errs += c.error + "\n";
    if (!errs.empty()) st.results.push_back({"failure", {{"message", "profile or setup"}}, errs});
    s.cases.push_back(std::move(st));
    for (const auto& p : c.probes) {
      junit::testcase t;
      t.attributes = {{"classname", "consumer.probe." + p.klass}, {"name", p.id}};
      if (p.grade == conf::probe_grade::broke && p.existing && !r.fail_on_existing) {
        // Already failing under OLD: reported, not a failure of this release.
        t.results.push_back({"skipped", {{"message", "already failing under OLD: " + p.reason}}, ""});
      } else if (p.grade == conf::probe_grade::broke) {
        const char* tag = p.outcome == conf::outcome::fail ? "failure" : "error";
        t.results.push_back({tag,
                             {{"message", p.reason}},
                             "chunking " + p.chunking + "\ninjected " + p.injected + "\ninput " + p.reproduce});
      } else {
        t.results.push_back({"system-out", {}, std::string(conf::to_string(p.grade))});
      }
      s.cases.push_back(std::move(t));
    }
    doc.suites.push_back(std::move(s));
  }
  return junit::write(doc);
}

}  // namespace ssec::certify
