// SPDX-License-Identifier: MIT
#include "ssec/adapter/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

namespace ssec {
namespace {

using clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int remaining_ms(clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return "stopped";
}

// Every running child's process group, for signal_all(). A pid leaves the
// set before it is reaped, so a signal never reaches a recycled pid.
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::set<pid_t>& registry() {
  static std::set<pid_t> groups;
  return groups;
}
bool& refusing() {  // guarded by registry_mutex()
  static bool refuse = false;
  return refuse;
}
// Whether the child has ended, without reaping it (its pid keeps naming its group).
bool ended(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

void unregister(pid_t pid) {
  const std::lock_guard lock(registry_mutex());
  registry().erase(pid);
}

// Starts `sh -c command` with stdin, stdout and stderr on the given pipe
// ends: in its own process group, so kill() reaches whatever the shell
// starts; SIGPIPE back to its default; no signal blocked (a caller that waits
// for signals in a thread, as run's interruption does, has them blocked, and
// the adapter must receive what is forwarded to it). Returns 0 or an errno.
int spawn_shell(const std::string& command, int in, int out, int err, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  if (const int e = ::posix_spawn_file_actions_init(&actions); e != 0) return e;
  if (const int e = ::posix_spawnattr_init(&attr); e != 0) {
    ::posix_spawn_file_actions_destroy(&actions);
    return e;
  }
  sigset_t none;
  sigemptyset(&none);
  sigset_t pipe_default;
  sigemptyset(&pipe_default);
  sigaddset(&pipe_default, SIGPIPE);
  int e = ::posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO);
  if (e == 0) e = ::posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  if (e == 0) e = ::posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
  if (e == 0)
    e = ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (e == 0) e = ::posix_spawnattr_setpgroup(&attr, 0);
  if (e == 0) e = ::posix_spawnattr_setsigmask(&attr, &none);
  if (e == 0) e = ::posix_spawnattr_setsigdefault(&attr, &pipe_default);
  if (e == 0) {
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    e = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), environ);
  }
  ::posix_spawnattr_destroy(&attr);
  ::posix_spawn_file_actions_destroy(&actions);
  return e;
}

}  // namespace

std::size_t adapter_process::signal_all(int sig) noexcept {
  const std::lock_guard lock(registry_mutex());
  std::size_t reached = 0;
  for (const pid_t pid : registry()) reached += ::kill(-pid, sig) == 0 || ::kill(pid, sig) == 0;
  return reached;
}

void adapter_process::refuse_new_starts(bool refuse) noexcept {
  const std::lock_guard lock(registry_mutex());
  refusing() = refuse;
}

std::size_t adapter_process::live_groups() noexcept {
  const std::lock_guard lock(registry_mutex());
  return registry().size();
}

adapter_process::adapter_process(std::string command, std::size_t max_answer_bytes, std::size_t stderr_tail_bytes)
    : command_(std::move(command)), max_answer_bytes_(max_answer_bytes), stderr_tail_bytes_(stderr_tail_bytes) {
  // A child that dies while we write to it must not kill us.
  ::signal(SIGPIPE, SIG_IGN);
}

adapter_process::~adapter_process() { stop(std::chrono::milliseconds(200)); }

result<void> adapter_process::start() {
  if (running()) return {};
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return error{std::string("pipe: ") + std::strerror(errno)};
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    const int saved = errno;
    ::close(in[0]);
    ::close(in[1]);
    return error{std::string("pipe: ") + std::strerror(saved)};
  }
  // posix_spawn, not fork: glibc starts the child with vfork semantics, so
  // no copy of this process's page tables is made and torn down at each
  // start. Under ASan that copy covers the shadow memory, and a consumer
  // that crashes on every probe is started hundreds of times.
  pid_t pid = -1;
  const int spawned = spawn_shell(command_, in[0], out[1], err[1], pid);
  if (spawned != 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return error{std::string("spawn: ") + std::strerror(spawned)};
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  child_err_ = err[0];
  for (int fd : {to_child_, from_child_, child_err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  {
    const std::lock_guard lock(registry_mutex());
    if (refusing()) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      close_fd(to_child_);
      close_fd(from_child_);
      close_fd(child_err_);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      return error{std::string("not started: the program is stopping on a signal")};
    }
    registry().insert(pid);
  }
  pid_ = pid;
  pending_.clear();
  scanned_ = 0;
  out_.clear();
  out_written_ = 0;
  ++starts_;
  return {};
}

void adapter_process::drain_stderr() {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(child_err_, buf, sizeof buf);
    if (n <= 0) return;
    stderr_.append(buf, static_cast<std::size_t>(n));
    if (stderr_.size() > 2 * stderr_tail_bytes_) stderr_.erase(0, stderr_.size() - stderr_tail_bytes_);
  }
}

std::string adapter_process::stderr_tail() const {
  if (stderr_.size() <= stderr_tail_bytes_) return stderr_;
  return stderr_.substr(stderr_.size() - stderr_tail_bytes_);
}

