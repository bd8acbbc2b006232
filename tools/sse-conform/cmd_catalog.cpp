// SPDX-License-Identifier: MIT
// `sse-conform catalog diff OLD NEW` and `sse-conform catalog rules`: glue
// around the catalog diff (ssec/conformance/catalog_diff.hpp), its gate
// (catalog_diff_policy.hpp) and its reports (ssec/catalog_diff/report.hpp).
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/catalog_diff/git_snapshot.hpp"
#include "ssec/catalog_diff/report.hpp"
#include "ssec/conformance/catalog_diff.hpp"
#include "ssec/conformance/catalog_diff_policy.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/spec_folder.hpp"
#include "ssec/support/input.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct diff_cli_options {
  std::vector<std::string> paths;  // OLD NEW, or NEW with --against
  std::string against;
  std::string role = "both";
  std::string fail_on = "ERR";
  std::string ignore;
  std::string format = "text";
  std::string out = "-";
  std::string sources;
  std::size_t max_pinned = 8;
};

// A catalog file or a catalog folder (its *.yaml but tags.yaml, and its DECISIONS.md).
conformance::contract_source source_of(const std::string& path, const std::string& sources) {
  conformance::contract_source s;
  s.sources_dir = sources;
  if (fs::is_directory(path)) s.spec_dir = path;
  else s.catalog_files = {path};
  return s;
}

// Ids of the hand-written cases, so that NEW's generated ids match the
// committed ones; empty when the data folder has no cases (ids may then
// differ from a repository's committed files only where one collides).
std::set<std::string> reserved_ids() {
  std::vector<ssec::error> errors;
  const auto tags_path = ssec::data_path("spec/tags.yaml");
  const auto tags = conformance::load_tags(tags_path, tags_path, errors);
  if (!errors.empty()) return {};
  auto ids =
      conformance::reserved_case_ids(ssec::data_path("conformance/cases"),
                                     ssec::data_path("conformance/cases/generated"), ssec::data_path("spec"), tags);
  return ids ? *ids : std::set<std::string>{};
}

// With --against, OLD's locations name the temporary copy: name NEW's path instead (OLD's lines).
void rename_old_files(conformance::catalog_diff& d, const fs::path& new_path) {
  const bool is_dir = fs::is_directory(new_path);
  for (auto& c : d.changes) {
    if (c.old_where.file.empty()) continue;
    const fs::path f(c.old_where.file);
    c.old_where.file = (is_dir ? new_path / f.filename() : new_path).generic_string();
  }
}

