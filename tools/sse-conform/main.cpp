// SPDX-License-Identifier: MIT
// sse-conform: one command line for the conformance suite (docs/cli.md).
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"sse-conform: Server-Sent Events conformance suite and reference parser"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sse-conform 0.1.0");
  int code = ssec::cli::exit_ok;
  ssec::cli::add_parse_command(app, code);
  ssec::cli::add_adapter_command(app, code);
  ssec::cli::add_bench_command(app, code);
  ssec::cli::add_validate_command(app, code);
  ssec::cli::add_run_command(app, code);
  ssec::cli::add_check_command(app, code);
  ssec::cli::add_serve_command(app, code);
  ssec::cli::add_generate_command(app, code);
  ssec::cli::add_coverage_command(app, code);
  ssec::cli::add_cases_command(app, code);
  ssec::cli::add_export_command(app, code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return ssec::cli::exit_usage;
  }
  return code;
}
