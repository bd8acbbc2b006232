// SPDX-License-Identifier: MIT
// `check`'s whole-body checks followed read by read (body_pass, the path of
// standard input, --url and captures): whatever the body and however its
// reads are cut, they must give what the whole body gives. Properties: the
// size, the head (an error page's excerpt) and the start of the unterminated
// last block are those of the whole body (the block against the brute-force
// search its unit test uses, not the scan check uses); every chunking re-parsed
// (whole, byte by byte, each seed) gives the reference parse's digest, as the
// WHATWG rules make any chunking give the same events; and a body fed in
// other reads, or as one read, is re-parsed to the same digests.
//
// The input: one byte of options (short lines, so the fatal line_too_long
// path is reached too), up to eight read sizes, then the body.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check_internal.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/parser.hpp"
#include "unterminated_by_search.hpp"

namespace {

using ssec::live::detail::body_pass;

void feed_in_reads(body_pass& pass, std::string_view body, const std::vector<std::size_t>& sizes) {
  for (std::size_t at = 0, k = 0; at < body.size(); ++k) {
    const std::size_t n = std::min(body.size() - at, sizes[k % sizes.size()]);
    pass.feed(body.substr(at, n));
    at += n;
  }
  pass.finish();
}

std::vector<std::uint64_t> digests_of(const body_pass& pass) {
  std::vector<std::uint64_t> out;
  for (const auto& c : pass.chunkings()) out.push_back(c.digest);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  ssec::fuzz::fuzz_input in(bytes, size);
  const std::uint8_t options = in.byte();
  sse::limits lim;
  if ((options & 1) != 0) lim.max_line = 1 + options / 4;
  std::vector<std::size_t> sizes;
  for (int k = (options >> 1) % 8; k >= 0; --k) sizes.push_back(1 + in.byte());
  const std::string body(in.rest());
  constexpr std::uint64_t seeds = 4;

  body_pass pass(lim, seeds, false);
  feed_in_reads(pass, body, sizes);
  SSEC_FUZZ_CHECK(pass.size() == body.size(), body);
  SSEC_FUZZ_CHECK(pass.head() == std::string_view(body).substr(0, body_pass::head_size), body);
  const auto unterminated = ssec::live::oracle::unterminated_by_search(body);
  SSEC_FUZZ_CHECK(pass.unterminated() == unterminated, body);
  SSEC_FUZZ_CHECK(ssec::live::detail::unterminated_block(body) == unterminated, body);

  // A body this small is held and re-parsed whole: every chunking agrees with it.
  SSEC_FUZZ_CHECK(!pass.let_go());
  SSEC_FUZZ_CHECK(pass.reference().has_value());
  const auto digests = digests_of(pass);
  SSEC_FUZZ_CHECK(digests.size() == seeds + (body.size() <= body_pass::byte_by_byte_max ? 1 : 0));
  for (const auto& c : pass.chunkings()) {
    SSEC_FUZZ_CHECK(c.digest == *pass.reference(), c.name + " differs from the whole parse of: " + body);
  }

  // The reads do not change what is re-parsed.
  body_pass whole(lim, seeds, true);
  feed_in_reads(whole, body, {body.size() + 1});
  SSEC_FUZZ_CHECK(digests_of(whole) == digests, body);
  SSEC_FUZZ_CHECK(whole.unterminated() == unterminated, body);
  return 0;
}
