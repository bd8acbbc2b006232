// The adapter child process: answers, crashes, hangs and floods each end in
// the right status, and the next exchange gets a fresh child.
#include "ssec/adapter/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "ssec/adapter/interrupt.hpp"

using namespace std::chrono_literals;
using ssec::adapter_process;
using ssec::exchange_status;

TEST(adapter_process, echoes_one_line_per_request) {
  adapter_process p("while IFS= read -r line; do printf '%s!\\n' \"$line\"; done");
  const auto a = p.exchange_line("hello", 2000ms);
  ASSERT_EQ(a.status, exchange_status::ok) << a.detail;
  EXPECT_EQ(a.line, "hello!");
  const auto b = p.exchange_line("again", 2000ms);
  ASSERT_EQ(b.status, exchange_status::ok) << b.detail;
  EXPECT_EQ(b.line, "again!");
  EXPECT_EQ(p.starts(), 1);
}

TEST(adapter_process, a_crash_is_reported_with_its_status_and_stderr) {
  adapter_process p("read -r line; echo 'dying now' >&2; exit 3");
  const auto a = p.exchange_line("x", 2000ms);
  EXPECT_EQ(a.status, exchange_status::crashed);
  EXPECT_NE(a.detail.find("exited with status 3"), std::string::npos) << a.detail;
  EXPECT_NE(p.stderr_tail().find("dying now"), std::string::npos);
  EXPECT_FALSE(p.running());
  // The next exchange restarts it.
  EXPECT_EQ(p.exchange_line("y", 2000ms).status, exchange_status::crashed);
  EXPECT_EQ(p.starts(), 2);
}

TEST(adapter_process, a_signal_death_names_the_signal) {
  adapter_process p("read -r line; kill -SEGV $$");
  const auto a = p.exchange_line("x", 2000ms);
  EXPECT_EQ(a.status, exchange_status::crashed);
  EXPECT_NE(a.detail.find("signal 11"), std::string::npos) << a.detail;
}

TEST(adapter_process, a_hang_times_out_and_is_killed) {
  adapter_process p("sleep 30");
  const auto start = std::chrono::steady_clock::now();
  const auto a = p.exchange_line("x", 200ms);
  EXPECT_EQ(a.status, exchange_status::timeout);
  EXPECT_FALSE(p.running());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(adapter_process, an_oversized_answer_is_cut_off) {
  adapter_process p("read -r line; head -c 100000 /dev/zero | tr '\\0' a; echo", 1000);
  const auto a = p.exchange_line("x", 5000ms);
  EXPECT_EQ(a.status, exchange_status::oversized);
  EXPECT_FALSE(p.running());
}

TEST(adapter_process, a_child_that_never_reads_cannot_block_a_large_request) {
  adapter_process p("sleep 30");
  const std::string big(1 << 20, 'x');  // far beyond a pipe's buffer
  const auto a = p.exchange_line(big, 300ms);
  EXPECT_EQ(a.status, exchange_status::timeout);
}

TEST(adapter_process, a_command_that_does_not_exist_crashes_with_127) {
  adapter_process p("/nonexistent/adapter-binary");
  const auto a = p.exchange_line("x", 2000ms);
  EXPECT_EQ(a.status, exchange_status::crashed);
  EXPECT_NE(a.detail.find("127"), std::string::npos) << a.detail;
}

// From the signal on, no adapter starts: one restarted as the signal arrives
// (a consumer whose crash the signal caused) would miss the forwarding and
// run until its own timeout. The guard's end lifts the refusal.
TEST(adapter_process, none_starts_once_a_signal_arrived) {
  {
    const ssec::interrupt_guard guard(100ms);
    ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
    for (int i = 0; i < 500 && guard.signal().load() == 0; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(guard.signal().load(), SIGHUP);
    adapter_process late("sleep 30");
    const auto started = late.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().message.find("stopping on a signal"), std::string::npos) << started.error().message;
    EXPECT_FALSE(late.running());
    EXPECT_EQ(adapter_process::live_groups(), 0U);
  }
  adapter_process after("read -r line; echo \"$line\"");
  const auto a = after.exchange_line("x", 2000ms);
  EXPECT_EQ(a.status, exchange_status::ok) << a.detail;
}
