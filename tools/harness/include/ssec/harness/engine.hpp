// SPDX-License-Identifier: MIT
// The harness engine: selects cases, drives one or more adapter processes
// (adapter protocol v1, tools/docs/adapter-protocol.md) through every
// selected case under every selected chunking, and grades each case
// (tools/docs/run.md). A misbehaving adapter never stops or hangs a run.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/adapter/process.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/harness/grading.hpp"
#include "ssec/support/result.hpp"

namespace ssec::harness {

/// "wire/<topic>/<id>": a case's stable hierarchical id (the 4-character
/// case id never changes, so neither does this while the case stays in its file).
std::string case_path(const conformance::test_case& c);

/// Glob match: `*` any run of characters (slashes included), `?` one character.
bool glob_match(std::string_view pattern, std::string_view text) noexcept;

/// Part `index` of `count` (`--shard K/N`, 1 <= K <= N): a stable split that
/// depends on nothing but each item's own key, so N runs with the same
/// options cover the unsharded set exactly once, however the set changes.
struct shard {
  std::uint64_t index = 1;
  std::uint64_t count = 1;
  /// A case (by its path, "wire/bom/K7P2"): fmix64(fnv1a(path)) mod count == index - 1.
  bool holds(std::string_view key) const noexcept;
  /// A numbered item (a fuzz sample index): n mod count == index - 1.
  bool holds(std::uint64_t n) const noexcept { return n % count == index - 1; }
  std::string name() const;  ///< "K/N"
};
/// Reads "K/N" (1 <= K <= N <= 1000000); an error naming the form otherwise.
result<shard> shard_from_string(std::string_view text);

/// Which cases run. A case is selected when its layer is in `layers` (empty:
/// all), its path matches one of `run` (empty: all), its path matches none
/// of `skip`, when `filter` is set, its path, name or one of its tags
/// matches `filter`, and when `part` is set, the shard holds its path.
struct selection {
  std::vector<std::string> layers;
  std::vector<std::string> run;
  std::vector<std::string> skip;
  std::string filter;
  std::optional<shard> part;
};
/// The selected cases, in the order of `all`.
std::vector<const conformance::test_case*> select_cases(const std::vector<conformance::test_case>& all,
                                                        const selection& s);

/// Reads one chunking by its report name ("whole", "as-written", "bytes",
/// "split@17", "random(seed=12345)"); an error naming the known forms.
result<conformance::chunking> chunking_from_name(std::string_view name);

/// What the adapter said in its hello.
struct adapter_info {
  std::string name;
  std::string version;
  std::vector<std::string> layers;
  std::optional<std::vector<std::string>> capabilities;  ///< nullopt: omitted, meaning all.
  /// `max_in_flight` of the hello (adapter-protocol.md, "Pipelining"): how
  /// many parse requests the adapter accepts before answering the first,
  /// answered in request order. 1 (strictly one at a time) when omitted.
  std::size_t max_in_flight = 1;
};

/// Sends hello to `proc` (starting it if needed) and checks the answer.
/// An error with the reason (and the stderr tail) when the adapter does not
/// start, does not answer in `timeout`, or answers anything but a
/// well-formed protocol-1 hello (a `max_in_flight` that is not a positive
/// integer included).
result<adapter_info> say_hello(adapter_process& proc, std::chrono::milliseconds timeout);

/// How long one exchange (one case under one chunking) may take
/// (tools/docs/run.md, "Time budget"): the base timeout plus allowances in
/// proportion to the work every adapter must do for that request, reading
/// and decoding its bytes and feeding its chunks one by one. A small request
/// gets little more than the base, so a hang is still killed promptly; a
/// multi-MiB stream sent byte by byte gets the time linear work needs, and an
/// adapter slower than that (quadratic, say) still times out.
struct time_budget {
  std::chrono::milliseconds base{5000};      ///< --timeout-ms: any request.
  std::chrono::milliseconds per_mib{500};    ///< --timeout-per-mib-ms: per MiB (2^20 bytes) of request line.
  std::chrono::milliseconds per_kchunk{20};  ///< --timeout-per-kchunk-ms: per 1000 chunks.

