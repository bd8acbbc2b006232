// SPDX-License-Identifier: MIT
#include "ssec/support/input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "ssec/support/yaml_reader.hpp"

namespace ssec {

result<std::string> read_all(const std::string& path) {
  const bool from_stdin = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(from_stdin ? stdin : std::fopen(path.c_str(), "rb"),
                                                       from_stdin ? [](std::FILE*) { return 0; } : &std::fclose);
  const std::string name = from_stdin ? std::string("<stdin>") : path;
  if (!file) return error{std::strerror(errno), name};
  std::string out;
  char buf[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, file.get());
    out.append(buf, n);
    if (n < sizeof buf) break;
  }
  if (std::ferror(file.get())) return error{std::string("read error: ") + std::strerror(errno), name};
  return out;
}

result<std::string> read_document(const std::string& path, std::uint64_t max_bytes) {
  if (path != "-") {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec) return error{ec.message(), path};
    if (std::filesystem::is_directory(status)) return error{"is a directory, not a file", path};
    if (!std::filesystem::is_regular_file(status)) {
      return error{"is not a regular file (a device or a FIFO is not read as a document)", path};
    }
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return error{ec.message(), path};
    if (size > max_bytes) {
      return error{
          "is " + yaml::size_text(size) + ", more than the " + yaml::size_text(max_bytes) + " a document may be", path};
    }
  }
  std::string out;
  bool over = false;
  auto read = read_pieces(path, std::size_t{1} << 16, [&](std::string_view piece) {
    if (piece.size() > max_bytes - out.size()) {
      over = true;
      return false;
    }
    out.append(piece);
    return true;
  });
  if (!read) return read.error();
  if (over) {
    return error{"holds more than the " + yaml::size_text(max_bytes) + " a document may be",
                 path == "-" ? std::string("<stdin>") : path};
  }
  return out;
}

result<void> read_pieces(const std::string& path, std::size_t piece_size,
                         const std::function<bool(std::string_view)>& on_piece) {
  const bool from_stdin = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(from_stdin ? stdin : std::fopen(path.c_str(), "rb"),
                                                       from_stdin ? [](std::FILE*) { return 0; } : &std::fclose);
  const std::string name = from_stdin ? std::string("<stdin>") : path;
  if (!file) return error{std::strerror(errno), name};
  std::string buf(piece_size == 0 ? 1 : piece_size, '\0');
  for (;;) {
    const std::size_t n = std::fread(buf.data(), 1, buf.size(), file.get());
    if (n > 0 && !on_piece(std::string_view(buf.data(), n))) return {};
    if (n < buf.size()) break;
  }
  if (std::ferror(file.get())) return error{std::string("read error: ") + std::strerror(errno), name};
  return {};
}

}  // namespace ssec
