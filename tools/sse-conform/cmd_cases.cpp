// SPDX-License-Identifier: MIT
// `sse-conform cases --check`: runs every case against the reference (the
// wire parser, and for dialect layers the decoder and the producer
// validator) under the chunkings of a plan, and prints the pass counts per
// layer. The same checks as the GoogleTest runner, in one process.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>

#include <unistd.h>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/conformance/dialect_runner.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/conformance/summary.hpp"
#include "ssec/harness/progress.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct cases_options {
  std::string spec = ssec::data_path("spec");
  std::string cases = ssec::data_path("conformance/cases");
  std::string chunkings = "all";
  bool check = false;
  bool summary = false;
  bool no_progress = false;
  double progress_s = 5;
  std::size_t show = 5;
  conformance::contract_source contract;  // --spec (when given), --catalog, --sources
};

int run_cases(const cases_options& opt) {
  const auto plan = conformance::parse_chunking_plan(opt.chunkings);
  if (!plan) {
    std::cerr << "--chunkings: " << plan.error().message << "\n";
    return exit_usage;
  }
  // Nothing loaded right: the error alone, no table of zeros after it.
  const auto loaded = load_cases_saying_why(
      {opt.cases, (fs::path(opt.spec) / "tags.yaml").string(), {}, opt.spec + "/tags.yaml"}, "cases");
  if (!loaded.ok) return exit_usage;
  if (opt.summary || !opt.check) conformance::print_summary(std::cout, loaded.cases, &loaded.tags);
  if (!opt.check) return exit_ok;
  const auto contract = load_contract_or_say_why(opt.contract, "cases");
  if (!contract) return exit_usage;

  struct counts {
    std::size_t total = 0, passed = 0;
  };
  std::map<conformance::layer, counts> per_layer;
  std::size_t shown = 0, done = 0, failed = 0;
  const auto start = std::chrono::steady_clock::now();
  std::optional<harness::progress_printer> progress;
  if (!opt.no_progress) progress.emplace(std::cerr, "cases --check", ::isatty(STDERR_FILENO) != 0, opt.progress_s);
  for (const auto& c : loaded.cases) {
    auto& n = per_layer[c.layer];
    ++n.total;
    const auto failure = conformance::check_against_reference(c, *plan, *contract);
    if (!failure) {
      ++n.passed;
    } else {
      ++failed;
      if (shown++ < opt.show) std::cout << "FAIL " << *failure << "\n";
    }
    if (progress) progress->update(++done, loaded.cases.size(), failed);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nreference check (chunkings: " << opt.chunkings << ")\nlayer       cases  passed  failed\n";
  counts all;
  for (const auto l : conformance::all_layers()) {
    const auto n = per_layer[l];
    all.total += n.total;
    all.passed += n.passed;
    std::cout << std::left << std::setw(10) << conformance::to_string(l) << std::right << std::setw(7) << n.total
              << std::setw(8) << n.passed << std::setw(8) << n.total - n.passed << "\n";
  }
  std::cout << std::left << std::setw(10) << "total" << std::right << std::setw(7) << all.total << std::setw(8)
            << all.passed << std::setw(8) << all.total - all.passed << "\n"
            << std::fixed << std::setprecision(1) << "in " << seconds << " s\n";
  return all.passed == all.total ? exit_ok : exit_failure;
}

}  // namespace

void add_cases_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<cases_options>();
  auto* cmd = app.add_subcommand("cases", "Load the cases: print their summary, or --check them against the reference");
  cmd->add_option("--spec", opt->spec, "Folder of tags.yaml and, when given, of the catalogs to check against")
      ->capture_default_str();
  add_contract_options(cmd, opt->contract, /*with_spec=*/false);
  cmd->add_option("--cases", opt->cases, "Root of the case files")->capture_default_str();
  cmd->add_flag("--check", opt->check, "Run every case against the reference parser, decoders and validator");
  cmd->add_flag("--summary", opt->summary, "With --check: also print the summary table");
  cmd->add_option("--chunkings", opt->chunkings, "Chunking plan: whole,as-written,bytes,splits,random:N or all")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet,--no-progress", opt->no_progress,
                "With --check: no progress bar on a terminal, no progress lines elsewhere");
  cmd->add_option("--progress-s", opt->progress_s,
                  "With --check, off a terminal (CI logs): a progress line on stderr this often (0 = none)")
      ->capture_default_str()
      ->check(in_range(0.0, 3600.0));
  cmd->add_option("--show", opt->show, "Failures shown in full")
      ->capture_default_str()
      ->check(at_least<std::size_t>(0));
  cmd->callback([opt, cmd, &code] {
    if (spec_given(cmd)) opt->contract.spec_dir = opt->spec;
    code = run_cases(*opt);
  });
}

}  // namespace ssec::cli
