// SPDX-License-Identifier: MIT
// The reports of a run (tools/docs/run.md): console summary, JSON for
// machines, JUnit XML for CI, one self-contained HTML page for people, and
// the conformance matrix built from several JSON reports.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/harness/engine.hpp"

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

/// One HTML page, no external resources: summary, per-case detail, a filter by outcome.
std::string to_html(const run_result& r, const run_options& o);

/// The conformance matrix as Markdown from JSON reports (one per adapter):
/// one row per layer (all its cases) and per layer/tag, one column per
/// adapter with pass/graded (graded: cases not skipped; "n/a" when none), then
/// per adapter the cases that did not pass, each linking to its case file
/// line as `<link_prefix><file>#L<line>`.
std::string matrix_markdown(const std::vector<nlohmann::json>& reports, const std::string& link_prefix);

/// The run's exit status: 0 when nothing counts as a failure
/// (baseline.hpp counts_as_failure), 1 otherwise; 2 on a setup error.
int exit_status(const run_result& r, bool strict);

/// Escapes text for HTML / XML element content and attribute values.
std::string xml_escape(std::string_view s);

}  // namespace ssec::harness
