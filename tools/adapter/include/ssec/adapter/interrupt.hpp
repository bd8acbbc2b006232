// SPDX-License-Identifier: MIT
// Interruption of a command that drives adapter processes (`run`,
// tools/docs/run.md "Interruption"): SIGINT, SIGTERM and SIGHUP are
// forwarded to every adapter's process group, what does not end in a grace
// period is killed, and the command is told, so that it can write the
// reports of what finished.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#include <signal.h>

namespace ssec {

/// While alive, SIGINT, SIGTERM and SIGHUP are blocked in the calling thread
/// (and in every thread it starts afterwards: construct it before them) and
/// a watcher thread takes them: on the first, it stores the signal number
/// in signal(), sends the signal to every adapter process group
/// (adapter_process::signal_all), waits up to `grace` for them to end, then
/// kills what is left with SIGKILL; from the signal on, no adapter starts
/// (adapter_process::refuse_new_starts). Adapters started while it waits get
/// the signals unblocked (adapter_process::start). The destructor stops the
/// watcher and restores the signal mask; a signal still pending then takes
/// its default action. One guard at a time per program.
class interrupt_guard {
 public:
  explicit interrupt_guard(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));
  ~interrupt_guard();
  interrupt_guard(const interrupt_guard&) = delete;
  interrupt_guard& operator=(const interrupt_guard&) = delete;

  /// 0 until a signal arrived, then its number (SIGINT, SIGTERM, SIGHUP).
  const std::atomic<int>& signal() const noexcept { return signal_; }

  /// "SIGTERM" for 15, and so on for the three signals; "signal N" otherwise.
  static const char* name(int sig) noexcept;

 private:
  void watch();

  std::chrono::milliseconds grace_;
  std::atomic<int> signal_{0};
  std::atomic<bool> done_{false};
  sigset_t previous_{};
  std::thread watcher_;
};

}  // namespace ssec
