// SPDX-License-Identifier: MIT
// Every subcommand of sse-conform registers itself here; one file per command.
#pragma once

#include <CLI/CLI.hpp>

namespace ssec::cli {

/// Exit codes of every subcommand (a public contract, docs/cli.md).
enum exit_code : int {
  exit_ok = 0,       ///< Success: everything selected passed / parsed.
  exit_failure = 1,  ///< The stream, the implementation or the endpoint failed a check.
  exit_usage = 2,    ///< Bad command line, unreadable input, broken setup.
};

/// Each adder creates its subcommand on `app`; when it runs, its callback
/// stores the process exit code in `code`.
void add_parse_command(CLI::App& app, int& code);
void add_adapter_command(CLI::App& app, int& code);
void add_bench_command(CLI::App& app, int& code);
void add_validate_command(CLI::App& app, int& code);
void add_run_command(CLI::App& app, int& code);
void add_check_command(CLI::App& app, int& code);
void add_serve_command(CLI::App& app, int& code);
void add_generate_command(CLI::App& app, int& code);
void add_coverage_command(CLI::App& app, int& code);
void add_cases_command(CLI::App& app, int& code);
void add_rules_command(CLI::App& app, int& code);  // rules and explain
void add_export_command(CLI::App& app, int& code);
void add_certify_command(CLI::App& app, int& code);
void add_catalog_command(CLI::App& app, int& code);  // catalog diff, catalog rules
void add_fuzz_command(CLI::App& app, int& code);

}  // namespace ssec::cli
