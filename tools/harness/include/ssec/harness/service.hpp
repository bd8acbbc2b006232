// SPDX-License-Identifier: MIT
// `sse-conform run --service URL`: the cases through a LaunchDarkly
// sse-contract-tests style test service instead of an adapter process
// (tools/docs/run.md, "Test services"). The cases are served over HTTP by
// ssec::live::case_server, the service is driven by ssec::live::drive_service,
// and what it reports is graded by compare_answer into the same run_result
// as an adapter run, so every report, the baseline and the exit status apply.
#pragma once

#include <string>
#include <vector>

#include "ssec/harness/engine.hpp"

namespace ssec::harness {

/// What a test service can be asked, as skip reasons: the cases that
/// run_service skips without contacting the service, and why; empty when the
/// service can run `c`.
std::string service_skip_reason(const conformance::test_case& c);

/// Runs `cases` through the test service at `options.service` (GET / must
/// answer {"capabilities":[...]}), one case at a time: each selected case is
/// served at http://127.0.0.1:<any free port>/case/<topic>_<id>, written as
/// the case file writes its chunks (the chunking "as-written"), and the
/// service has options.timeout.for_request(input bytes, written chunks) to
/// report the stream's end. `options.jobs` and the chunking plan do not apply.
/// Outcomes: skip (service_skip_reason), pass / fail / non-strict /
/// informational (compare_answer on the reported events), timeout (no end of
/// stream reported in time), error (the service refused the stream or stopped
/// answering). A setup error (cases empty) when the case server cannot start
/// or the service does not answer GET /.
run_result run_service(const std::vector<const conformance::test_case*>& cases, const run_options& options,
                       const progress_callback& progress = {});

}  // namespace ssec::harness
