// SPDX-License-Identifier: MIT
#include "case_options.hpp"

#include <filesystem>
#include <iostream>

#include "data_dir.hpp"

namespace ssec::cli {

case_source installed_cases() {
  case_source source;
  source.cases = data_path("conformance/cases");
  source.tags = data_path("spec/tags.yaml");
  return source;
}

void add_case_options(CLI::App* cmd, case_source& source, const std::string& cases_help) {
  cmd->add_option("--cases", source.cases, cases_help)->capture_default_str();
  cmd->add_option("--tags", source.tags, "The closed tag list the cases are checked against")->capture_default_str();
}

loaded_cases load_cases_saying_why(const case_source& source, std::string_view command) {
  loaded_cases out;
  const std::string& cases_display = source.cases_display.empty() ? source.cases : source.cases_display;
  if (!std::filesystem::is_directory(source.cases)) {
    std::cerr << "sse-conform " << command << ": " << source.cases << ": not a directory of case files ("
              << source.option << ")\n";
    return out;
  }
  std::vector<ssec::error> tag_errors;
  out.tags =
      conformance::load_tags(source.tags, source.tags_display.empty() ? source.tags : source.tags_display, tag_errors);
  for (const auto& e : tag_errors) std::cerr << e.to_string() << '\n';
  if (!tag_errors.empty()) return out;
  auto loaded = conformance::load_case_tree(source.cases, cases_display, out.tags);
  if (!loaded.ok()) std::cerr << loaded.error_text();
  out.ok = loaded.ok();
  out.cases = std::move(loaded.value);
  return out;
}

std::optional<conformance::tag_list> load_tags_saying_why(const std::string& path, std::string_view command,
                                                          const std::string& display) {
  std::vector<ssec::error> errors;
  auto tags = conformance::load_tags(path, display.empty() ? path : display, errors);
  if (errors.empty()) return tags;
  for (const auto& e : errors) std::cerr << "sse-conform " << command << ": " << e.to_string() << '\n';
  return std::nullopt;
}

}  // namespace ssec::cli
