// SPDX-License-Identifier: MIT
// A file or folder as it is at a git revision, copied out into a folder:
// what `catalog diff --against REV` reads its OLD side from.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/support/result.hpp"

namespace ssec {

/// Copies `path` (a file, or a folder's files, not recursive) as it is at
/// revision `rev` of the git repository that holds it, into `into` (which
/// must exist), and returns the copy's path: `into`/<file name>, or
/// `into`/<folder name>/ holding the folder's files. Runs `git` (no shell).
/// For a file, `companions` name files beside it copied too when they exist
/// at `rev` (a catalog's DECISIONS.md).
/// Errors: git not installed, `path` not in a git work tree, `rev` unknown,
/// `path` absent at `rev`; each says which, with git's own message.
ssec::result<std::filesystem::path> snapshot_at_revision(const std::filesystem::path& path, std::string_view rev,
                                                         const std::filesystem::path& into,
                                                         const std::vector<std::string>& companions = {});

}  // namespace ssec
