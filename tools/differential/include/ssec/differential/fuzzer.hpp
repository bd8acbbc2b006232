// SPDX-License-Identifier: MIT
// `sse-conform fuzz` (tools/docs/fuzz.md): differential fuzzing of one or
// more implementations behind the adapter protocol against the reference,
// each new divergence shrunk and written as a case file that `sse-conform
// run --impl CMD --cases DIR` reproduces; and the replay of saved findings.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/differential/oracle.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/support/result.hpp"

namespace ssec::differential {

/// The version of the JSON summary (`fuzz_format`), tools/docs/fuzz.md.
inline constexpr int fuzz_format_version = 1;

struct fuzz_options {
  std::vector<std::string> impls;  ///< Adapter commands (/bin/sh -c); at least one.
  conformance::layer layer = conformance::layer::wire;
  std::shared_ptr<const sse::dialect::catalog> contract;  ///< Dialect layers: the catalog the layer comes from.
  double budget_seconds = 60;                             ///< Time for generating and running samples.
  std::uint64_t seed = 1;
  std::uint64_t max_execs = 0;  ///< Stop after this many samples (0: only the budget stops).
  /// Run only the samples of this shard (`--shard K/N`): sample indices i
  /// with i mod N == K-1 (sample_index). With a shard, `max_execs` bounds
  /// the index, so the N shards of one seed and max_execs run exactly the
  /// unsharded run's samples between them.
  std::optional<harness::shard> shard;
  std::filesystem::path out_dir = "fuzz-findings";
  unsigned jobs = 1;
  std::chrono::milliseconds timeout{2000};         ///< Per request; a slower answer is an `adapter.timeout` finding.
  std::chrono::milliseconds hello_timeout{10000};  ///< An adapter's start and hello, at every (re)start.
  /// The `run` options a finding's reproduce command carries beyond the
  /// defaults (e.g. `--hello-timeout-ms N`), so it runs as the fuzzer ran.
  std::string run_options;
  std::size_t max_fingerprints = 64;  ///< Per implementation; later new fingerprints are counted, not kept.
  double shrink_seconds = 10;         ///< Per finding.
  std::size_t shrink_tests = 4000;    ///< Per finding.
  /// Per fingerprint, the cases kept: a later sample with that fingerprint
  /// whose value differs at other characters (divergence::detail; at most 4
  /// tries per further case) is shrunk too, and kept when its shrunk lines
  /// take another shape (trigger_shape): two bugs can share a name.
  std::size_t max_exemplars = 3;
  std::vector<std::string> seeds;  ///< Streams to mutate (load_seeds).
  std::string reference_version;   ///< "sse-conform 0.4.0", for provenance.
  std::string tool;                ///< How the reproduce command starts ("sse-conform").
  /// Non-zero (a signal number) stops the run: no new sample starts, the
  /// sample in progress is dropped, a finding being shrunk is written as
  /// shrunk so far, fuzz_report::interrupted_by says so. Set from another
  /// thread (interrupt.hpp); nullptr: never.
  const std::atomic<int>* interrupt = nullptr;
};

/// The inputs of the cases of `layer` under `cases_dir` (all layers' cases
/// feed the wire layer) and, for the wire layer, the files of
/// `corpus_dir/sse_parse_fuzzer` up to 4 KiB; a directory that does not
/// exist gives nothing. Sorted, without duplicates, so a seed is reproducible.
std::vector<std::string> load_seeds(const std::filesystem::path& cases_dir, const std::filesystem::path& tags_file,
                                    const std::filesystem::path& corpus_dir, conformance::layer layer);

/// The folder name of an implementation under --out: its hello name with
/// every byte outside [A-Za-z0-9._-] made `_`, never empty, never starting
/// with a dot ("impl" is put before it).
std::string impl_dir_name(std::string_view hello_name);

/// Writes `text` to `file` without following a symbolic link there: into a
/// new file beside it (O_EXCL, O_NOFOLLOW), then renamed over it. An error
/// names the file and the system's reason.
ssec::result<void> write_finding_file(const std::filesystem::path& file, const std::string& text);

/// Makes `dir` (and its parents) and proves it writable by writing and
/// removing a file in it; an error when it cannot, or when `dir` or the
/// folder it is in is a symbolic link.
ssec::result<void> prepare_out_dir(const std::filesystem::path& dir);

/// `s` without its lines whose field name is one of `fields` (the name is
/// what comes before the first colon, the whole line without one; a
/// leading BOM is not part of it); cuts move with the removed bytes.
sample without_fields(const sample& s, const std::vector<std::string>& fields);

/// The index of the `n`-th sample (from 0) a run makes: `n`, or with a shard
/// K/N the `n`-th index i with i mod N == K-1. The generator makes sample i
/// from (seed, i) alone, so a shard's samples are the unsharded run's.
std::uint64_t sample_index(std::uint64_t n, const std::optional<harness::shard>& shard) noexcept;

/// A further case of a fingerprint, with another trigger_shape than the first's.
struct exemplar {
  std::string shape;  ///< trigger_shape (shrink.hpp) of its shrunk stream.
  std::size_t shrunk_bytes = 0;
  std::string shrunk_escaped;
  std::filesystem::path file;  ///< <fingerprint>.<n>.yaml, n from 2.
  std::string reproduce;
  std::string not_written;  ///< As finding::not_written.
};

/// One fingerprint of one implementation, with its exemplars: the first,
/// and up to fuzz_options::max_exemplars - 1 more (`also`).
struct finding {
  divergence d;                  ///< As first seen (grade, difference).
  std::uint64_t hits = 0;        ///< Samples that showed it.
  std::uint64_t first_exec = 0;  ///< The sample index that found it.
  std::size_t original_bytes = 0;
  std::size_t shrunk_bytes = 0;
  std::size_t shrunk_chunks = 0;
  std::size_t shrink_tests = 0;
  bool shrink_complete = false;
  std::filesystem::path file;  ///< Where it was written (empty: not kept, over max_fingerprints).
  std::string reproduce;       ///< One command that reproduces it.
  std::string shrunk_escaped;  ///< The shrunk chunks, escaped (describe_chunks).
  /// Non-empty when no file was written, and why: the shrunk case still
  /// needs a capability the adapter does not list (`run` would skip it), or
  /// the file could not be written. `file` and `reproduce` are then empty.
  std::string not_written;
  /// Two fingerprints when the shrunk case needs two bugs at once (it
  /// diverges otherwise when either of two of its lines is removed): a
  /// compound, labelled so and not counted as a bug of its own.
  std::vector<std::string> compound_of;
  /// A compound whose two parts an earlier compound has: that one's
  /// fingerprint; the case is then not written (`not_written` says so).
  std::string same_as;
  std::string shape;               ///< trigger_shape of the first exemplar, once shrunk.
  std::vector<exemplar> also;      ///< In the order found.
  std::size_t exemplar_tries = 0;  ///< Later samples shrunk to look for another trigger.
  /// The divergence::detail of each sample tried (bounded by the tries).
  std::set<std::string> tried_details;
};

/// Divergences where implementations answered alike and differ from the reference.
struct agreement {
  std::vector<std::string> impls;  ///< Their hello names.
  std::string fingerprint;         ///< The fingerprint of the first of them.
  std::uint64_t hits = 0;
};

struct impl_report {
  std::string command;
  harness::adapter_info info;
  std::string setup_error;  ///< Non-empty: its first hello failed (exit 2).
  std::uint64_t restarts = 0;
  std::uint64_t over_limit = 0;   ///< New fingerprints seen after max_fingerprints.
  std::vector<finding> findings;  ///< In the order found.
  std::filesystem::path dir;      ///< Where its findings are written: out_dir/<its hello name>.
  std::string write_error;        ///< Non-empty: a finding could not be written (exit 2).
};

struct fuzz_report {
  std::vector<impl_report> impls;
  std::vector<agreement> agreements;
  std::uint64_t execs = 0;
  double seconds = 0;
  std::size_t seed_streams = 0;
  int interrupted_by = 0;  ///< The signal that stopped the run (fuzz_options::interrupt), 0 if none.
  /// 0 clean (informational findings only), 1 a divergence, 2 setup error
  /// or a finding that could not be written, 128 + the signal when interrupted.
  int exit_code() const;
};

/// A snapshot for progress lines.
struct fuzz_progress {
  std::uint64_t execs = 0;
  double elapsed = 0;
  double budget = 0;
  std::size_t fingerprints = 0;
  std::size_t informational = 0;
};
/// "fuzz: 1234 execs, 456/s, 2 fingerprints (1 informational), 27 s left".
std::string progress_line(const fuzz_progress& p);

/// Runs the fuzzer; `progress` (if set) is called from the calling thread
/// about every `progress_every` while it runs, and once at the end.
fuzz_report run_fuzz(const fuzz_options& o, const std::function<void(const fuzz_progress&)>& progress = {},
                     std::chrono::milliseconds progress_every = std::chrono::milliseconds(1000));

/// The summary as text (what the command prints) and as JSON (fuzz_format 1).
std::string summary_text(const fuzz_report& r, const fuzz_options& o);
nlohmann::ordered_json summary_json(const fuzz_report& r, const fuzz_options& o);

/// One replayed finding: `still-failing`, `fixed` (passes now),
/// `informational` (differs where a decision leaves it open), `skip`.
struct replay_entry {
  std::string path;  ///< The case's path (layer/topic/id).
  std::string file;  ///< Its file:line.
  std::string status;
  std::string detail;  ///< The outcome and reason from the run engine.
};
struct replay_report {
  std::string setup_error;
  std::vector<replay_entry> entries;  ///< Only the finished ones when interrupted.
  int interrupted_by = 0;             ///< The signal that stopped the replay (run_options::interrupt), 0 if none.
  std::size_t selected = 0;           ///< How many findings were to be replayed.
  /// 1 when one is still failing, 0 otherwise, 2 on a setup error, 128 + the
  /// signal when interrupted.
  int exit_code() const;
};
/// Re-runs the cases `cases` (the files of a findings folder) through
/// `run`'s engine, each under its written chunking; `o.interrupt` stops it
/// as it stops `run`.
replay_report replay(const std::vector<const conformance::test_case*>& cases, const harness::run_options& o);

}  // namespace ssec::differential
