// SPDX-License-Identifier: MIT
#include "ssec/conformance/grading.hpp"

#include <algorithm>

#include "sse/dialect/decoder.hpp"

namespace ssec::conformance {

namespace conf = ssec::conformance;
using nlohmann::json;

std::string_view to_string(outcome o) noexcept {
  switch (o) {
    case outcome::pass: return "pass";
    case outcome::fail: return "fail";
    case outcome::non_strict: return "non-strict";
    case outcome::informational: return "informational";
    case outcome::skip: return "skip";
    case outcome::error: return "error";
    case outcome::timeout: return "timeout";
  }
  return "error";
}

std::optional<outcome> outcome_from_string(std::string_view s) noexcept {
  for (const outcome o : all_outcomes()) {
    if (to_string(o) == s) return o;
  }
  return std::nullopt;
}

const std::vector<outcome>& all_outcomes() {
  static const std::vector<outcome> all{outcome::pass, outcome::fail,  outcome::non_strict, outcome::informational,
                                        outcome::skip, outcome::error, outcome::timeout};
  return all;
}

outcome mismatch_outcome(verdict v, bool strict) noexcept {
  switch (v) {
    case verdict::must: return outcome::fail;
    case verdict::should: return strict ? outcome::fail : outcome::non_strict;
    case verdict::impl: return outcome::informational;
  }
  return outcome::fail;
}

std::string_view to_result_status(outcome o, verdict v) noexcept {
  switch (o) {
    case outcome::pass: return v == verdict::impl ? "IMPL_ACCEPT" : "PASS";
    case outcome::fail:
    case outcome::non_strict: return "FAIL";
    case outcome::informational: return "IMPL_DIFFER";
    case outcome::skip: return "SKIPPED";
    case outcome::error: return "CRASH";
    case outcome::timeout: return "TIMEOUT";
  }
  return "CRASH";
}

std::optional<outcome> outcome_from_result_status(std::string_view status, verdict v) noexcept {
  if (status == "PASS" || status == "IMPL_ACCEPT") return outcome::pass;
  if (status == "FAIL") return mismatch_outcome(v, false);
  if (status == "IMPL_DIFFER") return outcome::informational;
  if (status == "TIMEOUT") return outcome::timeout;
  if (status == "CRASH") return outcome::error;
  if (status == "SKIPPED") return outcome::skip;
  return std::nullopt;
}

std::string_view known_result_statuses() noexcept {
  return "PASS, FAIL, IMPL_ACCEPT, IMPL_DIFFER, CRASH, TIMEOUT, SKIPPED";
}

namespace {

// An answer whose retry no log line can hold (decoded_answer::inexact_retry):
// a difference in the events comes first, as compare_external orders them;
// otherwise the difference is the retry line itself.
mismatch compare_inexact_retry(const conf::test_case& c, const conf::external_result& got, const std::string& retry) {
  const conf::event_log expected = conf::external_view(c.events);
  std::optional<std::uint64_t> expected_retry;
  for (const auto& line : expected) {
    if (const auto* r = std::get_if<conf::log_retry>(&line)) expected_retry = r->milliseconds;
  }
  const std::string got_retry_line = "retry " + retry + "   (not an integer from 0 to 2^64-1)";
  mismatch m;
  m.expected = conf::format_log(expected);
  m.received = conf::format_log(conf::external_log(got));
  m.received += (m.received.empty() ? "" : "\n") + got_retry_line;
  // The events, with the retry the case expects: whatever differs there comes first.
  conf::external_result events_only = got;
  events_only.retry = expected_retry;
  if (const auto diff = conf::compare_external(c.events, events_only)) {
    m.first_difference = conf::describe(*diff, expected);
    return m;
  }
  const std::size_t retry_index = got.events.size();  // the external view: the events, then the retry
  m.first_difference = "first difference at log line " + std::to_string(retry_index + 1) + ":\n  expected: " +
                       (expected_retry ? "retry " + std::to_string(*expected_retry) : std::string("(end of log)")) +
                       "\n  got:      " + got_retry_line + "\n";
  return m;
}

// The comparison proper; compare_answer adds the lone-surrogate rule.
std::optional<mismatch> compare_decoded(const conf::test_case& c, const answer& answer) {
  if (answer.wire) {
    const conf::event_log expected = conf::external_view(c.events);
    if (answer.inexact_retry && !answer.wire->error)
      return compare_inexact_retry(c, *answer.wire, *answer.inexact_retry);
    const conf::external_result& got = *answer.wire;
    const auto diff = conf::compare_external(c.events, got);
    if (!diff) return std::nullopt;
    mismatch m;
    m.first_difference = conf::describe(*diff, expected);
    m.expected = conf::format_log(expected);
    m.received = conf::format_log(conf::external_log(got));
    if (got.error) m.received += "\n(rejected: " + *got.error + ")";
    return m;
  }
  // Dialect layers: both sides become sse::dialect events and are compared
  // with their operator==, as conformance::check_dialect_reference does.
  const auto join = [](const std::vector<json>& events) {
    std::string s;
    for (const auto& e : events) s += e.dump() + "\n";
    return s;
  };
  mismatch m;
  m.expected = join(c.dialect_events);
  if (answer.dialect_rejection) {
    m.received = "(rejected: " + *answer.dialect_rejection + ")";
    m.first_difference = "the adapter rejected the stream";
    return m;
  }
  const auto& got = *answer.dialect;
  m.received = join(got);
  std::size_t i = 0;
  for (; i < got.size() && i < c.dialect_events.size(); ++i) {
    const auto want = sse::dialect::event_from_json(c.dialect_events[i]);
    const auto have = sse::dialect::event_from_json(got[i]);
    if (!have) {
      m.first_difference = "event " + std::to_string(i + 1) + " is not a dialect event: " + have.error().message;
      return m;
    }
    if (!want || !(*want == *have)) break;
  }
  if (i == got.size() && i == c.dialect_events.size()) return std::nullopt;
  m.first_difference = "first difference at event " + std::to_string(i + 1) + ":\n  expected: " +
                       (i < c.dialect_events.size() ? c.dialect_events[i].dump() : "(end of events)") +
                       "\n  got:      " + (i < got.size() ? got[i].dump() : "(end of events)");
  return m;
}

}  // namespace

std::optional<mismatch> compare_answer(const conf::test_case& c, const answer& answer) {
  auto m = compare_decoded(c, answer);
  if (answer.lone_surrogate.empty()) return m;
  // No expected value holds a surrogate: shown as U+FFFD, it must not match.
  const std::string note = "the answer's events hold a lone UTF-16 surrogate (" + answer.lone_surrogate +
                           " of the answer line), which is no Unicode character; shown as U+FFFD, it never matches";
  if (m) {
    m->first_difference += "\n" + note;
    return m;
  }
  mismatch forced;
  forced.first_difference = note;
  if (answer.wire) {
    forced.expected = conf::format_log(conf::external_view(c.events));
    forced.received = conf::format_log(conf::external_log(*answer.wire));
  } else {
    for (const auto& e : c.dialect_events) forced.expected += e.dump() + "\n";
    for (const auto& e : *answer.dialect) forced.received += e.dump() + "\n";
  }
  return forced;
}

grade grade_answer(const conf::test_case& c, const answer& a, bool strict) {
  grade g;
  if (!a.malformed.empty()) {
    g.outcome = outcome::error;
    return g;
  }
  g.mismatch = compare_answer(c, a);
  if (g.mismatch) g.outcome = mismatch_outcome(c.verdict, strict);
  return g;
}

std::vector<std::string> missing_capabilities(const conf::test_case& c,
                                              const std::optional<std::vector<std::string>>& has) {
  std::vector<std::string> missing;
  if (!has) return missing;
  for (const auto& need : conf::required_capabilities(c)) {
    // A parsing rule is graded whatever the adapter lists (issue: a declared
    // deviation from a MUST rule is still a failure).
    if (!conf::excusable_capability(need)) continue;
    if (std::find(has->begin(), has->end(), need) == has->end()) missing.push_back(need);
  }
  return missing;
}

}  // namespace ssec::conformance
