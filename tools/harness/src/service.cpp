// SPDX-License-Identifier: MIT
#include "ssec/harness/service.hpp"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "ssec/http/client.hpp"
#include "ssec/live/serve.hpp"
#include "ssec/live/service_driver.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using nlohmann::json;
using steady = std::chrono::steady_clock;

std::string service_skip_reason(const conf::test_case& c) {
  if (c.layer != conf::layer::wire) {
    return "a test service reports wire events only; the " + std::string(conf::to_string(c.layer)) +
           " layer's dialect events cannot be expressed";
  }
  if (c.limits) return "the case sets parser limits, which the service protocol cannot pass on";
  const auto needs = conf::required_capabilities(c);
  if (std::find(needs.begin(), needs.end(), "retry") != needs.end()) {
    return "needs the reconnection time (retry), which a test service does not report";
  }
  return {};
}

namespace {

// GET / on the service: its capabilities, or why not.
result<std::vector<std::string>> service_capabilities(const std::string& url) {
  http::stream_request req;
  req.url = url;
  req.timeout_s = 10;
  req.idle_timeout_s = 10;
  req.max_bytes = 1 << 20;
  std::string body;
  const auto r = http::stream(req, [&](std::string_view bytes, double) {
    body.append(bytes);
    return true;
  });
  const json j = json::parse(body, nullptr, false);
  std::string wrong;
  if (r.end != http::stream_end::complete)
    wrong = std::string(http::to_string(r.end)) + (r.error.empty() ? "" : ": " + r.error);
  else if (r.status != 200) wrong = "HTTP " + std::to_string(r.status);
  else if (!j.is_object()) wrong = "the body is not a JSON object";
  if (!wrong.empty())
    return error{"the test service at " + url + " did not answer GET / with its capabilities (" + wrong + ")"};
  std::vector<std::string> caps;
  if (j.contains("capabilities") && j["capabilities"].is_array()) {
    for (const auto& c : j["capabilities"]) {
      if (c.is_string()) caps.push_back(c.get<std::string>());
    }
  }
  return caps;
}

case_result run_one_through_service(const conf::test_case& c, const std::string& stream_base_url,
                                    const run_options& o) {
  const auto started = steady::now();
  case_result r;
  r.c = &c;
  r.path = case_path(c);
  if (std::string why = service_skip_reason(c); !why.empty()) {
    r.outcome = outcome::skip;
    r.reason = std::move(why);
    return r;
  }
  const conf::chunking as_written{conf::chunking::kind::as_written, 0};
  const auto chunks = conf::chunks_of(c, as_written);
  const auto budget = o.timeout.for_request(c.input.size(), chunks.size());
  live::service_options so;
  so.service_url = o.service;
  so.stream_base_url = stream_base_url;
  so.case_timeout_s = std::chrono::duration<double>(budget).count();
  so.impl = "service";
  so.strict = o.strict;
  const auto rows = live::drive_service({c}, so);
  r.chunkings_run = 1;

  failure_detail d;
  d.chunking = as_written.name();
  d.chunk_count = chunks.size();
  d.input = conf::describe_chunks(chunks);
  d.expected = conf::format_log(conf::external_view(c.events));
  d.reproduce = o.reproduce_prefix + " --run " + shell_quote(r.path);
  const auto end = [&](outcome oc, std::string reason) {
    r.outcome = oc;
    r.reason = std::move(reason);
    r.seconds = std::chrono::duration<double>(steady::now() - started).count();
    return r;
  };
  if (!rows) {
    d.received = "(no answer)";
    d.first_difference = rows.error().message;
    r.failure = d;
    return end(outcome::error, "the test service stopped answering: " + rows.error().message);
  }
  if (rows->empty()) {
    d.received = "(no stream)";
    d.first_difference = "no result";
    r.failure = d;
    return end(outcome::error, "no result");
  }
  // The row is graded by the one grader already (grade_browser, strict as the run).
  const live::browser_row& row = rows->front();
  switch (row.outcome) {
    case outcome::pass: return end(outcome::pass, "");
    case outcome::skip: return end(outcome::skip, row.detail);
    case outcome::error:
      // The service refused to open the stream.
      d.received = "(no stream)";
      d.first_difference = row.detail;
      r.failure = d;
      return end(outcome::error, row.detail);
    case outcome::timeout:
      d.received = "(the service reported no end of stream)";
      d.first_difference = "no end of stream within " + std::to_string(budget.count()) + " ms";
      d.budget = budget_detail{c.input.size(), chunks.size(), o.timeout, budget};
      r.failure = d;
      ++r.chunkings_failed;
      return end(outcome::timeout,
                 "timed out: the service reported no end of stream within " + std::to_string(budget.count()) + " ms");
    default: break;
  }
  ++r.chunkings_failed;
  if (row.mismatch) {
    d.expected = row.mismatch->expected;
    d.received = row.mismatch->received;
    d.first_difference = row.mismatch->first_difference;
  }
  r.failure = d;
  return end(row.outcome, "the events the service reported differ");
}

}  // namespace

run_result run_service(const std::vector<const conf::test_case*>& cases, const run_options& options,
                       const progress_callback& progress) {
  const auto started = steady::now();
  run_result result;
  const auto caps = service_capabilities(options.service);
  if (!caps) {
    result.setup_error = caps.error().message;
    return result;
  }
  result.adapter.name = "test service";
  result.adapter.version = options.service;
  result.adapter.layers = {"wire"};
  result.adapter.capabilities = *caps;

  // Only the cases the service can run are served.
  std::vector<conf::test_case> served;
  for (const auto* c : cases) {
    if (service_skip_reason(*c).empty()) served.push_back(*c);
  }
  auto started_server = live::case_server::start(std::move(served), {}, "127.0.0.1", 0);
  if (!started_server) {
    result.setup_error = "could not serve the cases on 127.0.0.1: " + started_server.error().message;
    return result;
  }
  live::case_server& server = **started_server;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    result.cases.push_back(run_one_through_service(*cases[i], server.base_url(), options));
    if (progress) progress(i + 1, cases.size(), result.cases.back());
  }
  server.stop();
  result.seconds = std::chrono::duration<double>(steady::now() - started).count();
  return result;
}

}  // namespace ssec::harness
