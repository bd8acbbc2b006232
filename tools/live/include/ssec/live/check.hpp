// SPDX-License-Identifier: MIT
// The check engine behind `sse-conform check` (tools/docs/check.md): judges a
// response (live, from a capture, or from standard input) at three levels:
// the HTTP response and transport, the wire (including re-parsing under many
// chunkings), and the dialect's producer rules (the very code path of
// `sse-conform validate`: sse::dialect::validate_stream on the same bytes).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/dialect/validator.hpp"
#include "sse/parser.hpp"
#include "ssec/http/client.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

struct check_options {
  const sse::dialect::dialect_spec* dialect = nullptr;  ///< Null: wire checks only.
  sse::limits limits;                                   ///< Reference parser limits (also the validator's).
  std::size_t max_events = 0;         ///< Live: stop after this many events; 0 = no limit. Not a failure.
  std::uint64_t chunking_seeds = 16;  ///< Seeded random re-parses (plus whole, per-byte up to 64 KiB, as received).
  double heartbeat_s = 0;             ///< Report silences longer than this (should); 0 = off.
  double burst_min_s = 0.5;  ///< A stream lasting longer than this whose events all came in one read is "buffered".
  bool strict = false;       ///< --strict: findings of decision-based rules fail the check too.
  /// When set, called with each producer finding the report will list, as
  /// soon as its frame has been judged, while a stream (standard input or
  /// an HTTP response) is still being read; on the producer rules' thread,
  /// one call at a time. End-of-stream findings are in the report only.
  std::function<void(const sse::dialect::finding&)> on_finding{};
};

/// One finding: a producer rule from the catalog, or a transport/wire rule
/// of check itself (ids in tools/docs/check.md: HTTP-*, STREAM-*, WIRE-*).
struct check_finding {
  std::string rule;
  std::string severity;              ///< "must" or "should".
  std::optional<std::size_t> frame;  ///< 0-based frame index, when the finding concerns one.
  std::uint64_t offset = 0;          ///< Byte offset in the received body (of `stream`).
  std::string message;
  std::string expected;
  std::string seen;
  std::size_t stream = 0;  ///< 0: the first response; 1: the resumed one (Last-Event-ID).
  /// What a catalog rule's severity rests on: "document", "decision" or "authored", and
  /// the line sse::dialect::basis_text gives; both empty for the tool's own
  /// findings (connection, limits, scenario expectations).
  std::string basis{};
  std::string grounds{};
  bool at_end = false;  ///< At the end of the stream, after the last frame (`frame` is then the frame count).
};

struct check_timing {
  double first_byte = -1;   ///< Seconds to the first body byte; -1: none / untimed.
  double first_event = -1;  ///< Seconds to the arrival of the piece completing the first event.
  double last_byte = -1;
  double total = 0;
  double max_gap = 0;        ///< Longest silence between received pieces.
  double max_event_gap = 0;  ///< Longest time between two events.
  double mean_event_gap = 0;
};

/// The outcome of a Last-Event-ID resumption attempt (tools/docs/check.md,
/// "Resumption"). `verdict` is one of:
///  - "resumed": the second stream's events all came after the id sent;
///  - "replayed": it repeated events the first stream had delivered (RESUME-REPLAY);
///  - "ignored": it started over from the first event (RESUME-IGNORED);
///  - "empty": it delivered no event, so resumption could not be observed;
///  - "declined": 204 No Content, the server's way to say "do not reconnect";
///  - "failed": the reconnection did not give a stream (its findings say why);
///  - "not_applicable": nothing to resume from (no ids, or no stream at all).
struct resume_report {
  std::string verdict;
  std::string reason;         ///< One sentence: why this verdict.
  std::string last_event_id;  ///< The Last-Event-ID sent; empty when not sent.
  long status = 0;            ///< The second response's status (0: none).
  std::string end;            ///< How the second exchange ended (stream_end name).
  std::uint64_t bytes = 0;
  std::size_t events = 0;
  std::size_t replayed = 0;       ///< Events of the second stream whose id the first had delivered.
  std::string first_id;           ///< The id of the second stream's first event ("" when none).
  std::uint64_t join_offset = 0;  ///< End of the first stream's last complete frame: where the streams join.
  std::uint64_t new_from = 0;     ///< Offset in the second stream after its replayed events: where new events begin.
  double seconds_total = 0;
};

