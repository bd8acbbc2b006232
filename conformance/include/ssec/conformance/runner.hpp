// SPDX-License-Identifier: MIT
// Running a case against the reference parser under many chunkings. The
// chunkings come from sse::chunking, so a chunking named in a report
// ("random(seed=N)" is `sse-conform parse --split-seed N`) is reproduced
// exactly by every tool. The harness uses the same chunkings for adapters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sse/recording.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/support/result.hpp"

namespace ssec::conformance {

/// One way to cut a case's input into chunks.
struct chunking {
  enum class kind {
    whole,       ///< One chunk.
    as_written,  ///< The chunks as the case file lists them.
    bytes,       ///< One byte per chunk.
    split,       ///< Two chunks cut at `parameter` (0 and size give an empty chunk).
    random,      ///< sse::chunking::random with seed `parameter`.
  };
  kind how = kind::whole;
  std::uint64_t parameter = 0;

  /// "whole", "as-written", "bytes", "split@17", "random(seed=12345)".
  std::string name() const;
};

/// The chunks of `c.input` under `k`; the views point into `c.input`.
std::vector<std::string_view> chunks_of(const test_case& c, const chunking& k);

/// Which chunkings to run.
struct chunking_plan {
  bool whole = true;
  bool as_written = true;  ///< Only when the case lists more than one chunk.
  bool bytes = true;
  bool every_split = true;  ///< Every split@N, for inputs up to every_split_max bytes and without no_scan.
  std::size_t every_split_max = 4096;
  unsigned random_count = 8;
  std::uint64_t seed = 0x55E5EC0FULL;  ///< Mixed with the case id, so cases get different cuts.
};

/// Reads a plan from "whole,as-written,bytes,splits,random:8" (any subset,
/// any order; "all" is the default plan), or the error saying why not.
ssec::result<chunking_plan> parse_chunking_plan(std::string_view text);

/// The chunkings of `plan` for `c`, in the order whole, as-written, bytes,
/// the splits, the random ones (seeds drawn from plan.seed and the case id).
std::vector<chunking> chunkings_for(const test_case& c, const chunking_plan& plan);

/// Parses `chunks` with the reference under `lim`, each chunk copied into a
/// heap block of exactly its size that is freed as soon as feed() returns,
/// so ASan catches a read past a chunk or a pointer kept after feed().
/// Same result contract as sse::record_parse.
sse::recording run_reference(const std::vector<std::string_view>& chunks, const sse::limits& lim);

/// The first chunking under which the reference disagrees with the case.
struct case_failure {
  chunking which;
  std::vector<std::string_view> chunks;  ///< Views into the case's input.
  log_difference difference;
  std::size_t failing = 0;  ///< How many chunkings of the plan fail.
  std::size_t total = 0;    ///< How many chunkings the plan ran.
};

/// Runs `c` under every chunking of `plan`; nullopt when all agree with the
/// case's expected log (compared in the reference view).
std::optional<case_failure> check_reference(const test_case& c, const chunking_plan& plan);

/// The chunks in log syntax, `["data: a\r", "\n"]`, shortened to about
/// `max_chars` characters.
std::string describe_chunks(const std::vector<std::string_view>& chunks, std::size_t max_chars = 600);

/// The whole failure report: case id, name, file:line, layer and verdict, the
/// failing chunking and its chunks, how many chunkings fail, the first
/// differing line expected vs got, and both logs.
std::string describe(const test_case& c, const case_failure& f);

}  // namespace ssec::conformance
