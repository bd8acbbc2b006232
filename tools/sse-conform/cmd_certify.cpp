// SPDX-License-Identifier: MIT
// `sse-conform certify`: the release gate (tools/docs/certify.md). Glue only:
// the engine and its reports are ssec::certify (tools/certify).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/adapter/interrupt.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/catalog_diff/git_snapshot.hpp"
#include "ssec/certify/certify.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;
namespace conf = ssec::conformance;

struct certify_args {
  std::string old_path, new_path, against;
  std::vector<std::string> producers, captures, scenarios, consumers, profiles, baselines;
  std::string dialect;
  std::string format = "text";
  std::string json, junit, html, markdown;
  std::string case_chunkings = "whole";
  unsigned probe_random = 2;
  int timeout_ms = 5000;
  std::string tags_file;
  bool quiet = false;
  bool fail_on_existing = false, allow_unchecked = false;
  double deadline_s = 600;
};

// OLD / NEW: a spec folder (its catalogs) or one catalog file.
std::shared_ptr<const sse::dialect::catalog> load_side(const std::string& path) {
  conf::contract_source source;
  if (fs::is_directory(path)) source.spec_dir = path;
  else source.catalog_files = {path};
  return load_contract_or_say_why(source, "certify");
}

int run_certify(const certify_args& a) {
  if (!one_stdout_output("certify", {{"--format", "-"},
                                     {"--json", a.json},
                                     {"--junit", a.junit},
                                     {"--html", a.html},
                                     {"--markdown", a.markdown}})) {
    return exit_usage;
  }
  if (a.against.empty() == a.old_path.empty()) {
    std::cerr << "sse-conform certify: give OLD as --old PATH or as --against REV (NEW's path at a git revision), "
                 "one of them\n";
    return exit_usage;
  }
  certify::options o;
  o.old_name = a.old_path;
  o.new_name = a.new_path;
  // --against REV: OLD is NEW's path as it is at REV, copied out by catalog diff's git snapshot.
  temp_dir tmp;
  std::string old_path = a.old_path;
  if (!a.against.empty()) {
    if (tmp.path.empty()) {
      std::cerr << "sse-conform certify: cannot create a temporary folder\n";
      return exit_usage;
    }
    const auto copy = ssec::snapshot_at_revision(a.new_path, a.against, tmp.path, {"DECISIONS.md"});
    if (!copy) {
      std::cerr << "sse-conform certify: --against " << a.against << ": " << copy.error().to_string() << "\n";
      return exit_usage;
    }
    old_path = copy->string();
    o.old_name = a.new_path + "@" + a.against;
  }
  if (!(o.old_contract = load_side(old_path)) || !(o.new_contract = load_side(a.new_path))) return exit_usage;
  if ((!a.producers.empty() || !a.captures.empty()) && a.dialect.empty()) {
    std::cerr << "sse-conform certify: --producer and --capture need --dialect (the producers' dialect)\n";
    return exit_usage;
  }
  if (!a.dialect.empty() && o.new_contract->dialect(a.dialect) == nullptr) {
    std::cerr << "sse-conform certify: the new contract has no dialect '" << a.dialect
              << "' (known: " << dialect_names(*o.new_contract) << ")\n";
    return exit_usage;
  }
  o.producer_dialect = a.dialect;
  o.producer_urls = a.producers;
  o.captures = a.captures;
  o.scenarios = a.scenarios;
  o.consumers = a.consumers;
  for (const auto& spec : a.baselines) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      std::cerr << "sse-conform certify: --baseline '" << spec << "': expected DIALECT=FILE\n";
      return exit_usage;
    }
    auto b = certify::load_baseline(spec.substr(eq + 1), spec.substr(0, eq), *o.new_contract,
                                    "recorded-" + std::to_string(o.baselines.size() + 1));
    if (!b) {
      std::cerr << "sse-conform certify: " << b.error().message << '\n';
      return exit_usage;
    }
    o.baselines.push_back(std::move(b).value());
  }
  for (const auto& file : a.profiles) {
    auto loaded = conf::load_profile_file(file, file);
    if (!loaded.ok()) {
      std::cerr << "sse-conform certify: the profile does not load:\n" << loaded.error_text();
      return exit_usage;
    }
    o.profiles.push_back(std::move(loaded.value));
  }
  // The tags of NEW's spec folder when it has them, else the installed ones.
  fs::path tags = a.tags_file;
  if (tags.empty()) {
    tags = fs::is_directory(a.new_path) && fs::exists(fs::path(a.new_path) / "tags.yaml")
               ? fs::path(a.new_path) / "tags.yaml"
               : ssec::data_dir() / "spec/tags.yaml";
  }
  auto tag_list = load_tags_saying_why(tags.string(), "certify");
  if (!tag_list) return exit_usage;
  o.tags = std::move(*tag_list);
  auto plan = conf::parse_chunking_plan(a.case_chunkings);
  if (!plan) {
    std::cerr << "sse-conform certify: --case-chunkings: " << plan.error().message << '\n';
    return exit_usage;
  }
  o.case_plan = plan.value();
  o.probe_random = a.probe_random;
  o.timeout = std::chrono::milliseconds(a.timeout_ms);
  o.fail_on_existing = a.fail_on_existing;
  o.allow_unchecked = a.allow_unchecked;
  o.deadline_s = a.deadline_s;

  const auto progress = [&a](const std::string& line) {
    if (!a.quiet) std::cerr << line << '\n';
  };
  // SIGINT, SIGTERM, SIGHUP: forwarded to the consumers, then the reports of
  // what finished, marked interrupted, and exit 128 + the signal (certify.md).
  const interrupt_guard guard;
  o.interrupt = &guard.signal();
  const certify::report r = certify::run(o, progress);

  std::string out;
  if (a.format == "json") out = dump_line(certify::to_json(r)) + "\n";
  else if (a.format == "markdown") out = certify::to_markdown(r);
  else if (a.format == "html") out = certify::to_html(r);
  else if (a.format == "junit") out = certify::to_junit(r);
  else out = certify::to_text(r, colour_for(STDOUT_FILENO));
  std::cout << out << std::flush;
  if (!a.json.empty() && !write_output("certify", a.json, dump_line(certify::to_json(r)) + "\n")) return exit_usage;
  if (!a.junit.empty() && !write_output("certify", a.junit, certify::to_junit(r))) return exit_usage;
  if (!a.html.empty() && !write_output("certify", a.html, certify::to_html(r))) return exit_usage;
  if (!a.markdown.empty() && !write_output("certify", a.markdown, certify::to_markdown(r))) return exit_usage;
  return r.exit_status();
}

}  // namespace

