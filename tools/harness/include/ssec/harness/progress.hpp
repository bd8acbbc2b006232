// SPDX-License-Identifier: MIT
// Progress of a long loop over cases (`run`, `cases --check`): on a terminal
// a bar redrawn in place, elsewhere (CI logs) one line every few seconds;
// both say done/total, failures so far and an estimate of the time left,
// instead of silence until the summary.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "ssec/support/text.hpp"

namespace ssec::harness {

/// "120/1034 cases, 3 failed, 12 s elapsed, about 91 s left": what the line
/// and the bar share. The estimate assumes the remaining cases take as long
/// as the done ones; there is none before the first case or after the last.
inline std::string progress_counts(std::size_t done, std::size_t total, std::size_t failed, double elapsed_s) {
  std::ostringstream out;
  out << done << "/" << total << " cases, " << failed << " failed, " << static_cast<long long>(elapsed_s)
      << " s elapsed";
  if (done > 0 && done < total) {
    const double left = elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
    out << ", about " << std::llround(left) << " s left";
  }
  return out.str();
}

/// "run: 120/1034 cases, 3 failed, 12 s elapsed, about 91 s left" (`what`
/// names the command).
inline std::string progress_line(std::size_t done, std::size_t total, std::size_t failed, double elapsed_s,
                                 std::string_view what = "run") {
  return std::string(what) + ": " + progress_counts(done, total, failed, elapsed_s);
}

/// "[####      ] 120/1034 cases, 3 failed, 12 s elapsed, about 91 s left":
/// the terminal's form, `width` characters of bar.
inline std::string progress_bar(std::size_t done, std::size_t total, std::size_t failed, double elapsed_s,
                                std::size_t width = 20) {
  const std::size_t filled = total == 0 ? width : std::min(done, total) * width / total;
  return "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "] " +
         progress_counts(done, total, failed, elapsed_s);
}

/// Decides when the next line is due: at most one every `every_s` seconds.
/// Not thread-safe (the engine serializes its progress callback).
class progress_ticker {
 public:
  explicit progress_ticker(double every_s) : every_s_(every_s) {}
  /// True when a line is due at `elapsed_s` (then the next is due every_s later).
  bool due(double elapsed_s) {
    if (every_s_ <= 0 || elapsed_s < next_s_) return false;
    next_s_ = elapsed_s + every_s_;
    return true;
  }

 private:
  double every_s_;
  double next_s_ = 0;
};

/// Prints the progress of a loop to `out` (standard error): on a terminal, the
/// bar redrawn in place on every update and erased at the end; elsewhere a
/// progress_line every `every_s` seconds (none at the start or the end; 0:
/// none at all). The clock starts at construction. Not thread-safe (callers
/// serialize updates, as the engine does its progress callback).
class progress_printer {
 public:
  progress_printer(std::ostream& out, std::string what, bool terminal, double every_s)
      : out_(out), what_(std::move(what)), terminal_(terminal), ticker_(every_s) {
    ticker_.due(0);  // nothing to say at the start
  }

  /// `done` of `total` finished, `failed` of them failures.
  void update(std::size_t done, std::size_t total, std::size_t failed) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (terminal_) {
      out_ << "\r\x1b[K" << progress_bar(done, total, failed, elapsed) << (done >= total ? "\r\x1b[K" : "")
           << std::flush;
    } else if (done < total && ticker_.due(elapsed)) {
      out_ << progress_line(done, total, failed, elapsed, what_) << std::endl;
    }
  }

 private:
  std::ostream& out_;
  std::string what_;
  bool terminal_;
  progress_ticker ticker_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace ssec::harness
