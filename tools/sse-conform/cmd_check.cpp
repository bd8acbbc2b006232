// SPDX-License-Identifier: MIT
// `sse-conform check`: a live endpoint, a capture or standard input against
// the response rules, the wire and a dialect's producer rules
// (tools/docs/check.md), optionally with Last-Event-ID resumption; or a
// scenario file of several requests (tools/docs/scenario-format.md). The
// engine is ssec::live (tools/live).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/scenario.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"

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
  double timeout_s = 0;  // opt-in: the idle timeout is the default guard
  double idle_timeout_s = 30;
  double max_time_s = 0;
  std::uint64_t max_bytes = 64ull << 20;
  std::size_t max_events = 0;
  double heartbeat_s = 0;
  std::uint64_t chunking_seeds = 16;
  bool insecure = false;
  std::string ca_file;
  bool http2_prior_knowledge = false;
  std::string record;
  std::string junit;
  std::string json;
  std::string scenario;
  bool resume = false;
  bool strict = false;
  bool quiet = false;
  double progress_s = 5;
  sse::limits limits;
  std::vector<const CLI::Option*> per_request;  // options a scenario file gives per request instead
  conformance::contract_source contract;        // the catalogs the dialect comes from
};

// While a read runs, a line on stderr every `every_s` seconds: bytes, events,
// seconds since the last byte, so a stalled endpoint does not look like a
// hung tool. Stops (and joins) when destroyed.
class heartbeat {
 public:
  heartbeat(const live::read_progress& p, double every_s) : progress_(p), every_s_(every_s) {
    if (every_s_ > 0) thread_ = std::thread([this] { loop(); });
  }
  ~heartbeat() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  heartbeat(const heartbeat&) = delete;
  heartbeat& operator=(const heartbeat&) = delete;

 private:
  void loop() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    for (;;) {
      if (wake_.wait_for(lock, std::chrono::duration<double>(every_s_), [this] { return done_; })) return;
      const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double last = progress_.last_byte_s.load();
      std::ostringstream line;
      line.precision(1);
      line << std::fixed << "sse-conform check: still reading after " << now
           << " s: " << counted(progress_.bytes.load(), "byte") << ", " << counted(progress_.events.load(), "event")
           << ", ";
      if (last < 0) line << "no byte yet\n";
      else line << now - last << " s since the last byte\n";
      std::cerr << line.str() << std::flush;
    }
  }
  const live::read_progress& progress_;
  double every_s_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

// The text report in colour on a terminal (NO_COLOR honoured): must
// findings and failing verdicts red, should findings yellow, passes green.
std::string colourize(const std::string& text) {
  if (!colour_for(STDOUT_FILENO)) return text;
  std::string out;
  std::size_t start = 0;
  const std::vector<std::pair<std::string_view, std::string_view>> marks{
      {" (must) ", "31"},     {" (should) ", "33"}, {"NOT conforming", "31"},
      {": conforming", "32"}, {": FAIL", "31"},     {": PASS", "32"}};
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string line = text.substr(start, end - start);
    for (const auto& [mark, code] : marks) {
      const auto at = line.find(mark);
      if (at == std::string::npos) continue;
      const std::size_t from = mark.front() == ' ' ? at + 1 : (mark.front() == ':' ? at + 2 : at);
      const std::size_t to = mark.back() == ' ' ? at + mark.size() - 1 : at + mark.size();
      line = line.substr(0, from) + paint(true, code, line.substr(from, to - from)) + line.substr(to);
      break;
    }
    out += line;
    start = end;
  }
  return out;
}

