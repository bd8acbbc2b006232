// SPDX-License-Identifier: MIT
// Reading the tool's inputs, with errors that name the file.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "ssec/support/result.hpp"

namespace ssec {

/// Reads the whole file at `path` ("-" is standard input, named `<stdin>` in
/// errors) as bytes. The error names the file and the system's reason.
result<std::string> read_all(const std::string& path);

/// Reads the file at `path` ("-" is standard input) as a stream, in pieces
/// of `piece_size` bytes (each full but the last: stdio fills them), calling
/// `on_piece` with each, so that memory does not grow with the file; stops
/// early, without error, when `on_piece` returns false. The error names the
/// file and the system's reason.
result<void> read_pieces(const std::string& path, std::size_t piece_size,
                         const std::function<bool(std::string_view)>& on_piece);

}  // namespace ssec
