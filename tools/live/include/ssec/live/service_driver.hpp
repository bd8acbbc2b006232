// SPDX-License-Identifier: MIT
// Drives a LaunchDarkly sse-contract-tests test service (the small REST
// service many SSE client libraries already ship) with our cases, served by
// `serve`: the mapping and its limits are in tools/docs/serve.md.
#pragma once

#include <string>
#include <vector>

#include "ssec/conformance/case.hpp"
#include "ssec/live/serve.hpp"
#include "ssec/support/result.hpp"

namespace ssec::live {

struct service_options {
  std::string service_url;       ///< The test service's base URL (GET / answers its capabilities).
  std::string stream_base_url;   ///< Where `serve` serves /case/<name>.
  double case_timeout_s = 5;     ///< Longest wait for one case's stream to end.
  std::string impl = "service";  ///< The matrix's implementation name.
  bool strict = false;           ///< Grade a `should` mismatch as fail.
};

/// Runs every case through the service, one at a time: POST / to open a
/// stream entity on the case's URL, collect the events the service posts to
/// our callback until it reports the stream's end (its first error) or the
/// timeout, DELETE the entity, grade like the browser page (grade_browser,
/// with `opt.strict`). A case needing the reconnection time is skipped; a
/// stream the service refuses to open is an error. Fails when the service is
/// unreachable, its capabilities answer is not JSON, or the callback server
/// cannot start.
result<std::vector<browser_row>> drive_service(const std::vector<conformance::test_case>& cases,
                                               const service_options& opt);

}  // namespace ssec::live