std::string adapter_process::reap(bool wait) {
  if (pid_ <= 0) return {};
  if (!wait) {
    // Its stdout closed: a child that is exiting ends within microseconds,
    // one that keeps running gets 50 ms before the kill below. Polled, as a
    // consumer that crashes on every probe is restarted hundreds of times.
    const auto give_up = clock::now() + std::chrono::milliseconds(50);
    while (!ended(pid_) && clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Until it is reaped the child's pid still names its process group: kill
  // whatever it left there, so that no adapter process outlives its session.
  unregister(pid_);
  ::kill(-pid_, SIGKILL);
  int status = 0;
  pid_t got = -1;
  do {
    got = ::waitpid(pid_, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (child_err_ >= 0) drain_stderr();
  close_fd(to_child_);
  close_fd(from_child_);
  close_fd(child_err_);
  pid_ = -1;
  pending_.clear();
  scanned_ = 0;
  out_.clear();
  out_written_ = 0;
  return got == -1 ? std::string("was lost") : describe_wait_status(status);
}

void adapter_process::kill() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  reap(true);
}

void adapter_process::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  close_fd(to_child_);
  const auto deadline = clock::now() + grace;
  while (clock::now() < deadline) {
    if (ended(pid_)) {
      reap(true);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill();
}

std::vector<std::string> adapter_process::finish(std::chrono::milliseconds grace) {
  std::vector<std::string> lines;
  if (pid_ <= 0) return lines;
  out_.clear();
  out_written_ = 0;
  close_fd(to_child_);
  const auto deadline = clock::now() + grace;
  bool open = true;
  while (open && clock::now() < deadline) {
    pollfd fds[2] = {{from_child_, POLLIN, 0}, {child_err_, POLLIN, 0}};
    const int ready = ::poll(fds, 2, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    if (fds[1].revents) drain_stderr();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[1 << 16];
      const ssize_t n = ::read(from_child_, buf, sizeof buf);
      if (n > 0 && pending_.size() <= max_answer_bytes_) pending_.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) open = false;
    }
  }
  for (std::size_t lf = pending_.find('\n'); lf != std::string::npos; lf = pending_.find('\n')) {
    lines.push_back(pending_.substr(0, lf));
    pending_.erase(0, lf + 1);
  }
  if (open) kill();
  else reap(false);
  return lines;
}

exchange adapter_process::exchange_line(const std::string& request, std::chrono::milliseconds timeout) {
  if (const auto sent = send_line(request); !sent) {
    exchange result;
    result.detail = sent.error().message;
    return result;
  }
  return next_line(timeout);
}

result<void> adapter_process::send_line(std::string_view request) {
  if (auto started = start(); !started) return started;
  if (out_written_ > 0 && out_written_ == out_.size()) {
    out_.clear();
    out_written_ = 0;
  }
  out_ += request;
  out_.push_back('\n');
  return {};
}

exchange adapter_process::next_line(std::chrono::milliseconds timeout) {
  exchange result;
  if (!running()) {
    result.detail = "not started";
    return result;
  }
  const auto deadline = clock::now() + timeout;
  for (;;) {
    if (out_written_ < out_.size()) {
      // Keep the child fed even while answers are already here (the pipe is
      // non-blocking: this writes what fits, at once), so that it works on
      // the next requests while the caller grades this answer.
      const ssize_t n = ::write(to_child_, out_.data() + out_written_, out_.size() - out_written_);
      if (n > 0) out_written_ += static_cast<std::size_t>(n);
      if (out_written_ == out_.size()) {
        out_.clear();
        out_written_ = 0;
      }
    }
    if (const auto lf = pending_.find('\n', scanned_); lf != std::string::npos) {
      result.status = exchange_status::ok;
      result.line = pending_.substr(0, lf);
      pending_.erase(0, lf + 1);
      scanned_ = 0;
      return result;
    }
    scanned_ = pending_.size();
    if (pending_.size() > max_answer_bytes_) {
      result.status = exchange_status::oversized;
      result.detail = "answer longer than " + std::to_string(max_answer_bytes_) + " bytes";
      kill();
      return result;
    }
    const bool writing = out_written_ < out_.size();
    pollfd fds[3] = {{from_child_, POLLIN, 0}, {child_err_, POLLIN, 0}, {to_child_, POLLOUT, 0}};
    const nfds_t nfds = writing ? 3 : 2;
    const int ready = ::poll(fds, nfds, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0 || clock::now() >= deadline) {
      result.status = exchange_status::timeout;
      result.detail = "no answer within " + std::to_string(timeout.count()) + " ms";
      kill();
      return result;
    }
    if (fds[1].revents) drain_stderr();
    if (writing && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(to_child_, out_.data() + out_written_, out_.size() - out_written_);
      if (n > 0) {
        out_written_ += static_cast<std::size_t>(n);
        if (out_written_ == out_.size()) {
          out_.clear();
          out_written_ = 0;
        }
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        result.status = exchange_status::crashed;
        result.detail = "stopped reading its input; " + reap(false);
        return result;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[1 << 16];
      const ssize_t n = ::read(from_child_, buf, sizeof buf);
      if (n > 0) {
        pending_.append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        result.status = exchange_status::crashed;
        result.detail = reap(false);
        return result;
      }
    }
  }
}

}  // namespace ssec
