// SPDX-License-Identifier: MIT
// Drives a LaunchDarkly sse-contract-tests test service (the small REST
// service many SSE client libraries already ship) with our cases, served by
// `serve`: the mapping and its limits are in tools/docs/serve.md.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ssec/conformance/case.hpp"
#include "ssec/live/serve.hpp"

namespace ssec::live {

struct service_options {
  std::string service_url;      ///< The test service's base URL (GET / answers its capabilities).
  std::string stream_base_url;  ///< Where `serve` serves /case/<name>.
  double case_timeout_s = 5;    ///< Longest wait for one case's stream to end.
  std::string impl = "service"; ///< The matrix's implementation name.
};

/// Called for each case the service ran, before it is graded, with what the
/// service reported: {"status":"ended"|"timeout","events":[{"type","data","lastEventId"}]}
/// (what grade_browser grades). `sse-conform run --service` grades it itself.
using service_seen_callback = std::function<void(const conformance::test_case&, const nlohmann::json& seen)>;

/// Runs every case through the service, one at a time: POST / to open a
/// stream entity on the case's URL, collect the events the service posts to
/// our callback until it reports the stream's end (its first error) or the
/// timeout, DELETE the entity, grade like the browser page (grade_browser).
/// Returns false and sets `error` when the service is unreachable or its
/// capabilities answer is not JSON. `on_seen`, when set, sees each result first.
bool drive_service(const std::vector<conformance::test_case>& cases, const service_options& opt,
                   std::vector<browser_row>& rows, std::string& error, const service_seen_callback& on_seen = {});

}  // namespace ssec::live
