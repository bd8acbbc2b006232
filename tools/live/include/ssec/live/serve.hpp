// SPDX-License-Identifier: MIT
// `sse-conform serve` (tools/docs/serve.md): the conformance cases over real
// HTTP, each written chunk as its own write, with fault injection selected by
// query parameters, and a browser page that runs the browser's own
// EventSource against the cases and posts what it saw back.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/grading.hpp"
#include "ssec/http/server.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

/// A stream to serve besides the cases (`/stream/<name>`): bytes and the
/// sizes of the writes (empty: one write).
struct served_stream {
  std::string name;
  std::string bytes;
  std::vector<std::size_t> chunks;
};

/// One row of the conformance matrix from a browser run (or a test service).
struct browser_row {
  std::string impl;  ///< "browser:" + a short user-agent name.
  std::string case_name;
  conformance::outcome outcome = conformance::outcome::pass;
  conformance::verdict verdict = conformance::verdict::must;  ///< The case's, for the status line (IMPL_ACCEPT).
  std::string detail;                             ///< Why it did not pass: the first difference, the skip reason.
  std::optional<conformance::mismatch> mismatch;  ///< For the mismatch outcomes.
  /// The outcome in the result line format: PASS, FAIL, IMPL_ACCEPT,
  /// IMPL_DIFFER, TIMEOUT, CRASH or SKIPPED (conformance::to_result_status).
  std::string_view status() const noexcept { return conformance::to_result_status(outcome, verdict); }
};

/// Limits every fault respects, so a served fault never outlives its test.
struct serve_limits {
  double max_stall_s = 600;                      ///< Longest stall.
  std::uint64_t max_endless_bytes = 1ull << 30;  ///< The endless line stops here (or when the client leaves).
  int max_delay_ms = 60000;                      ///< Cap on delay_ms and drip_ms.
};

/// The serve handlers over an ssec::http::server. Thread-safe.
class case_server {
 public:
  /// Serves `cases` at /case/<layer>/<topic>/<id> (test_case::path(); the
  /// older /case/<test_name> is still served), plays those of `layer:
  /// client` at /client/ (a fresh play per POST /clients/<path>, listed at
  /// /clients.json) and serves `streams` at /stream/<name> on
  /// address:port (0 = any free port): the running server, or why it could
  /// not start (http::server::start's error).
  static ssec::result<std::unique_ptr<case_server>> start(std::vector<conformance::test_case> cases,
                                                          std::vector<served_stream> streams,
                                                          std::string address = "127.0.0.1", std::uint16_t port = 0,
                                                          serve_limits limits = {});
  ~case_server();
  case_server(const case_server&) = delete;
  case_server& operator=(const case_server&) = delete;

  std::string base_url() const;
  void stop();

  /// Browser results posted to /results so far, graded against the cases:
  /// the latest of each case from each kind of browser (a later post
  /// replaces a case's row), in the order first posted.
  std::vector<browser_row> browser_rows() const;
  /// Waits until a browser posted its results (true) or `timeout` passed.
  bool wait_for_browser(std::chrono::milliseconds timeout) const;
  /// How many result posts were graded so far (a page run again posts again).
  std::size_t browser_posts() const;

  struct state;  ///< Implementation detail, shared with the connection handlers.

 private:
  case_server() = default;
  std::shared_ptr<state> state_;
  std::unique_ptr<http::server> server_;
};

/// The rows as the matrix's line format: "impl  case  STATUS" per line.
std::string matrix_lines(const std::vector<browser_row>& rows);

/// What a browser's results come to: how many cases had each status, and
/// the verdict on the MUST cases (a failed, crashed or timed-out MUST case is
/// a failure; a skipped one was not graded, and the verdict says so).
struct browser_grade {
  std::string impl;                             ///< "browser:chromium", ...; empty when there are no rows.
  std::map<std::string, std::size_t> statuses;  ///< PASS, FAIL, IMPL_ACCEPT, ... → cases.
  std::size_t cases = 0;
  std::size_t must_graded = 0;
  std::size_t must_failed = 0;
  std::size_t must_not_graded = 0;
  bool conforming() const noexcept { return cases > 0 && must_failed == 0; }
  /// "browser:chromium: 1310 cases: 1200 PASS, 2 FAIL, 108 SKIPPED; MUST
  /// cases: 2 failed of 900 graded, 40 not graded: NOT conforming".
  std::string sentence() const;
};
browser_grade grade_of(const std::vector<browser_row>& rows);

/// Grades what a browser's EventSource (or a test service) saw for one case,
/// {"status":"ended"|"failed"|"timeout","events":[{"type","data","lastEventId"}]},
/// with the one grader (conformance::grade_answer on the wire events; a
/// failed connection is a rejection). Cases whose expectation a browser
/// cannot show (a `retry` value) are skipped; "timeout" is a timeout.
browser_row grade_browser(const conformance::test_case& c, const std::string& impl, const nlohmann::json& seen,
                          bool strict = false);

}  // namespace ssec::live
