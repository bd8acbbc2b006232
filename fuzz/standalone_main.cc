// SPDX-License-Identifier: MIT
// The engine when no fuzzing engine is linked: runs each file named on the
// command line (directories recursively) through the target once, so every
// build replays the corpora and regressions (ctest label fuzz-regression).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // An exactly sized copy, so ASan catches a read past the end.
  auto exact = std::make_unique<std::uint8_t[]>(bytes.size() ? bytes.size() : 1);
  std::copy(bytes.begin(), bytes.end(), exact.get());
  LLVMFuzzerTestOneInput(exact.get(), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t files = 0;
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (!entry.is_regular_file()) continue;
        failures += run_file(entry.path());
        ++files;
      }
    } else {
      failures += run_file(arg);
      ++files;
    }
  }
  std::printf("%s: %zu inputs replayed\n", argc > 0 ? argv[0] : "fuzzer", files);
  return failures == 0 ? 0 : 1;
}
