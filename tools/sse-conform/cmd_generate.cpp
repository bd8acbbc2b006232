// SPDX-License-Identifier: MIT
// `sse-conform generate-cases`: writes conformance/cases/generated/ from the
// catalogs (ssec/conformance/generator.hpp); with --check, writes nothing
// and exits 1 when the committed files differ from what it would write.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <variant>

#include "commands.hpp"
#include "ssec/conformance/generator.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/input.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct generate_options {
  std::string spec = "spec";
  std::string out = "conformance/cases/generated";
  std::string cases;  // default: the parent of `out`
  bool check = false;
};

// The catalogs of a spec folder: every *.yaml but tags.yaml, in name order.
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

// Ids the generator must not take: every `- id:` of the hand-written case
// files (read as text, so a file that fails to load still reserves its ids),
// and the ids spec/DECISIONS.md reserves (`ABCD` in backquotes).
bool id_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

std::string_view trimmed(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// The id of a `- id: ABCD` line (any spacing), or empty.
std::string_view id_of_line(std::string_view line) {
  line = trimmed(line);
  if (line.empty() || line.front() != '-') return {};
  line = trimmed(line.substr(1));
  if (!line.starts_with("id:")) return {};
  line = trimmed(line.substr(3));
  return line.size() == 4 && std::all_of(line.begin(), line.end(), id_char) ? line : std::string_view{};
}

std::set<std::string> reserved_ids(const fs::path& cases, const fs::path& generated, const fs::path& spec) {
  std::set<std::string> ids;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(cases, ec); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && fs::equivalent(it->path(), generated, ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() != ".yaml") continue;
    std::ifstream in(it->path());
    for (std::string line; std::getline(in, line);) {
      if (const auto id = id_of_line(line); !id.empty()) ids.insert(std::string(id));
    }
  }
  if (const auto text = read_all((spec / "DECISIONS.md").string())) {
    const std::string_view s = text.value();
    for (std::size_t i = 0; i + 6 <= s.size();) {
      const std::string_view quoted = s.substr(i + 1, 4);
      if (s[i] == '`' && s[i + 5] == '`' && std::all_of(quoted.begin(), quoted.end(), id_char)) {
        if (conformance::is_valid_case_id(std::string(quoted))) ids.insert(std::string(quoted));
        i += 6;
      } else {
        ++i;
      }
    }
  }
  return ids;
}

int run_generate(const generate_options& opt) {
  const fs::path out(opt.out);
  const fs::path cases = opt.cases.empty() ? out.parent_path() : fs::path(opt.cases);
  const auto loaded = sse::dialect::load_catalog_files(catalog_paths(opt.spec));
  if (!loaded.ok()) {
    std::cerr << loaded.error_text();
    return exit_usage;
  }
  const auto files = conformance::generate_cases(*loaded.value, reserved_ids(cases, out, opt.spec));
  std::set<std::string> names;
  int differences = 0;
  for (const auto& f : files) {
    names.insert(f.name);
    const fs::path path = out / f.name;
    const auto old = read_all(path.string());
    const bool same = old.ok() && old.value() == f.text;
    if (opt.check) {
      if (!same) {
        std::cerr << path.string() << ": " << (old.ok() ? "differs from" : "missing in")
                  << " the generator's output\n";
        ++differences;
      }
      continue;
    }
    if (same) continue;
    std::error_code ec;
    fs::create_directories(out, ec);
    std::ofstream w(path, std::ios::binary);
    w << f.text;
    if (!w) {
      std::cerr << path.string() << ": cannot write\n";
      return exit_usage;
    }
  }
  // Files the generator no longer writes.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    if (entry.path().extension() != ".yaml" || names.contains(entry.path().filename().string())) continue;
    if (opt.check) {
      std::cerr << entry.path().string() << ": not written by the generator any more\n";
      ++differences;
    } else {
      fs::remove(entry.path(), ec);
    }
  }
  std::size_t count = 0;
  for (const auto& f : files) {
    std::istringstream lines(f.text);
    std::string line;
    while (std::getline(lines, line)) count += line.starts_with("- id: ") ? 1 : 0;
  }
  if (opt.check) {
    if (differences != 0) {
      std::cerr << "the generated cases are stale: run sse-conform generate-cases --spec " << opt.spec << " --out " << opt.out << "\n";
      return exit_failure;
    }
    std::cout << files.size() << " files, " << count << " cases: up to date\n";
    return exit_ok;
  }
  std::cout << "wrote " << files.size() << " files, " << count << " cases to " << opt.out << "\n";
  return exit_ok;
}

}  // namespace

void add_generate_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<generate_options>();
  auto* cmd = app.add_subcommand("generate-cases", "Write the dialect-layer cases generated from the catalogs");
  cmd->add_option("--spec", opt->spec, "Folder of the catalogs (*.yaml) and DECISIONS.md")->capture_default_str();
  cmd->add_option("--out", opt->out, "Folder of the generated case files")->capture_default_str();
  cmd->add_option("--cases", opt->cases, "Root of all case files (hand-written ids are reserved); default: the parent of --out");
  cmd->add_flag("--check", opt->check, "Write nothing; exit 1 if the files in --out differ from the generator's output");
  cmd->callback([opt, &code] { code = run_generate(*opt); });
}

}  // namespace ssec::cli
