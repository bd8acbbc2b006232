// SPDX-License-Identifier: MIT
// Adapter protocol, version 1 (docs/adapter-protocol.md): the request shapes
// shared by the reference adapter and the harness that drives adapters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/conformance/case.hpp"
#include "ssec/support/result.hpp"

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

/// A parse request as read_parse_request_line gives it: every chunk's bytes
/// end to end in one buffer, and each chunk a view into it (a byte-by-byte
/// request has millions of chunks: one string each was most of its memory).
/// The views stay valid while the value lives, moves included; a copy would
/// keep views into the original's buffer, so there is none.
struct packed_parse_request {
  packed_parse_request() = default;
  packed_parse_request(packed_parse_request&&) = default;
  packed_parse_request& operator=(packed_parse_request&&) = default;
  packed_parse_request(const packed_parse_request&) = delete;
  packed_parse_request& operator=(const packed_parse_request&) = delete;
  ~packed_parse_request() = default;

  std::string id;
  std::string layer;
  std::vector<char> bytes;
  std::vector<std::string_view> chunks;  ///< Into `bytes`, in order.
};

/// The same request read straight from its JSON line, without building a
/// DOM (simdjson's on-demand API): the reference adapter's fast path, since a
/// byte-by-byte request holds one JSON string per byte and the DOM was most of
/// the suite's time. Returns a value only for a well-formed parse request whose
/// members are exactly `op` ("parse"), `id`, `layer` and `chunks`, each once,
/// with the right types and valid base64, and nothing after the object; its
/// id, layer and chunks are then what parse_request_from_json gives for the
/// same line. Anything else (another op, an unknown or repeated member, a bad
/// chunk, invalid JSON) is nullopt, and the caller reads the line the general
/// way, which decides it and words the error. Thread-safe: each thread keeps
/// its own parser.
std::optional<packed_parse_request> read_parse_request_line(std::string_view line);

/// Builds the request the harness sends.
nlohmann::json to_json(const parse_request& r);

}  // namespace ssec
