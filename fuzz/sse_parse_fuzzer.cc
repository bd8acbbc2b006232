// SPDX-License-Identifier: MIT
// Arbitrary bytes through the wire parser. Properties: no crash, no UB, no
// leak; every dispatched string is valid UTF-8 and within the limits; a fatal
// error is sticky; without one, every byte is consumed.
#include <cstdint>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/parser.hpp"
#include "sse/utf8.hpp"

namespace {

struct checking_visitor {
  sse::limits lim;
  std::size_t events = 0;
  sse::action on_event(const sse::event_view& e) {
    SSEC_FUZZ_CHECK(!e.type.empty());
    SSEC_FUZZ_CHECK(sse::utf8::is_valid(e.type));
    SSEC_FUZZ_CHECK(sse::utf8::is_valid(e.data));
    SSEC_FUZZ_CHECK(sse::utf8::is_valid(e.last_event_id));
    SSEC_FUZZ_CHECK(e.data.size() < lim.max_event_data);
    SSEC_FUZZ_CHECK(e.last_event_id.find('\0') == std::string_view::npos);
    ++events;
    return sse::action::proceed;
  }
  void on_comment(std::string_view text, std::uint64_t) { SSEC_FUZZ_CHECK(sse::utf8::is_valid(text)); }
  void on_diagnostic(const sse::diagnostic& d) { SSEC_FUZZ_CHECK(sse::to_string(d.code) != "unknown"); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ssec::fuzz::fuzz_input in(data, size);
  // The first byte picks small limits half the time, so the limit paths run.
  sse::limits lim;
  if (in.byte() & 1) lim = sse::limits{64, 256};
  const std::string_view stream = in.rest();

  checking_visitor v{lim};
  sse::parser<checking_visitor> p(v, lim);
  const auto r = p.feed(stream);
  if (sse::is_fatal(r.status)) {
    SSEC_FUZZ_CHECK(p.error() == r.status);
    SSEC_FUZZ_CHECK(p.error_offset() <= stream.size());
    const auto again = p.feed("data: x\n\n");
    SSEC_FUZZ_CHECK(again.status == r.status && again.consumed == 0, "a fatal error must be sticky");
    SSEC_FUZZ_CHECK(p.finish() == r.status);
    p.reset();
    SSEC_FUZZ_CHECK(p.error() == sse::errc::ok);
  } else {
    SSEC_FUZZ_CHECK(r.status == sse::errc::ok && r.consumed == stream.size());
    SSEC_FUZZ_CHECK(p.finish() == sse::errc::ok);
    SSEC_FUZZ_CHECK(p.feed("x").status == sse::errc::finished);
  }
  return 0;
}
