// SPDX-License-Identifier: MIT
// What the tests that run the built `sse-conform` as a user runs it share
// (cli_test.cpp, cli_edges_test.cpp, data_dir_test.cpp): the tool and the
// source tree, shell quoting, reading a file back, and a fixture that gives
// each test its own empty directory and runs command lines with standard
// output and standard error captured (never a terminal).
// Needs SSE_CONFORM_BIN and SSEC_SOURCE_DIR defined (tools/tests/CMakeLists.txt).
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace tool_run {

namespace fs = std::filesystem;

inline const std::string tool = SSE_CONFORM_BIN;
inline const fs::path source_dir = SSEC_SOURCE_DIR;

/// How a command line ended: its exit status (-1 when it did not exit) and
/// what it wrote.
struct outcome {
  int status = -1;
  std::string out;
  std::string err;
};

/// The file's bytes; empty when it cannot be read.
inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A case file of one wire case (one event), for tests that need a case tree.
inline constexpr const char* one_case_yaml = R"(- id: A2B3
  name: one event
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: must
  layer: wire
  input: ["data: a\n\n"]
  events: |
    event type="message" data="a" last_id=""
)";

/// `s` as one shell word: single-quoted, a `'` inside written as '\''.
inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Each test gets an empty directory, dir_ = <temp>/<prefix><pid>-<test name>,
/// removed after the test.
class tool_test : public ::testing::Test {
 protected:
  explicit tool_test(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = fs::temp_directory_path() / (prefix_ + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `bytes` to dir_/name; returns that path.
  fs::path write(const std::string& name, const std::string& bytes) const {
    fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

  /// Runs `command` (a shell command line, already quoted where needed) in
  /// `cwd` (empty: the test's own working directory), its standard output
  /// and standard error captured to files in dir_.
  outcome shell(const std::string& command, const fs::path& cwd = {}) const {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string line = (cwd.empty() ? std::string() : "cd " + quote(cwd.string()) + " && ") + command + " >" +
                             quote(out.string()) + " 2>" + quote(err.string());
    const int status = std::system(line.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  }

  fs::path dir_;

 private:
  std::string prefix_;
};

}  // namespace tool_run
