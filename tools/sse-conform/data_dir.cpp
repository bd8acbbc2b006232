// SPDX-License-Identifier: MIT
#include "data_dir.hpp"

#include <cstdlib>
#include <system_error>

#ifndef SSEC_DEFAULT_SOURCE_DIR
#define SSEC_DEFAULT_SOURCE_DIR ""
#endif

namespace ssec {

namespace fs = std::filesystem;

fs::path data_dir() {
  if (const char* env = std::getenv("SSEC_DATA_DIR"); env != nullptr && *env != '\0') return fs::path(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "sse-conform";
    if (fs::exists(installed / "spec" / "tags.yaml", ec)) return installed;
  }
  fs::path source = SSEC_DEFAULT_SOURCE_DIR;
  if (!source.empty() && fs::exists(source / "spec" / "tags.yaml", ec)) return source;
  return fs::path(".");
}

std::string data_path(const std::string& relative) {
  const fs::path dir = data_dir();
  return dir == fs::path(".") ? relative : (dir / relative).string();
}

}  // namespace ssec
