// SPDX-License-Identifier: MIT
// The catalog diff's parts (private to the library; catalog_diff.hpp is the
// interface):
//   catalog_diff.cpp          the rule table, semver, fingerprints, the whole diff;
//   catalog_diff_compare.cpp  the comparison: dialects, shapes, events, fields, rules;
//   catalog_diff_examples.cpp counterexample streams and the cases that pin a change.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/catalog_diff.hpp"

namespace ssec::conformance::diff_detail {

namespace dl = sse::dialect;

/// A change with rule, location, message and where set; levels and
/// fingerprint are filled from the rule table by `finish`.
catalog_change make_change(std::string_view rule, std::string dialect, std::string event, std::string field,
                           std::string producer_rule, std::string message, const dl::location* old_where,
                           const dl::location* new_where);

/// Every change between the two sets except VERSION_* (catalog_diff_compare.cpp).
std::vector<catalog_change> compare_sets(const dl::catalog& old_set, const dl::catalog& new_set);

/// The last path component of a file name as loaded ("spec/chat.yaml" -> "chat.yaml").
std::string base_name(std::string_view file);

/// Fills `example` of ERR/WARN changes and `pinned_by` from NEW's generated
/// cases, as `options` asks (catalog_diff_examples.cpp). Generates each
/// side's cases at most once.
void add_evidence(std::vector<catalog_change>& changes, const dl::catalog& old_set, const dl::catalog& new_set,
                  const diff_options& options);

}  // namespace ssec::conformance::diff_detail
