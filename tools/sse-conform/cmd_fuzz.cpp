// SPDX-License-Identifier: MIT
// `sse-conform fuzz`: differential fuzzing of implementations behind the
// adapter protocol against the reference, each divergence shrunk to a case
// file (tools/docs/fuzz.md). Glue only: the work is ssec::differential.
#include <unistd.h>

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
#include "ssec/conformance/loader.hpp"
#include "ssec/differential/fuzzer.hpp"

namespace ssec::cli {
namespace {

namespace conf = ssec::conformance;
namespace diff = ssec::differential;
namespace fs = std::filesystem;

struct fuzz_args {
  std::vector<std::string> impls;
  std::string layer = "wire";
  double budget = 60;
  std::uint64_t seed = 1;
  std::uint64_t max_execs = 0;
  std::string out = "fuzz-findings";
  unsigned jobs = 1;
  std::string json;
  std::string replay;
  int timeout_ms = 2000;
  int hello_timeout_ms = 10000;
  std::size_t max_fingerprints = 64;
  std::size_t max_exemplars = 3;
  double shrink_seconds = 10;
  double progress_s = 10;
  bool no_progress = false;
  std::string shard;
  conformance::contract_source contract;
};

int replay(const fuzz_args& a) {
  case_source from{a.replay, (ssec::data_dir() / "spec/tags.yaml").string(), {}, "spec/tags.yaml", "--replay"};
  const auto loaded = load_cases_saying_why(from, "fuzz");
  if (!loaded.ok) {
    std::cerr << "sse-conform fuzz: --replay " << a.replay << ": not a folder of loadable case files\n";
    return exit_usage;
  }
  std::vector<const conf::test_case*> cases;
  for (const auto& c : loaded.cases) cases.push_back(&c);
  // `--json -` puts the JSON on standard output; the text goes to stderr.
  std::ostream& text = a.json == "-" ? std::cerr : std::cout;
  int code = exit_ok;
  nlohmann::ordered_json j{{"fuzz_format", diff::fuzz_format_version},
                           {"interrupted", nullptr},
                           {"replay", nlohmann::ordered_json::array()}};
  // SIGINT, SIGTERM, SIGHUP stop the replay as they stop `run` (fuzz.md).
  const interrupt_guard guard;
  for (const auto& impl : a.impls) {
    harness::run_options o;
    o.impl = impl;
    o.timeout.base = std::chrono::milliseconds(a.timeout_ms);
    o.hello_timeout = std::chrono::milliseconds(a.hello_timeout_ms);
    o.interrupt = &guard.signal();
    const diff::replay_report r = diff::replay(cases, o);
    if (!r.setup_error.empty()) {
      std::cerr << "sse-conform fuzz: " << impl << ": setup error: " << r.setup_error << "\n";
      return exit_usage;
    }
    std::size_t failing = 0;
    for (const auto& e : r.entries) {
      text << e.status << "  " << e.path << "  " << e.file << "  (" << e.detail << ")\n";
      failing += e.status == "still-failing";
      j["replay"].push_back(
          {{"impl", impl}, {"case", e.path}, {"file", e.file}, {"status", e.status}, {"detail", e.detail}});
    }
    text << impl << ": " << failing << " of " << r.entries.size() << " findings still failing\n";
    if (r.interrupted_by != 0) {
      text << "INTERRUPTED by " << interrupt_guard::name(r.interrupted_by) << ": " << r.entries.size() << " of "
           << r.selected << " findings replayed against " << impl << "\n";
      j["interrupted"] = interrupt_guard::name(r.interrupted_by);
      code = r.exit_code();
      break;
    }
    code = std::max(code, r.exit_code());
  }
  if (!a.json.empty() && !write_output("fuzz", a.json, j.dump(2) + "\n")) return exit_usage;
  return code;
}

int fuzz(const fuzz_args& a) {
  if (a.impls.empty()) {
    std::cerr << "sse-conform fuzz: --impl COMMAND is required (repeat it to compare several)\n";
    return exit_usage;
  }
  const auto layer = conf::layer_from_string(a.layer);
  if (!layer) {
    std::cerr << "sse-conform fuzz: unknown layer `" << a.layer << "` (known: wire, chat, code, agent, workflow)\n";
    return exit_usage;
  }
  if (!a.replay.empty()) return replay(a);

  diff::fuzz_options o;
  o.impls = a.impls;
  o.layer = *layer;
  if (*layer != conf::layer::wire) {
    const auto chosen = resolve_layer_or_say_why(a.layer, a.contract, "fuzz");
    if (!chosen) return exit_usage;
    o.contract = chosen->contract;
  }
  o.budget_seconds = a.budget;
  o.seed = a.seed;
  o.max_execs = a.max_execs;
  if (!a.shard.empty()) {
    const auto part = harness::shard_from_string(a.shard);
    if (!part) {
      std::cerr << "sse-conform fuzz: --shard: " << part.error().message << "\n";
      return exit_usage;
    }
    o.shard = *part;
  }
  o.out_dir = a.out;
  o.jobs = a.jobs;
  o.timeout = std::chrono::milliseconds(a.timeout_ms);
  o.hello_timeout = std::chrono::milliseconds(a.hello_timeout_ms);
  if (a.hello_timeout_ms != fuzz_args{}.hello_timeout_ms)
    o.run_options += " --hello-timeout-ms " + std::to_string(a.hello_timeout_ms);
  o.max_fingerprints = a.max_fingerprints;
  o.max_exemplars = a.max_exemplars;
  o.shrink_seconds = a.shrink_seconds;
  o.reference_version = std::string("sse-conform ") + SSEC_VERSION;
  o.tool = harness::shell_quote(self_path());
  const fs::path source = ssec::data_dir();
  o.seeds = diff::load_seeds(source / "conformance/cases", source / "spec/tags.yaml", source / "corpus", o.layer);

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  std::function<void(const diff::fuzz_progress&)> progress;
  auto every = std::chrono::milliseconds(static_cast<std::int64_t>(a.progress_s * 1000));
  if (!a.no_progress && terminal) {
    every = std::chrono::milliseconds(250);
    progress = [](const diff::fuzz_progress& p) { std::cerr << "\r\x1b[K" << diff::progress_line(p) << std::flush; };
  } else if (!a.no_progress && a.progress_s > 0) {
    progress = [](const diff::fuzz_progress& p) { std::cerr << diff::progress_line(p) << std::endl; };
  }
  // SIGINT, SIGTERM, SIGHUP: forwarded to the adapters, then the summary of
  // what finished, marked interrupted, and exit 128 + the signal (fuzz.md).
  const interrupt_guard guard;
  o.interrupt = &guard.signal();
  const diff::fuzz_report r = diff::run_fuzz(o, progress, every);
  if (progress && terminal) std::cerr << "\r\x1b[K";
  // `--json -` puts the JSON on standard output; the summary text goes to stderr.
  (a.json == "-" ? std::cerr : std::cout) << diff::summary_text(r, o);
  if (!a.json.empty() && !write_output("fuzz", a.json, diff::summary_json(r, o).dump(2) + "\n")) return exit_usage;
  return r.exit_code();
}

}  // namespace

void add_fuzz_command(CLI::App& app, int& code) {
  auto args = std::make_shared<fuzz_args>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz",
      "Differential fuzzing: generated streams through an implementation and the reference; each divergence "
      "shrunk to a case file (tools/docs/fuzz.md)");
  cmd->add_option("--impl", args->impls,
                  "The adapter command, run through /bin/sh -c (adapter protocol 1); repeat to compare several");
  cmd->add_option("--layer", args->layer, "wire, chat, code, agent or workflow")->capture_default_str();
  cmd->add_option("--budget", args->budget, "Seconds of fuzzing (shrinking a new finding may add a little)")
      ->check(in_range(0.0, 1e7))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "The generator's seed: the same seed gives the same samples")
      ->capture_default_str();
  cmd->add_option("--max-execs", args->max_execs, "Stop after this many samples (0: the budget alone)")
      ->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "Run part K of N (e.g. 2/4) of the samples: those whose index i has i mod N == K-1; with "
                  "--max-execs the N shards of one seed run the unsharded samples exactly once");
  cmd->add_option("--out", args->out,
                  "Write each finding here as <impl name>/<fingerprint>.yaml (a subfolder per --impl, named "
                  "from its hello); checked before fuzzing (exit 2 when it cannot be written)")
      ->capture_default_str();
  cmd->add_option("--jobs", args->jobs, "Workers, each with its own adapter processes")
      ->check(in_range(1u, 256u))
      ->capture_default_str();
  cmd->add_option("--json", args->json, "Write the summary as JSON (fuzz_format 1) to this file, - for stdout");
  cmd->add_option("--replay", args->replay,
                  "Re-run the findings saved in this folder against --impl, each under its written chunking; "
                  "says fixed or still-failing for each");
  cmd->add_option("--timeout-ms", args->timeout_ms, "Per request; a slower answer is an adapter.timeout finding")
      ->check(in_range(1, 3600000))
      ->capture_default_str();
  cmd->add_option("--hello-timeout-ms", args->hello_timeout_ms,
                  "Time an adapter has to start and answer hello, at every (re)start")
      ->check(in_range(1, 3600000))
      ->capture_default_str();
  cmd->add_option("--max-fingerprints", args->max_fingerprints, "Findings kept per implementation")
      ->check(in_range<std::size_t>(1, 100000))
      ->capture_default_str();
  cmd->add_option("--exemplars", args->max_exemplars,
                  "Cases kept per fingerprint: a later sample whose shrunk lines take another shape is kept too")
      ->check(in_range<std::size_t>(1, 16))
      ->capture_default_str();
  cmd->add_option("--shrink-seconds", args->shrink_seconds, "Time to shrink one finding")
      ->check(in_range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--progress", args->progress_s, "Seconds between progress lines when stderr is not a terminal")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet,--no-progress", args->no_progress, "No progress on stderr");
  add_contract_options(cmd, args->contract);
  cmd->callback([args, &code] { code = fuzz(*args); });
}

}  // namespace ssec::cli
