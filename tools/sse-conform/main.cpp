// SPDX-License-Identifier: MIT
// sse-conform: one command line for the conformance suite (docs/cli.md).
#include <algorithm>
#include <csignal>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "commands.hpp"
#include "ssec/support/text.hpp"
#include "versions.hpp"

int main(int argc, char** argv) {
  // Named, so every usage line says `sse-conform`, not the path it was run by.
  CLI::App app{"sse-conform: Server-Sent Events conformance suite and reference parser", "sse-conform"};
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
  ssec::cli::add_rules_command(app, code);
  ssec::cli::add_export_command(app, code);
  ssec::cli::add_certify_command(app, code);
  ssec::cli::add_catalog_command(app, code);
  ssec::cli::add_fuzz_command(app, code);
  // `help [SUBCOMMAND]`, and a mistyped subcommand answered with the nearest one.
  if (argc >= 2 && argv[1][0] != '-') {
    const std::string first = argv[1];
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (first == "help") {
      if (argc >= 3) {
        CLI::App* sub = nullptr;
        try {
          sub = app.get_subcommand(argv[2]);
        } catch (const CLI::OptionNotFound&) {
        }
        if (sub == nullptr) {
          std::cerr << "sse-conform help: unknown command '" << argv[2] << "'"
                    << ssec::cli::did_you_mean(argv[2], names) << "\n";
          return ssec::cli::exit_usage;
        }
        std::cout << sub->help(app.get_name());
        return ssec::cli::exit_ok;
      }
      std::cout << app.help();
      return ssec::cli::exit_ok;
    }
    if (std::find(names.begin(), names.end(), first) == names.end()) {
      std::cerr << "sse-conform: unknown command '" << first << "'" << ssec::cli::did_you_mean(first, names)
                << "\n(commands: " << ssec::join(names) << "; `sse-conform help COMMAND` for one's options)\n";
      return ssec::cli::exit_usage;
    }
  }
  // A closed standard output is reported below (EPIPE), not a silent death.
  ::signal(SIGPIPE, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // An option the command does not have: name it and the nearest one it has.
    if (const std::string unknown = ssec::cli::unknown_option_hint(app, argc, argv); !unknown.empty()) {
      std::cerr << unknown << "\n";
      return ssec::cli::exit_usage;
    }
    app.exit(e);
    return ssec::cli::exit_usage;
  } catch (const std::bad_alloc&) {
    std::cerr << "sse-conform: out of memory; the output is incomplete\n";
    return ssec::cli::exit_usage;
  }
  // A report that could not be written (a full disk, a closed pipe) is lost:
  // say so and fail, whatever the verdict was.
  if (!ssec::cli::flush_standard_output()) return ssec::cli::exit_usage;
  return code;
}
