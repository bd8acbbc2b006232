// SPDX-License-Identifier: MIT
// The harness engine: selects cases, drives one or more adapter processes
// (adapter protocol v1, tools/docs/adapter-protocol.md) through every
// selected case under every selected chunking, and grades each case
// (tools/docs/run.md). A misbehaving adapter never stops or hangs a run.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/adapter_process.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/harness/grading.hpp"

namespace ssec::harness {

/// "wire/<topic>/<id>": a case's stable hierarchical id (the 4-character
/// case id never changes, so neither does this while the case stays in its file).
std::string case_path(const conformance::test_case& c);

/// Glob match: `*` any run of characters (slashes included), `?` one character.
bool glob_match(std::string_view pattern, std::string_view text) noexcept;

/// Which cases run. A case is selected when its layer is in `layers` (empty:
/// all), its path matches one of `run` (empty: all), its path matches none
/// of `skip`, and, when `filter` is set, its path, name or one of its tags
/// matches `filter`.
struct selection {
  std::vector<std::string> layers;
  std::vector<std::string> run;
  std::vector<std::string> skip;
  std::string filter;
};
/// The selected cases, in the order of `all`.
std::vector<const conformance::test_case*> select_cases(const std::vector<conformance::test_case>& all,
                                                        const selection& s);

/// Reads one chunking by its report name ("whole", "as-written", "bytes",
/// "split@17", "random(seed=12345)"); nullopt with the reason in `why`.
std::optional<conformance::chunking> chunking_from_name(std::string_view name, std::string* why);

/// What the adapter said in its hello.
struct adapter_info {
  std::string name;
  std::string version;
  std::vector<std::string> layers;
  std::optional<std::vector<std::string>> capabilities;  ///< nullopt: omitted, meaning all.
};

/// Sends hello to `proc` (starting it if needed) and checks the answer.
/// nullopt with the reason (and the stderr tail) in `why` when the adapter
/// does not start, does not answer in `timeout`, or answers anything but a
/// well-formed protocol-1 hello.
std::optional<adapter_info> say_hello(adapter_process& proc, std::chrono::milliseconds timeout, std::string* why);

struct run_options {
  std::string impl;                                   ///< The adapter command (/bin/sh -c).
  conformance::chunking_plan plan;                    ///< Which chunkings (ignored when `only_chunking`).
  std::optional<conformance::chunking> only_chunking; ///< Exactly this chunking (for reproducing one failure).
  std::chrono::milliseconds timeout{5000};            ///< Per exchange (one case under one chunking).
  std::chrono::milliseconds hello_timeout{10000};
  unsigned jobs = 1;                                  ///< Adapter processes in parallel.
  bool strict = false;                                ///< non-strict becomes fail.
  std::size_t max_answer_bytes = std::size_t{64} << 20;
  /// How a reproduce command starts: this tool, `run`, --impl and the options
  /// that change answers (--cases, --timeout-ms); the engine appends --run and --chunking.
  std::string reproduce_prefix = "sse-conform run";
};

/// The details of the first chunking that went wrong in a case.
struct failure_detail {
  std::string chunking;          ///< Its report name, e.g. "random(seed=123)".
  std::size_t chunk_count = 0;
  std::string input;             ///< The chunks, escaped (conformance::describe_chunks).
  std::string expected;          ///< The expected log (external view).
  std::string received;          ///< What the adapter answered, or what went wrong.
  std::string first_difference;  ///< Where the logs first differ, or the error.
  std::string stderr_tail;       ///< The adapter's stderr (error / timeout).
  std::string reproduce;         ///< One command that reproduces exactly this failure.
};

struct case_result {
  const conformance::test_case* c = nullptr;
  std::string path;                 ///< case_path(*c)
  harness::outcome outcome = harness::outcome::pass;
  std::string reason;               ///< Skip reason, or a one-line summary of what went wrong.
  std::size_t chunkings_run = 0;
  std::size_t chunkings_failed = 0;
  std::optional<failure_detail> failure;
  bool baselined = false;           ///< Listed in the baseline (see baseline.hpp).
  bool stale = false;               ///< Listed in the baseline, but passed.
  double seconds = 0;
};

struct run_result {
  std::string setup_error;          ///< Non-empty: the run could not start (exit 2).
  adapter_info adapter;
  std::vector<case_result> cases;   ///< In selection order, whatever `jobs`.
  double seconds = 0;
};

/// Called after each case (from worker threads, serialized by the engine).
using progress_callback = std::function<void(std::size_t done, std::size_t total, const case_result&)>;

/// Runs `cases` against `options.impl`. Every case ends with an outcome; a
/// setup error (no hello from the first adapter) leaves `cases` empty.
run_result run_cases(const std::vector<const conformance::test_case*>& cases, const run_options& options,
                     const progress_callback& progress = {});

/// The shell-quoted form of `s` ('...' with ' escaped), for commands in reports.
std::string shell_quote(std::string_view s);

}  // namespace ssec::harness
