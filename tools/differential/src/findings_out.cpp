// SPDX-License-Identifier: MIT
// Where `sse-conform fuzz` writes its findings (tools/docs/fuzz.md, "--out"):
// a folder per implementation, checked before the first sample, and files
// written without following a symbolic link planted in the folder.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "ssec/differential/fuzzer.hpp"
#include "ssec/differential/shrink.hpp"

namespace ssec::differential {

namespace fs = std::filesystem;

std::string impl_dir_name(std::string_view name) {
  std::string out;
  for (const char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                    ch == '.' || ch == '_';
    out += ok ? ch : '_';
  }
  return out.empty() || out[0] == '.' ? "impl" + out : out;
}

namespace {
ssec::error system_error(const fs::path& file, std::string_view what, int code) {
  return ssec::error{std::string(what) + ": " + std::strerror(code), file.string()};
}
}  // namespace

ssec::result<void> write_finding_file(const fs::path& file, const std::string& text) {
  static std::atomic<unsigned> counter{0};
  const fs::path temp = file.parent_path() / ("." + file.filename().string() + "." + std::to_string(::getpid()) + "." +
                                              std::to_string(counter++) + ".tmp");
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return system_error(file, "cannot write the finding", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int code = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(temp.c_str());
      return system_error(file, "cannot write the finding", code);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int code = errno;
    ::unlink(temp.c_str());
    return system_error(file, "cannot write the finding", code);
  }
  // rename() replaces a symbolic link at `file` itself, never what it points to.
  if (::rename(temp.c_str(), file.c_str()) != 0) {
    const int code = errno;
    ::unlink(temp.c_str());
    return system_error(file, "cannot write the finding", code);
  }
  return {};
}

ssec::result<void> prepare_out_dir(const fs::path& dir) {
  std::error_code ec;
  for (const fs::path& p : {dir.parent_path(), dir}) {
    if (!p.empty() && fs::is_symlink(fs::symlink_status(p, ec))) {
      return ssec::error{"is a symbolic link; findings are not written through one", p.string()};
    }
  }
  fs::create_directories(dir, ec);
  if (ec) return ssec::error{"cannot create the findings folder: " + ec.message(), dir.string()};
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return ssec::error{"is not a folder", dir.string()};
  if (auto probe = write_finding_file(dir / ".sse-conform-fuzz-probe", "probe\n"); !probe) {
    return ssec::error{"the findings folder is not writable: " + probe.error().message, dir.string()};
  }
  fs::remove(dir / ".sse-conform-fuzz-probe", ec);
  return {};
}

sample without_fields(const sample& s, const std::vector<std::string>& fields) {
  sample out = s;
  std::size_t start = out.bytes.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (start < out.bytes.size()) {
    std::size_t end = out.bytes.find_first_of("\r\n", start);
    std::size_t next = end == std::string::npos ? out.bytes.size() : end + 1;
    if (end != std::string::npos && out.bytes[end] == '\r' && next < out.bytes.size() && out.bytes[next] == '\n')
      ++next;
    const std::string_view line =
        std::string_view(out.bytes).substr(start, (end == std::string::npos ? out.bytes.size() : end) - start);
    const std::string_view name = line.substr(0, line.find(':'));
    if (!line.empty() && std::find(fields.begin(), fields.end(), name) != fields.end()) {
      out = remove_range(out, start, next);
    } else {
      start = next;
    }
  }
  return out;
}

}  // namespace ssec::differential
