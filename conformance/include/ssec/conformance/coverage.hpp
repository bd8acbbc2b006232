// SPDX-License-Identifier: MIT
// Coverage of the catalogs by the cases: for each event type, field, frame
// shape and producer rule of every dialect, the cases that cover it; and the
// WHATWG anchors the wire cases cite. Read from what the cases expect, not
// from their names: an event type is covered by a case that expects a
// structured event of that type, a field by one whose expected event's data
// carries it, a shape by one that expects an event of that kind, a rule
// "broken" by one that lists it in `findings` and "kept" by one that cites
// it in `from` and does not list it.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/case.hpp"

namespace ssec::conformance {

struct coverage_item {
  std::string kind;                   ///< "event", "field", "shape", "rule-kept", "rule-broken", "whatwg".
  std::string what;                   ///< "chat.usage", "chat.usage.latencyMs", "AGENT-DONE-LAST (agent)", ...
  std::vector<std::string> case_ids;  ///< The covering cases, in case order.
  std::string excluded;               ///< Why the item cannot be covered by a stream case; empty otherwise.
  bool uncovered() const { return case_ids.empty() && excluded.empty(); }
};

struct coverage_report {
  std::vector<coverage_item> items;
  /// The items with no case and no exclusion.
  std::size_t uncovered() const;
};

/// Computes the coverage of `cat` by `cases`. Deterministic.
coverage_report compute_coverage(const sse::dialect::catalog& cat, std::span<const test_case> cases);

/// Prints one line per item (`ok`, `UNCOVERED` or `excluded`, the kind, what,
/// the count and up to `max_ids` case ids), then the totals per kind.
void print_coverage(std::ostream& out, const coverage_report& report, std::size_t max_ids = 6);

}  // namespace ssec::conformance
