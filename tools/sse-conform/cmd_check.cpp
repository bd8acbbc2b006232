// SPDX-License-Identifier: MIT
// `sse-conform check`: a live endpoint, a capture or standard input against
// the response rules, the wire and a dialect's producer rules
// (tools/docs/check.md), optionally with Last-Event-ID resumption; or a
// scenario file of several requests (tools/docs/scenario-format.md). The
// engine is ssec::live (tools/live).
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/input.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/scenario.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::cli {
namespace {

struct check_cli {
  std::string dialect;
  std::string url;
  std::string file;
  std::string input;  // positional: "-" for standard input
  std::string method;
  std::vector<std::string> headers;
  std::string data;
  std::string data_file;
  double timeout_s = 60;
  double idle_timeout_s = 30;
  double max_time_s = 0;
  std::uint64_t max_bytes = 64ull << 20;
  std::size_t max_events = 0;
  double heartbeat_s = 0;
  std::uint64_t chunking_seeds = 16;
  bool insecure = false;
  std::string record;
  std::string junit;
  std::string json;
  std::string scenario;
  bool resume = false;
  bool strict = false;
  sse::limits limits;
  std::vector<const CLI::Option*> per_request;  // options a scenario file gives per request instead
  conformance::contract_source contract;        // the catalogs the dialect comes from
};

bool write_file(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// `check --scenario FILE`: every request of the file, reported per scenario.
int run_scenario(const check_cli& o) {
  for (const CLI::Option* opt : o.per_request) {
    if (opt->count() > 0) {
      std::cerr << "sse-conform check: " << opt->get_name()
                << " cannot be combined with --scenario: give it per request "
                << "in the scenario file (tools/docs/scenario-format.md)\n";
      return exit_usage;
    }
  }
  const auto contract = load_contract_or_say_why(o.contract, "check");
  if (!contract) return exit_usage;
  const auto loaded = live::load_scenario_file(o.scenario, o.scenario, contract);
  if (!loaded.ok()) {
    std::cerr << loaded.error_text();
    return exit_usage;
  }
  live::scenario_options so;
  so.verify_tls = !o.insecure;
  so.chunking_seeds = o.chunking_seeds;
  so.strict = o.strict;
  so.heartbeat_s = o.heartbeat_s;
  so.resume = o.resume;
  const auto results = live::run_scenarios(loaded.value, so);
  // The check reports come back redacted (names and URLs are shown as
  // written, variables unexpanded), so every output is made from them as is.
  bool wrote = true;
  if (!o.json.empty()) wrote &= write_file(o.json, dump_line(live::to_json(loaded.value, results)) + "\n");
  if (!o.junit.empty()) wrote &= write_file(o.junit, live::to_junit(loaded.value, results));
  if (o.json != "-" && o.junit != "-") std::cout << live::to_text(loaded.value, results);
  if (!wrote) {
    std::cerr << "sse-conform check: could not write an output file\n";
    return exit_usage;
  }
  bool setup_error = false, conforming = true;
  for (const auto& s : results) {
    conforming &= s.conforming();
    for (const auto& r : s.requests) setup_error |= r.setup_error();
  }
  if (setup_error) return exit_usage;  // a request could not even connect: nothing was checked there
  return conforming ? exit_ok : exit_failure;
}

int run_check(check_cli o) {
  if (!o.scenario.empty()) {
    if (!o.url.empty() || !o.file.empty() || !o.input.empty() || !o.dialect.empty()) {
      std::cerr << "sse-conform check: --scenario FILE names the URLs and dialects itself; drop --url, --file, - and "
                   "--dialect\n";
      return exit_usage;
    }
    return run_scenario(o);
  }
  if (o.dialect.empty()) {
    std::cerr << "sse-conform check: --dialect is required (wire, chat, code, workflow or agent)\n";
    return exit_usage;
  }
  const int sources = !o.url.empty() + !o.file.empty() + !o.input.empty();
  if (sources != 1) {
    std::cerr
        << "sse-conform check: give exactly one of --url URL, --file FILE or - (standard input), or --scenario FILE\n";
    return exit_usage;
  }
  if (!o.input.empty() && o.input != "-") {
    std::cerr << "sse-conform check: unexpected argument '" << o.input << "' (use --file FILE, --url URL or -)\n";
    return exit_usage;
  }
  if (o.resume && o.url.empty()) {
    std::cerr << "sse-conform check: --resume needs a live endpoint (--url): only a server can be reconnected to\n";
    return exit_usage;
  }
  live::check_options opt;
  opt.limits = o.limits;
  opt.max_events = o.max_events;
  opt.heartbeat_s = o.heartbeat_s;
  opt.chunking_seeds = o.chunking_seeds;
  opt.strict = o.strict;
  std::shared_ptr<const sse::dialect::catalog> contract;  // outlives opt.dialect
  if (o.dialect != "wire") {
    contract = load_contract_or_say_why(o.contract, "check");
    if (!contract) return exit_usage;
    opt.dialect = contract->dialect(o.dialect);
    if (opt.dialect == nullptr) {
      std::cerr << "sse-conform check: unknown dialect '" << o.dialect << "' (known: wire, " << dialect_names(*contract)
                << ")\n";
      return exit_usage;
    }
  }

  // Secrets: $VAR / ${VAR} in headers, the URL and the body come from the
  // environment and never appear in a report.
  std::vector<std::string> secrets;
  // Expands `s` in place; false (after saying why, for `option`) when a variable is not set.
  const auto expand = [&](std::string& s, std::string_view option) {
    auto e = live::expand_env(s, secrets);
    if (!e) {
      std::cerr << "sse-conform check: " << option << ": " << e.error().to_string() << '\n';
      return false;
    }
    s = std::move(e).value();
    return true;
  };
  for (auto& h : o.headers) {
    if (!expand(h, "-H")) return exit_usage;
  }
  const std::string shown_url = o.url;  // as typed, with $VAR unexpanded
  if (!o.url.empty() && !expand(o.url, "--url")) return exit_usage;
  if (!o.data_file.empty()) {
    auto body = read_all(o.data_file);
    if (!body) {
      std::cerr << "sse-conform check: " << body.error().to_string() << '\n';
      return exit_usage;
    }
    o.data = std::move(body).value();
  }

  live::capture cap;
  http::stream_request req;
  if (!o.url.empty()) {
    req.url = o.url;
    req.method = !o.method.empty() ? o.method : (o.data.empty() ? "GET" : "POST");
    req.headers = o.headers;
    bool has_accept = false;
    for (const auto& h : o.headers)
      has_accept |= h.size() > 7 && (h.starts_with("Accept:") || h.starts_with("accept:"));
    if (!has_accept) req.headers.emplace_back("Accept: text/event-stream");
    req.body = o.data;
    req.timeout_s = o.timeout_s;
    req.idle_timeout_s = o.idle_timeout_s;
    req.max_bytes = o.max_bytes;
    req.verify_tls = !o.insecure;
    cap = live::fetch_sampled(req, o.max_events, o.max_time_s, o.limits);
    cap.source = shown_url;
  } else if (!o.file.empty()) {
    auto loaded = live::load_capture_or_stream(o.file);
    if (!loaded) {
      std::cerr << (loaded.error().line == 0 ? "sse-conform check: " : "") << loaded.error().to_string() << '\n';
      return exit_usage;
    }
    cap = std::move(loaded).value();
  } else {
    live::read_limits lim{o.timeout_s, o.idle_timeout_s, o.max_time_s, o.max_bytes, o.max_events, o.limits};
    cap = live::read_descriptor(0, "<stdin>", lim);
  }

  live::check_report report = live::analyze(cap, opt);
  if (o.resume) live::check_resumption(req, o.max_time_s, cap, opt, report);
  report = live::redact(std::move(report), secrets);
  bool wrote = true;
  if (!o.record.empty()) {
    live::capture redacted = cap;
    redacted.source = live::redact(cap.source, secrets);
    wrote &= write_file(o.record, live::redact(live::write_capture(redacted), secrets));
  }
  // The report is redacted member by member, so the JSON and XML made from it stay well-formed.
  if (!o.json.empty()) wrote &= write_file(o.json, dump_line(live::to_json(report)) + "\n");
  if (!o.junit.empty()) wrote &= write_file(o.junit, live::to_junit({report}, {report.source}));
  if (o.json != "-" && o.junit != "-") std::cout << live::to_text(report);
  if (!wrote) {
    std::cerr << "sse-conform check: could not write an output file\n";
    return exit_usage;
  }
  if (cap.end == "connect_error") return exit_usage;  // nothing was checked: a setup problem
  return report.conforming() ? exit_ok : exit_failure;
}

}  // namespace

void add_check_command(CLI::App& app, int& code) {
  auto o = std::make_shared<check_cli>();
  CLI::App* cmd =
      app.add_subcommand("check", "Check a live endpoint, a capture or standard input (tools/docs/check.md)");
  cmd->add_option("--dialect", o->dialect, "wire, chat, code, workflow or agent (required without --scenario)");
  cmd->add_option("--scenario", o->scenario, "Run a scenario file of several requests (tools/docs/scenario-format.md)");
  cmd->add_flag("--resume", o->resume,
                "After the stream (cut it with --max-events), reconnect with Last-Event-ID and judge the resumption");
  cmd->add_option("--url", o->url, "Endpoint to request (http or https); $VAR is taken from the environment");
  cmd->add_option("--file", o->file, "A capture (--record) or a raw stream file");
  cmd->add_option("input", o->input, "- to read standard input as it arrives");
  // Options a scenario file gives per request: refused together with --scenario.
  const auto per_request = [&](CLI::Option* opt) {
    o->per_request.push_back(opt);
    return opt;
  };
  per_request(cmd->add_option("-X,--request", o->method, "HTTP method (default GET, POST with a body)"));
  per_request(cmd->add_option("-H,--header", o->headers,
                              "'Name: value' header; $VAR/${VAR} are expanded from the environment and redacted"));
  per_request(cmd->add_option("-d,--data", o->data, "Request body"));
  per_request(cmd->add_option("--data-file", o->data_file, "Request body from a file"));
  per_request(cmd->add_option("--timeout-s", o->timeout_s,
                              "Overall timeout; reaching it is a STREAM-TIMEOUT finding (0 = none)"))
      ->capture_default_str();
  per_request(cmd->add_option("--idle-timeout-s", o->idle_timeout_s, "Longest silence before giving up (0 = none)"))
      ->capture_default_str();
  per_request(cmd->add_option("--max-time", o->max_time_s,
                              "Sample the stream for this many seconds, then judge what came (not a failure)"));
  per_request(cmd->add_option("--max-bytes", o->max_bytes, "Stop after this many body bytes (not a failure; 0 = none)"))
      ->capture_default_str();
  per_request(cmd->add_option("--max-events", o->max_events, "Stop after this many events (not a failure)"));
  cmd->add_option("--heartbeat-s", o->heartbeat_s, "Report silences longer than this (STREAM-HEARTBEAT, should)");
  cmd->add_option("--chunking-seeds", o->chunking_seeds, "Random chunkings to re-parse with")->capture_default_str();
  cmd->add_flag("-k,--insecure", o->insecure, "Do not verify TLS certificates");
  per_request(cmd->add_option("--record", o->record, "Save the response as a capture (tools/docs/capture-format.md)"));
  cmd->add_option("--json", o->json, "Write the report as JSON to this file (- for stdout)");
  cmd->add_option("--junit", o->junit, "Write the report as JUnit XML to this file (- for stdout)");
  per_request(cmd->add_option("--max-line", o->limits.max_line, "Longest line in bytes"))->capture_default_str();
  per_request(cmd->add_option("--max-event-data", o->limits.max_event_data, "Largest event data in bytes"))
      ->capture_default_str();
  cmd->add_flag("--strict", o->strict,
                "Fail on findings of decision-based rules too (basis: decision); the report says they were promoted");
  add_contract_options(cmd, o->contract);
  cmd->callback([o, &code] { code = run_check(*o); });
}

}  // namespace ssec::cli
