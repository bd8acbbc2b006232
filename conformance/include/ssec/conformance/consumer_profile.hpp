// SPDX-License-Identifier: MIT
// Consumer profiles (tools/docs/certify.md, "Consumer profiles",
// `profile_format: 1`): what a consumer of a dialect reads (the event types
// it handles, the fields it uses as JSON Pointers per type, its policy for
// unknown types), and the static check of a profile against a new contract
// (and the old one) that `sse-conform certify` runs before anything else.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/catalog_diff.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// The profile format version this build reads.
inline constexpr int profile_format_version = 1;

/// What a consumer does with an event type it does not handle.
enum class unknown_policy {
  ignore,   ///< Drops it silently (the agent-service document's "ignore the ones you don't handle").
  surface,  ///< Keeps it as unknown with its raw data (the chat document's "never lost").
  reject,   ///< Fails the stream (a strict allow-list).
};
/// "ignore", "surface", "reject".
std::string_view to_string(unknown_policy p) noexcept;

/// One handled event type and the fields the consumer reads from it.
struct profile_type {
  std::string type;
  std::vector<std::string> reads;  ///< JSON Pointers into the event object ("/text", "/payload/resume").
  std::size_t line = 0;            ///< 1-based line of the type in the profile.
};

struct consumer_profile {
  std::string name;
  std::string dialect;
  unknown_policy unknown_types = unknown_policy::ignore;
  /// Types on which the consumer stops with an error by design (the
  /// document's "throw on error"): probes never put them in a baseline.
  std::vector<std::string> aborts_on;
  std::vector<profile_type> handles;
  /// The types it cannot do without (`requires`): a removed one is ERR, a
  /// removed handled type it does not require WARN. Without `requires`
  /// (requires_given false) every handled type is required.
  std::vector<std::string> requires_types;
  bool requires_given = false;
  std::string file;  ///< As errors and reports name it.

  /// Whether the consumer needs `type` (requires_types, or every handled type).
  bool requires_type(std::string_view type) const noexcept {
    if (!requires_given) return find(type) != nullptr;
    for (const auto& t : requires_types) {
      if (t == type) return true;
    }
    return false;
  }

  /// The handled type, or nullptr.
  const profile_type* find(std::string_view type) const noexcept;
};

/// Loads a profile's text (`display` names it in errors). Every problem is
/// an error at file:line:column: malformed YAML, an unknown or missing key,
/// a `profile_format` other than 1, a policy other than ignore / surface /
/// reject, a pointer that is not a JSON Pointer, a type twice (YAML's
/// duplicate key), an empty `handles`.
ssec::load_result<consumer_profile> load_profile_text(std::string_view text, std::string_view display);
/// The same from a file; an unreadable file is an error naming it.
ssec::load_result<consumer_profile> load_profile_file(const std::filesystem::path& path, std::string_view display);

/// One static finding of a profile against the contracts.
struct profile_finding {
  std::string rule;                         ///< Stable id, tools/docs/certify.md ("FIELD_REMOVED", ...).
  change_level level = change_level::info;  ///< How bad it is for the consumer (catalog diff's levels).
  std::string type;                         ///< The event type concerned, or empty.
  std::string pointer;                      ///< The JSON Pointer concerned, or empty.
  std::string message;                      ///< One sentence.
  std::size_t line = 0;                     ///< The profile line concerned (0: the file).
};

/// Checks `p` against `next` (the contract being certified) and `prev` (the
/// one the consumer was built for; null: none), by the table of
/// tools/docs/certify.md: a dialect, a handled type or a read field missing
/// from `next` is ERR (a field or type `prev` had: removed); a type `next`
/// adds is ERR for a consumer that rejects unknown types, INFO otherwise; a
/// read field that became optional without a default, or admits more JSON
/// types than before, is WARN. In profile order.
std::vector<profile_finding> check_profile(const consumer_profile& p, const sse::dialect::catalog& next,
                                           const sse::dialect::catalog* prev);

}  // namespace ssec::conformance
