// SPDX-License-Identifier: MIT
// `sse-conform validate`: a recorded stream against a dialect's producer rules
// (spec/*.yaml). Findings and a summary; exit 1 on any MUST violation.
#include <iostream>
#include <optional>
#include <variant>

#include "commands.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/input.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::cli {
namespace {

struct validate_options {
  std::string dialect;
  bool json = false;
  std::vector<std::string> catalogs;
  std::optional<std::string> content_type;
  sse::limits limits;
  std::string path = "-";
};

std::string dialect_list(const sse::dialect::catalog& cat) {
  std::string out;
  for (const auto& d : cat.dialects()) out += (out.empty() ? "" : ", ") + d->name;
  return out;
}

void print_text(const std::string& source, const sse::dialect::validation_report& r) {
  for (const auto& f : r.findings) {
    std::cout << source << ": frame " << f.frame + 1 << ", byte " << f.offset << ": " << f.rule->id << " ("
              << sse::dialect::to_string(f.rule->level) << ") " << f.rule->text << "\n    expected: " << f.expected
              << "\n    seen:     " << f.seen << "\n    basis:    " << sse::dialect::basis_text(*f.rule) << '\n';
  }
  if (r.wire_status != sse::errc::ok) {
    std::cout << source << ": " << describe_error(r.wire_status, r.wire_error_offset)
              << ": the stream was checked up to there\n";
  }
  std::cout << source << ": " << r.dialect << ": " << r.frames << " frames, " << r.findings.size() << " findings ("
            << r.must << " must, " << r.should << " should): " << (r.conforming() ? "conforming" : "NOT conforming")
            << '\n';
}

void print_json(const sse::dialect::validation_report& r) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) findings.push_back(to_json(f));
  nlohmann::ordered_json out{{"dialect", r.dialect}, {"frames", r.frames}, {"findings", std::move(findings)}};
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", r.conforming()}};
  if (r.wire_status != sse::errc::ok) out["wire_error"] = describe_error(r.wire_status, r.wire_error_offset);
  std::cout << dump_line(out) << '\n';
}

int run_validate(const validate_options& opt) {
  // The built-in catalogs, unless others are named.
  ssec::load_result<std::shared_ptr<const sse::dialect::catalog>> custom;
  if (!opt.catalogs.empty()) custom = sse::dialect::load_catalog_files(opt.catalogs);
  const auto& loaded = opt.catalogs.empty() ? sse::dialect::builtin_catalog() : custom;
  if (!loaded.ok()) {
    std::cerr << loaded.error_text();
    return exit_usage;
  }
  const sse::dialect::dialect_spec* d = loaded.value->dialect(opt.dialect);
  if (d == nullptr) {
    std::cerr << "sse-conform validate: unknown dialect '" << opt.dialect << "' (known: " << dialect_list(*loaded.value)
              << ")\n";
    return exit_usage;
  }
  auto input = read_all(opt.path);
  if (!input) {
    std::cerr << "sse-conform validate: " << input.error().to_string() << '\n';
    return exit_usage;
  }
  const auto report = sse::dialect::validate_stream(*d, input.value(), opt.limits, opt.content_type);
  if (opt.json) print_json(report);
  else print_text(opt.path == "-" ? "<stdin>" : opt.path, report);
  return report.conforming() ? exit_ok : exit_failure;
}

}  // namespace

void add_validate_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<validate_options>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Check a recorded stream against a dialect's producer rules; exit 1 on any MUST violation");
  cmd->add_option("--dialect", opt->dialect, "Dialect: chat, code, workflow or agent")->required();
  cmd->add_flag("--json", opt->json, "Print the findings as one JSON object (spec/FORMAT.md)");
  // One file per --catalog, so the input path after it is not taken for a catalog.
  cmd->add_option("--catalog", opt->catalogs,
                  "A catalog file to use instead of the built-in spec/ catalogs (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--content-type", opt->content_type, "The Content-Type the stream was served with, to check it too");
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")->capture_default_str();
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")->capture_default_str();
  cmd->add_option("input", opt->path, "Stream file, or - for standard input")->capture_default_str();
  cmd->callback([opt, &code] { code = run_validate(*opt); });
}

}  // namespace ssec::cli
