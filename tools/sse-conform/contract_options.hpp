// SPDX-License-Identifier: MIT
// The contract options every subcommand that decodes or judges a dialect
// takes, spelled once (tools/docs/cli.md, "The contract"): --spec DIR,
// --catalog FILE (repeatable), --sources DIR.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/spec_folder.hpp"

namespace ssec::cli {

/// Adds --spec, --catalog and --sources to `cmd`, filling `source`. Commands
/// whose --spec already names their spec folder (tags.yaml, catalogs: cases,
/// coverage, generate-cases) pass `with_spec = false` and set
/// `source.spec_dir` from it when it was given (spec_given()).
void add_contract_options(CLI::App* cmd, conformance::contract_source& source, bool with_spec = true);

/// True when the user gave --spec on `cmd`.
bool spec_given(const CLI::App* cmd);

/// For the commands whose contract is their spec folder (coverage,
/// generate-cases): the catalogs of `spec` (given or the default) unless
/// only --catalog was given, which then names the whole contract.
void use_spec_folder(const CLI::App* cmd, const std::string& spec, conformance::contract_source& source);

/// conformance::load_contract(source); on failure prints every error to
/// stderr after "sse-conform <command>:" and returns nullptr (exit 2).
std::shared_ptr<const sse::dialect::catalog> load_contract_or_say_why(const conformance::contract_source& source,
                                                                      std::string_view command);

/// What `--layer NAME` selects: the wire parser alone ("wire": no contract
/// is loaded, `dialect` is null) or a dialect of the contract.
struct layer_choice {
  std::shared_ptr<const sse::dialect::catalog> contract;  ///< Outlives any decoder of `dialect`.
  const sse::dialect::dialect_spec* dialect = nullptr;
};

/// Resolves `layer` against the contract of `source`; on failure prints why
/// ("sse-conform <command>: unknown layer `x` (known: wire, chat, code, ...)",
/// ending with `own_layers`, the layers the command handles itself, as
/// bench's "scan"; or the contract's errors) and returns nothing (exit 2).
std::optional<layer_choice> resolve_layer_or_say_why(const std::string& layer,
                                                     const conformance::contract_source& source,
                                                     std::string_view command, std::string_view own_layers = {});

/// "chat, code, workflow, agent": the dialects of `cat`, for messages.
std::string dialect_names(const sse::dialect::catalog& cat);

}  // namespace ssec::cli
