// SPDX-License-Identifier: MIT
// Decoding one adapter answer (docs/adapter-protocol.md) into what the
// implementation produced for a case; grading it is conformance's one grader
// (ssec/conformance/grading.hpp), whose outcome vocabulary the harness uses
// as its own.
#pragma once

#include <string_view>

#include "ssec/conformance/grading.hpp"

namespace ssec::harness {

// The one outcome vocabulary and grader, under the names the harness has always used.
using conformance::all_outcomes;
using conformance::compare_answer;
using conformance::grade_answer;
using conformance::mismatch;
using conformance::mismatch_outcome;
using conformance::missing_capabilities;
using conformance::outcome;
using conformance::outcome_from_string;
using conformance::to_string;
using decoded_answer = conformance::answer;

/// Decodes the answer `line` to the parse request `expected_id` of layer
/// `wire_layer ? wire : dialect`. Malformed when: not JSON, not an object,
/// `id` missing or different, neither `events` nor a string `error`, an
/// event that is not {type,data,lastEventId} strings (wire), `retry` neither
/// a JSON number nor null. A number is compared by value: an integer from 0
/// to 2^64-1 (also when written as 3000.0 or 1e3) is that integer; any other
/// number is kept in `inexact_retry`. Lone surrogate escapes are not
/// malformed either (see `lone_surrogate`).
conformance::answer decode_answer(std::string_view line, std::string_view expected_id, bool wire_layer);

}  // namespace ssec::harness
