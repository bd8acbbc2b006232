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
#include <string_view>
#include <vector>

#include "ssec/support/result.hpp"

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

  /// Pipelining (several requests in flight, adapter-protocol.md): queues
  /// `request` (one line, without LF) for the child, starting it if needed;
  /// the bytes are written while next_line() waits, so neither side blocks
  /// the other. An error when the child cannot be started.
  result<void> send_line(std::string_view request);

  /// Waits at most `timeout` for the next answer line, writing queued
  /// requests meanwhile. Same statuses as exchange_line (which is send_line
  /// then next_line); on timeout or an oversized answer the child is killed
  /// and whatever was queued is dropped.
  exchange next_line(std::chrono::milliseconds timeout);

  /// Request bytes queued but not yet written to the child.
  std::size_t unsent_bytes() const noexcept { return out_.size() - out_written_; }

  /// Ends the session: closes stdin (the protocol's end), collects every
  /// complete line the child still writes until it closes its stdout or
  /// `grace` passes, then reaps it (killing it if needed). The lines are what
  /// it answered beyond the requests already read: an extra answer to check.
  std::vector<std::string> finish(std::chrono::milliseconds grace = std::chrono::milliseconds(500));

  /// Sends `sig` to the process group of every adapter_process running in
  /// this program (all threads); how many groups it reached. For forwarding
  /// SIGINT / SIGTERM / SIGHUP (tools/docs/run.md, "Interruption").
  static std::size_t signal_all(int sig) noexcept;
  /// How many adapter process groups are running in this program.
  static std::size_t live_groups() noexcept;
  /// While set, start() refuses: a child it forks is killed before start()
  /// returns. interrupt_guard sets it with the first signal's forwarding,
  /// under the same lock as start()'s registration, so that no adapter
  /// started as the signal arrives escapes it (a consumer restarted after
  /// the signal, and hung, ran until its timeout). Cleared by the guard's end.
  static void refuse_new_starts(bool refuse) noexcept;

  /// Closes stdin (the protocol's end), waits up to `grace`, then kills.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(500));

  /// Kills the child at once (SIGKILL to its process group) and reaps it.
  void kill();

  bool running() const noexcept { return pid_ > 0; }
  /// The child's pid (also its process group), or -1.
  pid_t pid() const noexcept { return pid_; }
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
  std::string pending_;      // bytes read past the last answer line
  std::size_t scanned_ = 0;  // pending_[0, scanned_) holds no LF
  std::string out_;          // queued request bytes; out_[0, out_written_) are written
  std::size_t out_written_ = 0;
  std::string stderr_;  // ring of the last stderr bytes
  int starts_ = 0;
};

}  // namespace ssec
