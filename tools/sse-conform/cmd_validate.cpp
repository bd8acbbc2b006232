// SPDX-License-Identifier: MIT
// `sse-conform validate`: a recorded stream against a dialect's producer rules
// (spec/*.yaml). Findings and a summary; exit 1 on any MUST violation.
#include <iostream>
#include <optional>
#include <variant>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/input.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/text.hpp"
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

// A limit of the tool (--max-line, --max-event-data) stopped reading before
// the end: what was read is graded, the rest is not the producer's fault.
bool stopped_by_limit(const sse::dialect::validation_report& r) { return r.wire_status != sse::errc::ok; }

void print_text(const std::string& source, const sse::dialect::validation_report& r, bool colour, bool strict) {
  for (const auto& f : r.findings) {
    const bool must = f.rule->level == sse::dialect::severity::must;
    std::cout << source << ": frame " << f.frame + 1 << ", byte " << f.offset << ": "
              << paint(colour, must ? "31" : "33",
                       f.rule->id + " (" + std::string(sse::dialect::to_string(f.rule->level)) + ")")
              << " " << f.rule->text << "\n    expected: " << f.expected << "\n    seen:     " << f.seen
              << "\n    basis:    " << sse::dialect::basis_text(*f.rule) << '\n';
  }
  if (stopped_by_limit(r)) {
    std::cout << source << ": reading stopped: " << describe_error(r.wire_status, r.wire_error_offset)
              << " (a limit of this tool: --max-line / --max-event-data); the frames before it were checked, the "
                 "rest and the end of the stream were not\n";
  }
  std::string verdict;
  if (r.must > 0 || (strict && decision_findings(r) > 0)) verdict = paint(colour, "31", "NOT conforming");
  else if (stopped_by_limit(r)) verdict = paint(colour, "33", "not graded to the end (a limit stopped reading)");
  else verdict = paint(colour, "32", "conforming");
  std::cout << source << ": " << r.dialect << ": " << counted(r.frames, "frame") << ", "
            << counted(r.findings.size(), "finding") << " (" << r.must << " must, " << r.should << " should"
            << (strict && decision_findings(r) > 0
                    ? ", " + std::to_string(decision_findings(r)) + " decision-based promoted by --strict"
                    : std::string())
            << "): " << verdict << '\n';
}

void print_json(const sse::dialect::validation_report& r, bool strict) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) findings.push_back(to_json(f));
  nlohmann::ordered_json out{{"dialect", r.dialect}, {"frames", r.frames}, {"findings", std::move(findings)}};
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", conforming(r, strict)}};
  out["summary"]["end_graded"] = r.end_graded;
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
  std::string source = opt.path == "-" ? "<stdin>" : opt.path;
  std::string bytes = std::move(input).value();
  std::optional<std::string> content_type = opt.content_type;
  // A `check --record` capture is read as `check --file` reads it: its body
  // bytes, and the Content-Type it was served with.
  if (live::looks_like_capture(bytes)) {
    auto cap = live::read_capture(bytes, source);
    if (!cap) {
      std::cerr << cap.error().to_string() << '\n';
      return exit_usage;
    }
    source += " (capture of " + cap.value().source + ")";
    const auto type = cap.value().headers.find("content-type");
    if (!content_type && type != cap.value().headers.end()) content_type = type->second;
    bytes = cap.value().bytes();
  }
  const auto report = sse::dialect::validate_stream(*d, bytes, opt.limits, content_type);
  if (opt.json) print_json(report, opt.strict);
  else print_text(source, report, colour_for(STDOUT_FILENO), opt.strict);
  // A MUST broken in what was read fails; a limit that stopped reading
  // before the end leaves the stream ungraded, which is no pass (exit 2).
  if (report.must > 0 || (opt.strict && decision_findings(report) > 0)) return exit_failure;
  return stopped_by_limit(report) ? exit_usage : exit_ok;
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
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("input", opt->path, "Stream file, or - for standard input")->capture_default_str();
  cmd->callback([opt, &code] { code = run_validate(*opt); });
}

}  // namespace ssec::cli