struct check_report {
  std::string source;
  std::string dialect;  ///< Empty: wire only.
  long status = 0;
  std::string content_type;
  std::string content_encoding;
  std::string end;  ///< How the exchange ended (stream_end name).
  std::string error;
  std::string redirect_url;
  std::string protocol;  ///< The HTTP the response came over ("HTTP/1.1", "HTTP/2"); empty when not HTTP.
  std::uint64_t bytes = 0;
  std::size_t pieces = 0;
  std::size_t events = 0;
  std::size_t comments = 0;     ///< Heartbeats, usually.
  std::size_t frames = 0;       ///< Frames the validator saw.
  std::size_t event_reads = 0;  ///< Distinct reads that completed at least one event.
  std::size_t frames_split_across_reads = 0;
  std::string last_event_id;
  std::size_t chunkings_tried = 0;
  bool chunking_invariant = true;
  check_timing timing;
  std::vector<check_finding> findings;
  std::size_t must = 0;    ///< MUST findings, shown or not.
  std::size_t should = 0;  ///< SHOULD findings, shown or not.
  /// Producer findings counted in must/should but not in `findings`: beyond
  /// sse::dialect::default_max_findings_per_rule of one rule, a finding is
  /// counted, not stored, so memory does not grow with the stream.
  std::size_t findings_not_shown = 0;
  std::size_t decision_not_shown = 0;   ///< Of those, findings of decision-based rules.
  std::optional<resume_report> resume;  ///< Set when resumption was asked for.
  /// The read stopped where the user asked (--max-events, --max-bytes,
  /// --max-time): what was read is graded, the end of the stream is not.
  bool sampled = false;
  bool strict = false;  ///< Checked with --strict (check_options::strict).
  /// Findings of rules whose severity rests on a decision (basis "decision").
  std::size_t decision_findings() const noexcept {
    std::size_t n = decision_not_shown;
    for (const auto& f : findings) n += f.basis == "decision";
    return n;
  }
  /// No MUST finding; with --strict, no decision-based finding either
  /// (they are "promoted", and the reports say so).
  bool conforming() const noexcept { return must == 0 && (!strict || decision_findings() == 0); }
};

/// Judges a captured response. Pure: no I/O.
check_report analyze(const capture& cap, const check_options& opt);

