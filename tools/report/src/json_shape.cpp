// SPDX-License-Identifier: MIT
#include "ssec/report/json_shape.hpp"

namespace ssec {

std::string expected_json(std::string_view where, std::string_view want, const nlohmann::json& got) {
  return std::string(where) + ": expected " + std::string(want) + ", got " + got.type_name();
}

}  // namespace ssec
