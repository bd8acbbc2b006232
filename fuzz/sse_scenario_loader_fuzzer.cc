// SPDX-License-Identifier: MIT
// Arbitrary YAML through the scenario-file loader (tools/docs/scenario-format.md).
// Properties: no crash and no exception escapes; the result is a loaded file
// or errors, never both, never neither; every error names the file and has a
// message and a line; a loaded file holds what the format promises (each
// scenario has at least one request, each request a checked URL, a known
// dialect, one-line headers; scenario names unique; no type both required
// and excluded).
// What the loader reads besides the text: `body_file` paths relative to a
// scratch directory that holds only body.json (so the reading path is
// covered; absolute paths, /dev/zero, /dev/stdin, /proc files, name whatever
// the machine has: the loader must bound or refuse them), and ${NAME} from the
// environment (SSEC_FUZZ_VAR is set here, to a URL: the derived seeds use it,
// see seed_tool.cc).
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "fuzz_check.hpp"
#include "ssec/http/client.hpp"
#include "ssec/live/scenario.hpp"

namespace {

const std::filesystem::path& scratch_base_dir() {
  // Never destroyed: a static path's destructor would run before the exit
  // handler registered while making it, and that handler needs the path.
  static const std::filesystem::path* const dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "ssec-scenario-fuzz-XXXXXX").string();
    SSEC_FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr, "cannot make a scratch directory for body_file");
    const auto* made = new std::filesystem::path(pattern);
    std::ofstream(*made / "body.json") << "{\"prompt\": \"hi\"}";
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_base_dir(), ignored);
    });
    SSEC_FUZZ_CHECK(::setenv("SSEC_FUZZ_VAR", "http://fuzz.invalid", 1) == 0);
    return made;
  }();
  return *dir;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(bytes), size);
  // 32 KiB, not the 16 MiB a scenario file may build: the same booking and
  // refusals, without building megabytes of copied headers or bodies on
  // every execution of a seed that asks for them; the bomb seeds are sized
  // to it, one just under, the others over (tools/docs/benchmarks.md, "The
  // fuzz harnesses": at 1 MiB their executions take most of the time).
  constexpr std::uint64_t build_budget = std::uint64_t{32} << 10;
  const auto result = ssec::live::load_scenario_text(text, "fuzz.yaml", scratch_base_dir(), nullptr, build_budget);
  const auto& f = result.value;
  SSEC_FUZZ_CHECK(f.display == "fuzz.yaml", f.display);
  // The value is only ever read when there are no errors: then it must hold something.
  SSEC_FUZZ_CHECK(!result.ok() || !f.scenarios.empty(), "no errors, yet no scenario loaded");
  for (const auto& e : result.errors) {
    SSEC_FUZZ_CHECK(!e.message.empty());
    SSEC_FUZZ_CHECK(e.file == "fuzz.yaml", e.to_string());
    // Only the error about the whole file (it is empty) has no place in it.
    SSEC_FUZZ_CHECK(e.line > 0 || e.message.starts_with("the file is empty"), e.to_string());
  }
  if (!result.ok()) return 0;
  SSEC_FUZZ_CHECK(f.contract != nullptr);
  std::set<std::string> names;
  for (const auto& s : f.scenarios) {
    SSEC_FUZZ_CHECK(s.line > 0, s.name);
    SSEC_FUZZ_CHECK(names.insert(s.name).second, "scenario names are unique: " + s.name);
    SSEC_FUZZ_CHECK(!s.requests.empty(), "a scenario has a request: " + s.name);
    for (const auto& q : s.requests) {
      SSEC_FUZZ_CHECK(q.line > 0, q.name);
      SSEC_FUZZ_CHECK(ssec::http::check_url(q.url).ok(), q.url);
      SSEC_FUZZ_CHECK(q.dialect == "wire" ? q.spec == nullptr : q.spec != nullptr && q.spec->name == q.dialect,
                      q.dialect);
      SSEC_FUZZ_CHECK(std::all_of(q.method.begin(), q.method.end(), [](char c) { return c >= 'A' && c <= 'Z'; }),
                      q.method);
      for (const auto& h : q.headers) {
        SSEC_FUZZ_CHECK(
            h.find(": ") != std::string::npos && h.find('\r') == std::string::npos && h.find('\n') == std::string::npos,
            h);
      }
      for (const auto& t : q.expect.excludes) {
        SSEC_FUZZ_CHECK(!contains(q.expect.sequence, t) && !contains(q.expect.includes, t), t);
      }
    }
  }
  return 0;
}
