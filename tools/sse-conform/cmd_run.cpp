// SPDX-License-Identifier: MIT
// `sse-conform run`: the conformance cases against any implementation behind
// the adapter protocol (tools/docs/run.md), with console, JSON, JUnit and
// HTML reports, baselines, and the conformance matrix (--matrix-from).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "data_dir.hpp"
#include "ssec/adapter/interrupt.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/harness/baseline.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/harness/progress.hpp"
#include "ssec/harness/reports.hpp"
#include "ssec/harness/service.hpp"

namespace ssec::cli {
namespace {

namespace conf = ssec::conformance;
namespace h = ssec::harness;
namespace fs = std::filesystem;

struct run_args {
  std::string impl;
  std::string service;
  std::vector<std::string> layers, run, skip;
  std::string filter;
  std::string cases_dir;
  std::string tags_file;
  std::string chunkings = "all";
  std::string chunking;
  std::uint64_t seed = 0;
  bool seed_given = false;
  int timeout_ms = 5000;
  int hello_timeout_ms = 10000;
  int timeout_per_mib_ms = static_cast<int>(h::time_budget{}.per_mib.count());
  int timeout_per_kchunk_ms = static_cast<int>(h::time_budget{}.per_kchunk.count());
  unsigned jobs = 1;
  std::string junit, json, html, baseline, write_baseline;
  bool strict = false, list = false, no_progress = false, require_all = false;
  double progress_s = 5;
  std::size_t max_answer_bytes = std::size_t{64} << 20;
  std::vector<std::string> matrix_from;
  std::string matrix_out, matrix_links;
  std::string matrix_part = "full";
  std::string shard;
  std::size_t max_in_flight = h::run_options{}.max_in_flight;
};

// The case tree of --cases / --tags (default: the data directory's); nullopt
// after printing the errors.
// `--layer client` reads the client cases (conformance/clients/) instead.
std::optional<std::vector<conf::test_case>> load_cases(const run_args& a) {
  const fs::path source = ssec::data_dir();
  const bool clients = std::find(a.layers.begin(), a.layers.end(), "client") != a.layers.end();
  const std::string tree = clients ? "conformance/clients" : "conformance/cases";
  case_source from;
  from.cases = a.cases_dir.empty() ? (source / tree).string() : a.cases_dir;
  from.cases_display = a.cases_dir.empty() ? tree : a.cases_dir;
  from.tags = a.tags_file.empty() ? (source / "spec/tags.yaml").string() : a.tags_file;
  auto loaded = load_cases_saying_why(from, "run");
  if (!loaded.ok) return std::nullopt;
  return std::move(loaded.cases);
}

// The HTML report's case links lead from the page's folder to the case files:
// a case's file is named relative to the data directory (the default case
// tree) or to the working directory (--cases as given).
std::string html_link_prefix(const run_args& a) {
  std::error_code root_ec, page_ec;
  const fs::path root = fs::weakly_canonical(a.cases_dir.empty() ? ssec::data_dir() : fs::current_path(), root_ec);
  const fs::path page = a.html == "-" ? fs::current_path() : fs::absolute(a.html).parent_path();
  const fs::path rel = root.lexically_relative(fs::weakly_canonical(page, page_ec));
  if (root_ec) return {};
  if (page_ec || rel.empty()) return root.generic_string() + "/";
  return rel == "." ? std::string() : rel.generic_string() + "/";
}

// --matrix-from takes `run --json` reports and result-line files (what
// `serve --browser-results` writes); the latter become reports of the same
// shape first (reports_from_result_lines), so the matrix reads one shape.
int run_matrix(const run_args& a) {
  std::vector<nlohmann::json> reports;
  std::optional<std::vector<conf::test_case>> loaded;
  for (const auto& file : a.matrix_from) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      std::cerr << "sse-conform run: " << file << ": cannot read\n";
      return exit_usage;
    }
    const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!j.is_discarded()) {
      if (!j.is_object() || j.value("format", nlohmann::json()) != "sse-conform-run") {
        std::cerr << "sse-conform run: " << file << ": not a JSON report of `sse-conform run --json`\n";
        return exit_usage;
      }
      if (const std::string problem = h::report_shape_problem(j); !problem.empty()) {
        std::cerr << "sse-conform run: " << file << ": " << problem << "\n";
        return exit_usage;
      }
      reports.push_back(j);
      continue;
    }
    if (!loaded && !(loaded = load_cases(a))) return exit_usage;
    const auto from_lines = h::reports_from_result_lines(text.str(), file, *loaded);
    if (!from_lines) {
      std::cerr << "sse-conform run: " << from_lines.error().to_string()
                << "\n(--matrix-from takes `run --json` reports and `serve --browser-results` files)\n";
      return exit_usage;
    }
    for (const auto& r : *from_lines) reports.push_back(nlohmann::json::parse(r.dump()));
  }
  // Shards of one run (`--shard K/N`) become one column again.
  const auto merged = h::merge_shard_reports(std::move(reports));
  if (!merged) {
    std::cerr << "sse-conform run: --matrix-from: " << merged.error().message << "\n";
    return exit_usage;
  }
  reports = *merged;
  const std::string md = h::matrix_markdown(reports, a.matrix_links,
                                            a.matrix_part == "readme" ? h::matrix_part::readme : h::matrix_part::full);
  if (a.matrix_out.empty() || a.matrix_out == "-") std::cout << md;
  else if (!write_output("run", a.matrix_out, md)) return exit_usage;
  return exit_ok;
}

