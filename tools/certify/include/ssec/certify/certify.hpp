// SPDX-License-Identifier: MIT
// The release gate behind `sse-conform certify` (tools/docs/certify.md):
// given the OLD and NEW contract, producers (live URLs, captures or stream
// files) and consumers (adapter commands, consumer profiles), it generates
// NEW's cases and runs them on the reference, validates each producer
// against NEW (saying which findings are new since OLD), checks each profile
// statically, runs each consumer on NEW's cases and on the probe streams
// (conformance/probes.hpp) and gives a verdict per producer and consumer.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/consumer_profile.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/probes.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/support/result.hpp"

namespace ssec::certify {

/// The certify JSON report's format version (tools/docs/certify.md).
inline constexpr int certify_format_version = 1;

/// A recorded baseline is refused over these (tools/docs/certify.md, "Recorded baselines").
inline constexpr std::uint64_t max_baseline_bytes = std::uint64_t{1} << 20;
inline constexpr std::size_t max_baseline_frames = 1000;

/// A recorded baseline stream (`--baseline DIALECT=FILE`): its frames are the
/// known events of the probes built on it (conformance::make_probes_on).
struct recorded_baseline {
  std::string name;  ///< "recorded-<n>", n its 1-based place among the --baseline options.
  std::string dialect;
  std::string file;
  std::vector<conformance::probe_frame> frames;
};

/// Reads a recorded baseline (a raw SSE stream or a check --record capture),
/// refusing a file over max_baseline_bytes before reading it, a stream that
/// does not decode (invalid UTF-8, an unterminated last frame), over
/// max_baseline_frames frames, or breaking one of NEW's MUST rules; the
/// error names the file and the frame or byte offset.
result<recorded_baseline> load_baseline(const std::string& file, const std::string& dialect,
                                        const sse::dialect::catalog& next, std::string name);

struct options {
  std::shared_ptr<const sse::dialect::catalog> old_contract;
  std::shared_ptr<const sse::dialect::catalog> new_contract;
  std::string old_name, new_name;  ///< How the report names them (the paths given).
  conformance::tag_list tags;      ///< For loading NEW's generated cases.
  std::string producer_dialect;    ///< The dialect producers are validated as (a scenario request: its own).
  std::vector<std::string> producer_urls;
  std::vector<std::string> captures;   ///< Capture files (check --record) or raw stream files.
  std::vector<std::string> scenarios;  ///< Scenario files (tools/docs/scenario-format.md): each request a producer.
  std::vector<std::string> consumers;  ///< Adapter commands (/bin/sh -c).
  std::vector<conformance::consumer_profile> profiles;
  std::vector<recorded_baseline> baselines;  ///< Probed besides the generated baseline of their dialect.
  conformance::chunking_plan case_plan;      ///< Chunkings of NEW's cases for the reference and consumers.
  unsigned probe_random = 2;                 ///< Seeded random chunkings per probe (besides whole and bytes).
  std::chrono::milliseconds timeout{5000};   ///< Per exchange with a consumer.
  double producer_timeout_s = 30;
  std::size_t producer_max_events = 10000;
  /// A failure a consumer already has under OLD (the same probe, or the same
  /// generator slot of a case, failing the same way) is reported, never a
  /// break; true: it fails the run too (`--fail-on-existing`).
  bool fail_on_existing = false;
  /// A changed dialect that no producer, consumer or profile checked is
  /// `unchecked` and fails the run unless this is true (`--allow-unchecked`).
  bool allow_unchecked = false;
  /// The whole run's budget (`--deadline-s`): past it, no exchange starts and
  /// the report lists what is unfinished, as on an interruption. 0: none.
  double deadline_s = 0;
  /// Non-zero (a signal number) stops the run: no new subject starts, the
  /// one in progress is dropped, report::interrupted_by and
  /// report::unfinished say so. Set from another thread (interrupt.hpp);
  /// nullptr: never.
  const std::atomic<int>* interrupt = nullptr;
};

/// A verdict of one subject (the contract, a producer, a consumer).
enum class verdict { certified, warned, broke };
/// "certified", "certified-with-warnings", "broke".
std::string to_string(verdict v);

/// One line of the catalog diff, as the report shows it.
struct contract_change {
  std::string rule, dialect, event, field, reader, writer, message, fingerprint;
};

struct reference_report {
  std::size_t cases = 0;                    ///< NEW's generated cases.
  std::size_t new_cases = 0;                ///< Of them, not among OLD's (by path).
  std::size_t disagreements = 0;            ///< Cases the reference fails: the contract cannot be certified.
  std::vector<std::string> first_failures;  ///< Up to 5 reports.
};

struct producer_report {
  std::string source;
  std::string dialect;  ///< The dialect it was validated as.
  verdict result = verdict::certified;
  std::string error;  ///< Could not be read (then broke).
  std::size_t frames = 0;
  std::size_t must = 0, should = 0;  ///< Against NEW.
  std::size_t old_must = 0;          ///< Against OLD.
  struct finding {
    std::string rule, severity, message;
    std::optional<std::size_t> frame;
    bool new_since_old = false;
    bool at_end = false;  ///< At the end of the stream (`frame` is then the frame count).
  };
  std::vector<finding> findings;
};

struct probe_report {
  std::string id, klass, description, chunking;
  std::string baseline = "generated";  ///< "generated", or the recorded baseline's name ("recorded-1").
  conformance::probe_grade grade = conformance::probe_grade::tolerated;
  conformance::outcome outcome = conformance::outcome::pass;
  std::string reason;
  std::string reproduce;  ///< The probe's stream under the failing chunking, escaped (broke only).
  std::string injected;   ///< The injected or changed frames, each quoted (what the probe adds to the baseline).
  /// Broke, and broke the same way under OLD (OLD's probe of the same id, or
  /// OLD's baseline when OLD has no such probe): not a break.
  bool existing = false;
  std::string old_reason;  ///< What OLD's run of it gave (broke only).
};

struct consumer_report {
  std::string command;  ///< Empty for a profile checked on its own.
  std::string name;     ///< From hello, or the profile.
  std::string profile;  ///< The profile file, or empty.
  std::vector<std::string> dialects;
  verdict result = verdict::certified;
  std::string error;  ///< Setup failure (no hello): broke.
  std::vector<conformance::profile_finding> static_findings;
  std::vector<probe_report> probes;
  std::size_t tolerated = 0, adopted = 0, broke = 0;
  std::size_t existing = 0;  ///< Probes broke under NEW and the same way under OLD (not in `broke`).
  /// Types the consumer stops on by design, recognised without a profile:
  /// its baseline with an `error`-like frame is rejected, without it accepted.
  std::vector<std::string> aborts_on_inferred;
  /// NEW's cases on the consumer: counts by outcome name, and those in NEW only.
  std::map<std::string, std::size_t> cases;
  std::size_t case_new_broke = 0;
  /// NEW's cases that break the consumer: an error or timeout, or a
  /// rejection, where OLD's case of the same generator slot (case path) did
  /// not fail so (a case OLD lacks: error or timeout only).
  std::size_t case_broke = 0;
  std::size_t case_existing = 0;           ///< Failing the same way under OLD: reported, not a break.
  std::vector<std::string> case_failures;  ///< Breaking cases: the case id and the consumer's message, up to 5.
  std::vector<std::string> case_existing_failures;  ///< Already failing under OLD, up to 5.
};

/// A dialect the catalog diff changes, and who checked it.
struct dialect_check {
  std::string dialect;
  std::vector<std::string> checked_by;  ///< "producer SRC", "consumer NAME", "profile FILE".
  std::string via;                      ///< A profile dialect checked through its base ("chat"), else empty.
  bool unchecked() const noexcept { return checked_by.empty(); }
};

struct report {
  std::string old_name, new_name, old_version, new_version;
  /// Each dialect with a change at WARN or ERR for a role, in diff order; an
  /// unchecked one fails the run unless allow_unchecked. With no such change,
  /// "*" stands for the run: unchecked when no subject ran at all.
  std::vector<dialect_check> dialects;
  bool allow_unchecked = false, fail_on_existing = false;
  bool deadline_reached = false;  ///< options::deadline_s passed: the report lacks `unfinished`.
  bool diff_available = false;
  std::vector<contract_change> changes;
  verdict contract = verdict::certified;
  std::string contract_reason;
  reference_report reference;
  std::vector<producer_report> producers;
  std::vector<consumer_report> consumers;
  double seconds = 0;
  int interrupted_by = 0;  ///< The signal that stopped the run (options::interrupt), 0 if none.
  /// When interrupted: what the report lacks, in the order it would have run
  /// ("reference: 412 of 1076 cases checked", "consumer CMD", "producer URL").
  std::vector<std::string> unfinished;

  /// certified when something was checked, nothing broke, and the run was
  /// neither interrupted nor out of time.
  bool certified() const noexcept;
  /// Changed dialects nothing checked.
  std::vector<std::string> unchecked() const;
  /// The exit status: 0 certified, 1 something breaks, 128 + the signal when interrupted.
  int exit_status() const noexcept;
};

/// Progress lines for a console ("consumer chat transcript builder: 12/40 probes").
using progress_callback = std::function<void(const std::string& line)>;

/// Runs everything. Never throws; a subject that cannot be run is reported
/// broke with its reason.
report run(const options& o, const progress_callback& progress = {});

// Outputs (certify_report.cpp).
nlohmann::ordered_json to_json(const report& r);
std::string to_text(const report& r, bool colour = false);
std::string to_markdown(const report& r);
std::string to_html(const report& r);
std::string to_junit(const report& r);

}  // namespace ssec::certify
