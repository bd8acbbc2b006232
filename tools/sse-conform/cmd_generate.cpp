// SPDX-License-Identifier: MIT
// `sse-conform generate-cases`: writes conformance/cases/generated/ from the
// catalogs (ssec/conformance/generator.hpp); with --check, writes nothing
// and exits 1 when the committed files differ from what it would write.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "case_options.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/conformance/generator.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/spec_folder.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct generate_options {
  std::string spec = ssec::data_path("spec");
  std::string out = ssec::data_path("conformance/cases/generated");
  std::string cases;  // default: the parent of `out`
  bool check = false;
  conformance::contract_source contract;  // the catalogs of --spec (unless only --catalog is given), --sources
};

int run_generate(const generate_options& opt) {
  const fs::path out(opt.out);
  const fs::path cases = opt.cases.empty() ? out.parent_path() : fs::path(opt.cases);
  const auto loaded = load_contract_or_say_why(opt.contract, "generate-cases");
  if (!loaded) return exit_usage;
  const auto tags = load_tags_saying_why((fs::path(opt.spec) / "tags.yaml").string(), "generate-cases");
  if (!tags) return exit_usage;
  const auto reserved = conformance::reserved_case_ids(cases, out, opt.spec, *tags);
  if (!reserved) {
    std::cerr << reserved.error().to_string();
    return exit_usage;
  }
  std::cerr << "generate-cases: " << counted(reserved->size(), "case id") << " reserved: those of the case files under "
            << cases.string() << " (" << out.string() << " and " << opt.spec << " left out) and those "
            << (fs::path(opt.spec) / "DECISIONS.md").string() << " names\n";
  const auto files = conformance::generate_cases(*loaded, *reserved);
  std::set<std::string> names;
  int differences = 0;
  for (const auto& f : files) {
    names.insert(f.name);
    const fs::path path = out / f.name;
    const auto old = read_all(path.string());
    const bool same = old.ok() && old.value() == f.text;
    if (opt.check) {
      if (!same) {
        std::cerr << path.string() << ": " << (old.ok() ? "differs from" : "missing in") << " the generator's output\n";
        ++differences;
      }
      continue;
    }
    if (same) continue;
    std::error_code ec;
    fs::create_directories(out, ec);
    std::ofstream w(path, std::ios::binary);
    w << f.text;
    if (!w) {
      std::cerr << path.string() << ": cannot write\n";
      return exit_usage;
    }
  }
  // Files the generator no longer writes.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    if (entry.path().extension() != ".yaml" || names.contains(entry.path().filename().string())) continue;
    if (opt.check) {
      std::cerr << entry.path().string() << ": not written by the generator any more\n";
      ++differences;
    } else {
      fs::remove(entry.path(), ec);
    }
  }
  std::size_t count = 0;
  for (const auto& f : files)
    count += conformance::load_cases_from_text(f.text, f.name, "generated", *tags).value.size();
  if (opt.check) {
    if (differences != 0) {
      std::cerr << "the generated cases are stale: run sse-conform generate-cases --spec " << opt.spec << " --out "
                << opt.out << "\n";
      return exit_failure;
    }
    std::cout << counted(files.size(), "file") << ", " << counted(count, "case") << ": up to date\n";
    return exit_ok;
  }
  std::cout << "wrote " << counted(files.size(), "file") << ", " << counted(count, "case") << " to " << opt.out << "\n";
  return exit_ok;
}

}  // namespace

void add_generate_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<generate_options>();
  auto* cmd = app.add_subcommand("generate-cases", "Write the dialect-layer cases generated from the catalogs");
  cmd->add_option("--spec", opt->spec, "Folder of the catalogs (*.yaml), their DECISIONS.md and tags.yaml")
      ->capture_default_str();
  add_contract_options(cmd, opt->contract, /*with_spec=*/false);
  cmd->add_option("--out", opt->out, "Folder of the generated case files")->capture_default_str();
  cmd->add_option("--cases", opt->cases,
                  "Root of all case files (hand-written ids are reserved); default: the parent of --out");
  cmd->add_flag("--check", opt->check,
                "Write nothing; exit 1 if the files in --out differ from the generator's output");
  cmd->callback([opt, cmd, &code] {
    use_spec_folder(cmd, opt->spec, opt->contract);
    code = run_generate(*opt);
  });
}

}  // namespace ssec::cli
