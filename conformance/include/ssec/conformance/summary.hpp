// SPDX-License-Identifier: MIT
// The summary table of a set of cases: how many per layer (and verdict), and
// how many per tag and layer. The tool prints it; tests check it.
#pragma once

#include <ostream>
#include <span>

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/loader.hpp"

namespace ssec::conformance {

/// Prints, as aligned plain-text tables:
///   cases per layer: total, must, should, impl (every layer, even empty ones);
///   cases per tag: one column per layer and the total (tags of `tags` that no
///   case uses are listed with zeros when `tags` is given, so gaps show).
/// Deterministic: layers in their enum order, tags sorted by name.
void print_summary(std::ostream& out, std::span<const test_case> cases, const tag_list* tags = nullptr);

}  // namespace ssec::conformance
