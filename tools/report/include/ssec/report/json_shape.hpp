// SPDX-License-Identifier: MIT
// What a reader of an untrusted JSON document (a browser's post, a report
// read back) says of a member of the wrong type, in one wording.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ssec {

/// "where: expected <want>, got <JSON type>" (null, boolean, number, string,
/// array or object), e.g. "results[0].name: expected a string, got number".
std::string expected_json(std::string_view where, std::string_view want, const nlohmann::json& got);

}  // namespace ssec
