// SPDX-License-Identifier: MIT
// Reading the tool's inputs, with errors that name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "ssec/support/result.hpp"

namespace ssec {

/// Reads the whole file at `path` ("-" is standard input, named `<stdin>` in
/// errors) as bytes. The error names the file and the system's reason.
result<std::string> read_all(const std::string& path);

/// The most a document the tool parses whole (a catalog, case file, tag
/// list, profile, ignore file, scenario file) may be: 64 MiB, far above any
/// real one, so that a wrong path is refused before it is read.
inline constexpr std::uint64_t max_document_bytes = std::uint64_t{64} << 20;

/// Reads a document the tool parses whole: a regular file (or "-", standard
/// input) of at most `max_bytes`. A device, FIFO or directory is refused
/// before it is opened (/dev/zero would be read without end, a FIFO would
/// block), a file over the bound before it is read, and standard input or a
/// file that grows is read no further than one byte past the bound. Each
/// error names the file and says why.
result<std::string> read_document(const std::string& path, std::uint64_t max_bytes = max_document_bytes);

/// Reads the file at `path` ("-" is standard input) as a stream, in pieces
/// of `piece_size` bytes (each full but the last: stdio fills them), calling
/// `on_piece` with each, so that memory does not grow with the file; stops
/// early, without error, when `on_piece` returns false. The error names the
/// file and the system's reason.
result<void> read_pieces(const std::string& path, std::size_t piece_size,
                         const std::function<bool(std::string_view)>& on_piece);

}  // namespace ssec
