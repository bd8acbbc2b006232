// SPDX-License-Identifier: MIT
// The end-of-run summary of `sse-conform fuzz`, as text and as JSON
// (fuzz_format 1, tools/docs/fuzz.md).
#include <sstream>

#include "ssec/adapter/interrupt.hpp"
#include "ssec/differential/fuzzer.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::differential {

namespace conf = ssec::conformance;

namespace {
std::string reproduce_all(const fuzz_options& o, const impl_report& i) {
  return o.tool + " run --impl " + harness::shell_quote(i.command) + " --cases " +
         harness::shell_quote(i.dir.string()) + o.run_options;
}
double rate(const fuzz_report& r) { return r.seconds > 0 ? static_cast<double>(r.execs) / r.seconds : 0; }
}  // namespace

std::string summary_text(const fuzz_report& r, const fuzz_options& o) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "sse-conform fuzz: " << r.execs << " samples in " << r.seconds << " s (";
  out.precision(0);
  out << rate(r) << "/s), layer " << conf::to_string(o.layer) << ", seed " << o.seed << ", " << r.seed_streams
      << " seed streams" << (o.shard ? ", shard " + o.shard->name() : std::string()) << "\n";
  if (r.interrupted_by != 0) {
    out << "INTERRUPTED by " << interrupt_guard::name(r.interrupted_by) << ": " << ssec::counted(r.execs, "sample")
        << " finished; the findings below are written\n";
  }
  for (const auto& i : r.impls) {
    if (!i.setup_error.empty()) {
      out << i.command << ": setup error: " << i.setup_error << "\n";
      continue;
    }
    std::size_t bugs = 0;
    for (const auto& f : i.findings) bugs += f.d.outcome != conf::outcome::informational;
    out << printable(i.info.name) << " " << printable(i.info.version) << ": " << i.findings.size() << " fingerprint"
        << (i.findings.size() == 1 ? "" : "s") << " (" << bugs << " divergence" << (bugs == 1 ? "" : "s") << ", "
        << i.findings.size() - bugs << " informational), " << i.restarts << " restart" << (i.restarts == 1 ? "" : "s");
    std::size_t compounds = 0, repeated = 0;
    for (const auto& f : i.findings) {
      compounds += f.compound_of.empty() ? 0 : 1;
      repeated += f.same_as.empty() ? 0 : 1;
    }
    if (compounds > 0) out << ", " << compounds << " of them compound" << (compounds == 1 ? "" : "s") << " of two";
    if (repeated > 0) out << " (" << repeated << " of the same two as another, not written)";
    if (i.over_limit > 0) out << ", " << i.over_limit << " more not kept (--max-fingerprints)";
    out << "\n";
    for (const auto& f : i.findings) {
      if (!f.same_as.empty()) {
        out << "  " << conf::to_string(f.d.outcome) << "  " << f.d.fingerprint << "  (" << ssec::counted(f.hits, "hit")
            << ")  compound of " << ssec::join(f.compound_of, " + ") << ", as " << f.same_as << ": not written\n";
        continue;
      }
      out << "  " << conf::to_string(f.d.outcome) << "  " << f.d.fingerprint << "  (" << f.hits << " hit"
          << (f.hits == 1 ? "" : "s") << "; shrunk " << f.original_bytes << " -> "
          << ssec::counted(f.shrunk_bytes, "byte") << " in " << f.shrunk_chunks << " chunk"
          << (f.shrunk_chunks == 1 ? "" : "s") << ")"
          << (f.compound_of.empty() ? std::string() : "  compound of " + ssec::join(f.compound_of, " + ")) << "\n";
      out << "      input " << f.shrunk_escaped << "\n";
      for (const auto& line : brief_difference(f.d.first_difference)) out << "      " << line << "\n";
      out << "      " << (f.not_written.empty() ? f.file.string() : f.not_written) << "\n";
      for (const auto& e : f.also) {
        out << "    also, another trigger: input " << e.shrunk_escaped << "\n"
            << "      " << (e.not_written.empty() ? e.file.string() : e.not_written) << "\n";
      }
    }
    if (!i.write_error.empty()) out << "  error: findings were lost: " << i.write_error << "\n";
    if (!i.findings.empty()) out << "  reproduce: " << reproduce_all(o, i) << "\n";
  }
  for (const auto& a : r.agreements) {
    out << "agree with each other, not with the reference: " << ssec::join(a.impls, ", ") << " on " << a.fingerprint
        << " (" << a.hits << " sample" << (a.hits == 1 ? "" : "s") << ")\n";
  }
  return out.str();
}

