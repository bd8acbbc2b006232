// SPDX-License-Identifier: MIT
// The one grader: how a case ended against an implementation (the outcome
// vocabulary every report uses) and the grading of what an implementation
// produced for a case (wire events and retry, or a rejection; dialect
// events). Adapter answers (sse-conform run), browser results and test
// services (serve, run --service) all come here; the comparison itself is
// compare_external, the same function the GoogleTest runner's log tests use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/log.hpp"

namespace ssec::conformance {

/// How a case ended against an implementation. The order is the report order.
enum class outcome {
  pass,           ///< Every chunking matched.
  fail,           ///< A `must` case did not match.
  non_strict,     ///< A `should` case did not match (a fail under --strict).
  informational,  ///< An `impl` case did not match: behaviour the standard leaves open.
  skip,           ///< The implementation lacks the case's layer or a capability; the reason says which.
  error,          ///< The implementation broke: crash, malformed or oversized answer, wrong id.
  timeout,        ///< No answer within the per-case timeout.
};

/// "pass", "fail", "non-strict", "informational", "skip", "error", "timeout".
std::string_view to_string(outcome o) noexcept;
/// The inverse of to_string; nullopt for other text.
std::optional<outcome> outcome_from_string(std::string_view s) noexcept;
/// Every outcome, in report order.
const std::vector<outcome>& all_outcomes();

/// The outcome of a mismatch for a case of verdict `v`: must -> fail,
/// should -> non_strict (fail when `strict`), impl -> informational.
outcome mismatch_outcome(verdict v, bool strict) noexcept;

/// The outcome as a status of the result line format (`<impl>  <case>
/// <STATUS>`, tools/docs/serve.md): pass is PASS (IMPL_ACCEPT for an `impl`
/// case), fail and non-strict FAIL, informational IMPL_DIFFER, timeout
/// TIMEOUT, error CRASH, skip SKIPPED.
std::string_view to_result_status(outcome o, verdict v) noexcept;
/// The inverse for a case of verdict `v`: PASS and IMPL_ACCEPT pass; FAIL
/// mismatch_outcome(v, false); IMPL_DIFFER informational; TIMEOUT timeout;
/// CRASH error; SKIPPED skip; nullopt for other text.
std::optional<outcome> outcome_from_result_status(std::string_view status, verdict v) noexcept;
/// "PASS, FAIL, IMPL_ACCEPT, IMPL_DIFFER, CRASH, TIMEOUT, SKIPPED", for messages.
std::string_view known_result_statuses() noexcept;

/// What an implementation produced for one case. Exactly one of the members
/// is set unless `malformed` is non-empty (then the implementation broke:
/// outcome error).
struct answer {
  std::string malformed;                               ///< What is wrong with the answer, for the report.
  std::optional<external_result> wire;                 ///< Wire events + retry, or a rejection.
  std::optional<std::vector<nlohmann::json>> dialect;  ///< Dialect layers: the dialect event objects.
  std::optional<std::string> dialect_rejection;        ///< Dialect layers: the implementation rejected the stream.
  /// Wire: a `retry` that is a JSON number but not an integer from 0 to
  /// 2^64-1 (negative, fractional, or too large, as a JavaScript double
  /// gives 2^64 for 18446744073709551615), written as the JSON library writes
  /// that number. It is the implementation's own, lossy value: `wire->retry`
  /// is then empty, and compare_answer reports it as a difference (no case
  /// can expect it), never as a malformed answer.
  std::optional<std::string> inexact_retry;
  /// Set when the events held a lone UTF-16 surrogate escape such as
  /// "\ud83d" (JSON.stringify writes one for a string that splits a surrogate
  /// pair): where the first one was, for the report. It is no Unicode
  /// character, so each was decoded as U+FFFD, and compare_answer never lets
  /// such an answer match: no expected value holds a surrogate.
  std::string lone_surrogate;
};

/// Why an answer does not match the case, in words. `expected` / `received`
/// hold the two logs as displayed.
struct mismatch {
  std::string first_difference;  ///< describe() of the difference (wire), or the first differing event.
  std::string expected;          ///< The expected view, one entry per line.
  std::string received;          ///< What the implementation produced, one entry per line.
};

/// Compares a well-formed answer (malformed empty) with the case: its wire
/// events (`wire` set, whatever the case's layer: a browser reports wire
/// events for every case) or its dialect events; nullopt when it matches. An
/// answer with `inexact_retry` or `lone_surrogate` never matches.
std::optional<mismatch> compare_answer(const test_case& c, const answer& a);

/// How a case ended for one answer, and why when it did not pass.
struct grade {
  conformance::outcome outcome = conformance::outcome::pass;
  std::optional<conformance::mismatch> mismatch;  ///< Set for the mismatch outcomes.
};
/// The one grading of an answer: error when malformed, pass when it matches,
/// mismatch_outcome(c.verdict, strict) with the mismatch otherwise.
grade grade_answer(const test_case& c, const answer& a, bool strict);

/// The grading of a client case (`c.client` set) from what the runner
/// observed: pass when it holds; mismatch_outcome(c.verdict, strict) with the
/// first way it breaks the case otherwise, checked in order: the number of
/// requests, each request's headers and delay, then the dispatched events
/// (compare_external against `events`). An answer with `error` set is the
/// implementation's error (outcome error, the text as `malformed`).
grade grade_client(const test_case& c, const client_observation& o, bool strict);

/// The capabilities of required_capabilities(c) that `has` lacks and that
/// may excuse a skip (excusable_capability: what an API cannot report);
/// `has` nullopt: the implementation omitted the list, meaning all.
std::vector<std::string> missing_capabilities(const test_case& c, const std::optional<std::vector<std::string>>& has);

}  // namespace ssec::conformance
