// SPDX-License-Identifier: MIT
// Deterministic ways to cut one stream into chunks, shared by the tests, the
// conformance runner, the tool (--chunk, --split-seed) and the fuzzers, so a
// failing chunking named in a report is reproduced exactly everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sse::chunking {

/// splitmix64: tiny, fast, and the same sequence on every platform and
/// standard library (std::uniform_int_distribution is not).
class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

/// The stream as one chunk.
inline std::vector<std::string_view> whole(std::string_view s) { return {s}; }

/// Chunks of `size` bytes (the last may be shorter); size 0 means whole.
inline std::vector<std::string_view> fixed(std::string_view s, std::size_t size) {
  if (size == 0 || s.empty()) return {s};
  std::vector<std::string_view> out;
  out.reserve(s.size() / size + 1);
  for (std::size_t at = 0; at < s.size(); at += size) out.push_back(s.substr(at, size));
  return out;
}

/// One byte per chunk.
inline std::vector<std::string_view> bytes(std::string_view s) { return fixed(s, 1); }

/// Two chunks cut at `at` (0 and s.size() give an empty first or last chunk,
/// which parsers must also accept).
inline std::vector<std::string_view> split_at(std::string_view s, std::size_t at) {
  return {s.substr(0, at), s.substr(at)};
}

/// Seeded random cuts: each chunk is 1 + (next() % 4) bytes with probability
/// 1/2, 1 + (next() % 64) with 3/8, and 1 + (next() % 4096) with 1/8, so
/// short chunks that cut CR LF pairs and UTF-8 sequences are common.
inline std::vector<std::string_view> random(std::string_view s, std::uint64_t seed) {
  splitmix64 rng(seed);
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::uint64_t pick = rng.next() % 8;
    const std::uint64_t span = pick < 4 ? 4 : pick < 7 ? 64 : 4096;
    const auto size = static_cast<std::size_t>(1 + rng.next() % span);
    out.push_back(s.substr(at, size));
    at += size;
  }
  if (out.empty()) out.push_back(s);
  return out;
}

}  // namespace sse::chunking
