// SPDX-License-Identifier: MIT
// `sse-conform bench`: parse a file from memory R times in N-byte chunks and
// print one JSON line of throughput figures; `--generate DIR` writes the
// benchmark streams (tools/docs/benchmarks.md).
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/parser.hpp"
#include "ssec/bench_streams.hpp"
#include "ssec/input.hpp"
#include "ssec/wire_json.hpp"

namespace ssec::cli {
namespace {

struct bench_options {
  std::string layer = "wire";
  std::size_t chunk = 65536;
  unsigned runs = 5;
  sse::limits limits;
  std::string generate_dir;
  std::string path;
};

// Counts what the parser delivers. The totals are printed, so the compiler
// cannot drop the work that produces them.
struct counting_visitor {
  std::uint64_t events = 0;
  std::uint64_t data_bytes = 0;
  sse::dialect::decoder* dialect = nullptr;  // a dialect layer also decodes every event
  std::uint64_t structured = 0;
  sse::action on_event(const sse::event_view& e) {
    ++events;
    data_bytes += e.data.size();
    if (dialect != nullptr) {
      structured += dialect->decode({e.data, e.type, e.last_event_id, e.offset}).kind == sse::dialect::event_kind::structured;
    }
    return sse::action::proceed;
  }
};

struct run_result {
  double seconds = 0;
  double cpu_seconds = 0;  // this process's CPU time: far below `seconds` means the machine was busy
  std::uint64_t events = 0;
  std::uint64_t data_bytes = 0;
  std::uint64_t structured = 0;
  sse::errc status = sse::errc::ok;
  std::uint64_t error_offset = 0;
};

// One timed parse of the whole stream. Chunks are cut on the fly: a vector
// of 16 million one-byte views would cost more memory than the stream.
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

run_result parse_once(std::string_view stream, std::size_t chunk, const sse::limits& limits,
                      sse::dialect::decoder* dialect) {
  counting_visitor counter;
  counter.dialect = dialect;
  sse::parser<counting_visitor> parser(counter, limits);
  const std::size_t step = chunk == 0 ? std::max<std::size_t>(stream.size(), 1) : chunk;
  run_result out;
  const double cpu_start = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t at = 0; at < stream.size(); at += step) {
    out.status = parser.feed(stream.substr(at, step)).status;
    if (sse::is_fatal(out.status)) break;
  }
  if (!sse::is_fatal(out.status)) out.status = parser.finish();
  const auto stop = std::chrono::steady_clock::now();
  out.cpu_seconds = process_cpu_seconds() - cpu_start;
  out.seconds = std::chrono::duration<double>(stop - start).count();
  out.events = counter.events;
  out.data_bytes = counter.data_bytes;
  out.structured = counter.structured;
  out.error_offset = parser.error_offset();
  return out;
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // kilobytes on Linux
}

// Reads a file in one exactly sized allocation, so the reported peak RSS is
// the input plus what the parser holds, not a growing string's spare copy.
result<std::string> read_exact(const std::string& path) {
  if (path == "-") return read_all(path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return error{std::strerror(errno), path};
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return error{ec.message(), path};
  std::string out(static_cast<std::size_t>(size), '\0');
  const std::size_t got = std::fread(out.data(), 1, out.size(), file.get());
  if (got != out.size()) {
    return error{"read " + std::to_string(got) + " of " + std::to_string(size) + " bytes", path};
  }
  return out;
}

// Rounds for printing to `decimals` places: the last digits of a timing are
// noise. Dividing by an exact power of ten prints short (0.046758, not ...98).
double rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

int run_bench(const bench_options& opt) {
  std::optional<sse::dialect::decoder> dialect;
  if (opt.layer != "wire") {
    const sse::dialect::dialect_spec* spec = sse::dialect::builtin_dialect(opt.layer);
    if (spec == nullptr) {
      std::cerr << "sse-conform bench: unknown layer '" << opt.layer << "' (wire, chat, code, workflow or agent)\n";
      return exit_usage;
    }
    dialect.emplace(*spec);
  }
  auto input = read_exact(opt.path);
  if (!input) {
    std::cerr << "sse-conform bench: " << input.error().to_string() << '\n';
    return exit_usage;
  }
  const std::string& stream = input.value();
  const long rss_after_load_kb = peak_rss_kb();

  std::vector<run_result> runs;
  for (unsigned i = 0; i < opt.runs; ++i) {
    runs.push_back(parse_once(stream, opt.chunk, opt.limits, dialect ? &*dialect : nullptr));
    const run_result& r = runs.back();
    if (sse::is_fatal(r.status)) {
      std::cerr << opt.path << ": " << describe_error(r.status, r.error_offset) << '\n';
      return exit_failure;
    }
    if (r.events != runs.front().events || r.data_bytes != runs.front().data_bytes) {
      std::cerr << "sse-conform bench: run " << i + 1 << " of " << opt.path << " counted different events than run 1\n";
      return exit_failure;
    }
  }

  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  for (const run_result& r : runs) {
    seconds.push_back(r.seconds);
    cpu_seconds.push_back(r.cpu_seconds);
  }
  const double median = median_of(seconds);
  const double safe_median = median > 0 ? median : 1e-9;
  const run_result& first = runs.front();

  const nlohmann::ordered_json line = {
      {"file", opt.path},
      {"layer", opt.layer},
      {"chunk", opt.chunk},
      {"runs", opt.runs},
      {"bytes", stream.size()},
      {"events", first.events},
      {"data_bytes", first.data_bytes},
      {"median_seconds", rounded(median, 6)},
      {"min_seconds", rounded(*std::min_element(seconds.begin(), seconds.end()), 6)},
      {"median_cpu_seconds", rounded(median_of(cpu_seconds), 6)},
      {"mb_per_s", rounded(static_cast<double>(stream.size()) / 1e6 / safe_median, 1)},
      {"events_per_s", std::llround(static_cast<double>(first.events) / safe_median)},
      {"peak_rss_kb", peak_rss_kb()},
      {"rss_after_load_kb", rss_after_load_kb},
  };
  if (dialect) {
    nlohmann::ordered_json with_dialect = line;
    with_dialect["structured_events"] = first.structured;
    std::cout << dump_line(with_dialect) << '\n';
  } else {
    std::cout << dump_line(line) << '\n';
  }
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
    const bool written = file && std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size() &&
                         std::fflush(file.get()) == 0;
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
  cmd->add_option("--layer", opt->layer, "Layer to decode: wire, chat, code, workflow or agent")->capture_default_str();
  cmd->add_option("--chunk", opt->chunk, "Feed the parser N-byte chunks (0: whole input)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--runs", opt->runs, "Timed parses; the median is reported")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")->capture_default_str();
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")->capture_default_str();
  auto* generate = cmd->add_option("--generate", opt->generate_dir,
                                   "Write the benchmark streams (llm.sse, big-frames.sse, ...) into DIR and exit");
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
