// SPDX-License-Identifier: MIT
// Grading one adapter answer against one case, and the outcomes of a case
// (tools/docs/run.md). The comparison itself is ssec::conformance's
// compare_external, the same function the GoogleTest runner's log tests use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/log.hpp"

namespace ssec::harness {

/// How a case ended against an implementation. The order is the report order.
enum class outcome {
  pass,           ///< Every chunking matched.
  fail,           ///< A `must` case did not match.
  non_strict,     ///< A `should` case did not match (a fail under --strict).
  informational,  ///< An `impl` case did not match: behaviour the standard leaves open.
  skip,           ///< The adapter lacks the case's layer or a capability; `reason` says which.
  error,          ///< The adapter broke: crash, malformed or oversized answer, wrong id.
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
outcome mismatch_outcome(conformance::verdict v, bool strict) noexcept;

/// One parse answer, checked and decoded. Exactly one of the members is set
/// unless `malformed` is non-empty (then the adapter broke: outcome error).
struct decoded_answer {
  std::string malformed;                                ///< What is wrong with the answer, for the report.
  std::optional<conformance::external_result> wire;     ///< Wire layer: events + retry, or a rejection.
  std::optional<std::vector<nlohmann::json>> dialect;   ///< Dialect layers: the dialect event objects.
  std::optional<std::string> dialect_rejection;         ///< Dialect layers: the adapter rejected the stream.
  /// Wire layer: the answer's `retry` when it is a JSON number whose value is
  /// not an integer from 0 to 2^64-1 (negative, fractional, or too large, as
  /// a JavaScript double gives 2^64 for 18446744073709551615), written as the
  /// JSON library writes that number. It is the implementation's own, lossy
  /// value: `wire->retry` is then empty, and compare_answer reports it as a
  /// difference (no case can expect it), never as a malformed answer.
  std::optional<std::string> inexact_retry;
  /// Set when the answer's events hold a lone UTF-16 surrogate escape such as
  /// "\ud83d" (JSON.stringify writes one for a string that splits a surrogate
  /// pair): where the first one was, for the report. It is no Unicode
  /// character and the JSON library refuses it, so each is decoded as U+FFFD,
  /// and compare_answer never lets such an answer match: no expected value
  /// holds a surrogate. In a rejection's message it is just decoded as U+FFFD.
  std::string lone_surrogate;
};

/// Decodes the answer `line` to the parse request `expected_id` of layer
/// `wire_layer ? wire : dialect`. Malformed when: not JSON, not an object,
/// `id` missing or different, neither `events` nor a string `error`, an
/// event that is not {type,data,lastEventId} strings (wire), `retry` neither
/// a JSON number nor null. A number is compared by value: an integer from 0
/// to 2^64-1 (also when written as 3000.0 or 1e3) is that integer; any other
/// number is kept in `inexact_retry`. Lone surrogate escapes are not
/// malformed either (see `lone_surrogate`).
decoded_answer decode_answer(std::string_view line, std::string_view expected_id, bool wire_layer);

/// Why one chunking's answer does not match the case, in words; nullopt when
/// it matches. `expected` / `received` get the two logs as displayed. An
/// answer with `inexact_retry` or `lone_surrogate` never matches.
struct mismatch {
  std::string first_difference;  ///< conformance::describe of the difference (wire), or the first differing event.
  std::string expected;          ///< The expected view, one entry per line.
  std::string received;          ///< What the adapter answered, one entry per line.
};
std::optional<mismatch> compare_answer(const conformance::test_case& c, const decoded_answer& answer);

/// The capabilities of conformance::required_capabilities(c) that `has`
/// lacks (`has` nullopt: the adapter omitted the list, meaning all).
std::vector<std::string> missing_capabilities(const conformance::test_case& c,
                                              const std::optional<std::vector<std::string>>& has);

}  // namespace ssec::harness
