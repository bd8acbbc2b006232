// SPDX-License-Identifier: MIT
// Scenario files for `sse-conform check --scenario` (tools/docs/scenario-format.md,
// version 1): a deployment driven through several requests, each checked as
// a single `check` would be, plus the event types it must (and must not)
// produce. Loading reports every problem as an ssec::error with its
// file:line:column; running needs the network.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/parser.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

/// The scenario format version this build reads.
inline constexpr int scenario_format_version = 1;

/// What one scenario file may build (request bodies, values after ${NAME}
/// expansion, the `defaults` headers each request copies): 16 MiB. Less than
/// a case file's budget (ssec::yaml::default_build_budget): request bodies
/// are prompts, and a loader bounded this way stays fast under a fuzzer.
inline constexpr std::uint64_t scenario_build_budget = std::uint64_t{16} << 20;

/// How long and how much one request may read (`limits:`).
struct scenario_limits {
  double timeout_s = 0;        ///< The whole exchange; 0 = none (the default). Striking it is STREAM-TIMEOUT.
  double idle_timeout_s = 30;  ///< Longest silence; 0 = none. Striking it is STREAM-IDLE-TIMEOUT.
  double max_time_s = 0;       ///< Sample for this long, then judge (not a finding); 0 = off.
  std::uint64_t max_bytes = 64ull << 20;  ///< Stop after this many body bytes (not a finding); 0 = none.
  std::size_t max_events = 0;             ///< Stop after this many events (not a finding); 0 = none.
  sse::limits parser;                     ///< max_line, max_event_data of the reference parser.
};

/// The event types a request must and must not produce (`expect:`). Types
/// are the dialect's `type` values; "(plain_text)" and "(error_frame)" name
/// the frames that are not structured events; with the wire dialect they
/// are SSE event types ("message" by default).
struct scenario_expect {
  std::vector<std::string> sequence;  ///< Must appear in this order (other events may come between).
  std::vector<std::string> includes;  ///< Must each appear at least once, in any order.
  std::vector<std::string> excludes;  ///< Must not appear.
};

/// One request, defaults applied and ${NAME} expanded.
struct scenario_request {
  std::string name;
  std::size_t line = 0;                              ///< 1-based line of the request in the file.
  std::string url;                                   ///< Expanded: what is requested.
  std::string shown_url;                             ///< As written (variables unexpanded): what reports show.
  std::string method;                                ///< Empty: GET, or POST when there is a body.
  std::vector<std::string> headers;                  ///< "Name: value", expanded.
  std::string body;                                  ///< `body` expanded, or the bytes of `body_file` as they are.
  std::string dialect = "wire";                      ///< "wire" or a built-in dialect.
  const sse::dialect::dialect_spec* spec = nullptr;  ///< Null for "wire".
  scenario_limits limits;
  bool resume = false;  ///< Try Last-Event-ID resumption after the stream.
  scenario_expect expect;
};

struct scenario {
  std::string name;
  std::size_t line = 0;
  std::vector<scenario_request> requests;
};

/// A loaded scenario file.
struct scenario_file {
  std::string display;  ///< The file as errors and reports name it.
  std::vector<scenario> scenarios;
  std::vector<std::string> secrets;  ///< Every expanded variable's value: redacted in every report.
  /// The catalogs the requests' dialects come from (their `spec` points into it).
  std::shared_ptr<const sse::dialect::catalog> contract;
};

/// Loads a scenario file's text. `display` names it in errors; `base_dir`
/// is where `body_file` paths are relative to. Enforces the schema (unknown
/// keys, wrong types, missing fields, duplicate keys, unknown dialects and
/// event types, unset variables, unreadable body files), each error with
/// its line and column. Reads the environment for ${NAME}; no network.
/// The value is the loaded file; any error means nothing runs. Dialects and
/// event types come from `contract` (null: the built-in catalogs).
/// `build_budget`: what the file may build (the fuzzing harness gives less:
/// the same booking and refusals, sooner).
ssec::load_result<scenario_file> load_scenario_text(std::string_view text, std::string_view display,
                                                    const std::filesystem::path& base_dir,
                                                    std::shared_ptr<const sse::dialect::catalog> contract = nullptr,
                                                    std::uint64_t build_budget = scenario_build_budget);

/// The same from a file (base_dir: the file's directory).
ssec::load_result<scenario_file> load_scenario_file(const std::filesystem::path& path, std::string_view display,
                                                    std::shared_ptr<const sse::dialect::catalog> contract = nullptr);

/// One event as the expectations see it.
struct typed_event {
  std::string type;
  std::size_t frame = 0;     ///< 0-based index among the stream's events.
  std::uint64_t offset = 0;  ///< Offset of its block in its stream.
  std::size_t stream = 0;    ///< 0: first response; 1: resumed.
};

/// The types of a stream's events: the dialect's decoded type ("(plain_text)",
/// "(error_frame)" for frames that are not structured), or the SSE type when
/// `d` is null. `stream` is copied into each.
std::vector<typed_event> event_types(std::string_view bytes, const sse::dialect::dialect_spec* d,
                                     const sse::limits& lim, std::size_t stream = 0);

/// Adds a finding to `r` for each unmet expectation (all severity must):
/// SCENARIO-REQUIRED-TYPE (a type of `sequence` or `includes` never came),
/// SCENARIO-ORDER (a `sequence` type came, but not after the one before
/// it), SCENARIO-FORBIDDEN-TYPE (an `excludes` type came: its first one).
/// Pure.
void check_expectations(const scenario_expect& x, const std::vector<typed_event>& seen, check_report& r);

struct scenario_options {
  bool verify_tls = true;
  std::string ca_file;                 ///< check --cacert: the CA certificates to verify servers with.
  bool http2_prior_knowledge = false;  ///< check --http2-prior-knowledge.
  std::uint64_t chunking_seeds = 16;
  double heartbeat_s = 0;
  bool resume = false;  ///< Try resumption after every request (as if each said `resume: true`).
  bool strict = false;  ///< Findings of decision-based rules fail the request too (check --strict).
};

struct request_result {
  std::string name;
  std::size_t line = 0;
  std::string method;
  check_report report;  ///< A single check's findings plus SCENARIO-*; already redacted.
  std::vector<std::pair<std::string, std::size_t>> type_counts;  ///< Types seen, in order of first arrival.
  bool setup_error() const noexcept { return report.end == "connect_error"; }
};

struct scenario_result {
  std::string name;
  std::size_t line = 0;
  std::vector<request_result> requests;
  bool conforming() const noexcept;
};

/// Runs every request of every scenario in file order, one at a time, each
/// bounded by its limits. Never throws for a failing endpoint.
std::vector<scenario_result> run_scenarios(const scenario_file& f, const scenario_options& o);

/// Runs one request (what run_scenarios does per request).
request_result run_request(const scenario_request& q, const scenario_options& o,
                           const std::vector<std::string>& secrets);

/// Console text: per scenario, per request the check report and its types,
/// then a verdict per scenario and overall.
std::string to_text(const scenario_file& f, const std::vector<scenario_result>& results);
/// JSON (documented in tools/docs/scenario-format.md, "Reports").
nlohmann::ordered_json to_json(const scenario_file& f, const std::vector<scenario_result>& results);
/// JUnit: one testsuite per scenario, testcases per request and level.
std::string to_junit(const scenario_file& f, const std::vector<scenario_result>& results);

}  // namespace ssec::live
