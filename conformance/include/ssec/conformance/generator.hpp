// SPDX-License-Identifier: MIT
// The case generator: writes the dialect-layer cases of
// conformance/cases/generated/ from the event catalogs (spec/*.yaml).
//
// Expectations (wire log, dialect events, producer findings) are computed
// here, from the catalog and spec/FORMAT.md, by the generator's own small
// model of the decoder and the validator; never by running the reference
// decoder or validator, which the cases then check. Deterministic: the same
// catalogs and reserved ids give byte-identical files.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sse/dialect/catalog.hpp"

namespace ssec::conformance {

/// One generated case file: its name under the output folder and its text.
struct generated_file {
  std::string name;  ///< "chat-events.yaml", "agent-rules.yaml", ...
  std::string text;  ///< The whole YAML file.
};

/// Generates every case for every dialect of `cat`: per event type a full
/// frame (in each wire variant), a minimal frame, each field with a wrong
/// JSON type, an extra unknown field, a key with the wrong casing; per
/// dialect the unknown type and the frame shapes; per producer rule a stream
/// that keeps it and one that breaks it. Case ids are derived from a hash of
/// each case's identity and never equal one of `reserved_ids` (the
/// hand-written cases) or each other. Two files per dialect, sorted by name.
std::vector<generated_file> generate_cases(const sse::dialect::catalog& cat, const std::set<std::string>& reserved_ids);

}  // namespace ssec::conformance
