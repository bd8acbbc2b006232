// SPDX-License-Identifier: MIT
// Everything a parse makes observable, recorded; for tests, tools and fuzzers
// that compare one parse with another (chunkings, round trips, adapters).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sse/event.hpp"
#include "sse/parser.hpp"

namespace sse {

/// One diagnostic, owned.
struct recorded_diagnostic {
  diag code;
  std::uint64_t offset;
  std::string detail;
  friend bool operator==(const recorded_diagnostic&, const recorded_diagnostic&) = default;
};

/// The full observable outcome of parsing one stream.
struct recording {
  std::vector<event> events;
  std::vector<std::uint64_t> retries;  ///< Every valid retry, in order.
  std::vector<std::string> comments;   ///< Every comment's text, in order.
  std::vector<recorded_diagnostic> diagnostics;
  std::optional<std::uint64_t> retry;  ///< The reconnection time at the end.
  std::string last_event_id;           ///< The last event ID string at the end.
  errc status = errc::ok;              ///< ok or the fatal code.
  std::uint64_t error_offset = 0;      ///< Where the fatal code struck.
  friend bool operator==(const recording&, const recording&) = default;
};

/// A visitor that records into a recording.
class recorder {
 public:
  explicit recorder(recording& out) : out_(&out) {}
  action on_event(const event_view& e) {
    out_->events.emplace_back(e);
    return action::proceed;
  }
  void on_retry(std::uint64_t ms) { out_->retries.push_back(ms); }
  void on_comment(std::string_view text, std::uint64_t) { out_->comments.emplace_back(text); }
  void on_diagnostic(const diagnostic& d) {
    out_->diagnostics.push_back(recorded_diagnostic{d.code, d.offset, std::string(d.detail)});
  }

 private:
  recording* out_;
};

/// Parses the stream made of `chunks`, in order, then finishes it.
recording record_parse(std::span<const std::string_view> chunks, limits lim = {});

/// Parses `stream` whole.
recording record_parse(std::string_view stream, limits lim = {});

}  // namespace sse
