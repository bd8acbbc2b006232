// SPDX-License-Identifier: MIT
// What the tests of a command stopped by a signal share (`run` in
// harness_cli_test.cpp, `certify` in certify_cli_test.cpp, `fuzz` in
// fuzz_cli_test.cpp): the command started in the background, an adapter
// command that records its process group, a wait for a line in a file, and
// the processes left in the recorded groups.
// Needs what tool_run.hpp needs (SSE_CONFORM_BIN, SSEC_SOURCE_DIR).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tool_run.hpp"

namespace interruption {

namespace fs = std::filesystem;
using tool_run::read_file;

/// A signal that stops the command under test, and whether its adapter
/// ignores it (then only the kill after the grace period ends the adapter).
struct stop_signal {
  int number;
  std::string name;
  bool adapter_ignores;
};
/// How test names show it (SIGINT, SIGTERM).
inline void PrintTo(const stop_signal& s, std::ostream* os) { *os << s.name; }
/// SIGINT with an adapter that ends on it; SIGTERM with one that ignores it.
inline const std::vector<stop_signal> stop_signals{{SIGINT, "SIGINT", false}, {SIGTERM, "SIGTERM", true}};

/// `command` (a shell command line, quoted where needed) running in the
/// background through /bin/sh -c; its pid (-1 when fork failed).
inline pid_t start(const std::string& command) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

/// Waits for `pid` to end: its exit status, or -1 when a signal killed it
/// (the command did not handle the signal).
inline int wait_exit(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Waits (at most `bound`) until the file at `path` holds `text`; whether it does.
inline bool wait_for_text(const fs::path& path, std::string_view text,
                          std::chrono::milliseconds bound = std::chrono::seconds(30)) {
  const auto until = std::chrono::steady_clock::now() + bound;
  while (read_file(path).find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

/// `command` as an adapter command that first appends its shell's pid to
/// `pids`: the pid of the adapter, which is also its process group (every
/// adapter runs in its own). With `ignore_signals`, the adapter ignores
/// SIGINT, SIGTERM and SIGHUP, so that only a kill ends it.
inline std::string recording_group(const fs::path& pids, const std::string& command, bool ignore_signals) {
  return "echo $$ >> '" + pids.string() + "'; " + (ignore_signals ? "trap '' TERM INT HUP; " : "") + "exec " + command;
}

/// The process groups `recording_group` appended to `pids`.
inline std::vector<pid_t> recorded_groups(const fs::path& pids) {
  std::istringstream groups(read_file(pids));
  std::vector<pid_t> out;
  for (pid_t g = 0; groups >> g;) out.push_back(g);
  return out;
}

/// The processes still running (zombies aside: they are dead) in any of
/// `groups`, one "process P of adapter group G" each; empty when none is left.
inline std::vector<std::string> running_in(const std::vector<pid_t>& groups) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string stat = read_file(entry.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0, pgrp = 0;
    fields >> state >> ppid >> pgrp;
    for (const pid_t g : groups) {
      if (pgrp == g && state != 'Z') {
        out.push_back("process " + entry.path().filename().string() + " of adapter group " + std::to_string(g));
      }
    }
  }
  return out;
}

}  // namespace interruption
