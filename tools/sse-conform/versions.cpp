// SPDX-License-Identifier: MIT
#include "versions.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

#include "data_dir.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/loader.hpp"

namespace ssec {

namespace fs = std::filesystem;

case_set_version read_case_set_version(const fs::path& cases, const fs::path& tags) {
  case_set_version v;
  std::error_code ec;
  if (!fs::is_directory(cases, ec)) {
    v.error = cases.string() + ": not a directory";
    return v;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(cases, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end(), [&](const fs::path& a, const fs::path& b) {
    return a.lexically_relative(cases) < b.lexically_relative(cases);
  });
  std::uint64_t h = 14695981039346656037ULL;
  const auto mix = [&](std::string_view bytes) {
    for (const unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ULL;
    }
  };
  for (const auto& f : files) {
    mix(f.lexically_relative(cases).generic_string());
    mix(std::string_view("\0", 1));
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    mix(bytes);
    mix(std::string_view("\0", 1));
  }
  static constexpr char hex[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) v.fingerprint.push_back(hex[(h >> shift) & 0xF]);
  v.files = files.size();
  std::vector<ssec::error> errors;
  const auto tag_list = conformance::load_tags(tags, tags.string(), errors);
  if (!errors.empty()) {
    v.error = errors.front().to_string();
    return v;
  }
  const auto loaded = conformance::load_case_tree(cases, cases.string(), tag_list);
  if (!loaded.ok()) {
    v.error = loaded.error_text();
    return v;
  }
  v.cases = loaded.value.size();
  return v;
}

std::string version_text(std::string_view tool_version) {
  std::string out = "sse-conform " + std::string(tool_version) + "\n";
  const auto& builtin = sse::dialect::builtin_catalog();
  if (builtin.ok()) {
    for (const auto& f : builtin.value->files()) {
      out += "catalog " + f.name + " " + f.catalog_version + " (" + f.document + ", built in)\n";
    }
  } else {
    out += "catalogs: the built-in set does not load\n";
  }
  const fs::path dir = data_dir();
  const auto v = read_case_set_version(dir / "conformance" / "cases", dir / "spec" / "tags.yaml");
  if (!v.error.empty()) {
    out += "cases: unavailable (" + v.error + ")\n";
  } else {
    out += "cases " + std::to_string(v.cases) + " cases in " + std::to_string(v.files) + " files, fingerprint " +
           v.fingerprint + " (" + (dir / "conformance" / "cases").lexically_normal().string() + ")\n";
  }
  // Where the README's example streams and the JavaScript adapters are: the
  // source tree keeps them under tools/, an installed tool may keep them at the
  // data directory's top (whichever layout holds them is printed).
  out += "data " + fs::absolute(dir).lexically_normal().string() + "\n";
  for (const std::string_view name : {"examples", "adapters"}) {
    std::error_code ec;
    for (const fs::path& candidate : {dir / "tools" / name, dir / name}) {
      if (fs::is_directory(candidate, ec)) {
        out += std::string(name) + " " + fs::absolute(candidate).lexically_normal().string() + "\n";
        break;
      }
    }
  }
  return out;
}

}  // namespace ssec
