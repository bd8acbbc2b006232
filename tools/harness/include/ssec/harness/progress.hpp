// SPDX-License-Identifier: MIT
// Progress of a run when standard error is not a terminal (CI logs): one
// line every few seconds with done/total, failures so far and an estimate of
// the time left, instead of silence until the summary.
#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

#include "ssec/text.hpp"

namespace ssec::harness {

/// "run: 120/1034 cases, 3 failed, 12 s elapsed, about 91 s left".
/// The estimate assumes the remaining cases take as long as the done ones.
inline std::string progress_line(std::size_t done, std::size_t total, std::size_t failed, double elapsed_s) {
  std::ostringstream out;
  out << "run: " << done << "/" << total << " cases, " << failed << " failed, " << static_cast<long long>(elapsed_s)
      << " s elapsed";
  if (done > 0 && done < total) {
    const double left = elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
    out << ", about " << std::llround(left) << " s left";
  }
  return out.str();
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

}  // namespace ssec::harness
