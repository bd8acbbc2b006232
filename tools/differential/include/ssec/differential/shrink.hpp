// SPDX-License-Identifier: MIT
// Test-case reduction for `sse-conform fuzz` (ddmin / C-Reduce style): a
// sample is made smaller and plainer while a predicate (it still shows the
// same fingerprint) holds.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "ssec/differential/generator.hpp"

namespace ssec::differential {

/// Limits of one reduction.
struct shrink_limits {
  std::size_t max_tests = 4000;  ///< Predicate calls at most.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// What a reduction did.
struct shrink_stats {
  std::size_t tests = 0;   ///< Predicate calls made.
  std::size_t passes = 0;  ///< Rounds of all steps.
  bool complete = false;   ///< True when a whole round changed nothing (not stopped by a limit).
};

/// Reduces `s` while `interesting` holds, in rounds until a round changes
/// nothing: (0) each line removed (last first), (1) ddmin over the bytes (remove halves, quarters, ... down to
/// single bytes; cuts inside a removed range move to its start), (2) replace
/// each byte that is not printable ASCII (nor LF) by `a`, and each CR by LF,
/// (3) merge chunks (drop every cut at once, then each cut). `interesting(s)`
/// is assumed true on entry; the result is always interesting.
sample shrink(sample s, const std::function<bool(const sample&)>& interesting, const shrink_limits& limits,
              shrink_stats* stats = nullptr);

/// The lines of `bytes` as [begin, end) offsets, each with its line end (LF,
/// CR LF or a lone CR); the last may have none.
std::vector<std::pair<std::size_t, std::size_t>> line_spans(std::string_view bytes);

/// The shape of a shrunk stream's lines, which tells two triggers of one
/// fingerprint apart: per line its field name (`other` for one that is not
/// data, event, id or retry), then `:` when it has a colon and `v` when its
/// value is not empty (`data` / `data:` / `data:v`), a comment as `:`, a
/// blank line as nothing, one line per line_spans entry (a BOM at the
/// stream's start is not part of its first line); the lines sorted, each
/// ending in LF.
std::string trigger_shape(std::string_view bytes);

/// `s` without bytes [from, to), its cuts moved accordingly (pure; for tests).
sample remove_range(const sample& s, std::size_t from, std::size_t to);

}  // namespace ssec::differential
