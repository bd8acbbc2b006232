// SPDX-License-Identifier: MIT
// The loader's part for client cases (client_script.cpp), called by
// load_case() for a `layer: client` case.
#pragma once

#include "ssec/conformance/case.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance {

/// Reads `responses`, `requests`, `close_after_events`, `limit_ms` and
/// `settle_ms` of the case mapping `keys` into c.client; false (with errors
/// reported at their lines) when any is missing or invalid.
bool load_client_script(ssec::yaml::reader& r, const ssec::yaml::mapping& keys, const ssec::yaml::node& at,
                        test_case& c);

}  // namespace ssec::conformance
