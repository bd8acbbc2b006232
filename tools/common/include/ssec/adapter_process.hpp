// SPDX-License-Identifier: MIT
// One running adapter: the implementation's command as a child process that
// speaks the adapter protocol (tools/docs/adapter-protocol.md) over its stdin
// and stdout. A misbehaving child never hangs or stops the caller: every
// exchange has a deadline and a size bound, and the child can be restarted.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "ssec/result.hpp"

namespace ssec {

/// How one request/response exchange ended.
enum class exchange_status {
  ok,          ///< A full line came back; it is in exchange::line.
  timeout,     ///< No full line before the deadline; the child was killed.
  crashed,     ///< The child closed its stdout or exited; `detail` says how.
  oversized,   ///< The answer grew past the size bound; the child was killed.
  not_running  ///< The child could not be started.
};

/// The outcome of adapter_process::exchange.
struct exchange {
  exchange_status status = exchange_status::not_running;
  std::string line;    ///< The answer, without its LF (status ok).
  std::string detail;  ///< What went wrong, for reports ("exited with status 3", "killed by signal 11").
};

/// A child process running `command` through /bin/sh -c.
/// Not thread-safe: one adapter_process per worker thread.
class adapter_process {
 public:
  /// `max_answer_bytes` bounds one answer line; `stderr_tail_bytes` how much of
  /// the child's stderr is kept for reports.
  explicit adapter_process(std::string command, std::size_t max_answer_bytes = std::size_t{64} << 20,
                           std::size_t stderr_tail_bytes = 4096);
  ~adapter_process();
  adapter_process(const adapter_process&) = delete;
  adapter_process& operator=(const adapter_process&) = delete;

  /// Starts the child if it is not running; an error when fork or the
  /// pipes fail.
  result<void> start();

  /// Sends `request` (one line, without LF) and waits for one answer line,
  /// at most `timeout`. On timeout or an oversized answer the child is
  /// killed; the next exchange starts a fresh one.
  exchange exchange_line(const std::string& request, std::chrono::milliseconds timeout);

  /// Closes stdin (the protocol's end), waits up to `grace`, then kills.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(500));

  /// Kills the child at once (SIGKILL to its process group) and reaps it.
  void kill();

  bool running() const noexcept { return pid_ > 0; }
  /// How many times the child was (re)started.
  int starts() const noexcept { return starts_; }
  /// The last bytes the child wrote to stderr.
  std::string stderr_tail() const;
  const std::string& command() const noexcept { return command_; }

 private:
  void drain_stderr();
  std::string reap(bool wait);

  std::string command_;
  std::size_t max_answer_bytes_;
  std::size_t stderr_tail_bytes_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  int child_err_ = -1;
  std::string pending_;  // bytes read past the last answer line
  std::string stderr_;   // ring of the last stderr bytes
  int starts_ = 0;
};

}  // namespace ssec
