// SPDX-License-Identifier: MIT
// Reading the tool's inputs, with errors that name the file.
#pragma once

#include <string>

#include "ssec/result.hpp"

namespace ssec {

/// Reads the whole file at `path` ("-" is standard input, named `<stdin>` in
/// errors) as bytes. The error names the file and the system's reason.
result<std::string> read_all(const std::string& path);

}  // namespace ssec
