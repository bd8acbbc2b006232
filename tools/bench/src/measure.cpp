// SPDX-License-Identifier: MIT
#include "ssec/bench/measure.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "ssec/support/input.hpp"

namespace ssec::bench {

namespace {

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
      structured += dialect->decode(sse::dialect::frame{e}).kind == sse::dialect::event_kind::structured;
    }
    return sse::action::proceed;
  }
};

}  // namespace

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // kilobytes on Linux
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// Dividing by an exact power of ten prints short (0.046758, not ...98).
double rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

namespace {

// The piece size of `chunk` (0: the whole stream at once).
std::size_t chunk_step(std::string_view stream, std::size_t chunk) {
  return chunk == 0 ? std::max<std::size_t>(stream.size(), 1) : chunk;
}

// Runs `work`, its wall clock and this process's CPU time recorded in `out`.
template <class Work>
void time_into(parse_run& out, Work work) {
  const double cpu_start = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  work();
  const auto stop = std::chrono::steady_clock::now();
  out.cpu_seconds = process_cpu_seconds() - cpu_start;
  out.seconds = std::chrono::duration<double>(stop - start).count();
}

}  // namespace

parse_run parse_once(std::string_view stream, std::size_t chunk, const sse::limits& limits,
                     sse::dialect::decoder* dialect) {
  counting_visitor counter;
  counter.dialect = dialect;
  sse::parser<counting_visitor> parser(counter, limits);
  const std::size_t step = chunk_step(stream, chunk);
  parse_run out;
  time_into(out, [&] {
    for (std::size_t at = 0; at < stream.size(); at += step) {
      out.status = parser.feed(stream.substr(at, step)).status;
      if (sse::is_fatal(out.status)) break;
    }
    if (!sse::is_fatal(out.status)) out.status = parser.finish();
  });
  out.events = counter.events;
  out.data_bytes = counter.data_bytes;
  out.structured = counter.structured;
  out.error_offset = parser.error_offset();
  return out;
}

parse_run scan_once(std::string_view stream, std::size_t chunk) {
  const std::size_t step = chunk_step(stream, chunk);
  parse_run out;
  // Counted in locals: through `out`, every count would be a store the loop waits on.
  std::uint64_t lines = 0;
  std::uint64_t line_bytes = 0;
  time_into(out, [&] {
    for (std::size_t at = 0; at < stream.size(); at += step) {
      const std::string_view piece = stream.substr(at, step);
      const char* p = piece.data();
      const char* const end = p + piece.size();
      while (p < end) {
        const char* const eol = sse::detail::find_line_end(p, end);
        ++lines;
        line_bytes += static_cast<std::uint64_t>(eol - p);
        p = eol;
        if (p == end) break;
        // CR LF is one line end, as the parser reads it.
        p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
      }
    }
  });
  out.events = lines;
  out.data_bytes = line_bytes;
  return out;
}

namespace {

// `runs` runs of `once`, checked to agree, and their summary.
template <class Run>
result<measurement> summarise(unsigned runs, Run once) {
  measurement m;
  for (unsigned i = 0; i < runs; ++i) {
    m.runs.push_back(once());
    const parse_run& r = m.runs.back();
    if (sse::is_fatal(r.status)) {
      return error{std::string(sse::to_string(r.status)) + " at byte " + std::to_string(r.error_offset)};
    }
    if (r.events != m.runs.front().events || r.data_bytes != m.runs.front().data_bytes) {
      return error{"run " + std::to_string(i + 1) + " counted different events than run 1"};
    }
  }
  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  for (const parse_run& r : m.runs) {
    seconds.push_back(r.seconds);
    cpu_seconds.push_back(r.cpu_seconds);
  }
  m.median_seconds = median_of(seconds);
  m.min_seconds = *std::min_element(seconds.begin(), seconds.end());
  m.median_cpu_seconds = median_of(cpu_seconds);
  return m;
}

}  // namespace

result<measurement> measure(std::string_view stream, std::size_t chunk, unsigned runs, const sse::limits& limits,
                            sse::dialect::decoder* dialect) {
  return summarise(runs, [&] { return parse_once(stream, chunk, limits, dialect); });
}

result<measurement> measure_scan(std::string_view stream, std::size_t chunk, unsigned runs) {
  return summarise(runs, [&] { return scan_once(stream, chunk); });
}

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

}  // namespace ssec::bench