  /// base + per_mib * request_bytes / 2^20 + per_kchunk * chunks / 1000,
  /// rounded up to whole milliseconds. No overflow for any request that fits in memory.
  std::chrono::milliseconds for_request(std::size_t request_bytes, std::size_t chunks) const noexcept;
};

struct run_options {
  std::string impl;                                    ///< The adapter command (/bin/sh -c).
  std::string service;                                 ///< Instead: a test service's URL (service.hpp, run_service).
  std::string shard;                                   ///< "K/N" when the selection is one shard (for the reports).
  conformance::chunking_plan plan;                     ///< Which chunkings (ignored when `only_chunking`).
  std::optional<conformance::chunking> only_chunking;  ///< Exactly this chunking (for reproducing one failure).
  time_budget timeout;                                 ///< Per exchange (one case under one chunking).
  std::chrono::milliseconds hello_timeout{10000};
  unsigned jobs = 1;         ///< Adapter processes in parallel.
  bool strict = false;       ///< non-strict becomes fail.
  bool require_all = false;  ///< A MUST case that was not graded fails the run (exit 1).
  std::size_t max_answer_bytes = std::size_t{64} << 20;
  /// Most parse requests in flight per adapter process, whatever larger
  /// `max_in_flight` the adapter declares; 1 turns pipelining off.
  std::size_t max_in_flight = 64;
  /// Most request bytes in flight per adapter process (one request is always allowed).
  std::size_t max_bytes_in_flight = std::size_t{4} << 20;
  /// Non-zero (a signal number) asks the engine to stop: no new case starts,
  /// the case in progress is dropped, run_result::interrupted_by says so.
  /// Set from another thread (interrupt.hpp); nullptr: never.
  const std::atomic<int>* interrupt = nullptr;
  /// How a reproduce command starts: this tool, `run`, --impl and the options
  /// that change answers (--cases, --timeout-ms); the engine appends --run and --chunking.
  std::string reproduce_prefix = "sse-conform run";
};

/// The budget of the exchange that timed out, for the report.
struct budget_detail {
  std::size_t request_bytes = 0;       ///< The request line's length.
  std::size_t chunks = 0;              ///< Chunks in the request.
  time_budget of;                      ///< The run's budget parameters.
  std::chrono::milliseconds total{0};  ///< of.for_request(request_bytes, chunks).
};

/// The details of the first chunking that went wrong in a case.
struct failure_detail {
  std::string chunking;  ///< Its report name, e.g. "random(seed=123)".
  std::size_t chunk_count = 0;
  std::string input;                    ///< The chunks, escaped (conformance::describe_chunks).
  std::string expected;                 ///< The expected log (external view).
  std::string received;                 ///< What the adapter answered, or what went wrong.
  std::string first_difference;         ///< Where the logs first differ, or the error.
  std::string stderr_tail;              ///< The adapter's stderr (error / timeout).
  std::string reproduce;                ///< One command that reproduces exactly this failure.
  std::optional<budget_detail> budget;  ///< Set on a timeout: the time the exchange had, and why.
};

struct case_result {
  const conformance::test_case* c = nullptr;
  std::string path;  ///< case_path(*c)
  harness::outcome outcome = harness::outcome::pass;
  std::string reason;  ///< Skip reason, or a one-line summary of what went wrong.
  std::size_t chunkings_run = 0;
  std::size_t chunkings_failed = 0;
  std::optional<failure_detail> failure;
  bool baselined = false;  ///< Listed in the baseline (see baseline.hpp).
  bool stale = false;      ///< Listed in the baseline, but passed.
  double seconds = 0;
};

struct run_result {
  std::string setup_error;  ///< Non-empty: the run could not start (exit 2).
  adapter_info adapter;
  std::vector<case_result> cases;  ///< In selection order, whatever `jobs`; only the finished ones when interrupted.
  double seconds = 0;
  int interrupted_by = 0;    ///< The signal that stopped the run (run_options::interrupt), 0 if none.
  std::size_t selected = 0;  ///< How many cases were selected (more than `cases` when interrupted).
};

/// Called after each case (from worker threads, serialized by the engine).
using progress_callback = std::function<void(std::size_t done, std::size_t total, const case_result&)>;

/// Runs `cases` against `options.impl`. Every case ends with an outcome; a
/// setup error (no hello from the first adapter) leaves `cases` empty.
run_result run_cases(const std::vector<const conformance::test_case*>& cases, const run_options& options,
                     const progress_callback& progress = {});

/// The id of the parse request for case `path` under chunking `chunking`
/// ("wire/bom/K7P2@split@3"): unique within a run, so an answer names the
/// one exchange it belongs to (an extra answer cannot pass for another's).
std::string request_id(std::string_view path, std::string_view chunking);

/// The `id` string of an answer line, nullopt when it is not a JSON object with one.
std::optional<std::string> answer_id(std::string_view line);

/// The parse request line (adapter protocol 1) for `chunks`, as
/// ssec::to_json(parse_request) would dump it but written directly: a
/// multi-MiB stream sent byte by byte is millions of chunks, and a JSON tree
/// of them costs far more time and memory than the line itself.
std::string parse_request_line(std::string_view id, std::string_view layer,
                               const std::vector<std::string_view>& chunks);

/// The shell-quoted form of `s` ('...' with ' escaped), for commands in reports.
std::string shell_quote(std::string_view s);

}  // namespace ssec::harness
