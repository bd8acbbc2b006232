// SPDX-License-Identifier: MIT
#include "fuzz_check.hpp"

#include <string>

#include "sha256.hpp"
#include "ssec/conformance/case.hpp"
#include "ssec/conformance/log.hpp"

namespace ssec::fuzz {

namespace cf = ssec::conformance;

std::string describe(const sse::recording& r) { return cf::format_log(cf::reference_log(r)) + "\n"; }

std::string first_difference(const sse::recording& expected, const sse::recording& got) {
  const cf::event_log want = cf::reference_log(expected);
  const auto diff = cf::compare_logs(want, cf::reference_log(got));
  if (!diff) return {};
  return cf::describe(*diff, want);
}

std::string as_case(const std::vector<std::string_view>& chunks, const sse::recording& expected) {
  std::string bytes;
  for (const auto c : chunks) bytes += c;
  std::string out = "- id: XXXX  # pick a free id (conformance/README.md)\n";
  out += "  name: found by fuzzing\n";
  out += "  from: fuzz/" + sha256_hex(bytes) + "\n";
  out += "  tags: []\n";
  out += "  verdict: must\n";
  out += "  input:\n";
  for (const auto c : chunks) {
    for (const auto& item : cf::input_items(c)) out += "    - " + item + "\n";
  }
  out += "  events: |\n";
  out += cf::format_log(cf::reference_log(expected), "    ") + "\n";
  return out;
}

}  // namespace ssec::fuzz
