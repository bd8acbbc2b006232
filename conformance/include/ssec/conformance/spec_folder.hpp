// SPDX-License-Identifier: MIT
// The files of a spec folder (spec/) as the generator and the coverage
// report read them: the event catalogs, and the case ids already taken.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "ssec/conformance/loader.hpp"
#include "ssec/result.hpp"

namespace ssec::conformance {

/// The catalogs of a spec folder: every *.yaml but tags.yaml, in name order
/// (empty when the folder cannot be read).
std::vector<std::string> catalog_paths(const std::filesystem::path& spec);

/// Ids the case generator must not take: the ids of the hand-written cases
/// (every case file under `cases` outside `generated`, through the case
/// loader with `tags`), and the ids `spec`/DECISIONS.md reserves (`ABCD` in
/// backquotes). A hand-written file that does not load is an error: its ids
/// could not be reserved.
result<std::set<std::string>> reserved_case_ids(const std::filesystem::path& cases,
                                                const std::filesystem::path& generated,
                                                const std::filesystem::path& spec, const tag_list& tags);

}  // namespace ssec::conformance
