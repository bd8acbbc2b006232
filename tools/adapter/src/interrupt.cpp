// SPDX-License-Identifier: MIT
#include "ssec/adapter/interrupt.hpp"

#include <ctime>

#include "ssec/adapter/process.hpp"

namespace ssec {
namespace {

sigset_t caught() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

interrupt_guard::interrupt_guard(std::chrono::milliseconds grace) : grace_(grace) {
  const sigset_t set = caught();
  ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  watcher_ = std::thread([this] { watch(); });
}

interrupt_guard::~interrupt_guard() {
  done_ = true;
  watcher_.join();
  adapter_process::refuse_new_starts(false);
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

const char* interrupt_guard::name(int sig) noexcept {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal";
  }
}

void interrupt_guard::watch() {
  const sigset_t set = caught();
  const timespec tick{0, 100 * 1000 * 1000};  // look at done_ ten times a second
  while (!done_) {
    const int sig = ::sigtimedwait(&set, nullptr, &tick);
    if (sig <= 0) continue;
    if (signal_.load() != 0) continue;  // already stopping
    signal_ = sig;
    adapter_process::refuse_new_starts(true);
    adapter_process::signal_all(sig);
    const auto deadline = std::chrono::steady_clock::now() + grace_;
    while (adapter_process::live_groups() > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    adapter_process::signal_all(SIGKILL);
  }
}

}  // namespace ssec
