// SPDX-License-Identifier: MIT
#include "ssec/conformance/summary.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

namespace ssec::conformance {
namespace {

// Prints rows of cells, the first column left-aligned, the others right-aligned.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      if (i == 0) line += row[i] + pad;
      else line += "  " + pad + row[i];
    }
    out << line << '\n';
  }
}

}  // namespace

void print_summary(std::ostream& out, std::span<const test_case> cases, const tag_list* tags) {
  const auto& layers = all_layers();
  const auto layer_index = [&](layer l) {
    return static_cast<std::size_t>(std::find(layers.begin(), layers.end(), l) - layers.begin());
  };

  std::vector<std::array<std::size_t, 4>> per_layer(layers.size());  // total, must, should, impl
  std::map<std::string, std::vector<std::size_t>> per_tag;
  if (tags) {
    for (const auto& [name, description] : tags->descriptions) per_tag[name].assign(layers.size(), 0);
  }
  for (const auto& c : cases) {
    auto& counts = per_layer[layer_index(c.layer)];
    ++counts[0];
    ++counts[c.verdict == verdict::must ? 1 : c.verdict == verdict::should ? 2 : 3];
    for (const auto& tag : c.tags) {
      auto& row = per_tag[tag];
      row.resize(layers.size(), 0);
      ++row[layer_index(c.layer)];
    }
  }

  std::vector<std::vector<std::string>> rows{{"layer", "cases", "must", "should", "impl"}};
  std::array<std::size_t, 4> all{};
  for (std::size_t i = 0; i < layers.size(); ++i) {
    rows.push_back({std::string(to_string(layers[i]))});
    for (std::size_t k = 0; k < 4; ++k) {
      rows.back().push_back(std::to_string(per_layer[i][k]));
      all[k] += per_layer[i][k];
    }
  }
  rows.push_back({"total"});
  for (const auto n : all) rows.back().push_back(std::to_string(n));
  print_table(out, rows);

  out << '\n';
  rows = {{"tag"}};
  for (const auto l : layers) rows[0].emplace_back(to_string(l));
  rows[0].emplace_back("total");
  for (const auto& [tag, counts] : per_tag) {
    rows.push_back({tag});
    std::size_t total = 0;
    for (const auto n : counts) {
      rows.back().push_back(std::to_string(n));
      total += n;
    }
    rows.back().push_back(std::to_string(total));
  }
  print_table(out, rows);
}

}  // namespace ssec::conformance
