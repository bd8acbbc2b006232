// SPDX-License-Identifier: MIT
#include "ssec/support/result.hpp"

namespace ssec {

std::string error::to_string() const {
  std::string out;
  if (!file.empty()) {
    out = file;
    if (line > 0) {
      out += ':' + std::to_string(line);
      if (column > 0) out += ':' + std::to_string(column);
    }
    out += ": ";
  }
  return out + message;
}

std::string to_string(const std::vector<error>& errors) {
  std::string out;
  for (const auto& e : errors) {
    out += e.to_string();
    out += '\n';
  }
  return out;
}

}  // namespace ssec
