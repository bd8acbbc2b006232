// SPDX-License-Identifier: MIT
// The oracle of `sse-conform fuzz`: the reference parser (and, at a dialect
// layer, the reference decoder) run in-process on a sample gives the case
// that sample would be (conformance/README.md); an implementation's answer is
// graded with the one grader `sse-conform run` uses
// (ssec/conformance/grading.hpp via ssec::harness::decode_answer), and every
// divergence is named by its fingerprint: its failure class.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/adapter/process.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/grading.hpp"
#include "ssec/differential/generator.hpp"

namespace ssec::differential {

/// The request id every fuzz exchange uses (the answer must echo it).
inline constexpr std::string_view request_id = "fuzz/sample";

/// The case `s` is: its input and chunk schedule (as written), the
/// reference's full log as `events`, and at a dialect layer the reference
/// decoder's events as `dialect_events`. Verdict `must`; id, name, from and
/// tags are left for the case writer. `dialect` is required for a dialect layer.
conformance::test_case reference_case(conformance::layer layer, const sample& s,
                                      const sse::dialect::dialect_spec* dialect);

/// A divergence of one answer from the reference.
struct divergence {
  /// The failure class, e.g. "wire.data.truncated", "wire.bom",
  /// "wire.events.extra.no-data", "chat.kind.structured-vs-plain_text",
  /// "adapter.crash"; ".impl" is appended when the grade is informational.
  /// Characters [a-z0-9._-] only, so it is a file name.
  std::string fingerprint;
  conformance::outcome outcome = conformance::outcome::fail;  ///< As `run` grades it (never pass or skip).
  std::string first_difference;                               ///< In words, for the report.
  std::string expected;                                       ///< The expected view (run's mismatch).
  std::string received;                                       ///< What the implementation answered.
  std::string answer_key;  ///< The answer, normalised: equal for two implementations that answered alike.
  /// For a fingerprint named by how one value differs (`.type.`, `.data.`,
  /// `.last-id.`, `.raw.`, `.text.`): string_difference_detail of that
  /// value, which tells apart triggers that one name covers; else empty.
  std::string detail;
  /// Decisions (spec/DECISIONS.md anchors) that made the grade informational.
  std::vector<std::string> decisions;
};

/// What an adapter lacks that may excuse a difference (reporting capabilities:
/// "retry", "last-event-id"); nullopt means it has all.
using capability_list = std::optional<std::vector<std::string>>;

/// `c` with what an adapter lacking `caps` cannot report taken out: its
/// events' last event ids (and the final `last_id`) blanked without
/// `last-event-id`, its `retry` lines dropped without `retry`. judge()
/// grades against it with the answer masked alike, so a difference only in
/// what the adapter cannot show is no divergence; the cases written are the
/// unmasked ones, and only those `run` grades (missing_capabilities empty).
conformance::test_case masked_case(const conformance::test_case& c, const capability_list& caps);

/// Grades the exchange `ex` (the answer to the parse request of `c`) as
/// `run` would, with `c.verdict` replaced by `impl` where the only difference
/// is one a decision leaves open (the retry decisions). A difference in what
/// the adapter says it cannot report (`caps`) is not one. nullopt: no divergence.
std::optional<divergence> judge(const conformance::test_case& c, const exchange& ex, const capability_list& caps);

/// The decisions (spec/DECISIONS.md anchors) whose `impl` verdict covers the
/// retry of answer `a` differing on case `c`: "retry-large" (the final value
/// is above 2^31-1 and the answer holds some value for it), "retry-beyond-64-bits" (digits beyond 64 bits, and the
/// answer holds some value above 2^31-1 or an inexact one), "retry-empty"
/// (an empty value, and the answer says 0); empty when none applies.
std::vector<std::string> retry_decisions(const conformance::test_case& c, const conformance::answer& a);

/// One repair of a stream: the sample with one kind of trouble taken out.
struct repair {
  std::string_view name;  ///< "chunking", "bom", ..., "spaces", "unterminated-tail", "no-data".
  sample repaired;
};

/// The repairs that change `s`, in this order: chunking (all chunks merged),
/// bom (every EF BB BF removed), lone-cr (every CR not before LF becomes LF),
/// crlf (every CR LF becomes LF), nul (every 00 removed but in a field name
/// or in a value that is NULs apart from its one leading space), invalid-utf8 (the stream repaired to
/// UTF-8, U+FFFD for each maximal subpart), spaces (each run of spaces becomes
/// one, but a value of spaces only), unterminated-tail (the unterminated block
/// the reference discards at the end removed), no-data (each block with field
/// lines but no data and no id or retry removed with its blank line). Chunk
/// cuts move with the bytes removed. A divergence that one of them makes
/// disappear is named after the first that does (repair_fingerprint;
/// tools/docs/fuzz.md, "Fingerprints"), so one bug reached through many
/// outputs is one fingerprint.
std::vector<repair> repairs_of(const sample& s);

/// The fingerprint a divergence that repair `name` makes disappear gets at
/// `layer` ("wire", "agent", ...): `<layer>.<name>`, except that the dispatch
/// rules' repairs give the names the alignment gives the same events:
/// `<layer>.events.extra.unterminated-tail`, `<layer>.events.extra.no-data`.
std::string repair_fingerprint(std::string_view layer, std::string_view name);

/// The head of a first_difference text: its lines before the two whole
/// logs ("expected log ..."), at most `max_lines`.
std::vector<std::string> brief_difference(std::string_view first_difference, std::size_t max_lines = 4);

/// The class of the first difference between two strings: "truncated" (got
/// is a prefix), "extended" (expected is a prefix), "<a>-vs-<b>" naming the
/// first differing characters when one carries structure (lf, cr, space,
/// nul, fffd, bom; any other is "other"): "lf-vs-cr", "space-vs-other"; else "differs". (tools/docs/fuzz.md,
/// "Fingerprints").
std::string string_difference_class(std::string_view expected, std::string_view got);

/// The classes of the two characters where the values first differ
/// (`colon/end`, `lf/end`, `ascii/space`; finer than the fingerprint's
/// names): divergence::detail.
std::string string_difference_detail(std::string_view expected, std::string_view got);

}  // namespace ssec::differential
