// SPDX-License-Identifier: MIT
// Adapter protocol, version 1 (docs/adapter-protocol.md): the request shapes
// shared by the reference adapter and the harness that drives adapters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/conformance/case.hpp"
#include "ssec/result.hpp"

namespace ssec {

inline constexpr int adapter_protocol_version = 1;

/// The reference adapter's `max_in_flight` (adapter-protocol.md, "Pipelining"):
/// it reads every request as it comes and answers them in order.
inline constexpr int adapter_max_in_flight = 256;

/// The reference has every capability.
inline const std::vector<std::string>& reference_capabilities() { return conformance::known_capabilities(); }

/// {"op":"parse","id":...,"layer":...,"chunks":[base64...]}, decoded.
struct parse_request {
  std::string id;
  std::string layer;
  std::vector<std::string> chunks;  ///< Raw bytes, base64 already decoded.
};

/// Checks and decodes a parse request; an error says what is wrong.
result<parse_request> parse_request_from_json(const nlohmann::json& j);

/// Builds the request the harness sends.
nlohmann::json to_json(const parse_request& r);

}  // namespace ssec
