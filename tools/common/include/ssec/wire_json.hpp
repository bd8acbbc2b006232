// SPDX-License-Identifier: MIT
// The JSON form of wire-layer results: what `sse-conform parse` prints and what
// adapters exchange in protocol version 1 (docs/adapter-protocol.md).
#pragma once

#include <nlohmann/json.hpp>

#include "sse/event.hpp"
#include "sse/recording.hpp"
#include "ssec/result.hpp"

namespace ssec {

/// {"type": ..., "data": ..., "lastEventId": ...}, members in that order
/// (ordered_json keeps the documented order in everything we print).
nlohmann::ordered_json to_json(const sse::event_view& e);
nlohmann::ordered_json to_json(const sse::event& e);

/// Reads the object above back; an error unless it has exactly those three
/// string members (an adapter's answer is checked with this).
result<sse::event> wire_event_from_json(const nlohmann::json& j);

/// Serializes one JSON value on one line, strict UTF-8 (our strings always are).
std::string dump_line(const nlohmann::json& j);
std::string dump_line(const nlohmann::ordered_json& j);

/// "line_too_long at byte 42": a fatal parse status for people and adapters.
std::string describe_error(sse::errc code, std::uint64_t offset);

}  // namespace ssec
