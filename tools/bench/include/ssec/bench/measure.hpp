// SPDX-License-Identifier: MIT
// The measurement behind `sse-conform bench` (tools/docs/benchmarks.md):
// timed parses of a stream held in memory, with the process's CPU time and
// peak resident set size, summarised by the median run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/decoder.hpp"
#include "sse/parser.hpp"
#include "ssec/support/result.hpp"

namespace ssec::bench {

/// One timed parse of a whole stream.
struct parse_run {
  double seconds = 0;
  double cpu_seconds = 0;  ///< This process's CPU time: far below `seconds` means the machine was busy.
  std::uint64_t events = 0;
  std::uint64_t data_bytes = 0;
  std::uint64_t structured = 0;  ///< Dialect layers: events the decoder found structured.
  sse::errc status = sse::errc::ok;
  std::uint64_t error_offset = 0;
};

/// Parses `stream` once in `chunk`-byte pieces (0: whole), decoding every
/// event with `dialect` when it is set. Chunks are cut on the fly: a vector
/// of 16 million one-byte views would cost more memory than the stream.
parse_run parse_once(std::string_view stream, std::size_t chunk, const sse::limits& limits,
                     sse::dialect::decoder* dialect);

/// The wire layer's floor: every line end found (sse::detail::find_line_end,
/// CR LF taken as one) and nothing else, over `stream` in `chunk`-byte
/// pieces: no UTF-8 check, no event built. `events` counts the lines found
/// (a line a chunk's end cuts counts once a piece), `data_bytes` their bytes.
parse_run scan_once(std::string_view stream, std::size_t chunk);

/// `runs` timed parses and their summary.
struct measurement {
  std::vector<parse_run> runs;
  double median_seconds = 0;
  double min_seconds = 0;
  double median_cpu_seconds = 0;
};

/// Parses `stream` `runs` times (parse_once). An error when a parse fails
/// fatally (the message is describe_error's "<errc> at byte N") or a run
/// counts different events than the first ("run N counted different events
/// than run 1").
result<measurement> measure(std::string_view stream, std::size_t chunk, unsigned runs, const sse::limits& limits,
                            sse::dialect::decoder* dialect);
/// `runs` timed line scans (scan_once) and their summary.
result<measurement> measure_scan(std::string_view stream, std::size_t chunk, unsigned runs);

/// This process's CPU time in seconds.
double process_cpu_seconds();
/// This process's peak resident set size in kilobytes.
long peak_rss_kb();
/// The median of `values` (not empty).
double median_of(std::vector<double> values);
/// `value` rounded to `decimals` places for printing: the last digits of a
/// timing are noise.
double rounded(double value, int decimals);

/// Reads a file in one exactly sized allocation, so the reported peak RSS is
/// the input plus what the parser holds, not a growing string's spare copy
/// ("-": standard input, read as it comes).
result<std::string> read_exact(const std::string& path);

}  // namespace ssec::bench
