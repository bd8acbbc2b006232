// SPDX-License-Identifier: MIT
// The files of a spec folder (spec/) as the generator and the coverage
// report read them: the event catalogs, and the case ids already taken.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// The catalogs of a spec folder: every *.yaml but tags.yaml, in name order
/// (empty when the folder cannot be read).
std::vector<std::string> catalog_paths(const std::filesystem::path& spec);

/// Where a command takes the contract (the catalogs) from: the built-in set
/// when neither `spec_dir` nor `catalog_files` is given (tools/docs/cli.md,
/// "The contract").
struct contract_source {
  std::string spec_dir;                    ///< --spec DIR: its catalogs (catalog_paths) and DECISIONS.md.
  std::vector<std::string> catalog_files;  ///< --catalog FILE, repeatable: more catalogs, loaded as one set.
  std::string sources_dir;                 ///< --sources DIR: the protocol documents, to check every source.
  bool builtin() const noexcept { return spec_dir.empty() && catalog_files.empty(); }
};

/// Loads and checks the contract, as one set: the grammar (the loader); the
/// decisions of each catalog file against the DECISIONS.md beside it (a file
/// that names decisions with no DECISIONS.md beside it is an error); and with
/// `sources_dir`, every `<document>:<line>` source and every rule quote
/// against the documents found there. Every error names file:line:column.
/// The built-in set is checked only against `sources_dir` (its decisions are
/// checked by the tests).
ssec::load_result<std::shared_ptr<const sse::dialect::catalog>> load_contract(const contract_source& source);

/// Ids the case generator must not take: the ids of the hand-written cases
/// (every case file under `cases` outside `generated` and `spec`, through the case
/// loader with `tags`), and the ids `spec`/DECISIONS.md reserves (`ABCD` in
/// backquotes). A hand-written file that does not load is an error: its ids
/// could not be reserved.
result<std::set<std::string>> reserved_case_ids(const std::filesystem::path& cases,
                                                const std::filesystem::path& generated,
                                                const std::filesystem::path& spec, const tag_list& tags);

}  // namespace ssec::conformance
