// SPDX-License-Identifier: MIT
// Decoding speed of the dialect layers on the LLM-style benchmark stream
// (tools/bench: llm.sse, 64 MiB of small `data: {json}` agent frames), fed
// from memory in 64 KiB chunks. Prints one line per variant: the median of
// --runs timed passes. Usage: ssec_dialect_bench [--runs N] [--chunk N] [FILE]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/decoder.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/bench/streams.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct wire_only {
  std::uint64_t events = 0;
  sse::action on_event(const sse::event_view&) {
    ++events;
    return sse::action::proceed;
  }
};

// Feeds `stream` in `chunk`-byte pieces to a parser over `visitor`.
template <class Visitor>
void feed(Visitor& visitor, std::string_view stream, std::size_t chunk) {
  sse::parser<Visitor> p(visitor);
  for (std::size_t at = 0; at < stream.size(); at += chunk) p.feed(stream.substr(at, chunk));
  p.finish();
}

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct timing {
  double wall = 0;  // median wall-clock seconds
  double cpu = 0;   // median process CPU seconds: robust when other work shares the machine
};

timing median_seconds(unsigned runs, const std::function<std::uint64_t()>& pass, std::uint64_t& count) {
  std::vector<double> wall, cpu;
  for (unsigned i = 0; i < runs; ++i) {
    const double cpu_start = cpu_now();
    const auto start = clock_type::now();
    count = pass();
    wall.push_back(std::chrono::duration<double>(clock_type::now() - start).count());
    cpu.push_back(cpu_now() - cpu_start);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  unsigned runs = 5;
  std::size_t chunk = 65536;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (std::strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) chunk = std::stoul(argv[++i]);
    else path = argv[i];
  }
  std::string stream;
  if (path.empty()) {
    stream = ssec::bench::llm_stream(std::size_t{64} << 20);
    path = "llm_stream(64 MiB)";
  } else {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    stream = s.str();
  }
  const auto& loaded = sse::dialect::builtin_catalog();
  if (!loaded.ok()) {
    std::fputs(loaded.error_text().c_str(), stderr);
    return 1;
  }
  const auto& agent = *loaded.value->dialect("agent");
  const auto& chat = *loaded.value->dialect("chat");

  struct variant {
    const char* name;
    std::function<std::uint64_t()> pass;
  };
  const std::vector<variant> variants = {
      {"wire only",
       [&] {
         wire_only v;
         feed(v, stream, chunk);
         return v.events;
       }},
      {"agent: decode (views, simdjson)",
       [&] {
         std::uint64_t n = 0;
         auto cb = [&](const sse::dialect::event_view& ev, const sse::event_view&) {
           n += ev.kind == sse::dialect::event_kind::structured;
           return sse::action::proceed;
         };
         sse::dialect::stream_decoder<decltype(cb)> v(agent, cb);
         feed(v, stream, chunk);
         return n;
       }},
      {"chat: decode (views, simdjson)",
       [&] {
         std::uint64_t n = 0;
         auto cb = [&](const sse::dialect::event_view& ev, const sse::event_view&) {
           n += ev.fields.size() > 0;
           return sse::action::proceed;
         };
         sse::dialect::stream_decoder<decltype(cb)> v(chat, cb);
         feed(v, stream, chunk);
         return n;
       }},
      {"agent: decode + owned event (nlohmann fields)",
       [&] {
         std::uint64_t n = 0;
         auto cb = [&](const sse::dialect::event_view& ev, const sse::event_view&) {
           n += sse::dialect::to_event(ev).fields.size() > 0;
           return sse::action::proceed;
         };
         sse::dialect::stream_decoder<decltype(cb)> v(agent, cb);
         feed(v, stream, chunk);
         return n;
       }},
      {"agent: nlohmann_json::parse per frame (alternative)",
       [&] {
         struct parse_each {
           std::uint64_t n = 0;
           sse::action on_event(const sse::event_view& e) {
             const auto j = nlohmann::json::parse(e.data, nullptr, false);
             n += j.is_object() && j.contains("type");
             return sse::action::proceed;
           }
         } v;
         feed(v, stream, chunk);
         return v.n;
       }},
      {"agent: validate (decode + every producer rule)",
       [&] {
         const auto report = sse::dialect::validate_stream(agent, stream);
         return static_cast<std::uint64_t>(report.frames + report.findings.size());
       }},
  };
  std::printf("input %s: %zu bytes, chunk %zu, median of %u runs\n", path.c_str(), stream.size(), chunk, runs);
  for (const auto& v : variants) {
    std::uint64_t count = 0;
    const timing t = median_seconds(runs, v.pass, count);
    const double mb = static_cast<double>(stream.size()) / 1e6;
    std::printf("%-52s %8.1f MB/s wall  %8.1f MB/s cpu  %10.0f counted/s cpu  (count %llu)\n", v.name, mb / t.wall,
                mb / t.cpu, static_cast<double>(count) / t.cpu, static_cast<unsigned long long>(count));
  }
  return 0;
}
