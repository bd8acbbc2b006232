// SPDX-License-Identifier: MIT
// The JSON form of wire-layer results: what `sse-conform parse` prints and what
// adapters exchange in protocol version 1 (docs/adapter-protocol.md).
#pragma once

#include <nlohmann/json.hpp>

#include "sse/event.hpp"
#include "sse/recording.hpp"
#include "ssec/support/result.hpp"

namespace ssec {

/// {"type": ..., "data": ..., "lastEventId": ...}, members in that order
/// (ordered_json keeps the documented order in everything we print).
nlohmann::ordered_json to_json(const sse::event_view& e);
nlohmann::ordered_json to_json(const sse::event& e);

/// Reads the object above back; an error unless its members are those three,
/// strings, `type` and `lastEventId` present; a missing `data` is empty data
/// (an adapter's answer is checked with this, adapter-protocol.md).
result<sse::event> wire_event_from_json(const nlohmann::json& j);

/// Serializes one JSON value on one line, strict UTF-8 (our strings always are).
std::string dump_line(const nlohmann::json& j);
std::string dump_line(const nlohmann::ordered_json& j);

/// "line_too_long at byte 42": a fatal parse status for people and adapters.
std::string describe_error(sse::errc code, std::uint64_t offset);

/// How many bytes of a diagnostic's detail describe_diagnostic quotes.
inline constexpr std::size_t diagnostic_quote_bytes = 200;

/// "byte 42: invalid_retry \"12x\"": a tolerated oddity for people. The
/// detail (a rejected value can be as long as a line) is quoted with the one
/// escaper, at most diagnostic_quote_bytes of it, followed by
/// "... (N more bytes)" when the rest is left out.
std::string describe_diagnostic(const sse::diagnostic& d);

}  // namespace ssec