// Prints the producer findings on stderr as the stream arrives (the report on
// stdout, made when the read has ended, repeats them with the rest). They
// come from the report's own run of the producer rules, on its thread.
void watch_findings(live::check_options& opt, bool quiet) {
  if (quiet || opt.dialect == nullptr) return;
  const bool colour = colour_for(STDERR_FILENO);
  opt.on_finding = [colour](const sse::dialect::finding& f) {
    const bool must = f.rule->level == sse::dialect::severity::must;
    // Frames count from 1 in text, as the report's (tools/docs/cli.md, "Frame numbers").
    std::ostringstream line;
    line << "sse-conform check: as it arrives: " << sse::dialect::frame_text(f.frame, f.at_end) << ", byte " << f.offset
         << ": "
         << paint(colour, must ? "31" : "33",
                  f.rule->id + " (" + std::string(sse::dialect::to_string(f.rule->level)) + ")")
         << " seen: " << f.seen << '\n';
    // One write a line: the heartbeat prints from a third thread.
    std::cerr << line.str() << std::flush;
  };
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
  so.ca_file = o.ca_file;
  so.http2_prior_knowledge = o.http2_prior_knowledge;
  so.chunking_seeds = o.chunking_seeds;
  so.strict = o.strict;
  so.heartbeat_s = o.heartbeat_s;
  so.resume = o.resume;
  const auto results = live::run_scenarios(loaded.value, so);
  // The check reports come back redacted (names and URLs are shown as
  // written, variables unexpanded), so every output is made from them as is.
  bool wrote = true;
  if (!o.json.empty()) wrote &= write_output("check", o.json, dump_line(live::to_json(loaded.value, results)) + "\n");
  // (one_stdout_output was checked in run_check)
  if (!o.junit.empty()) wrote &= write_output("check", o.junit, live::to_junit(loaded.value, results));
  if (o.json != "-" && o.junit != "-") std::cout << colourize(live::to_text(loaded.value, results));
  if (!wrote) return exit_usage;
  bool setup_error = false, conforming = true;
  for (const auto& s : results) {
    conforming &= s.conforming();
    for (const auto& r : s.requests) setup_error |= r.setup_error();
  }
  if (setup_error) return exit_usage;  // a request could not even connect: nothing was checked there
  return conforming ? exit_ok : exit_failure;
}

// The commands that reproduce a check's findings, from the options as typed
// (`$VAR` unexpanded, so no secret is printed): a URL is recorded once with
// --record, and the capture then replays the same bytes and arrival times
// anywhere, without the server; a file or a recording is checked again as it is.
std::string reproduction(const check_cli& typed) {
  std::error_code cwd_error;
  const auto cwd = std::filesystem::current_path(cwd_error);
  const std::string cd = cwd_error ? std::string() : "cd " + harness::shell_quote(cwd.string()) + " && ";
  std::string judge = harness::shell_quote(self_path()) + " check --dialect " + harness::shell_quote(typed.dialect);
  if (!typed.contract.spec_dir.empty()) judge += " --spec " + harness::shell_quote(typed.contract.spec_dir);
  for (const auto& c : typed.contract.catalog_files) judge += " --catalog " + harness::shell_quote(c);
  if (typed.strict) judge += " --strict";
  const auto replay = [&](const std::string& file) { return judge + " --file " + harness::shell_quote(file); };
  const bool recorded = !typed.record.empty() && typed.record != "-";
  if (recorded) return "reproduce: " + cd + replay(typed.record) + "\n";
  if (!typed.url.empty()) {
    std::string fetch = judge + " --url " + harness::shell_quote(typed.url);
    if (!typed.method.empty()) fetch += " -X " + harness::shell_quote(typed.method);
    for (const auto& h : typed.headers) fetch += " -H " + harness::shell_quote(h);
    if (!typed.data.empty()) fetch += " -d " + harness::shell_quote(typed.data);
    if (!typed.data_file.empty()) fetch += " --data-file " + harness::shell_quote(typed.data_file);
    if (typed.insecure) fetch += " -k";
    if (!typed.ca_file.empty()) fetch += " --cacert " + harness::shell_quote(typed.ca_file);
    if (typed.http2_prior_knowledge) fetch += " --http2-prior-knowledge";
    if (typed.max_time_s > 0) {
      std::ostringstream seconds;
      seconds << typed.max_time_s;
      fetch += " --max-time " + seconds.str();
    }
    if (typed.max_events > 0) fetch += " --max-events " + std::to_string(typed.max_events);
    return "reproduce: " + cd + fetch + " --record check.capture\n" +
           "           then, anywhere, the same bytes and times: " + replay("check.capture") + "\n";
  }
  if (!typed.file.empty() && typed.file != "-" && std::filesystem::is_regular_file(typed.file)) {
    return "reproduce: " + cd + replay(typed.file) + "\n";
  }
  return "reproduce: the bytes were read once (standard input or a pipe): add --record FILE to keep them, then " +
         replay("FILE") + "\n";
}

