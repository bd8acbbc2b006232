// SPDX-License-Identifier: MIT
// What the validator's units (validator.cpp, validator_json.cpp,
// stream_validator.cpp) share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sse/parser.hpp"

namespace sse::dialect::detail {

/// The first CR or LF at or after `from`, or npos. The parser's vector scan:
/// string_view::find_first_of("\r\n") calls memchr once per byte.
inline std::size_t line_end(std::string_view s, std::size_t from) noexcept {
  const char* const end = s.data() + s.size();
  const char* const eol = sse::detail::find_line_end(s.data() + from, end);
  return eol == end ? std::string_view::npos : static_cast<std::size_t>(eol - s.data());
}

/// Where JSON-looking data (its first non-blank byte is `{` or `[`) stops
/// parsing, as a byte offset into the data; nullopt when it parses or does
/// not look like JSON at all.
std::optional<std::size_t> json_error_at(std::string_view data);

/// The key the frontend dispatches on, misspelt: the first top-level key of
/// a JSON object that equals `type` when case and `_`/`-` are ignored
/// (`Type`, `TYPE`), when the object has no `type` key itself; nullopt
/// otherwise.
std::optional<std::string> type_key_variant(std::string_view data);

}  // namespace sse::dialect::detail
