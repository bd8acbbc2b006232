// SPDX-License-Identifier: MIT
// The producer rules of a contract as `sse-conform rules` and `explain` show
// them: each with its severity, basis, the words it rests on or the decision,
// and the cases that pin it. The JSON shape is versioned (rules_format).
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/case.hpp"

namespace ssec::conformance {

/// Version of the JSON shape of rules_to_json (tools/docs/cli.md, "rules").
inline constexpr int rules_format_version = 1;

/// One rule and the cases that pin it.
struct pinned_rule {
  const sse::dialect::rule_spec* rule = nullptr;
  std::vector<std::string> broken_by;  ///< Cases that list it in `findings` ("layer/topic/ID").
  std::vector<std::string> kept_by;    ///< Cases that cite it in `from` and do not list it.
};

/// Every rule of `contract` in catalog order (those of `dialect` only when
/// it is not empty), with the cases among `cases` that pin it.
std::vector<pinned_rule> pin_rules(const sse::dialect::catalog& contract, std::span<const test_case> cases,
                                   std::string_view dialect = {});

/// {"rules_format":1,"catalogs":[{"file","catalog_version"}],"rules":[{"id","severity","basis","dialects",
/// "text","sources","quotes","decision","decisions_file","authored","generated","grounds","check","where",
/// "broken_by","kept_by"}]}.
nlohmann::ordered_json rules_to_json(const sse::dialect::catalog& contract, std::span<const pinned_rule> rules);

/// One line per rule: id, severity, basis, dialects, the number of cases,
/// and what it rests on (sse::dialect::basis_text: the first source and its
/// quoted words, or the decision).
void print_rule_lines(std::ostream& out, std::span<const pinned_rule> rules);

/// Everything about one rule, several lines: text, where it is written,
/// what it rests on (each source with its quote, or the decision), the
/// check, and the cases that pin it.
void print_rule_explained(std::ostream& out, const pinned_rule& r);

}  // namespace ssec::conformance
