// SPDX-License-Identifier: MIT
// `sse-conform validate`: a recorded stream against a dialect's producer rules
// (spec/*.yaml). Findings and a summary; exit 1 on any MUST violation.
#include <iostream>
#include <optional>
#include <variant>

#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/input.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::cli {
namespace {

struct validate_options {
  std::string dialect;
  bool json = false;
  bool strict = false;  // decision-based findings fail too
  conformance::contract_source contract;
  std::optional<std::string> content_type;
  sse::limits limits;
  std::string path = "-";
};

// Findings of rules whose severity rests on a decision: --strict promotes them.
std::size_t decision_findings(const sse::dialect::validation_report& r) {
  std::size_t n = 0;
  for (const auto& f : r.findings) n += f.rule->basis == sse::dialect::basis::decision;
  return n;
}

bool conforming(const sse::dialect::validation_report& r, bool strict) {
  return r.conforming() && (!strict || decision_findings(r) == 0);
}

void print_text(const std::string& source, const sse::dialect::validation_report& r, bool strict) {
  for (const auto& f : r.findings) {
    std::cout << source << ": frame " << f.frame << ", byte " << f.offset << ": " << f.rule->id << " ("
              << sse::dialect::to_string(f.rule->level) << ") " << f.rule->text << "\n    expected: " << f.expected
              << "\n    seen:     " << f.seen << "\n    basis:    " << sse::dialect::basis_text(*f.rule) << '\n';
  }
  if (r.wire_status != sse::errc::ok) {
    std::cout << source << ": " << describe_error(r.wire_status, r.wire_error_offset)
              << ": the stream was checked up to there\n";
  }
  std::cout << source << ": " << r.dialect << ": " << r.frames << " frames, " << r.findings.size() << " findings ("
            << r.must << " must, " << r.should << " should"
            << (strict && decision_findings(r) > 0
                    ? ", " + std::to_string(decision_findings(r)) + " decision-based promoted by --strict"
                    : std::string())
            << "): " << (conforming(r, strict) ? "conforming" : "NOT conforming") << '\n';
}

void print_json(const sse::dialect::validation_report& r, bool strict) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) findings.push_back(to_json(f));
  nlohmann::ordered_json out{{"dialect", r.dialect}, {"frames", r.frames}, {"findings", std::move(findings)}};
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", conforming(r, strict)}};
  if (strict) out["summary"]["strict_promoted"] = decision_findings(r);
  if (r.wire_status != sse::errc::ok) out["wire_error"] = describe_error(r.wire_status, r.wire_error_offset);
  std::cout << dump_line(out) << '\n';
}

int run_validate(const validate_options& opt) {
  const auto cat = load_contract_or_say_why(opt.contract, "validate");
  if (!cat) return exit_usage;
  const sse::dialect::dialect_spec* d = cat->dialect(opt.dialect);
  if (d == nullptr) {
    std::cerr << "sse-conform validate: unknown dialect '" << opt.dialect << "' (known: " << dialect_names(*cat)
              << ")\n";
    return exit_usage;
  }
  auto input = read_all(opt.path);
  if (!input) {
    std::cerr << "sse-conform validate: " << input.error().to_string() << '\n';
    return exit_usage;
  }
  const auto report = sse::dialect::validate_stream(*d, input.value(), opt.limits, opt.content_type);
  if (opt.json) print_json(report, opt.strict);
  else print_text(opt.path == "-" ? "<stdin>" : opt.path, report, opt.strict);
  return conforming(report, opt.strict) ? exit_ok : exit_failure;
}

}  // namespace

void add_validate_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<validate_options>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Check a recorded stream against a dialect's producer rules; exit 1 on any MUST violation");
  cmd->add_option("--dialect", opt->dialect, "Dialect: chat, code, workflow or agent")->required();
  cmd->add_flag("--json", opt->json, "Print the findings as one JSON object (spec/FORMAT.md)");
  cmd->add_flag("--strict", opt->strict,
                "Fail on findings of decision-based rules too (basis: decision); the report says they were promoted");
  add_contract_options(cmd, opt->contract);
  cmd->add_option("--content-type", opt->content_type, "The Content-Type the stream was served with, to check it too");
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")->capture_default_str();
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")->capture_default_str();
  cmd->add_option("input", opt->path, "Stream file, or - for standard input")->capture_default_str();
  cmd->callback([opt, &code] { code = run_validate(*opt); });
}

}  // namespace ssec::cli
