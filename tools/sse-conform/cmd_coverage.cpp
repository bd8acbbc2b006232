// SPDX-License-Identifier: MIT
// `sse-conform coverage`: the summary table of the cases (per layer and tag)
// and, for each catalog event type, field, frame shape and producer rule, the
// cases that cover it. Exit 1 when a case file fails to load or anything is
// uncovered.
#include <filesystem>
#include <iostream>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/conformance/coverage.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/spec_folder.hpp"
#include "ssec/conformance/summary.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct coverage_options {
  std::string spec = ssec::data_path("spec");
  std::string cases = ssec::data_path("conformance/cases");
  std::size_t max_ids = 6;
  conformance::contract_source contract;  // the catalogs of --spec (unless only --catalog is given), --sources
};

int run_coverage(const coverage_options& opt) {
  // What loaded is shown even when some of it did not: the coverage of the rest.
  const auto loaded = load_cases_saying_why(
      {opt.cases, (fs::path(opt.spec) / "tags.yaml").string(), {}, opt.spec + "/tags.yaml"}, "coverage");
  const auto cat = load_contract_or_say_why(opt.contract, "coverage");
  if (!cat) return exit_usage;
  conformance::print_summary(std::cout, loaded.cases, &loaded.tags);
  std::cout << "\n";
  const auto report = conformance::compute_coverage(*cat, loaded.cases);
  conformance::print_coverage(std::cout, report, opt.max_ids);
  if (!loaded.ok) return exit_usage;
  return report.uncovered() == 0 ? exit_ok : exit_failure;
}

}  // namespace

void add_coverage_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<coverage_options>();
  auto* cmd = app.add_subcommand("coverage", "Cases per layer and tag, and the cases covering each catalog entry");
  cmd->add_option("--spec", opt->spec, "Folder of the catalogs, their DECISIONS.md and tags.yaml")
      ->capture_default_str();
  add_contract_options(cmd, opt->contract, /*with_spec=*/false);
  cmd->add_option("--cases", opt->cases, "Root of the case files")->capture_default_str();
  cmd->add_option("--ids", opt->max_ids, "Case ids shown per item")
      ->capture_default_str()
      ->check(at_least<std::size_t>(0));
  cmd->callback([opt, cmd, &code] {
    use_spec_folder(cmd, opt->spec, opt->contract);
    code = run_coverage(*opt);
  });
}

}  // namespace ssec::cli
