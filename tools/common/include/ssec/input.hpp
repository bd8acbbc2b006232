// SPDX-License-Identifier: MIT
// Reading the tool's inputs, with errors that name the file.
#pragma once

#include <string>
#include <variant>

namespace ssec {

/// A failure to read an input, ready to print: "<path>: <reason>".
struct read_error {
  std::string message;
};

/// Reads the whole file at `path` ("-" is standard input) as bytes.
std::variant<std::string, read_error> read_all(const std::string& path);

}  // namespace ssec
