// SPDX-License-Identifier: MIT
// Arbitrary text through the capture reader (check --file, validate, run
// read captures: tools/docs/capture-format.md). The first byte chooses a
// byte limit and a seed; the rest is the capture. Properties: no crash and
// no exception escapes; the text read whole or fed in seeded random pieces
// gives the same capture or the same error (file, line, message); every
// error names the file and a line; under a limit no more body is kept than
// the limit, and a capture cut by it ends "max_bytes"; a capture read back
// from what write_capture wrote of it is the same capture.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "ssec/live/capture.hpp"

namespace {

// A capture or its error as one text, to compare two reads.
std::string outcome(const ssec::result<ssec::live::capture>& r) {
  if (!r) return "error: " + r.error().to_string();
  return ssec::live::write_capture(r.value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  ssec::fuzz::fuzz_input in(bytes, size);
  const std::uint8_t how = in.byte();
  // No limit, or 0-127 body bytes: small enough to cut most inputs' pieces.
  const std::uint64_t max_bytes = (how & 0x80) != 0 ? 0 : how;
  const std::string_view text(reinterpret_cast<const char*>(bytes) + 1, size == 0 ? 0 : size - 1);

  ssec::live::capture_reader whole("fuzz.capture", max_bytes);
  whole.feed(text);
  const auto read = whole.finish();
  if (!read) {
    SSEC_FUZZ_CHECK(read.error().file == "fuzz.capture", read.error().to_string());
    SSEC_FUZZ_CHECK(read.error().line >= 1 && !read.error().message.empty(), read.error().to_string());
  } else {
    const auto& c = read.value();
    if (max_bytes > 0) {
      SSEC_FUZZ_CHECK(c.size() <= max_bytes, std::to_string(c.size()));
    }
    // What is written of a capture reads back as the same capture.
    const std::string written = ssec::live::write_capture(c);
    const auto again = ssec::live::read_capture(written, "again");
    SSEC_FUZZ_CHECK(again.ok(), written + "\n" + (again ? "" : again.error().to_string()));
    SSEC_FUZZ_CHECK(ssec::live::write_capture(again.value()) == written, written);
  }

  // The same text in seeded pieces of 1 to 64 bytes, each piece streamed
  // to a sink: the same outcome.
  ssec::live::capture c_pieces;
  ssec::live::capture_reader pieces("fuzz.capture", max_bytes, [&](ssec::live::piece&& p) {
    c_pieces.pieces.push_back(std::move(p));
    return true;
  });
  std::minstd_rand split(static_cast<std::minstd_rand::result_type>(size + how));
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = 1 + split() % 64;
    if (!pieces.feed(text.substr(at, n))) break;
    at += n;
  }
  auto streamed = pieces.finish();
  if (streamed) streamed.value().pieces = std::move(c_pieces.pieces);
  SSEC_FUZZ_CHECK(outcome(streamed) == outcome(read), outcome(read) + "\n--- in pieces:\n" + outcome(streamed));
  return 0;
}