int run_diff(const diff_cli_options& opt) {
  const auto role = conformance::parse_diff_role(opt.role);
  const auto fail_on = conformance::parse_change_level(opt.fail_on);
  const auto format = parse_diff_format(opt.format);
  if (!role || !fail_on || !format) {
    std::cerr << "sse-conform catalog diff: "
              << (!role      ? "--role must be reader, writer or both"
                  : !fail_on ? "--fail-on must be ERR, WARN or INFO"
                             : "--format must be text, json, junit, github-actions or markdown")
              << "\n";
    return exit_usage;
  }
  const std::size_t want = opt.against.empty() ? 2 : 1;
  if (opt.paths.size() != want) {
    std::cerr << "sse-conform catalog diff: "
              << (want == 2 ? "give OLD and NEW (catalog files or folders)"
                            : "with --against REV give one path (NEW); OLD is "
                              "that path at REV")
              << "\n";
    return exit_usage;
  }
  std::vector<conformance::ignore_entry> ignores;
  if (!opt.ignore.empty()) {
    const auto text = ssec::read_document(opt.ignore);
    if (!text.ok()) {
      std::cerr << "sse-conform catalog diff: " << text.error().to_string() << "\n";
      return exit_usage;
    }
    auto parsed = conformance::parse_ignore_file(text.value(), opt.ignore);
    if (!parsed.ok()) {
      std::cerr << parsed.error_text();
      return exit_usage;
    }
    ignores = std::move(parsed.value);
  }
  temp_dir tmp;
  std::string old_path = opt.against.empty() ? opt.paths[0] : "";
  const std::string new_path = opt.paths.back();
  if (!opt.against.empty()) {
    if (tmp.path.empty()) {
      std::cerr << "sse-conform catalog diff: cannot create a temporary folder\n";
      return exit_usage;
    }
    const auto copy = ssec::snapshot_at_revision(new_path, opt.against, tmp.path, {"DECISIONS.md"});
    if (!copy) {
      std::cerr << "sse-conform catalog diff: --against " << opt.against << ": " << copy.error().to_string() << "\n";
      return exit_usage;
    }
    old_path = copy->string();
  }
  for (const std::string* p : {static_cast<const std::string*>(&old_path), &new_path})
    if (!fs::exists(*p)) {
      std::cerr << "sse-conform catalog diff: " << *p << ": no such file or folder\n";
      return exit_usage;
    }
  const auto old_set = load_contract_or_say_why(source_of(old_path, opt.sources), "catalog diff (OLD)");
  if (!old_set) return exit_usage;
  const auto new_set = load_contract_or_say_why(source_of(new_path, opt.sources), "catalog diff (NEW)");
  if (!new_set) return exit_usage;

  conformance::diff_options dopt;
  dopt.max_pinned = opt.max_pinned;
  dopt.reserved_ids = reserved_ids();
  auto diff = conformance::diff_catalogs(*old_set, *new_set, dopt);
  if (!opt.against.empty()) rename_old_files(diff, new_path);
  const auto judged = conformance::judge_diff(diff, *role, *fail_on, ignores, opt.ignore);
  for (const auto& w : judged.unknown_ignores) std::cerr << "sse-conform catalog diff: warning: " << w << "\n";
  if (!write_output("catalog diff", opt.out, render_catalog_diff(diff, judged, *format))) return exit_usage;
  return judged.fails() ? exit_failure : exit_ok;
}

}  // namespace

void add_catalog_command(CLI::App& app, int& code) {
  auto* cmd = app.add_subcommand("catalog", "Compare catalogs: breaking changes per role, semver, counterexamples");
  cmd->require_subcommand(1);

  auto opt = std::make_shared<diff_cli_options>();
  auto* diff = cmd->add_subcommand("diff", "What changed from OLD to NEW, and whom it breaks");
  diff->add_option("paths", opt->paths, "OLD NEW: catalog files or catalog folders (with --against: NEW only)")
      ->required();
  diff->add_option("--against", opt->against, "OLD is the same path at this git revision (git show REV:path)");
  diff->add_option("--role", opt->role, "Whose levels gate: reader, writer or both")->capture_default_str();
  diff->add_option("--fail-on", opt->fail_on, "Exit 1 when a change at or above this level (ERR, WARN, INFO) is left")
      ->capture_default_str();
  diff->add_option("--ignore", opt->ignore, "Accepted changes: `<fingerprint> <reason>` lines, or YAML `ignore:`");
  diff->add_option("--format", opt->format, "text, json, junit, github-actions or markdown")->capture_default_str();
  diff->add_option("--out", opt->out, "Write the report here (- = standard output)")->capture_default_str();
  diff->add_option("--sources", opt->sources, "Check every source line and quote against the documents in DIR");
  diff->add_option("--max-pinned", opt->max_pinned, "At most this many pinning case ids per change")
      ->capture_default_str()
      ->check(CLI::Range(static_cast<std::size_t>(0), static_cast<std::size_t>(1000)));
  diff->callback([opt, &code] { code = run_diff(*opt); });

  auto json = std::make_shared<bool>(false);
  auto* rules = cmd->add_subcommand("rules", "The diff rules with their level per role");
  rules->add_flag("--json", *json, "One JSON object (catalog_diff_format 1)");
  rules->callback([json, &code] {
    std::cout << render_diff_rules(*json);
    code = exit_ok;
  });
}

}  // namespace ssec::cli