int run_check(check_cli o) {
  if (!one_stdout_output("check", {{"--json", o.json}, {"--junit", o.junit}, {"--record", o.record}}))
    return exit_usage;
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
  // `check --dialect D FILE` is `--file FILE`, as `validate FILE` takes it.
  if (!o.input.empty() && o.input != "-" && o.file.empty()) o.file = std::exchange(o.input, std::string());
  const int sources = !o.url.empty() + !o.file.empty() + !o.input.empty();
  if (sources != 1) {
    std::cerr
        << "sse-conform check: give exactly one of --url URL, --file FILE or - (standard input), or --scenario FILE\n";
    return exit_usage;
  }
  if (o.resume && o.url.empty()) {
    std::cerr << "sse-conform check: --resume needs a live endpoint (--url): only a server can be reconnected to\n";
    return exit_usage;
  }
  const check_cli typed = o;  // before $VAR expansion: what reproduction() prints
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

  const auto is_pipe_or_device = [](const std::string& path) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    return !ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st) &&
           !std::filesystem::is_directory(st);
  };
  live::capture cap;
  std::optional<live::check_report> checked;  // judged as it arrived (--url, standard input, a pipe)
  // A descriptor read as it arrives, with progress; the capture is made only
  // for --record: the check holds the body once.
  const auto check_as_it_arrives = [&](int fd, const std::string& source) {
    live::read_progress progress;
    watch_findings(opt, o.quiet);
    live::read_limits lim{o.timeout_s, o.idle_timeout_s, o.max_time_s, o.max_bytes, o.max_events, o.limits, &progress};
    heartbeat beat(progress, o.quiet ? 0 : o.progress_s);
    return live::check_descriptor(fd, source, lim, opt, o.record.empty() ? nullptr : &cap);
  };
  http::stream_request req;
  if (!o.url.empty()) {
    req = live::event_stream_request(o.url, o.method, o.headers, o.data);
    req.timeout_s = o.timeout_s;
    req.idle_timeout_s = o.idle_timeout_s;
    req.max_bytes = o.max_bytes;
    req.verify_tls = !o.insecure;
    req.ca_file = o.ca_file;
    if (o.http2_prior_knowledge) req.version = http::http_version::http2_prior_knowledge;
    if (const auto valid = http::check_url(req.url); !valid) {
      std::cerr << "sse-conform check: --url " << shown_url << ": " << valid.error().message << '\n';
      return exit_usage;
    }
    live::read_progress progress;
    watch_findings(opt, o.quiet);
    heartbeat beat(progress, o.quiet ? 0 : o.progress_s);
    // The capture is made only for --record and --resume: the check holds the body once.
    checked = live::check_request(req, shown_url, o.max_events, o.max_time_s, opt, &progress,
                                  o.record.empty() && !o.resume ? nullptr : &cap);
  } else if (!o.file.empty() && o.file != "-" && is_pipe_or_device(o.file)) {
    // A pipe (`check <(curl ...)`), FIFO or device is read once, as it
    // arrives, like standard input: it cannot be read a second time, and
    // the parser's limits end a read that never would (/dev/zero).
    const int fd = ::open(o.file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::cerr << "sse-conform check: " << ssec::error{std::strerror(errno), o.file}.to_string() << '\n';
      return exit_usage;
    }
    checked = check_as_it_arrives(fd, o.file);
    ::close(fd);
  } else if (!o.file.empty()) {
    const auto say = [](const ssec::error& e) {
      std::cerr << (e.line == 0 ? "sse-conform check: " : "") << e.to_string() << '\n';
    };
    // A capture is judged as its lines are read, unless --record wants it
    // whole (standard input cannot be read twice: it is read once, whole).
    if (o.record.empty() && o.file != "-") {
      auto streamed = live::check_capture_file(o.file, o.max_bytes, opt);
      if (!streamed) {
        say(streamed.error());
        return exit_usage;
      }
      if (streamed.value()) checked = std::move(*streamed.value());
    }
    if (!checked) {
      auto loaded = live::load_capture_or_stream(o.file, o.max_bytes);
      if (!loaded) {
        say(loaded.error());
        return exit_usage;
      }
      cap = std::move(loaded).value();
    }
  } else {
    checked = check_as_it_arrives(0, "<stdin>");
  }

  live::check_report report = checked ? std::move(*checked) : live::analyze(cap, opt);
  const bool connected = report.end != "connect_error";
  if (o.resume) live::check_resumption(req, o.max_time_s, cap, opt, report);
  report = live::redact(std::move(report), secrets);
  bool wrote = true;
  if (!o.record.empty()) {
    live::capture redacted = cap;
    redacted.source = live::redact(cap.source, secrets);
    wrote &= write_output("check", o.record, live::redact(live::write_capture(redacted), secrets));
  }
  // The report is redacted member by member, so the JSON and XML made from it stay well-formed.
  if (!o.json.empty()) wrote &= write_output("check", o.json, dump_line(live::to_json(report)) + "\n");
  if (!o.junit.empty()) wrote &= write_output("check", o.junit, live::to_junit({report}, {report.source}));
  if (o.json != "-" && o.junit != "-" && o.record != "-") {
    std::cout << colourize(live::to_text(report));
    if (!report.findings.empty()) std::cout << reproduction(typed);
  }
  if (!wrote) return exit_usage;
  if (!connected) return exit_usage;  // nothing was checked: a setup problem
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
  cmd->add_option("input", o->input, "FILE (as --file FILE), or - to read standard input as it arrives");
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
                              "Overall timeout, opt-in; reaching it is a STREAM-TIMEOUT finding (0 = none)"))
      ->capture_default_str()
      ->check(at_least(0.0));
  per_request(cmd->add_option("--idle-timeout-s", o->idle_timeout_s,
                              "Longest silence before giving up, the default guard (0 = none)"))
      ->capture_default_str()
      ->check(at_least(0.0));
  per_request(cmd->add_option("--max-time", o->max_time_s,
                              "Sample the stream for this many seconds, then judge what came (not a failure)"))
      ->check(at_least(0.0));
  per_request(cmd->add_option("--max-bytes", o->max_bytes, "Stop after this many body bytes (not a failure; 0 = none)"))
      ->capture_default_str()
      ->check(at_least<std::uint64_t>(0));
  per_request(cmd->add_option("--max-events", o->max_events, "Stop after this many events (not a failure)"))
      ->check(at_least<std::size_t>(0));
  cmd->add_option("--heartbeat-s", o->heartbeat_s, "Report silences longer than this (STREAM-HEARTBEAT, should)")
      ->check(at_least(0.0));
  cmd->add_option("--chunking-seeds", o->chunking_seeds, "Random chunkings to re-parse with")
      ->capture_default_str()
      ->check(at_least<std::uint64_t>(0));
  cmd->add_flag("-k,--insecure", o->insecure, "Do not verify TLS certificates");
  cmd->add_option("--cacert", o->ca_file, "Verify the server with the CA certificates of this PEM file")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--http2-prior-knowledge", o->http2_prior_knowledge,
                "Speak HTTP/2 from the first byte (h2c on http://); without it HTTPS negotiates HTTP/2 by ALPN");
  per_request(cmd->add_option("--record", o->record, "Save the response as a capture (tools/docs/capture-format.md)"));
  cmd->add_option("--progress-s", o->progress_s,
                  "While the stream is open, a line on stderr this often: bytes, events, silence (0 = none)")
      ->capture_default_str()
      ->check(at_least(0.0));
  cmd->add_flag("-q,--quiet,--no-progress", o->quiet, "No progress lines on stderr");
  cmd->add_option("--json", o->json, "Write the report as JSON to this file (- for stdout)");
  cmd->add_option("--junit", o->junit, "Write the report as JUnit XML to this file (- for stdout)");
  per_request(cmd->add_option("--max-line", o->limits.max_line, "Longest line in bytes"))
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  per_request(cmd->add_option("--max-event-data", o->limits.max_event_data, "Largest event data in bytes"))
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_flag("--strict", o->strict,
                "Fail on findings of decision-based rules too (basis: decision); the report says they were promoted");
  add_contract_options(cmd, o->contract);
  cmd->callback([o, &code] { code = run_check(*o); });
}

}  // namespace ssec::cli
