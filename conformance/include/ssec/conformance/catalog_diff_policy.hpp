// SPDX-License-Identifier: MIT
// What a catalog diff means for a gate: the role looked at, the level that
// fails, and the ignore file (fingerprints with a reason each). The format of
// the ignore file: tools/docs/catalog-diff.md, "Ignore file".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/conformance/catalog_diff.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// Whose levels a gate looks at.
enum class diff_role : std::uint8_t {
  reader = 0,  ///< SDKs and frontends.
  writer = 1,  ///< Other producers and proxies.
  both = 2,    ///< The higher of the two.
};

/// "reader", "writer", "both".
std::string_view to_string(diff_role r) noexcept;
/// The role so spelled, or nullopt.
std::optional<diff_role> parse_diff_role(std::string_view s) noexcept;

/// The level of a change for a role (both: the higher).
change_level level_for(const catalog_change& c, diff_role role) noexcept;

/// One accepted change: its fingerprint and why it is accepted.
struct ignore_entry {
  std::string fingerprint;  ///< 16 lower-case hex digits.
  std::string reason;       ///< Never empty.
  std::size_t line = 0;     ///< 1-based line in the ignore file.
};

/// Parses an ignore file. Two forms (tools/docs/catalog-diff.md):
///   YAML: a mapping with `ignore:` a list of {fingerprint, reason} mappings;
///   text: one `<fingerprint> <reason>` per line, `#` comments, blank lines.
/// A missing reason, a malformed fingerprint, a duplicate or an unknown key
/// is an error naming `display`:line:column. Never throws.
ssec::load_result<std::vector<ignore_entry>> parse_ignore_file(std::string_view text, std::string_view display);

/// A diff judged for a gate.
struct judged_diff {
  diff_role role = diff_role::both;
  change_level fail_on = change_level::err;
  /// Per change (same index as catalog_diff::changes): the reason it is
  /// ignored, or nullopt.
  std::vector<std::optional<std::string>> ignored;
  /// Ignore entries that match no change: "file:line: fingerprint ... matches no change".
  std::vector<std::string> unknown_ignores;
  std::size_t failing = 0;        ///< Changes at or above fail_on for the role, not ignored.
  std::size_t counts[3][3] = {};  ///< [role reader/writer/both][level info/warn/err], ignored ones left out.

  /// Whether the gate fails (exit 1).
  bool fails() const noexcept { return failing != 0; }
};

/// Judges `d` for a gate. `ignore_display` names the ignore file in warnings.
judged_diff judge_diff(const catalog_diff& d, diff_role role, change_level fail_on,
                       const std::vector<ignore_entry>& ignores, std::string_view ignore_display = "ignore file");

}  // namespace ssec::conformance