/// Counts events incrementally so a live read can stop at max_events; also
/// what a browser/endless stream needs to stop early. Not thread-safe.
class event_counter {
 public:
  explicit event_counter(sse::limits lim = {});
  ~event_counter();
  /// Feeds a piece; returns the events dispatched so far.
  std::size_t feed(std::string_view bytes);
  std::size_t events() const noexcept;
  /// True once the reference hit a fatal error (a limit): reading on is pointless.
  bool failed() const noexcept;
  /// The reference's last event ID so far.
  std::string last_event_id() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// What a read has received so far, for a progress line printed by another
/// thread while the read runs (`check`'s heartbeat). Written by the reading
/// thread only; every member may be read concurrently.
struct read_progress {
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::size_t> events{0};
  std::atomic<double> last_byte_s{-1};  ///< Seconds from the start to the last byte; -1: none yet.
};

/// The request `check` and scenario files send to an endpoint: `method`, or
/// GET without a body and POST with one; the headers as given, plus
/// `Accept: text/event-stream` unless one of them is an Accept header (its
/// name in any case: field names are case-insensitive, RFC 9110, 5.1). The
/// limits and TLS verification are the caller's to set.
http::stream_request event_stream_request(std::string url, std::string method, std::vector<std::string> headers,
                                          std::string body);

/// Performs the request and records the response, stopping at max_events
/// (counted with the reference parser), at the reference's first fatal error
/// (an endless line stops at limits.max_line, end "stopped"), the byte limit
/// or the timeouts.
/// `progress`, when given, is updated as bytes arrive.
capture fetch(const http::stream_request& req, std::size_t max_events, const sse::limits& lim = {},
              read_progress* progress = nullptr);

/// fetch() with a sampling time: when `max_time_s` > 0 and shorter than the
/// request's timeout, the exchange stops then and ends "max_time" (a sample
/// the user asked for, not a failure) instead of "timeout".
capture fetch_sampled(http::stream_request req, std::size_t max_events, double max_time_s, const sse::limits& lim = {},
                      read_progress* progress = nullptr);

/// The limits of reading a stream from a file descriptor, as a live read has them.
struct read_limits {
  double timeout_s = 0;               ///< Whole read; 0 = none.
  double idle_timeout_s = 30;         ///< Longest silence; 0 = none.
  double max_time_s = 0;              ///< A sample: stop then, end "max_time"; 0 = off.
  std::uint64_t max_bytes = 0;        ///< 0 = no limit; end "max_bytes".
  std::size_t max_events = 0;         ///< Stop after this many events (end "stopped"); 0 = no limit.
  sse::limits limits;                 ///< Reference parser limits: its first fatal error stops the read ("stopped").
  read_progress* progress = nullptr;  ///< Updated as bytes arrive, when given.
};

/// Reads `fd` (standard input for `check -`) as it arrives, with arrival
/// times, until end of file or a limit of `lim`; `source` names it.
capture read_descriptor(int fd, std::string source, const read_limits& lim);

/// analyze(read_descriptor(fd, source, lim), opt)'s report, judged as the
/// stream arrives: the body is held once, in one buffer (not a copy per read
/// and their concatenation), the producer rules follow it on a second thread,
/// and the parse that counts events for `lim.max_events` is the as-received
/// parse of the wire checks. The reference parser's limits are lim.limits
/// for both (opt.limits is not read). When `record` is given, it receives
/// the capture read_descriptor would have returned (for --record).
check_report check_descriptor(int fd, std::string source, const read_limits& lim, const check_options& opt,
                              capture* record = nullptr);

/// analyze(fetch_sampled(req, max_events, max_time_s, opt.limits, progress),
/// opt)'s report, the capture's source set to `source` (the URL as typed),
/// judged as the response arrives, as check_descriptor judges a descriptor
/// (the producer rules follow the body from its first byte; their report
/// counts only when the response turns out to be a stream). When `record`
/// is given, it receives that capture (for --record and --resume).
check_report check_request(http::stream_request req, std::string source, std::size_t max_events, double max_time_s,
                           const check_options& opt, read_progress* progress = nullptr, capture* record = nullptr);

/// analyze(load_capture_or_stream(path, max_bytes), opt)'s report when
/// `path` is a capture, judged as its lines are read, as check_descriptor
/// judges a descriptor: neither the capture's text nor its pieces are held.
/// Nothing (read no further than its first piece) when `path` is not a
/// capture: a raw stream is judged by analyze, untimed. An error names the
/// file and line of a broken capture.
result<std::optional<check_report>> check_capture_file(const std::string& path, std::uint64_t max_bytes,
                                                       const check_options& opt);

/// Judges a resumption from two captures (pure, no I/O): `first` is the
/// response `report` was made from (report = analyze(first, opt)), `second`
/// the reconnection that sent `sent_id` as Last-Event-ID. Sets
/// report.resume; adds the second response's response/transport/wire
/// findings with stream = 1; and, when the second response is a 200 stream,
/// re-runs the producer rules over the joined stream (the first stream's
/// complete frames, then the second stream from `new_from`, past any events
/// it replayed), as a client that drops repeated ids sees it across the
/// reconnection, attributing each finding to the stream it falls in. Event
/// ids are compared as the reference parser reports them at dispatch.
void judge_resumption(const capture& first, const capture& second, const std::string& sent_id, const check_options& opt,
                      check_report& report);

/// The live part: when `first` (a read of `req`) is a 200 stream that
/// carried an event id, reconnects with `Last-Event-ID` set to the last one
/// (replacing any such header of `req`) and calls judge_resumption;
/// otherwise sets report.resume to "not_applicable" with the reason. The
/// second read has the request's timeouts and byte limit and `max_time_s`,
/// but no event limit: --max-events is how the first stream is cut so that
/// there is something to resume, the rest is read to its end. The second
/// capture is stored in `second_out` if given.
void check_resumption(const http::stream_request& req, double max_time_s, const capture& first,
                      const check_options& opt, check_report& report, capture* second_out = nullptr);

/// Expands $NAME and ${NAME} from the environment in `text`; each expanded
/// value is appended to `secrets` (so reports can redact it). An error
/// ("$NAME is not set in the environment") when a variable is not set.
result<std::string> expand_env(std::string_view text, std::vector<std::string>& secrets);

/// Expands only ${NAME} (the form scenario files use, so a `$` in a JSON body
/// stays as written); `$${` writes a literal `${`. Otherwise as expand_env;
/// the error is "${NAME} is not set in the environment" (it starts with the
/// variable as written, which a caller may quote).
result<std::string> expand_env_braced(std::string_view text, std::vector<std::string>& secrets);

/// `text` with every occurrence of each non-empty secret replaced by "[redacted]".
std::string redact(std::string text, const std::vector<std::string>& secrets);

/// The report with every text member redacted (numbers are left alone, so
/// the JSON and XML made from it stay well-formed).
check_report redact(check_report r, const std::vector<std::string>& secrets);

/// The report as JSON (tools/docs/check.md documents the members).
nlohmann::ordered_json to_json(const check_report& r);
// Outputs (check_report.cpp), written through the tools' one JUnit writer
// (ssec/report/junit.hpp).

/// The report as a JUnit XML document: one testsuite, one testcase per
/// check level (response, wire, producer rules, and resume when tried),
/// failures carrying MUST findings.
std::string to_junit(const std::vector<check_report>& reports, const std::vector<std::string>& names);

/// One JUnit testsuite: its name and its (testcase class name, report) pairs.
struct junit_suite {
  std::string name;
  std::vector<std::pair<std::string, const check_report*>> reports;  ///< Not owned; must outlive the call.
  bool scenario = false;  ///< Add a "scenario" testcase (SCENARIO-* findings) per report.
};
/// Several testsuites in one document (scenario runs: one per scenario).
std::string to_junit(const std::vector<junit_suite>& suites);

/// The check level a rule id belongs to: "response" (HTTP-*, STREAM-*),
/// "wire" (WIRE-*), "resume" (RESUME-*), "scenario" (SCENARIO-*) or "producer".
std::string level_of(std::string_view rule);
/// Human-readable text, one finding per line, then the timing and a verdict.
std::string to_text(const check_report& r);

}  // namespace ssec::live
