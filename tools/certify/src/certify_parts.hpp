// SPDX-License-Identifier: MIT
// The certify engine's parts (private): the catalog diff's part of the report
// (certify_diff.cpp).
#pragma once

#include "sse/dialect/catalog.hpp"
#include "ssec/certify/certify.hpp"

namespace ssec::certify {

/// Runs the catalog diff of `prev` and `next` into r.changes and sets the
/// contract verdict (broke when the versions do not follow the changes).
void add_diff(report& r, const sse::dialect::catalog& prev, const sse::dialect::catalog& next);

}  // namespace ssec::certify
