// SPDX-License-Identifier: MIT
#include "ssec/conformance/spec_folder.hpp"

#include <algorithm>
#include <map>

#include "sse/dialect/traceability.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {

namespace fs = std::filesystem;

std::vector<std::string> catalog_paths(const fs::path& spec) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(spec, ec)) {
    const auto& p = entry.path();
    if (p.extension() == ".yaml" && p.filename() != "tags.yaml") out.push_back(p.string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

ssec::load_result<std::shared_ptr<const sse::dialect::catalog>> load_contract(const contract_source& source) {
  ssec::load_result<std::shared_ptr<const sse::dialect::catalog>> out;
  if (source.builtin()) {
    out = sse::dialect::builtin_catalog();
  } else {
    std::vector<std::string> paths;
    if (!source.spec_dir.empty()) {
      std::error_code ec;
      if (!fs::is_directory(source.spec_dir, ec)) {
        out.errors.push_back({"not a folder of catalogs (--spec)", source.spec_dir});
        return out;
      }
      paths = catalog_paths(source.spec_dir);
      if (paths.empty()) {
        out.errors.push_back({"holds no catalog (*.yaml besides tags.yaml)", source.spec_dir});
        return out;
      }
    }
    paths.insert(paths.end(), source.catalog_files.begin(), source.catalog_files.end());
    out = sse::dialect::load_catalog_files(paths);
    if (!out.ok()) return out;
    // Each file's decisions against the DECISIONS.md of its own folder.
    std::map<fs::path, std::vector<std::string>> by_folder;
    for (const auto& p : paths) by_folder[fs::path(p).parent_path()].push_back(p);
    for (const auto& entry : by_folder) {
      // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
      const fs::path& folder = entry.first;
      const std::vector<std::string>& files = entry.second;
      const fs::path decisions = folder / "DECISIONS.md";
      const auto text = read_all(decisions.string());
      const auto anchors = text ? sse::dialect::decision_anchors(text.value()) : std::set<std::string, std::less<>>{};
      const auto in_folder = [&](const std::string& file) {
        return std::find(files.begin(), files.end(), file) != files.end();
      };
      auto errors = sse::dialect::check_decisions(*out.value, in_folder, anchors,
                                                  text ? decisions.string() : decisions.string() + " (missing)");
      if (!text && !errors.empty()) {
        // One thing is missing, the file: one error, at the first citation,
        // instead of one per decision the catalogs cite.
        ssec::error missing = errors.front();
        missing.message = decisions.string() + " (missing): the catalogs beside it cite " +
                          ssec::counted(errors.size(), "decision") +
                          ", this one first; the file holds a `## NAME` heading for each (" +
                          missing.message.substr(0, missing.message.find(" is not a heading")) + ")";
        errors = {std::move(missing)};
      }
      out.errors.insert(out.errors.end(), errors.begin(), errors.end());
    }
  }
  if (!out.ok() || source.sources_dir.empty()) {
    if (!out.ok()) out.value = nullptr;
    return out;
  }
  std::map<std::string, std::string, std::less<>> documents;
  for (const auto& f : out.value->files()) {
    if (documents.contains(f.document)) continue;
    const auto text = read_all((fs::path(source.sources_dir) / f.document).string());
    if (!text) {
      out.errors.push_back(
          {"the document " + f.document + " is not in --sources: " + text.error().to_string(), f.name});
      continue;
    }
    documents.emplace(f.document, text.value());
  }
  auto errors = sse::dialect::check_sources(*out.value, documents);
  out.errors.insert(out.errors.end(), errors.begin(), errors.end());
  if (!out.ok()) out.value = nullptr;
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
    // The generated folder is rewritten, and the spec folder holds catalogs,
    // not cases (`--out work/cases` beside `work/spec` scans `work/`).
    if (it->is_directory() && (fs::equivalent(it->path(), generated, ec) || fs::equivalent(it->path(), spec, ec))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".yaml") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto loaded = load_case_file(file, file.string(), tags);
    if (!loaded.ok()) {
      return error{"the hand-written cases must load to reserve their ids (every *.yaml under " + cases.string() +
                   " but " + generated.string() + " and " + spec.string() +
                   " is read as a case file; --cases DIR names another folder):\n" + loaded.error_text()};
    }
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