void add_certify_command(CLI::App& app, int& code) {
  auto a = std::make_shared<certify_args>();
  CLI::App* cmd = app.add_subcommand(
      "certify", "Release gate: OLD -> NEW contract against producers and consumers; exit 1 when something breaks");
  cmd->add_option("--old", a->old_path, "The contract consumers and producers were built for (spec folder or catalog)")
      ->check(CLI::ExistingPath);
  cmd->add_option("--against", a->against, "OLD is NEW's path at this git revision (as catalog diff --against)");
  cmd->add_option("--new", a->new_path, "The contract to certify (spec folder or catalog file)")
      ->required()
      ->check(CLI::ExistingPath);
  cmd->add_option("--producer", a->producers, "A live producer URL (repeatable)")->allow_extra_args(false);
  cmd->add_option("--capture", a->captures, "A producer's capture (check --record) or stream file (repeatable)")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  cmd->add_option("--scenario", a->scenarios, "A scenario file: each request is a producer (repeatable)")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  cmd->add_option("--dialect", a->dialect, "The producers' dialect (a scenario request's own dialect wins)");
  cmd->add_option("--consumer", a->consumers, "A consumer's adapter command at a dialect layer (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--baseline", a->baselines,
                  "DIALECT=FILE: a recorded stream or capture of DIALECT, probed besides the generated baseline "
                  "(repeatable; at most 1 MiB and 1000 frames)")
      ->allow_extra_args(false);
  cmd->add_option("--profile", a->profiles, "A consumer profile (repeatable); paired with the consumer of its name")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", a->format, "Standard output: text, json, markdown, html or junit")
      ->check(CLI::IsMember({"text", "json", "markdown", "html", "junit"}))
      ->capture_default_str();
  cmd->add_option("--json", a->json, "Also write the JSON report (certify_format 1) to FILE");
  cmd->add_option("--junit", a->junit, "Also write a JUnit XML report to FILE");
  cmd->add_option("--html", a->html, "Also write an HTML report to FILE");
  cmd->add_option("--markdown", a->markdown, "Also write a markdown summary to FILE (a pull-request comment)");
  cmd->add_option("--case-chunkings", a->case_chunkings,
                  "Chunkings of NEW's cases on the reference and consumers (as run --chunkings)")
      ->capture_default_str();
  cmd->add_option("--probe-random", a->probe_random, "Seeded random chunkings per probe, besides whole and bytes")
      ->capture_default_str()
      ->check(CLI::Range(0u, 64u));
  cmd->add_option("--timeout-ms", a->timeout_ms, "Per exchange with a consumer")
      ->capture_default_str()
      ->check(CLI::Range(1, 600000));
  cmd->add_option("--tags", a->tags_file, "The tag list for NEW's generated cases (default: NEW's or the built-in)");
  cmd->add_flag("-q,--quiet,--no-progress", a->quiet, "No progress lines on standard error");
  cmd->add_flag("--fail-on-existing", a->fail_on_existing,
                "Also fail on what already fails under OLD (reported either way, not a break)");
  cmd->add_flag("--allow-unchecked", a->allow_unchecked,
                "Do not fail on a changed dialect that no producer, consumer or profile checked");
  cmd->add_option("--deadline-s", a->deadline_s,
                  "The whole run's budget in seconds: past it nothing new starts and the run fails (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cmd->callback([a, &code] { code = run_certify(*a); });
}

}  // namespace ssec::cli
