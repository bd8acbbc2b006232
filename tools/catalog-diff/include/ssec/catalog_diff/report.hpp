// SPDX-License-Identifier: MIT
// The reports of `sse-conform catalog diff` and `catalog rules`: text, JSON
// (`catalog_diff_format: 1`), JUnit (through the one JUnit writer),
// GitHub Actions annotations and markdown. Shapes are documented in
// tools/docs/catalog-diff.md; `certify` embeds the same JSON object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ssec/conformance/catalog_diff.hpp"
#include "ssec/conformance/catalog_diff_policy.hpp"

namespace ssec {

/// The version of the JSON shape; bumped only on incompatible changes.
inline constexpr int catalog_diff_format = 1;

/// The output formats of `catalog diff --format`.
enum class diff_format : std::uint8_t {
  text = 0,            ///< For a terminal.
  json = 1,            ///< catalog_diff_format 1.
  junit = 2,           ///< One testcase per change.
  github_actions = 3,  ///< `::error file=...,line=...::` workflow commands.
  markdown = 4,        ///< A pull-request comment or job summary.
};

/// "text", "json", "junit", "github-actions", "markdown" -> the format, or nullopt.
std::optional<diff_format> parse_diff_format(std::string_view s) noexcept;

/// The JSON report (tools/docs/catalog-diff.md, "JSON report").
nlohmann::ordered_json catalog_diff_json(const conformance::catalog_diff& d, const conformance::judged_diff& j);

/// The report in `format`, ending with a line feed. Bounded: every
/// counterexample is bounded by the diff, pinning ids by diff_options.
std::string render_catalog_diff(const conformance::catalog_diff& d, const conformance::judged_diff& j,
                                diff_format format);

/// The diff rules with their levels: a text table, or JSON
/// `{"catalog_diff_format":1,"rules":[{"id","reader","writer","meaning","reason"}]}`.
std::string render_diff_rules(bool json);

}  // namespace ssec
