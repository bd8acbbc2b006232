// SPDX-License-Identifier: MIT
// Micro-benchmarks of the wire parser's hot path, for profiling and for
// comparing a change before and after. `sse-conform bench` gives the published
// figures (tools/docs/benchmarks.md); this binary isolates the pieces:
// the line-end scan alone, UTF-8 validation alone, and the whole parser on an
// in-memory LLM stream at several chunk sizes.
#include <benchmark/benchmark.h>

#include "sse/parser.hpp"
#include "sse/utf8.hpp"
#include "ssec/bench/streams.hpp"

namespace {

const std::string& llm_sample() {
  static const std::string stream = ssec::bench::llm_stream(std::size_t{8} << 20);
  return stream;
}

const std::string& crlf_sample() {
  static const std::string stream = ssec::bench::crlf_multiline_stream(std::size_t{8} << 20);
  return stream;
}

struct counting_visitor {
  std::uint64_t events = 0;
  std::uint64_t data_bytes = 0;
  sse::action on_event(const sse::event_view& e) {
    ++events;
    data_bytes += e.data.size();
    return sse::action::proceed;
  }
};

void parse_in_chunks(benchmark::State& state, const std::string& stream) {
  const auto chunk = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    counting_visitor counter;
    sse::parser<counting_visitor> parser(counter);
    for (std::size_t at = 0; at < stream.size(); at += chunk) parser.feed(std::string_view(stream).substr(at, chunk));
    parser.finish();
    benchmark::DoNotOptimize(counter.events);
    benchmark::DoNotOptimize(counter.data_bytes);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
}

void wire_llm(benchmark::State& state) { parse_in_chunks(state, llm_sample()); }
BENCHMARK(wire_llm)->Arg(16)->Arg(256)->Arg(4096)->Arg(65536)->Unit(benchmark::kMillisecond);

void wire_crlf_multiline(benchmark::State& state) { parse_in_chunks(state, crlf_sample()); }
BENCHMARK(wire_crlf_multiline)->Arg(16)->Arg(65536)->Unit(benchmark::kMillisecond);

// The floor: find every line end and nothing else.
void scan_line_ends(benchmark::State& state) {
  const std::string& stream = llm_sample();
  for (auto _ : state) {
    std::size_t lines = 0;
    const char* p = stream.data();
    const char* const end = p + stream.size();
    while ((p = sse::detail::find_line_end(p, end)) != end) {
      ++lines;
      ++p;
    }
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
}
BENCHMARK(scan_line_ends)->Unit(benchmark::kMillisecond);

// UTF-8 validation of the whole stream in one call (mostly ASCII, some not).
void utf8_validate(benchmark::State& state) {
  const std::string& stream = llm_sample();
  for (auto _ : state) benchmark::DoNotOptimize(sse::utf8::is_valid(stream));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
}
BENCHMARK(utf8_validate)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
