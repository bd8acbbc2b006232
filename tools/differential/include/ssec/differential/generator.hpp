// SPDX-License-Identifier: MIT
// The stream generator of `sse-conform fuzz` (tools/docs/fuzz.md): samples
// of bytes and a chunk schedule chosen with them, deterministic for a seed.
// Structure-aware streams from the WHATWG grammar (and, at the dialect
// layers, from the catalogs), and mutations of seed streams (the inputs of
// the conformance cases and the fuzz corpus).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sse/chunking.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/case.hpp"

namespace ssec::differential {

/// Bumped whenever the same (seed, index) gives other samples; written into
/// every finding's provenance.
inline constexpr int generator_version = 1;

/// One stream and the chunks it is fed in.
struct sample {
  std::string bytes;
  /// Cut offsets, strictly increasing, each in (0, bytes.size()): the chunks
  /// are the pieces between them (one chunk when empty).
  std::vector<std::size_t> cuts;
  std::string origin;  ///< "grammar", "mutation", "dialect": what made it (reports only).
};

/// The chunks of `s`; views into s.bytes.
std::vector<std::string_view> chunks_of(const sample& s);
/// The sample whose chunks are `chunks`, in order (empty chunks dropped).
sample sample_from_chunks(const std::vector<std::string>& chunks);

/// The wire layer's deterministic PRNG (sse::chunking::splitmix64) with the
/// draws the generator makes.
class rng {
 public:
  explicit rng(std::uint64_t seed) noexcept : mix_(seed) {}
  std::uint64_t next() noexcept { return mix_.next(); }
  /// Uniform in [0, bound); 0 when bound is 0.
  std::size_t below(std::size_t bound) noexcept { return bound == 0 ? 0 : static_cast<std::size_t>(next() % bound); }
  /// True with probability num/den.
  bool chance(unsigned num, unsigned den) noexcept { return below(den) < num; }

 private:
  sse::chunking::splitmix64 mix_;
};

/// Makes samples. make() is const and thread-safe: workers share one.
class generator {
 public:
  /// `dialect` is the catalog's dialect for a dialect layer (must outlive
  /// the generator), nullptr for wire. `seeds` are streams to mutate.
  generator(conformance::layer layer, const sse::dialect::dialect_spec* dialect, std::vector<std::string> seeds,
            std::uint64_t seed);

  /// Sample number `index`: a function of (seed, index) alone.
  sample make(std::uint64_t index) const;

  std::size_t seed_count() const noexcept { return seeds_.size(); }

 private:
  std::string wire_stream(rng& r) const;
  std::string dialect_stream(rng& r) const;
  std::string mutate(rng& r) const;

  conformance::layer layer_;
  const sse::dialect::dialect_spec* dialect_;
  std::vector<std::string> seeds_;
  std::uint64_t seed_;
};

/// Picks the chunk schedule for `bytes`: whole, one byte each, cuts at the
/// interesting places (inside CR LF, right after CR, inside multi-byte UTF-8,
/// inside the BOM, around colons), or random cuts.
std::vector<std::size_t> choose_cuts(std::string_view bytes, rng& r);

}  // namespace ssec::differential
