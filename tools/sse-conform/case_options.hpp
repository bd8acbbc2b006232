// SPDX-License-Identifier: MIT
// The case options every subcommand that reads case files takes, spelled
// once (tools/docs/cli.md): --cases DIR and --tags FILE, and their loading:
// the closed tag list first, then the case tree checked against it, every
// error printed on standard error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "ssec/conformance/case.hpp"
#include "ssec/conformance/loader.hpp"

namespace ssec::cli {

/// Where a command's cases and tag list are.
struct case_source {
  std::string cases;               ///< Directory of case files.
  std::string tags;                ///< The closed tag list (spec/tags.yaml).
  std::string cases_display;       ///< How messages name `cases` (empty: as given).
  std::string tags_display;        ///< How messages name `tags` (empty: as given).
  std::string option = "--cases";  ///< The option that named `cases`, for messages.
};

/// The installed conformance cases and their tag list (data_path): the
/// defaults of --cases and --tags.
case_source installed_cases();

/// Adds --cases and --tags to `cmd`, filling `source`; the values already in
/// `source` are the defaults shown. `cases_help` says what the cases are for.
void add_case_options(CLI::App* cmd, case_source& source, const std::string& cases_help = "Directory of case files");

/// What a command loaded: `ok` false when anything failed to load, after the
/// errors were printed; what did load is kept (coverage shows it).
struct loaded_cases {
  conformance::tag_list tags;
  std::vector<conformance::test_case> cases;
  bool ok = false;
};

/// Loads `source`: a `cases` that is not a directory is said as
/// "sse-conform <command>: DIR: not a directory of case files (<option>)";
/// a tag list that does not load leaves the cases unread (every case would
/// fail on its tags).
loaded_cases load_cases_saying_why(const case_source& source, std::string_view command);

/// The tag list at `path` alone (generate-cases, certify): nothing after the
/// errors were printed, each prefixed "sse-conform <command>: ".
std::optional<conformance::tag_list> load_tags_saying_why(const std::string& path, std::string_view command,
                                                          const std::string& display = {});

}  // namespace ssec::cli
