// SPDX-License-Identifier: MIT
// Writes a fuzz finding as a case file (conformance/README.md), so the
// project's case loader reads it and `sse-conform run --cases DIR` grades it.
#pragma once

#include <string>
#include <vector>

#include "ssec/conformance/case.hpp"
#include "ssec/differential/oracle.hpp"

namespace ssec::differential {

/// Where a finding came from (the file's header comments and its `note`).
struct provenance {
  std::uint64_t seed = 0;
  std::uint64_t sample_index = 0;
  int generator = generator_version;
  std::string reference;     ///< "sse-conform 0.4.0".
  std::string impl_name;     ///< From the adapter's hello.
  std::string impl_version;  ///< From the adapter's hello.
  std::string impl_command;
  std::vector<std::string> compound_of;  ///< Set for a compound of two fingerprints (fuzzer.hpp, finding).
  std::size_t exemplar = 1;              ///< Which case of its fingerprint (fuzzer.hpp, exemplar), from 1.
};

/// A case id for `key` (the implementation and the fingerprint): 4
/// characters of the case alphabet with a letter and a digit, from a hash.
std::string finding_id(std::string_view key);

/// The tags (spec/tags.yaml) the stream of `c` shows: bom, line-endings,
/// lone-cr, nul, utf8, invalid-utf8, id, retry, comments, ... plus chunking
/// when it is fed in more than one chunk; "dispatch" (wire) or "frame-shape"
/// (dialect) when nothing else applies.
std::vector<std::string> tags_for(const conformance::test_case& c);

/// The whole file: header comments (fingerprint, provenance), then one case
/// of `c` (reference_case) with id, name, from, tags, verdict (impl with the
/// decisions of `d`, else must), note, input as written (one item per
/// chunk: a double-quoted string, or {hex: ...} for a chunk that is not
/// UTF-8), events, and dialect_events at a dialect layer.
std::string finding_case_text(const conformance::test_case& c, const divergence& d, const provenance& p);

}  // namespace ssec::differential
