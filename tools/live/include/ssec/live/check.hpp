// SPDX-License-Identifier: MIT
// The check engine behind `sse-conform check` (tools/docs/check.md): judges a
// response (live, from a capture, or from standard input) at three levels:
// the HTTP response and transport, the wire (including re-parsing under many
// chunkings), and the dialect's producer rules (the very code path of
// `sse-conform validate`: sse::dialect::validate_stream on the same bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/parser.hpp"
#include "ssec/http_client.hpp"
#include "ssec/live/capture.hpp"

namespace ssec::live {

struct check_options {
  const sse::dialect::dialect_spec* dialect = nullptr;  ///< Null: wire checks only.
  sse::limits limits;                   ///< Reference parser limits (also the validator's).
  std::size_t max_events = 0;           ///< Live: stop after this many events; 0 = no limit. Not a failure.
  std::uint64_t chunking_seeds = 16;    ///< Seeded random re-parses (plus whole, per-byte up to 64 KiB, as received).
  double heartbeat_s = 0;               ///< Report silences longer than this (should); 0 = off.
  double burst_min_s = 0.5;             ///< A stream lasting longer than this whose events all came in one read is "buffered".
};

/// One finding: a producer rule from the catalog, or a transport/wire rule
/// of check itself (ids in tools/docs/check.md: HTTP-*, STREAM-*, WIRE-*).
struct check_finding {
  std::string rule;
  std::string severity;                ///< "must" or "should".
  std::optional<std::size_t> frame;    ///< 0-based frame index, when the finding concerns one.
  std::uint64_t offset = 0;            ///< Byte offset in the received body.
  std::string message;
  std::string expected;
  std::string seen;
};

struct check_timing {
  double first_byte = -1;   ///< Seconds to the first body byte; -1: none / untimed.
  double first_event = -1;  ///< Seconds to the arrival of the piece completing the first event.
  double last_byte = -1;
  double total = 0;
  double max_gap = 0;       ///< Longest silence between received pieces.
  double max_event_gap = 0; ///< Longest time between two events.
  double mean_event_gap = 0;
};

struct check_report {
  std::string source;
  std::string dialect;  ///< Empty: wire only.
  long status = 0;
  std::string content_type;
  std::string content_encoding;
  std::string end;      ///< How the exchange ended (stream_end name).
  std::string error;
  std::string redirect_url;
  std::uint64_t bytes = 0;
  std::size_t pieces = 0;
  std::size_t events = 0;
  std::size_t comments = 0;        ///< Heartbeats, usually.
  std::size_t frames = 0;          ///< Frames the validator saw.
  std::size_t event_reads = 0;     ///< Distinct reads that completed at least one event.
  std::size_t frames_split_across_reads = 0;
  std::string last_event_id;
  std::size_t chunkings_tried = 0;
  bool chunking_invariant = true;
  check_timing timing;
  std::vector<check_finding> findings;
  std::size_t must = 0;
  std::size_t should = 0;
  std::optional<bool> resumed;  ///< Set when a Last-Event-ID resumption was tried.
  /// No MUST finding.
  bool conforming() const noexcept { return must == 0; }
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

/// Performs the request and records the response, stopping at max_events
/// (counted with the reference parser), at the reference's first fatal error
/// (an endless line stops at limits.max_line, end "stopped"), the byte limit
/// or the timeouts.
capture fetch(const http::stream_request& req, std::size_t max_events, const sse::limits& lim = {});

/// Expands $NAME and ${NAME} from the environment in `text`; each expanded
/// value is appended to `secrets` (so reports can redact it). Returns nullopt
/// and sets `missing` when a variable is not set.
std::optional<std::string> expand_env(std::string_view text, std::vector<std::string>& secrets, std::string& missing);

/// `text` with every occurrence of each non-empty secret replaced by "[redacted]".
std::string redact(std::string text, const std::vector<std::string>& secrets);

/// The report as JSON (tools/docs/check.md documents the members).
nlohmann::ordered_json to_json(const check_report& r);
/// The report as a JUnit XML document: one testsuite, one testcase per
/// check level (response, wire, producer rules), failures carrying findings.
std::string to_junit(const std::vector<check_report>& reports, const std::vector<std::string>& names);
/// Human-readable text, one finding per line, then the timing and a verdict.
std::string to_text(const check_report& r);

}  // namespace ssec::live
