// SPDX-License-Identifier: MIT
// Expected-failure baselines (tools/docs/run.md, "Baseline format"): a text
// file of case paths whose failures are known. Listed failures do not fail
// the run; a listed case that passes does (stale), so baselines only shrink.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/harness/engine.hpp"
#include "ssec/support/result.hpp"

namespace ssec::harness {

struct baseline {
  std::set<std::string, std::less<>> paths;  ///< Case paths, e.g. "wire/bom/K7P2".
};

/// Parses the format: first line `# sse-conform baseline 1`, then one case
/// path per line, optionally followed by whitespace and a comment; blank
/// lines and `#` lines are ignored. An error (file `display`, the line) on a
/// bad header, a malformed path or a duplicate.
result<baseline> parse_baseline(std::string_view text, std::string_view display);
result<baseline> load_baseline(const std::filesystem::path& path);

/// Marks results: a listed case whose outcome is fail, non-strict, error or
/// timeout is `baselined`; a listed case that passed is `stale`.
void apply_baseline(const baseline& b, std::vector<case_result>& results);

/// A baseline listing every result that fails the run (see counts_as_failure),
/// each with its outcome as the comment.
std::string write_baseline(const std::vector<case_result>& results, bool strict);

/// True when this result makes the run exit 1: fail, error, timeout, stale,
/// and non-strict under `strict`; never when baselined.
bool counts_as_failure(const case_result& r, bool strict) noexcept;

}  // namespace ssec::harness
