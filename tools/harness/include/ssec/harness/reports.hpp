// SPDX-License-Identifier: MIT
// The reports of a run (tools/docs/run.md): console summary, JSON for
// machines, JUnit XML for CI, one self-contained HTML page for people, and
// the conformance matrix built from several JSON reports.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/harness/engine.hpp"
#include "ssec/support/result.hpp"

namespace ssec::harness {

/// Version of the JSON report shape ("format_version"); members are only added.
inline constexpr int report_format_version = 1;

/// Console: every failure in full, then counts per layer and per tag, then
/// one verdict line. `colour` adds ANSI colours.
void print_console(std::ostream& out, const run_result& r, const run_options& o, bool colour);

/// The JSON report (shape in tools/docs/run.md).
nlohmann::ordered_json to_json_report(const run_result& r, const run_options& o);

/// JUnit XML: one <testsuite> per layer, one <testcase> per case.
std::string to_junit(const run_result& r, const run_options& o);

/// One HTML page, no external resources, no script: a PASS / FAIL banner and
/// the per-layer table first, then the cases that did not pass (failures,
/// errors, timeouts, stale baseline entries before the rest), then the passed
/// and the skipped cases each in a closed <details> (hidden until opened).
/// Each case names its file:line as a link to `<link_prefix><file>#L<line>`
/// (the path as the case set names it; the prefix, ending in `/` when not
/// empty, leads from the page's folder to where that path starts, and is not
/// put before an absolute path); an empty event log reads "(no events)".
std::string to_html(const run_result& r, const run_options& o, const std::string& link_prefix = "");

/// Which part of the matrix matrix_markdown() writes.
enum class matrix_part {
  /// Every layer and layer/tag row, then the cases each implementation does
  /// not pass (tools/docs/matrix.md).
  full,
  /// The README's part: the wire layer by tag, and a dialect layer only where
  /// a column other than the first (the reference: matrix.sh runs it first)
  /// graded one of its cases; no case lists.
  readme,
};

/// The conformance matrix as Markdown from JSON reports (one per adapter):
/// one row per layer (all its cases) and per layer/tag, one column per
/// adapter with pass/graded (graded: cases not skipped; "n/a" when none), then
/// per adapter the cases that did not pass, each linking to its case file
/// line as `<link_prefix><file>#L<line>` (an absolute file path is not prefixed).
std::string matrix_markdown(const std::vector<nlohmann::json>& reports, const std::string& link_prefix,
                            matrix_part part = matrix_part::full);

/// Where a `run --json` report read back (--matrix-from) lacks the shape
/// merge_shard_reports and matrix_markdown read, naming the member
/// ("cases[3].layer: expected a string, got number"); empty when it has it.
/// Only the members they read are checked (the format only gains members),
/// and an absent one is fine (each has a default) except `adapter`.
std::string report_shape_problem(const nlohmann::json& report);

/// Merges the reports of a sharded run (`run --shard K/N --json`, whose
/// `options.shard` is "K/N") into one report per adapter (same command, name
/// and version), as the unsharded run would have written it: the cases in
/// case-file order, totals and `must_cases` recomputed, `exit` the worst,
/// `seconds` the longest shard's, `options.shards` = N instead of `shard`.
/// Reports without a shard pass through unchanged, in order (merged reports
/// stand where their first shard stood). An error when a case is in two
/// shards, a shard is given twice, shards disagree on N, or one is missing.
result<std::vector<nlohmann::json>> merge_shard_reports(std::vector<nlohmann::json> reports);

/// Result lines `<impl>  <topic>_<id>  <STATUS>` (one per case, the
/// project's line format; `serve --browser-results` writes them, see
/// tools/docs/serve.md) as JSON reports of the `run --json` shape, one per
/// impl in order of appearance, so that the matrix reads one shape only.
/// `cases` is the case tree the names refer to; each report lists all of
/// them, in order. Status to outcome: conformance::outcome_from_result_status
/// (PASS and IMPL_ACCEPT pass; FAIL is fail, non-strict for a `should` case;
/// IMPL_DIFFER informational; TIMEOUT timeout; CRASH error; SKIPPED skip). Skipped as well, with the reason: a
/// case of a dialect layer (the line grades the wire events only), a case
/// that sets parser limits (as `run` skips it for adapters; in both the
/// status is kept in the reason), and a case with no line. The adapter's name is the
/// impl without a `browser:` prefix; `adapter.results_file` is `display`.
/// An error (file `display`, the line) on a line that is not three fields,
/// an unknown case or status, or a case listed twice for one impl.
result<std::vector<nlohmann::ordered_json>> reports_from_result_lines(std::string_view text, std::string_view display,
                                                                      const std::vector<conformance::test_case>& cases);

/// The run's exit status: 0 when nothing counts as a failure
/// (baseline.hpp counts_as_failure), 1 otherwise; 2 on a setup error.
int exit_status(const run_result& r, bool strict);

/// How many MUST cases were graded, and why the others were not (the skip
/// reasons, counted). A run is conforming only on the graded ones; every
/// report says so when some were not.
struct must_grading {
  std::size_t graded = 0;
  std::size_t not_graded = 0;
  std::map<std::string, std::size_t> reasons;
  /// "conforming on the N graded MUST cases; M not graded: reason (k), ..."
  /// or "all N MUST cases graded".
  std::string sentence(bool passed) const;
};
must_grading grading_of_must_cases(const run_result& r);

/// exit_status(r, o.strict), and 1 when o.require_all and a MUST case was
/// not graded.
int exit_status(const run_result& r, const run_options& o);

}  // namespace ssec::harness
