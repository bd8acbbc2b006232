// SPDX-License-Identifier: MIT
#include "ssec/catalog_diff/git_snapshot.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace ssec {

namespace {

namespace fs = std::filesystem;

struct run_result {
  int status = -1;       // exit status; 127 when git could not be started
  std::string out, err;  // stdout, stderr
};

// Runs `args` (args[0] looked up in PATH), capturing stdout and stderr.
run_result run(const std::vector<std::string>& args) {
  run_result r;
  // argv before fork: the child only calls async-signal-safe functions.
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));  // NOLINT(cppcoreguidelines-pro-type-const-cast): execvp's signature
  argv.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) return r;
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return r;
  }
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const auto n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return r;
}

// git's output without the line end (and blanks) around it.
std::string trimmed(std::string_view s) { return std::string(ssec::trim(s, "\n\r ")); }

ssec::error git_error(const std::string& what, const run_result& r) {
  return {what + (r.err.empty() ? "" : ": " + trimmed(r.err))};
}

// A blob is sized before it is read: git show would hand the whole of it to
// this process, which the loaders would then refuse (read_document's bound).
ssec::result<void> write_blob(const std::string& top, std::string_view rev, const std::string& rel,
                              const fs::path& to) {
  const std::string object = std::string(rev) + ":" + rel;
  const auto size = run({"git", "-C", top, "cat-file", "-s", object});
  if (size.status != 0) return git_error("git cat-file -s " + object + " failed", size);
  const std::string bytes = trimmed(size.out);
  if (bytes.empty() || bytes.size() > 19 || bytes.find_first_not_of("0123456789") != std::string::npos ||
      std::stoull(bytes) > ssec::max_document_bytes) {
    return ssec::error{object + " is " + bytes + " bytes, more than the " +
                       ssec::yaml::size_text(ssec::max_document_bytes) + " a document may be"};
  }
  const auto r = run({"git", "-C", top, "show", std::string(rev) + ":" + rel});
  if (r.status != 0) return git_error("git show " + std::string(rev) + ":" + rel + " failed", r);
  std::ofstream w(to, std::ios::binary);
  w << r.out;
  if (!w) return ssec::error{"cannot write " + to.string()};
  return {};
}

}  // namespace

ssec::result<fs::path> snapshot_at_revision(const fs::path& path, std::string_view rev, const fs::path& into,
                                            const std::vector<std::string>& companions) {
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(path, ec), ec);
  const fs::path dir = fs::is_directory(abs, ec) ? abs : abs.parent_path();
  const auto top_run = run({"git", "-C", dir.string(), "rev-parse", "--show-toplevel"});
  if (top_run.status == 127)
    return ssec::error{"--against needs git, which could not be started (is it installed and on PATH?)"};
  if (top_run.status != 0) return git_error(path.string() + " is not in a git work tree", top_run);
  const std::string top = trimmed(top_run.out);
  const fs::path rel_path = fs::relative(abs, fs::weakly_canonical(top, ec), ec);
  std::string rel = rel_path.generic_string();
  if (rel == ".") rel.clear();
  const auto verify = run({"git", "-C", top, "rev-parse", "--verify", "--quiet", std::string(rev) + "^{commit}"});
  if (verify.status != 0) return git_error("unknown git revision `" + std::string(rev) + "`", verify);
  const auto type = run({"git", "-C", top, "cat-file", "-t", std::string(rev) + ":" + rel});
  if (type.status != 0)
    return git_error((rel.empty() ? std::string(".") : rel) + " does not exist at revision " + std::string(rev), type);
  const std::string kind = trimmed(type.out);
  if (kind == "blob") {
    const fs::path out = into / abs.filename();
    if (auto w = write_blob(top, rev, rel, out); !w) return w.error();
    const std::string rel_dir = fs::path(rel).parent_path().generic_string();
    for (const auto& name : companions) {
      const std::string beside = rel_dir.empty() ? name : rel_dir + "/" + name;
      const auto t = run({"git", "-C", top, "cat-file", "-t", std::string(rev) + ":" + beside});
      if (t.status != 0 || trimmed(t.out) != "blob") continue;
      if (auto w = write_blob(top, rev, beside, into / name); !w) return w.error();
    }
    return out;
  }
  const fs::path out = into / (abs.filename().empty() ? fs::path("root") : abs.filename());
  fs::create_directories(out, ec);
  if (ec) return ssec::error{"cannot create " + out.string() + ": " + ec.message()};
  const auto list = run({"git", "-C", top, "ls-tree", std::string(rev), rel.empty() ? "." : rel + "/"});
  if (list.status != 0) return git_error("git ls-tree " + std::string(rev) + " " + rel + " failed", list);
  std::size_t start = 0;
  while (start < list.out.size()) {
    auto end = list.out.find('\n', start);
    if (end == std::string::npos) end = list.out.size();
    const std::string line = list.out.substr(start, end - start);
    start = end + 1;
    // "<mode> <type> <object>\t<path>"
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.find(" blob ") == std::string::npos) continue;
    const std::string file = line.substr(tab + 1);
    if (auto w = write_blob(top, rev, file, out / fs::path(file).filename()); !w) return w.error();
  }
  return out;
}

}  // namespace ssec
