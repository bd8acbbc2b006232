// SPDX-License-Identifier: MIT
// What `sse-conform --version` prints (tools/docs/cli.md, "Versions").
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace ssec {

/// The case set's version: how many cases, in how many files, and a
/// fingerprint of the files (FNV-1a 64 over each `.yaml` file's path relative
/// to the case directory and its bytes, in path order; 16 hex digits). Two
/// case directories with the same fingerprint hold the same cases.
struct case_set_version {
  std::size_t cases = 0;
  std::size_t files = 0;
  std::string fingerprint;
  std::string error;  ///< Why the cases could not be loaded, or empty.
};

/// The version of the case directory `cases`, read with the tag list `tags`.
case_set_version read_case_set_version(const std::filesystem::path& cases, const std::filesystem::path& tags);

/// The `--version` text: the tool version, then each built-in catalog
/// (`catalog <file> <catalog_version> (<document>)`), then the case set of
/// the data directory (data_dir.hpp). One item per line.
std::string version_text(std::string_view tool_version);

}  // namespace ssec
