// SPDX-License-Identifier: MIT
#include "ssec/input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

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

}  // namespace ssec
