// SPDX-License-Identifier: MIT
// Fuzzer-chosen events, comments and retries through the writer, then the
// parser: the parser must give back exactly what was written.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/recording.hpp"
#include "sse/utf8.hpp"
#include "sse/writer.hpp"

namespace {

// Makes fuzzer bytes representable: valid UTF-8, without the characters the
// writer must refuse in that position (it refuses them; that is tested below).
std::string representable(std::string_view raw, std::string_view forbidden) {
  std::string repaired;
  sse::utf8::append_repaired(repaired, raw);
  std::string out;
  for (const char c : repaired) {
    if (forbidden.find(c) == std::string_view::npos) out.push_back(c);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ssec::fuzz::fuzz_input in(data, size);
  sse::writer w;
  std::string wire;
  sse::recording expected;
  while (!in.empty()) {
    switch (in.byte() % 4) {
      case 0:
      case 1: {
        sse::event e;
        e.type = representable(in.bytes(16), std::string_view("\r\n", 2));
        if (e.type.empty()) e.type = "message";
        e.data = representable(in.bytes(64), std::string_view("\r", 1));
        e.last_event_id = (in.byte() & 3) == 0 ? representable(in.bytes(8), std::string_view("\r\n\0", 3))
                                               : std::string(w.last_event_id());
        SSEC_FUZZ_CHECK(w.write_event(wire, e) == sse::errc::ok);
        expected.events.push_back(e);
        expected.last_event_id = e.last_event_id;
        break;
      }
      case 2: {
        const std::string text = representable(in.bytes(16), std::string_view("\r", 1));
        SSEC_FUZZ_CHECK(w.write_comment(wire, text) == sse::errc::ok);
        // A comment with LFs is written as several comment lines.
        std::string_view rest = text;
        for (;;) {
          const auto lf = rest.find('\n');
          expected.comments.emplace_back(rest.substr(0, lf));
          if (lf == std::string_view::npos) break;
          rest.remove_prefix(lf + 1);
        }
        break;
      }
      default: {
        const std::uint64_t ms = in.below(1u << 16) * 1000u;
        w.write_retry(wire, ms);
        expected.retries.push_back(ms);
        expected.retry = ms;
        break;
      }
    }
  }
  // A value the writer must refuse leaves the output unchanged.
  const std::string before = wire;
  SSEC_FUZZ_CHECK(w.write_event(wire, sse::event("a\nb", "x")) == sse::errc::value_has_line_break);
  SSEC_FUZZ_CHECK(w.write_event(wire, sse::event("t", "x", std::string("a\0b", 3))) == sse::errc::id_has_nul);
  SSEC_FUZZ_CHECK(wire == before);

  sse::recording got = sse::record_parse(wire);
  got.diagnostics.clear();  // the writer never causes one; checked next
  SSEC_FUZZ_CHECK(sse::record_parse(wire).diagnostics.empty(), ssec::fuzz::as_case({wire}, sse::record_parse(wire)));
  SSEC_FUZZ_CHECK(got == expected, ssec::fuzz::first_difference(expected, got) + "\nas a case:\n" +
                                       ssec::fuzz::as_case({wire}, expected));
  return 0;
}
