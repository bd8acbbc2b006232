// SPDX-License-Identifier: MIT
#include "contract_options.hpp"

#include <iostream>

namespace ssec::cli {

void add_contract_options(CLI::App* cmd, conformance::contract_source& source, bool with_spec) {
  if (with_spec) {
    cmd->add_option("--spec", source.spec_dir,
                    "Folder of catalogs (every *.yaml but tags.yaml, with its DECISIONS.md) to use instead of the "
                    "built-in ones")
        ->check(CLI::ExistingDirectory);
  }
  // One file per --catalog, so a positional argument after it is not taken for a catalog.
  cmd->add_option("--catalog", source.catalog_files,
                  "A catalog file to use instead of (or, with --spec, besides) the built-in catalogs (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--sources", source.sources_dir,
                  "Folder of the protocol documents: check that every cited line exists and every quote is on it")
      ->check(CLI::ExistingDirectory);
}

bool spec_given(const CLI::App* cmd) { return cmd->count("--spec") > 0; }

void use_spec_folder(const CLI::App* cmd, const std::string& spec, conformance::contract_source& source) {
  if (spec_given(cmd) || source.catalog_files.empty()) source.spec_dir = spec;
}

std::shared_ptr<const sse::dialect::catalog> load_contract_or_say_why(const conformance::contract_source& source,
                                                                      std::string_view command) {
  auto loaded = conformance::load_contract(source);
  if (loaded.ok()) return loaded.value;
  std::cerr << "sse-conform " << command << ": the contract does not load:\n" << loaded.error_text();
  return nullptr;
}

std::optional<layer_choice> resolve_layer_or_say_why(const std::string& layer,
                                                     const conformance::contract_source& source,
                                                     std::string_view command, std::string_view own_layers) {
  layer_choice choice;
  if (layer == "wire") return choice;
  choice.contract = load_contract_or_say_why(source, command);
  if (!choice.contract) return std::nullopt;
  choice.dialect = choice.contract->dialect(layer);
  if (choice.dialect == nullptr) {
    std::cerr << "sse-conform " << command << ": unknown layer `" << layer << "` (known: wire, "
              << dialect_names(*choice.contract) << (own_layers.empty() ? "" : ", ") << own_layers << ")\n";
    return std::nullopt;
  }
  return choice;
}

std::string dialect_names(const sse::dialect::catalog& cat) {
  std::string out;
  for (const auto& d : cat.dialects()) out += (out.empty() ? "" : ", ") + d->name;
  return out;
}

}  // namespace ssec::cli
