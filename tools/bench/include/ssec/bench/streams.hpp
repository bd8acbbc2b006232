// SPDX-License-Identifier: MIT
// The benchmark streams (tools/docs/benchmarks.md): seeded and byte-identical on every
// run and platform, so a figure in the docs can be reproduced from the command
// that produced it. They are generated, never committed: the set is ~150 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ssec::bench {

/// The seed every named stream uses; changing it changes every published figure.
inline constexpr std::uint64_t default_seed = 0x55E5EED2024ULL;

/// An agent-service stream as an LLM backend sends it: `data: {json}` frames of
/// one line each, mostly message_chunk deltas of 1-12 words (now and then
/// non-ASCII, now and then an escaped newline), with step, tool
/// (tool_started / tool_result / tool_completed with payload and data
/// objects) and llm_usage frames in between, then run_completed and the
/// terminal done frame. Frames stop being added once `min_bytes` is reached.
std::string llm_stream(std::size_t min_bytes, std::uint64_t seed = default_seed);

/// `frame_count` tool_result frames of one `data:` line each, every line about
/// `frame_bytes` long (a base64 payload such as a file or an image).
std::string big_frames_stream(std::size_t frame_count, std::size_t frame_bytes, std::uint64_t seed = default_seed);

/// CRLF line ends throughout; events of 5-20 data lines (some empty) with
/// id and event lines, comment lines between and inside events, and now and
/// then a retry line. Events stop being added once `min_bytes` is reached.
std::string crlf_multiline_stream(std::size_t min_bytes, std::uint64_t seed = default_seed);

/// One `data: ` line whose value is `value_bytes` printable ASCII bytes, then
/// LF LF: one event. The linearity check feeds it one byte at a time.
std::string long_line_stream(std::size_t value_bytes, std::uint64_t seed = default_seed);

/// One of the published benchmark files.
struct named_stream {
  std::string_view file_name;    ///< e.g. "llm.sse"
  std::string_view description;  ///< one line, for --generate's listing
  std::string (*generate)();     ///< the exact bytes of the file
};

/// llm.sse (64 MiB), big-frames.sse (32 x 1 MiB), crlf-multiline.sse
/// (32 MiB), line-4mb.sse and line-16mb.sse (4 MiB and 16 MiB values).
const std::vector<named_stream>& named_streams();

}  // namespace ssec::bench
