// SPDX-License-Identifier: MIT
// Counterexample streams and the generated cases that pin a change.
#include "catalog_diff_parts.hpp"

namespace ssec::conformance::diff_detail {

void add_counterexamples(std::vector<catalog_change>&, const dl::catalog&, const dl::catalog&, const diff_options&) {}

void add_pinning_cases(std::vector<catalog_change>&, const dl::catalog&, const diff_options&) {}

}  // namespace ssec::conformance::diff_detail
