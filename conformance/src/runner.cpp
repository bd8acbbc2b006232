// SPDX-License-Identifier: MIT
#include "ssec/conformance/runner.hpp"

#include <charconv>
#include <cstring>
#include <memory>

#include "sse/chunking.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {

std::string chunking::name() const {
  switch (how) {
    case kind::whole: return "whole";
    case kind::as_written: return "as-written";
    case kind::bytes: return "bytes";
    case kind::split: return "split@" + std::to_string(parameter);
    case kind::random: return "random(seed=" + std::to_string(parameter) + ")";
  }
  return "unknown";
}

std::vector<std::string_view> chunks_of(const test_case& c, const chunking& k) {
  const std::string_view in = c.input;
  switch (k.how) {
    case chunking::kind::whole: return sse::chunking::whole(in);
    case chunking::kind::bytes: return sse::chunking::bytes(in);
    case chunking::kind::split: return sse::chunking::split_at(in, static_cast<std::size_t>(k.parameter));
    case chunking::kind::random: return sse::chunking::random(in, k.parameter);
    case chunking::kind::as_written: {
      std::vector<std::string_view> out;
      std::size_t at = 0;
      for (const std::size_t size : c.written_chunks) {
        out.push_back(in.substr(at, size));
        at += size;
      }
      return out;
    }
  }
  return sse::chunking::whole(in);
}

ssec::result<chunking_plan> parse_chunking_plan(std::string_view text) {
  const auto fail = [](std::string reason) -> ssec::result<chunking_plan> { return ssec::error{std::move(reason)}; };
  if (text == "all") return chunking_plan{};
  chunking_plan plan;
  plan.whole = plan.as_written = plan.bytes = plan.every_split = false;
  plan.random_count = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item == "whole") plan.whole = true;
    else if (item == "as-written") plan.as_written = true;
    else if (item == "bytes") plan.bytes = true;
    else if (item == "splits") plan.every_split = true;
    else if (item.starts_with("random:")) {
      unsigned n = 0;
      const std::string_view count = item.substr(7);
      const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
      if (ec != std::errc() || ptr != count.data() + count.size())
        return fail("random:N needs a count, not `" + std::string(count) + "`");
      plan.random_count = n;
    } else {
      return fail("unknown chunking `" + std::string(item) +
                  "` (known: whole, as-written, bytes, splits, random:N, all)");
    }
  }
  return plan;
}

std::vector<chunking> chunkings_for(const test_case& c, const chunking_plan& plan) {
  std::vector<chunking> out;
  const std::size_t size = c.input.size();
  if (plan.whole) out.push_back({chunking::kind::whole, 0});
  if (plan.as_written && c.written_chunks.size() > 1) out.push_back({chunking::kind::as_written, 0});
  if (plan.bytes && size > 1) out.push_back({chunking::kind::bytes, 0});
  if (plan.every_split && !c.no_scan && size <= plan.every_split_max) {
    for (std::size_t at = 0; at <= size; ++at) out.push_back({chunking::kind::split, at});
  }
  sse::chunking::splitmix64 seeds(plan.seed ^ fnv1a(c.id));
  for (unsigned i = 0; i < plan.random_count; ++i) out.push_back({chunking::kind::random, seeds.next()});
  return out;
}

sse::recording run_reference(const std::vector<std::string_view>& chunks, const sse::limits& lim) {
  // Mirrors sse::record_parse, but each chunk lives in its own exactly sized
  // heap block only while feed() runs.
  sse::recording out;
  sse::recorder rec(out);
  sse::parser<sse::recorder> p(rec, lim);
  sse::errc status = sse::errc::ok;
  for (const std::string_view chunk : chunks) {
    const std::unique_ptr<char[]> block(new char[chunk.size()]);
    if (!chunk.empty()) std::memcpy(block.get(), chunk.data(), chunk.size());
    status = p.feed(std::string_view(block.get(), chunk.size())).status;
    if (sse::is_fatal(status)) break;
  }
  if (!sse::is_fatal(status)) status = p.finish();
  out.retry = p.retry();
  out.last_event_id = std::string(p.last_event_id());
  out.status = status;
  out.error_offset = sse::is_fatal(status) ? p.error_offset() : 0;
  return out;
}

std::optional<case_failure> check_reference(const test_case& c, const chunking_plan& plan) {
  const event_log expected = reference_view(c.events);
  const sse::limits lim = c.reference_limits();
  std::optional<case_failure> first;
  std::size_t failing = 0;
  const std::vector<chunking> all = chunkings_for(c, plan);
  for (const auto& k : all) {
    std::vector<std::string_view> chunks = chunks_of(c, k);
    auto diff = compare_logs(expected, reference_log(run_reference(chunks, lim)));
    if (!diff) continue;
    ++failing;
    if (!first) first = case_failure{k, std::move(chunks), std::move(*diff), 0, 0};
  }
  if (first) {
    first->failing = failing;
    first->total = all.size();
  }
  return first;
}

std::string describe_chunks(const std::vector<std::string_view>& chunks, std::size_t max_chars) {
  std::string out = "[";
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0) out += ", ";
    if (out.size() > max_chars) {
      out += "... (" + std::to_string(chunks.size()) + " chunks in all)";
      break;
    }
    std::string q = quote(chunks[i]);
    if (q.size() > max_chars) q = q.substr(0, max_chars) + "...";
    out += q;
  }
  return out + "]";
}

std::string describe(const test_case& c, const case_failure& f) {
  std::string out = "case " + c.id + " \"" + c.name + "\" at " + c.where.to_string() + " (layer " +
                    std::string(to_string(c.layer)) + ", verdict " + std::string(to_string(c.verdict)) + ")\n";
  out += "chunking " + f.which.name() + " (" + std::to_string(f.failing) + " of " + std::to_string(f.total) +
         " chunkings fail): " + std::to_string(f.chunks.size()) + " chunks " + describe_chunks(f.chunks) + "\n";
  if (f.difference.index < c.event_lines.size()) {
    out += "expected line written at " + c.where.file + ":" + std::to_string(c.event_lines[f.difference.index]) + "\n";
  }
  out += describe(f.difference, reference_view(c.events));
  return out;
}

}  // namespace ssec::conformance
