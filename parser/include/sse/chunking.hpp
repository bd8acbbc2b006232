// SPDX-License-Identifier: MIT
// Deterministic ways to cut one stream into chunks, shared by the tests, the
// conformance runner, the tool (--chunk, --split-seed) and the fuzzers, so a
// failing chunking named in a report is reproduced exactly everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
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

/// The sizes of the seeded random cuts, one at a time, for a stream that is
/// read as it is cut (`sse-conform parse --split-seed` on a file of any
/// size): random() is these sizes applied to a whole string, the last chunk
/// being what is left. At most 4096.
class random_cuts {
 public:
  explicit random_cuts(std::uint64_t seed) noexcept : rng_(seed) {}
  /// The size of the next chunk: 1 + (next() % 4) bytes with probability
  /// 1/2, 1 + (next() % 64) with 3/8, and 1 + (next() % 4096) with 1/8, so
  /// short chunks that cut CR LF pairs and UTF-8 sequences are common.
  std::size_t next() noexcept {
    const std::uint64_t pick = rng_.next() % 8;
    const std::uint64_t span = pick < 4 ? 4 : pick < 7 ? 64 : 4096;
    return static_cast<std::size_t>(1 + rng_.next() % span);
  }
  static constexpr std::size_t max_size = 4096;

 private:
  splitmix64 rng_;
};

/// Seeded random cuts (see random_cuts), so short chunks that cut CR LF
/// pairs and UTF-8 sequences are common.
inline std::vector<std::string_view> random(std::string_view s, std::uint64_t seed) {
  random_cuts cuts(seed);
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t size = cuts.next();
    out.push_back(s.substr(at, size));
    at += size;
  }
  if (out.empty()) out.push_back(s);
  return out;
}

/// Cuts a stream that arrives in pieces of any size into the very chunks
/// fixed(whole, size) or random(whole, seed) would give for the whole
/// stream, without holding the stream: at most one chunk is kept (a chunk
/// inside a piece is passed on as a view of the piece, not copied). The
/// views passed to `emit` are valid during the call only. Not thread-safe.
class recutter {
 public:
  /// Chunks of `size` bytes; 0 passes the pieces on as they come.
  explicit recutter(std::size_t size) noexcept : size_(size) {}
  /// The seeded random chunks of random().
  explicit recutter(random_cuts cuts) noexcept : cuts_(cuts), random_(true) {}

  /// Cuts the next piece; `emit(std::string_view)` returns false to stop,
  /// and push() then returns false.
  template <class Emit>
  bool push(std::string_view piece, Emit&& emit) {
    while (!piece.empty()) {
      const std::size_t want = wanted();
      if (want == 0) return emit(piece);
      if (pending_.empty() && piece.size() >= want) {
        want_ = 0;
        if (!emit(piece.substr(0, want))) return false;
        piece.remove_prefix(want);
        continue;
      }
      const std::size_t take = std::min(want - pending_.size(), piece.size());
      pending_.append(piece.substr(0, take));
      piece.remove_prefix(take);
      if (pending_.size() == want) {
        want_ = 0;
        const bool go_on = emit(std::string_view(pending_));
        pending_.clear();
        if (!go_on) return false;
      }
    }
    return true;
  }

  /// The end of the stream: emits the last, shorter chunk, if any.
  template <class Emit>
  bool finish(Emit&& emit) {
    if (pending_.empty()) return true;
    const bool go_on = emit(std::string_view(pending_));
    pending_.clear();
    return go_on;
  }

 private:
  std::size_t wanted() noexcept {
    if (!random_) return size_;
    if (want_ == 0) want_ = cuts_.next();
    return want_;
  }

  std::size_t size_ = 0;
  random_cuts cuts_{0};
  bool random_ = false;
  std::size_t want_ = 0;  // random: the size of the chunk in progress, 0 before it is drawn
  std::string pending_;
};

}  // namespace sse::chunking
