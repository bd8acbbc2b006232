// SPDX-License-Identifier: MIT
// Where the tool finds its data (the catalogs, the tag list, the cases),
// installed or run from the build tree, from any working directory.
#pragma once

#include <filesystem>
#include <string>

namespace ssec {

/// The data directory, the first of:
///   1. $SSEC_DATA_DIR, when set and not empty;
///   2. `<directory of the executable>/../share/sse-conform`, when it holds
///      `spec/tags.yaml` (an installed tool: `cmake --install`, the .deb);
///   3. the source tree the tool was built from (SSEC_DEFAULT_SOURCE_DIR, set
///      at build time), which holds the same layout;
///   4. the working directory.
/// The layout is the repository's: `spec/` (catalogs, tags.yaml,
/// DECISIONS.md) and `conformance/cases/`.
std::filesystem::path data_dir();

/// `data_dir() / relative`, as a string (for option defaults).
std::string data_path(const std::string& relative);

}  // namespace ssec