int run(const run_args& a) {
  if (!one_stdout_output("run", {{"--json", a.json},
                                 {"--junit", a.junit},
                                 {"--html", a.html},
                                 {"--write-baseline", a.write_baseline},
                                 {"--matrix-out", a.matrix_out}}))
    return exit_usage;
  if (!a.matrix_from.empty()) return run_matrix(a);
  const auto loaded_or = load_cases(a);
  if (!loaded_or) return exit_usage;
  const std::vector<conf::test_case>& loaded = *loaded_or;
  for (const auto& l : a.layers) {
    if (!conf::layer_from_string(l)) {
      std::cerr << "sse-conform run: unknown layer `" << l << "` (known: wire, chat, code, agent, workflow, client)\n";
      return exit_usage;
    }
  }
  std::optional<h::shard> part;
  if (!a.shard.empty()) {
    const auto parsed = h::shard_from_string(a.shard);
    if (!parsed) {
      std::cerr << "sse-conform run: --shard: " << parsed.error().message << "\n";
      return exit_usage;
    }
    part = *parsed;
  }
  const auto selected = h::select_cases(loaded, h::selection{a.layers, a.run, a.skip, a.filter, part});
  if (a.list) {
    for (const auto* c : selected) std::cout << h::case_path(*c) << "  " << c->name << "\n";
    return exit_ok;
  }
  if (a.impl.empty() == a.service.empty()) {
    std::cerr << "sse-conform run: exactly one of --impl COMMAND and --service URL is required (or --list, or "
                 "--matrix-from)\n";
    return exit_usage;
  }
  if (!a.service.empty() && (a.jobs != 1 || a.chunkings != "all" || !a.chunking.empty() || a.seed_given)) {
    std::cerr << "sse-conform run: --service runs the cases one at a time, each served as written over HTTP: "
                 "--jobs, --chunkings, --chunking and --seed do not apply\n";
    return exit_usage;
  }
  // A shard may hold no case of a small selection: an empty report, not an error.
  if (selected.empty() && !part) {
    std::cerr << "sse-conform run: no case matches the selection\n";
    return exit_usage;
  }

  h::run_options o;
  o.impl = a.impl;
  o.service = a.service;
  const auto plan = conf::parse_chunking_plan(a.chunkings);
  if (!plan) {
    std::cerr << "sse-conform run: --chunkings: " << plan.error().message << "\n";
    return exit_usage;
  }
  o.plan = *plan;
  if (a.seed_given) o.plan.seed = a.seed;
  if (!a.chunking.empty()) {
    const auto only = h::chunking_from_name(a.chunking);
    if (!only) {
      std::cerr << "sse-conform run: --chunking: " << only.error().to_string() << "\n";
      return exit_usage;
    }
    o.only_chunking = *only;
  }
  if (a.timeout_ms <= 0 || a.jobs == 0) {
    std::cerr << "sse-conform run: --timeout-ms and --jobs must be positive\n";
    return exit_usage;
  }
  if (a.timeout_per_mib_ms < 0 || a.timeout_per_kchunk_ms < 0) {
    std::cerr << "sse-conform run: --timeout-per-mib-ms and --timeout-per-kchunk-ms must not be negative\n";
    return exit_usage;
  }
  o.timeout.base = std::chrono::milliseconds(a.timeout_ms);
  o.hello_timeout = std::chrono::milliseconds(a.hello_timeout_ms);
  o.timeout.per_mib = std::chrono::milliseconds(a.timeout_per_mib_ms);
  o.timeout.per_kchunk = std::chrono::milliseconds(a.timeout_per_kchunk_ms);
  o.jobs = a.jobs;
  o.strict = a.strict;
  o.require_all = a.require_all;
  o.max_answer_bytes = a.max_answer_bytes;
  o.max_in_flight = a.max_in_flight;
  if (part) o.shard = part->name();
  // The line starts in the directory the run started in: --impl is shell
  // text whose relative paths only it can resolve (so are --cases and --tags).
  std::error_code cwd_error;
  const auto cwd = std::filesystem::current_path(cwd_error);
  o.reproduce_prefix =
      (cwd_error ? std::string() : "cd " + h::shell_quote(cwd.string()) + " && ") + h::shell_quote(self_path()) +
      " run " + (a.service.empty() ? "--impl " + h::shell_quote(a.impl) : "--service " + h::shell_quote(a.service));
  if (!a.cases_dir.empty()) o.reproduce_prefix += " --cases " + h::shell_quote(a.cases_dir);
  if (!a.tags_file.empty()) o.reproduce_prefix += " --tags " + h::shell_quote(a.tags_file);
  if (a.timeout_ms != 5000) o.reproduce_prefix += " --timeout-ms " + std::to_string(a.timeout_ms);
  if (a.hello_timeout_ms != 10000) o.reproduce_prefix += " --hello-timeout-ms " + std::to_string(a.hello_timeout_ms);
  if (o.timeout.per_mib != h::time_budget{}.per_mib)
    o.reproduce_prefix += " --timeout-per-mib-ms " + std::to_string(a.timeout_per_mib_ms);
  if (o.timeout.per_kchunk != h::time_budget{}.per_kchunk) {
    o.reproduce_prefix += " --timeout-per-kchunk-ms " + std::to_string(a.timeout_per_kchunk_ms);
  }
  if (a.strict) o.reproduce_prefix += " --strict";

  std::optional<h::baseline> base;
  if (!a.baseline.empty()) {
    auto loaded_base = h::load_baseline(a.baseline);
    if (!loaded_base) {
      std::cerr << "sse-conform run: " << loaded_base.error().to_string() << "\n";
      return exit_usage;
    }
    base = std::move(loaded_base).value();
  }

  // A bar on a terminal, a line every few seconds elsewhere (a CI log).
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  h::progress_callback progress;
  if (!a.no_progress && (terminal ? selected.size() > 20 : a.progress_s > 0)) {
    auto printer = std::make_shared<h::progress_printer>(std::cerr, "run", terminal, a.progress_s);
    auto failed = std::make_shared<std::size_t>(0);
    progress = [printer, failed, strict = a.strict](std::size_t done, std::size_t total, const h::case_result& r) {
      *failed += h::counts_as_failure(r, strict);
      printer->update(done, total, *failed);
    };
  }
  // SIGINT, SIGTERM, SIGHUP: forwarded to the adapters, then the reports of
  // what finished, marked interrupted, and exit 128 + the signal (run.md).
  std::optional<interrupt_guard> guard;
  if (o.service.empty()) {
    guard.emplace();
    o.interrupt = &guard->signal();
  }
  h::run_result result =
      o.service.empty() ? h::run_cases(selected, o, progress) : h::run_service(selected, o, progress);
  if (!result.setup_error.empty()) {
    std::cerr << "sse-conform run: setup error: " << result.setup_error << "\n";
    return exit_usage;
  }
  if (base) h::apply_baseline(*base, result.cases);

  const char* no_color = std::getenv("NO_COLOR");
  const bool colour = ::isatty(STDOUT_FILENO) && !(no_color && *no_color);
  // A report on standard output (`--json -`) replaces the console summary there.
  const bool report_on_stdout = a.json == "-" || a.junit == "-" || a.html == "-" || a.write_baseline == "-";
  if (report_on_stdout) h::print_console(std::cerr, result, o, colour_for(STDERR_FILENO));
  else h::print_console(std::cout, result, o, colour);
  bool written = true;
  if (!a.json.empty()) written &= write_output("run", a.json, h::to_json_report(result, o).dump(2) + "\n");
  if (!a.junit.empty()) written &= write_output("run", a.junit, h::to_junit(result, o));
  if (!a.html.empty()) written &= write_output("run", a.html, h::to_html(result, o, html_link_prefix(a)));
  if (!a.write_baseline.empty())
    written &= write_output("run", a.write_baseline, h::write_baseline(result.cases, o.strict));
  if (!written) return exit_usage;
  return h::exit_status(result, o);
}

}  // namespace

