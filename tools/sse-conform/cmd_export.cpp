// SPDX-License-Identifier: MIT
// `sse-conform export`: the catalogs as JSON Schema, OpenAPI 3.2 or
// TypeScript declarations (tools/docs/export.md). Glue only: the export is
// ssec/conformance/export.hpp.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "ssec/conformance/export.hpp"

namespace ssec::cli {
namespace {

struct export_options {
  std::string to;
  std::vector<std::string> dialects;
  conformance::contract_source contract;
  std::string out;
};

int run_export(const export_options& opt) {
  const auto format = conformance::parse_export_format(opt.to);
  if (!format) {
    std::cerr << "sse-conform export: unknown format '" << opt.to << "' (known: jsonschema, openapi, typescript)\n";
    return exit_usage;
  }
  const auto cat = load_contract_or_say_why(opt.contract, "export");
  if (!cat) return exit_usage;
  std::vector<const sse::dialect::dialect_spec*> dialects;
  for (const auto& name : opt.dialects) {
    const auto* d = cat->dialect(name);
    if (d == nullptr) {
      std::cerr << "sse-conform export: unknown dialect '" << name << "' (known: " << dialect_names(*cat) << ")\n";
      return exit_usage;
    }
    dialects.push_back(d);
  }
  const bool to_stdout = opt.out.empty() || opt.out == "-";
  const auto result = conformance::export_catalog(*cat, *format, dialects, to_stdout);
  if (!result.conflicts.empty()) {
    std::cerr << "sse-conform export: the exported names collide, nothing written:\n";
    for (const auto& c : result.conflicts) std::cerr << "  " << c << '\n';
    return exit_usage;
  }
  if (result.files.size() == 1) {
    if (to_stdout) std::cout << result.files.front().text;
    else if (!write_output("export", opt.out, result.files.front().text)) return exit_usage;
  } else {
    // Several files (jsonschema, several dialects, -o given): -o names a folder.
    std::error_code ec;
    std::filesystem::create_directories(opt.out, ec);
    for (const auto& f : result.files) {
      if (!write_output("export", (std::filesystem::path(opt.out) / f.name).string(), f.text)) return exit_usage;
    }
  }
  if (!result.gaps.empty()) {
    std::cerr << "sse-conform export: not expressible in " << opt.to << " (" << result.gaps.size() << ", kept "
              << (*format == conformance::export_format::typescript ? "in TSDoc @remarks lines"
                                                                    : "in x-sse-conform-* keys")
              << "):\n";
    for (const auto& g : result.gaps) std::cerr << "  " << g.to_string() << '\n';
  }
  return exit_ok;
}

}  // namespace

void add_export_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<export_options>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write the catalogs as JSON Schema, an OpenAPI 3.2 fragment or TypeScript declarations");
  cmd->add_option("--to", opt->to, "Format: jsonschema, openapi or typescript")->required();
  cmd->add_option("--dialect", opt->dialects, "Dialect to export (repeatable; default: every dialect)");
  add_contract_options(cmd, opt->contract);
  cmd->add_option("-o,--output", opt->out,
                  "Output file (default: standard output, where jsonschema's several dialects are one "
                  "document); with jsonschema and several dialects, a folder of one file per dialect");
  cmd->callback([opt, &code] { code = run_export(*opt); });
}

}  // namespace ssec::cli
