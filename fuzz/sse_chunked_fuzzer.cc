// SPDX-License-Identifier: MIT
// Differential: the fuzzer's bytes choose a stream and its split points; the
// chunked parse, and the byte-by-byte parse, must equal the whole-buffer parse
// exactly (events, retries, comments, diagnostics, final id, error and offset).
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/chunking.hpp"
#include "sse/recording.hpp"

namespace {

// Copies each chunk to an exactly sized allocation so ASan sees any overread.
sse::recording parse_in_owned_chunks(const std::vector<std::string_view>& chunks, sse::limits lim) {
  std::vector<std::unique_ptr<char[]>> storage;
  std::vector<std::string_view> views;
  for (const auto c : chunks) {
    storage.push_back(std::make_unique<char[]>(c.size() ? c.size() : 1));
    std::copy(c.begin(), c.end(), storage.back().get());
    views.emplace_back(storage.back().get(), c.size());
  }
  return sse::record_parse(views, lim);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ssec::fuzz::fuzz_input in(data, size);
  sse::limits lim;
  if (in.byte() & 1) lim = sse::limits{48, 160};
  // Up to 16 cut sizes come first; the rest of the input is the stream.
  std::vector<std::size_t> cuts(in.byte() % 17);
  for (auto& c : cuts) c = in.byte();
  const std::string_view stream = in.rest();

  std::vector<std::string_view> chunks;
  std::size_t at = 0;
  for (std::size_t i = 0; at < stream.size(); ++i) {
    const std::size_t n = cuts.empty() ? stream.size() : cuts[i % cuts.size()];
    chunks.push_back(stream.substr(at, n));  // n == 0 feeds an empty chunk
    at += n;
    if (cuts.size() > 0 && i > 4 * stream.size() + 8) break;  // all-zero cuts
  }
  if (at < stream.size()) chunks.push_back(stream.substr(at));

  const sse::recording whole = sse::record_parse(stream, lim);
  const sse::recording chunked = parse_in_owned_chunks(chunks, lim);
  SSEC_FUZZ_CHECK(whole == chunked,
                  ssec::fuzz::first_difference(whole, chunked) + "\nas a case:\n" + ssec::fuzz::as_case(chunks, whole));
  const sse::recording bytewise = parse_in_owned_chunks(sse::chunking::bytes(stream), lim);
  SSEC_FUZZ_CHECK(whole == bytewise, ssec::fuzz::first_difference(whole, bytewise) + "\nas a case:\n" +
                                         ssec::fuzz::as_case({stream}, whole));
  return 0;
}