void add_run_command(CLI::App& app, int& code) {
  auto args = std::make_shared<run_args>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run the conformance cases against an implementation's adapter (tools/docs/run.md)");
  cmd->add_option("--impl", args->impl, "The adapter command, run through /bin/sh -c (adapter protocol 1)");
  cmd->add_option(
      "--service", args->service,
      "Instead of --impl: an sse-contract-tests test service's URL; the wire cases are served to it over HTTP");
  cmd->add_option("--layer", args->layers,
                  "Only these layers (wire, chat, code, agent, workflow; client: the client cases); repeatable");
  cmd->add_option("--cases", args->cases_dir,
                  "Directory of case files (default: the data directory's conformance/cases; with --layer client, "
                  "conformance/clients; tools/docs/cli.md)");
  cmd->add_option("--tags", args->tags_file, "The tag list (default: the data directory's spec/tags.yaml)");
  cmd->add_option("--run", args->run, "Only cases whose id matches this glob (e.g. 'wire/bom/*'); repeatable");
  cmd->add_option("--skip", args->skip, "Leave out cases whose id matches this glob; repeatable");
  cmd->add_option("--filter", args->filter, "Only cases whose id, name or a tag matches this glob");
  cmd->add_option("--chunkings", args->chunkings, "whole,as-written,bytes,splits,random:N or all (default all)");
  cmd->add_option("--chunking", args->chunking,
                  "Exactly one chunking as reports name it: whole, bytes, split@N, random(seed=N)");
  cmd->add_option_function<std::uint64_t>(
      "--seed",
      [a = args.get()](const std::uint64_t& s) {
        a->seed = s;
        a->seed_given = true;
      },
      "Seed of the random chunkings (mixed with each case id)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "Base time for one case under one chunking (default 5000)")
      ->check(at_least(1));
  cmd->add_option("--hello-timeout-ms", args->hello_timeout_ms,
                  "Time an adapter has to start and answer hello, at every (re)start (default 10000)")
      ->check(in_range(1, 3600000));
  cmd->add_option("--timeout-per-mib-ms", args->timeout_per_mib_ms, "Added per MiB of request (see tools/docs/run.md)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd->add_option("--timeout-per-kchunk-ms", args->timeout_per_kchunk_ms, "Added per 1000 chunks of request")
      ->capture_default_str()
      ->check(at_least(0));
  cmd->add_option("--jobs", args->jobs, "Adapter processes in parallel (default 1)")->check(in_range(1u, 1024u));
  cmd->add_option("--json", args->json, "Write the JSON report here");
  cmd->add_option("--junit", args->junit, "Write JUnit XML here");
  cmd->add_option("--html", args->html, "Write the self-contained HTML report here");
  cmd->add_option("--baseline", args->baseline,
                  "Expected failures: listed failures do not fail the run, listed passes do");
  cmd->add_option("--write-baseline", args->write_baseline, "Write a baseline of this run's failures here");
  cmd->add_flag("--strict", args->strict, "Grade a missed SHOULD (non-strict) as a failure");
  cmd->add_flag("--require-all", args->require_all,
                "Fail the run (exit 1) when any MUST case was not graded (skipped for a layer, a capability, limits)");
  cmd->add_flag("--list", args->list, "List the selected case ids and names, run nothing");
  cmd->add_flag("-q,--quiet,--no-progress", args->no_progress,
                "No progress bar on a terminal, no progress lines elsewhere");
  cmd->add_option("--progress-s", args->progress_s,
                  "Off a terminal (CI logs), a progress line on stderr this often (0 = none)")
      ->capture_default_str()
      ->check(at_least(0.0));
  cmd->add_option("--shard", args->shard,
                  "Run part K of N (e.g. 2/4): a stable split by case id; the N reports merge with --matrix-from");
  cmd->add_option("--max-in-flight", args->max_in_flight,
                  "Most requests in flight per adapter that declares max_in_flight (default 64; 1: one at a time)")
      ->check(in_range<std::size_t>(1, 4096));
  cmd->add_option("--max-answer-bytes", args->max_answer_bytes, "Largest accepted answer line (default 64 MiB)")
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--matrix-from", args->matrix_from,
                  "Render the conformance matrix from these `run --json` reports and `serve --browser-results` files; "
                  "runs nothing");
  cmd->add_option("--matrix-out", args->matrix_out, "Write the matrix here (default stdout)");
  cmd->add_option("--matrix-links", args->matrix_links, "Prefix of the case-file links in the matrix (e.g. ../../)");
  cmd->add_option("--matrix-part", args->matrix_part,
                  "full: every row and the cases not passing (tools/docs/matrix.md); readme: the wire layer by tag "
                  "and the dialect layers another column graded")
      ->check(CLI::IsMember({"full", "readme"}))
      ->capture_default_str();
  cmd->callback([args, &code] { code = run(*args); });
}

}  // namespace ssec::cli
