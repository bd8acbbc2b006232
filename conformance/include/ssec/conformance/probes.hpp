// SPDX-License-Identifier: MIT
// Probe streams and their grading, for `sse-conform certify`
// (tools/docs/certify.md, "Probes"): a baseline stream of known events built
// from the new contract by the case generator's frame builder, and copies
// of it with one thing injected: what the new contract adds (a type, a
// field), and the classes of frames that broke real clients (unknown types
// and sub-types, keep-alive comments and ping-like events, events after the
// terminal one, empty lists, usage-only frames, a lifecycle event whose
// opener never came). A consumer's answers to the baseline and to a probe
// are compared, and the probe graded tolerated, adopted or broke.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/grading.hpp"
#include "ssec/conformance/runner.hpp"

namespace ssec::conformance {

/// One frame of a probe stream.
struct probe_frame {
  std::string block;                 ///< The frame's bytes on the wire, through its blank line (a comment: no event).
  std::string data;                  ///< The data the wire layer delivers (empty for a comment).
  std::string event;                 ///< The SSE event type ("message" unless an `event:` line says otherwise).
  bool comment = false;              ///< A comment line only: no event at all.
  int baseline = -1;                 ///< Index of the baseline frame it stands for; -1: injected.
  bool changed = false;              ///< A baseline frame with something changed (`touched` keys).
  bool novel = false;                ///< Carries what the new contract adds (a type, a field).
  std::vector<std::string> touched;  ///< Keys added or changed against its baseline frame.
};

/// One probe: a stream and the baseline it was made from.
struct probe {
  std::string id;  ///< "<dialect>/<class>/<what>", stable for the same contracts.
  std::string dialect;
  std::string klass;  ///< "new-type", "new-field", "unknown-type", ... (tools/docs/certify.md).
  std::string description;
  std::vector<probe_frame> baseline;
  std::vector<probe_frame> frames;

  /// The whole stream, and the baseline's.
  std::string stream() const;
  std::string baseline_stream() const;
};

/// Every probe class, in report order.
const std::vector<std::string>& probe_classes();

/// Which probe classes probe a kind of change catalog diff reports
/// (conformance/catalog_diff.hpp's rule id), or why none can (`none`).
/// Both empty: the rule has no probe class.
struct probe_coverage {
  std::vector<std::string> classes;
  std::string none;
};
probe_coverage probe_classes_for(std::string_view diff_rule);

/// The probes of dialect `dialect` of `next`: the baseline (one frame of
/// every type `next` and `prev` both have, except `exclude` (a consumer's
/// aborts_on), with the frames the dialect's ordering rules ask for), and
/// one probe per type and per field `next` adds over `prev` (prev null: none)
/// and per robustness class that applies to the dialect. Deterministic.
std::vector<probe> make_probes(const sse::dialect::catalog& next, const sse::dialect::catalog* prev,
                               std::string_view dialect, const std::vector<std::string>& exclude = {});

/// The probes of dialect `dialect` built on a recorded baseline (`certify
/// --baseline`, tools/docs/certify.md, "Recorded baselines"): `recorded`'s
/// frames (recorded_frame) are the known events, except comments and frames
/// whose decoded type is in `exclude`; the probes are those make_probes
/// makes on its own baseline, injected at the same places, and their ids end
/// with "@<name>". Empty when no frame is left or NEW lacks the dialect.
std::vector<probe> make_probes_on(const sse::dialect::catalog& next, const sse::dialect::catalog* prev,
                                  std::string_view dialect, const std::vector<probe_frame>& recorded,
                                  std::string_view name, const std::vector<std::string>& exclude = {});

/// A recorded frame of SSE type `event` and data `data` (multi-line data
/// joined with LF), re-written as `event:` and `data:` lines.
probe_frame recorded_frame(std::string_view event, std::string_view data);

/// The chunkings a consumer sees each probe under: whole, byte by byte and
/// `random_count` seeded random splits (sse::chunking, as every tool cuts).
std::vector<chunking> probe_chunkings(const probe& p, unsigned random_count = 2);
/// The probe's stream cut by `k`.
std::vector<std::string> probe_chunks(const probe& p, const chunking& k);

/// How a consumer fared on a probe.
enum class probe_grade {
  tolerated,  ///< Every known event as without the probe; the injected one ignored or surfaced with its raw bytes.
  adopted,    ///< As tolerated, and the new type or field decoded as the reference decoder does.
  broke,      ///< A crash, a timeout, a rejection, a known event lost or changed, an injected frame mangled.
};
/// "tolerated", "adopted", "broke".
std::string_view to_string(probe_grade g) noexcept;

struct probe_result {
  probe_grade grade = probe_grade::tolerated;
  conformance::outcome outcome = conformance::outcome::pass;  ///< The one vocabulary: pass, fail, error, timeout.
  std::string reason;  ///< Why, in one sentence (empty when tolerated without remark).
};

/// Grades a consumer's answer to a probe (`probed`, under one chunking)
/// against its answer to the baseline (`base`, whole), both dialect answers
/// (conformance::answer: events, a rejection, or malformed). `d` is the new
/// contract's dialect: an injected or changed frame decoded exactly as its
/// reference decoder does is adopted when the frame is novel. A malformed
/// answer is broke with outcome error; timeouts and crashes are graded by the
/// caller (they have no answer).
probe_result grade_probe(const probe& p, const sse::dialect::dialect_spec& d, const answer& base, const answer& probed);

}  // namespace ssec::conformance
