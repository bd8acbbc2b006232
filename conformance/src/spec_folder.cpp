// SPDX-License-Identifier: MIT
#include "ssec/conformance/spec_folder.hpp"

#include <algorithm>

#include "ssec/conformance/loader.hpp"
#include "ssec/input.hpp"

namespace ssec::conformance {

namespace fs = std::filesystem;

std::vector<std::string> catalog_paths(const fs::path& spec) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(spec, ec)) {
    const auto p = entry.path();
    if (p.extension() == ".yaml" && p.filename() != "tags.yaml") out.push_back(p.string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
bool id_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
}  // namespace

result<std::set<std::string>> reserved_case_ids(const fs::path& cases, const fs::path& generated, const fs::path& spec,
                                                const tag_list& tags) {
  std::set<std::string> ids;
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(cases, ec); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && fs::equivalent(it->path(), generated, ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".yaml") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto loaded = load_case_file(file, file.string(), tags);
    if (!loaded.ok()) return error{"the hand-written cases must load to reserve their ids:\n" + loaded.error_text()};
    for (const auto& c : loaded.value) ids.insert(c.id);
  }
  if (const auto text = read_all((spec / "DECISIONS.md").string())) {
    const std::string_view s = text.value();
    for (std::size_t i = 0; i + 6 <= s.size();) {
      const std::string_view quoted = s.substr(i + 1, 4);
      if (s[i] == '`' && s[i + 5] == '`' && std::all_of(quoted.begin(), quoted.end(), id_char)) {
        if (is_valid_case_id(std::string(quoted))) ids.insert(std::string(quoted));
        i += 6;
      } else {
        ++i;
      }
    }
  }
  return ids;
}

}  // namespace ssec::conformance