nlohmann::ordered_json summary_json(const fuzz_report& r, const fuzz_options& o) {
  using oj = nlohmann::ordered_json;
  oj j;
  j["fuzz_format"] = fuzz_format_version;
  j["layer"] = conf::to_string(o.layer);
  j["seed"] = o.seed;
  if (o.shard) j["shard"] = o.shard->name();  // only the samples i with i mod N == K-1
  j["budget_seconds"] = o.budget_seconds;
  j["seconds"] = r.seconds;
  // Set when a signal stopped the run: `execs` counts the samples that finished.
  j["interrupted"] = r.interrupted_by != 0 ? oj(interrupt_guard::name(r.interrupted_by)) : oj(nullptr);
  j["execs"] = r.execs;
  j["execs_per_second"] = rate(r);
  j["generator_version"] = generator_version;
  j["reference"] = o.reference_version;
  j["seed_streams"] = r.seed_streams;
  j["out"] = o.out_dir.string();
  oj impls = oj::array();
  for (const auto& i : r.impls) {
    oj ij;
    ij["command"] = i.command;
    ij["name"] = i.info.name;
    ij["version"] = i.info.version;
    if (!i.setup_error.empty()) ij["setup_error"] = i.setup_error;
    ij["out"] = i.dir.string();
    if (!i.write_error.empty()) ij["write_error"] = i.write_error;
    ij["restarts"] = i.restarts;
    ij["fingerprints"] = i.findings.size();
    std::size_t compounds = 0;
    for (const auto& f : i.findings) compounds += f.compound_of.empty() ? 0 : 1;
    ij["compounds"] = compounds;
    std::size_t repeated = 0;
    for (const auto& f : i.findings) repeated += f.same_as.empty() ? 0 : 1;
    ij["compounds_repeated"] = repeated;
    ij["over_limit"] = i.over_limit;
    oj findings = oj::array();
    for (const auto& f : i.findings) {
      oj fj;
      fj["fingerprint"] = f.d.fingerprint;
      fj["grade"] = conf::to_string(f.d.outcome);
      fj["hits"] = f.hits;
      fj["first_sample"] = f.first_exec;
      fj["original_bytes"] = f.original_bytes;
      fj["bytes"] = f.shrunk_bytes;
      fj["chunks"] = f.shrunk_chunks;
      fj["shrink_tests"] = f.shrink_tests;
      fj["shrink_complete"] = f.shrink_complete;
      fj["input"] = f.shrunk_escaped;
      fj["first_difference"] = f.d.first_difference;
      fj["file"] = f.file.string();
      fj["reproduce"] = f.reproduce;
      if (!f.not_written.empty()) fj["not_written"] = f.not_written;
      if (!f.compound_of.empty()) fj["compound_of"] = f.compound_of;
      if (!f.same_as.empty()) fj["same_as"] = f.same_as;
      oj also = oj::array();
      for (const auto& e : f.also) {
        oj ej{{"bytes", e.shrunk_bytes},
              {"input", e.shrunk_escaped},
              {"file", e.file.string()},
              {"reproduce", e.reproduce}};
        if (!e.not_written.empty()) ej["not_written"] = e.not_written;
        also.push_back(std::move(ej));
      }
      fj["also"] = std::move(also);
      findings.push_back(std::move(fj));
    }
    ij["findings"] = std::move(findings);
    ij["reproduce"] = i.findings.empty() ? "" : reproduce_all(o, i);
    impls.push_back(std::move(ij));
  }
  j["impls"] = std::move(impls);
  oj agreements = oj::array();
  for (const auto& a : r.agreements)
    agreements.push_back({{"impls", a.impls}, {"fingerprint", a.fingerprint}, {"hits", a.hits}});
  j["agreements"] = std::move(agreements);
  j["exit"] = r.exit_code();
  return j;
}

}  // namespace ssec::differential
