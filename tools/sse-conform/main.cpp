// SPDX-License-Identifier: MIT
// sse-conform: one command line for the conformance suite (docs/cli.md).
#include <iostream>

#include "commands.hpp"
#include "ssec/versions.hpp"

int main(int argc, char** argv) {
  CLI::App app{"sse-conform: Server-Sent Events conformance suite and reference parser"};
  app.require_subcommand(1);
  // The tool, the built-in catalogs and the case set (tools/docs/cli.md, "Versions").
  app.set_version_flag(
      "--version",
      [] {
        std::string text = ssec::version_text(SSEC_VERSION);
        if (!text.empty() && text.back() == '\n') text.pop_back();
        return text;
      },
      "Print the tool, catalog and case-set versions and exit");
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
