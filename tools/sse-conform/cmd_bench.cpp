// SPDX-License-Identifier: MIT
// `sse-conform bench`: parse a file from memory R times in N-byte chunks and
// print one JSON line of throughput figures; `--generate DIR` writes the
// benchmark streams (tools/docs/benchmarks.md).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/parser.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/bench/measure.hpp"
#include "ssec/bench/streams.hpp"

namespace ssec::cli {
namespace {

struct bench_options {
  std::string layer = "wire";
  std::size_t chunk = 65536;
  unsigned runs = 5;
  sse::limits limits;
  std::string generate_dir;
  std::string path;
  conformance::contract_source contract;  // the catalogs of the dialect layers
};

int run_bench(const bench_options& opt) {
  // `--layer scan`: every line end found and nothing else (bench::scan_once),
  // the floor the wire layer's figure is measured against.
  const bool scan = opt.layer == "scan";
  std::optional<sse::dialect::decoder> dialect;
  if (!scan) {
    const auto layer = resolve_layer_or_say_why(opt.layer, opt.contract, "bench", "scan");
    if (!layer) return exit_usage;
    if (layer->dialect != nullptr) dialect.emplace(*layer->dialect);
  }
  auto input = bench::read_exact(opt.path);
  if (!input) {
    std::cerr << "sse-conform bench: " << input.error().to_string() << '\n';
    return exit_usage;
  }
  const std::string& stream = input.value();
  const long rss_after_load_kb = bench::peak_rss_kb();

  const auto m = scan ? bench::measure_scan(stream, opt.chunk, opt.runs)
                      : bench::measure(stream, opt.chunk, opt.runs, opt.limits, dialect ? &*dialect : nullptr);
  if (!m) {
    std::cerr << "sse-conform bench: " << opt.path << ": " << m.error().message << '\n';
    return exit_failure;
  }
  const double safe_median = m->median_seconds > 0 ? m->median_seconds : 1e-9;
  const bench::parse_run& first = m->runs.front();

  nlohmann::ordered_json line = {
      {"file", opt.path}, {"layer", opt.layer}, {"chunk", opt.chunk}, {"runs", opt.runs}, {"bytes", stream.size()},
  };
  if (scan) {
    line["lines"] = first.events;
    line["line_bytes"] = first.data_bytes;
  } else {
    line["events"] = first.events;
    line["data_bytes"] = first.data_bytes;
  }
  line["median_seconds"] = bench::rounded(m->median_seconds, 6);
  line["min_seconds"] = bench::rounded(m->min_seconds, 6);
  line["median_cpu_seconds"] = bench::rounded(m->median_cpu_seconds, 6);
  line["mb_per_s"] = bench::rounded(static_cast<double>(stream.size()) / 1e6 / safe_median, 1);
  if (!scan) line["events_per_s"] = std::llround(static_cast<double>(first.events) / safe_median);
  line["peak_rss_kb"] = bench::peak_rss_kb();
  line["rss_after_load_kb"] = rss_after_load_kb;
  if (dialect) line["structured_events"] = first.structured;
  std::cout << dump_line(line) << '\n';
  return exit_ok;
}

int run_generate(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << "sse-conform bench: " << dir << ": " << ec.message() << '\n';
    return exit_usage;
  }
  for (const auto& s : bench::named_streams()) {
    const std::string path = (std::filesystem::path(dir) / s.file_name).string();
    const std::string bytes = s.generate();
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
    const bool written =
        file && std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size() && std::fflush(file.get()) == 0;
    if (!written) {
      std::cerr << "sse-conform bench: " << path << ": " << std::strerror(errno) << '\n';
      return exit_usage;
    }
    const nlohmann::ordered_json line = {{"file", path}, {"bytes", bytes.size()}, {"description", s.description}};
    std::cout << dump_line(line) << '\n';
  }
  return exit_ok;
}

}  // namespace

void add_bench_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<bench_options>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Parse FILE from memory R times in N-byte chunks and print one JSON line: MB/s, events/s (median run)");
  cmd->add_option("--layer", opt->layer,
                  "Layer to decode: wire, chat, code, workflow or agent; scan finds the line ends and nothing else "
                  "(the wire layer's floor)")
      ->capture_default_str();
  cmd->add_option("--chunk", opt->chunk, "Feed the parser N-byte chunks (0: whole input)")
      ->capture_default_str()
      ->check(at_least<std::size_t>(0));
  cmd->add_option("--runs", opt->runs, "Timed parses; the median is reported")
      ->capture_default_str()
      ->check(in_range<unsigned>(1, 100000));
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  auto* generate = cmd->add_option("--generate", opt->generate_dir,
                                   "Write the benchmark streams (llm.sse, big-frames.sse, ...) into DIR and exit");
  add_contract_options(cmd, opt->contract);
  auto* file = cmd->add_option("file", opt->path, "Stream file to parse, or - for standard input");
  generate->excludes(file);
  cmd->callback([opt, &code, generate, file] {
    if (generate->count() > 0) {
      code = run_generate(opt->generate_dir);
    } else if (file->count() == 0) {
      std::cerr << "sse-conform bench: give a FILE to parse, or --generate DIR\n";
      code = exit_usage;
    } else {
      code = run_bench(*opt);
    }
  });
}

}  // namespace ssec::cli
