// SPDX-License-Identifier: MIT
// Arbitrary YAML through the conformance case loader. Properties: no crash
// and no exception escapes; every error names the file and has a message; a
// file that loads cleanly yields cases with ids and a consistent input.
//
// Speed: the file's build budget is 1 MiB here, not the 128 MiB a case file
// gets (tools/docs/resources.md). Booking and refusing are the same code at
// any budget, but at 128 MiB every execution of a seed that repeats a string
// to 64 MiB would build 128 MiB first, and one such seed would take most of
// the harness's time (tools/docs/benchmarks.md, "The fuzz harnesses").
#include <cstdint>
#include <numeric>
#include <string>

#include "fuzz_check.hpp"
#include "ssec/conformance/loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  static const ssec::conformance::tag_list tags = [] {
    std::vector<ssec::error> errors;
    auto t = ssec::conformance::load_tags_from_text("tags:\n  bom: byte order marks\n  line-endings: CR and LF\n",
                                                    "tags.yaml", errors);
    SSEC_FUZZ_CHECK(errors.empty());
    return t;
  }();
  const std::string_view text(reinterpret_cast<const char*>(bytes), size);
  constexpr std::uint64_t build_budget = std::uint64_t{1} << 20;
  const auto result = ssec::conformance::load_cases_from_text(text, "fuzz.yaml", "fuzz", tags, build_budget);
  for (const auto& e : result.errors) {
    SSEC_FUZZ_CHECK(!e.message.empty());
    SSEC_FUZZ_CHECK(e.file == "fuzz.yaml", e.to_string());
  }
  for (const auto& c : result.value) {
    SSEC_FUZZ_CHECK(c.id.size() == 4, c.id);
    const std::size_t written = std::accumulate(c.written_chunks.begin(), c.written_chunks.end(), std::size_t{0});
    SSEC_FUZZ_CHECK(c.written_chunks.empty() || written == c.input.size());
    SSEC_FUZZ_CHECK(c.input.size() <= build_budget, "an input larger than the budget was built");
  }
  return 0;
}
