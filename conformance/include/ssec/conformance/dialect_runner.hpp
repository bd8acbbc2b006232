// SPDX-License-Identifier: MIT
// Running a dialect-layer case (chat, code, agent, workflow) against the
// reference decoder and producer validator (dialects/), the dialect of
// the case's layer taken from the built-in catalogs.
#pragma once

#include <optional>
#include <string>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/runner.hpp"

namespace ssec::conformance {

/// Checks a dialect-layer case: under every chunking of `plan`, the
/// reference decoder's events must equal the case's `dialect_events` (when
/// given; compared as in spec/FORMAT.md section 2); the validator's findings
/// over the whole stream, as a set of rule ids, must equal `findings`, or be
/// empty for `conforming: true`. Returns nullopt when everything agrees (and
/// for wire cases), else a report naming the case, file:line, the failing
/// chunking, and the first event or finding that differs (expected vs got).
/// The dialect of the case's layer comes from `contract` (the built-in
/// catalogs unless a command was given others: --spec, --catalog).
std::optional<std::string> check_dialect_reference(const test_case& c, const chunking_plan& plan,
                                                   const sse::dialect::catalog& contract);
/// The same with the built-in catalogs.
std::optional<std::string> check_dialect_reference(const test_case& c, const chunking_plan& plan);

/// Checks any case against the whole reference: the wire parser
/// (check_reference), then for dialect layers check_dialect_reference.
/// nullopt when everything agrees, else the first failure's report.
std::optional<std::string> check_against_reference(const test_case& c, const chunking_plan& plan,
                                                   const sse::dialect::catalog& contract);

}  // namespace ssec::conformance
