// SPDX-License-Identifier: MIT
// `sse-conform rules` and `sse-conform explain RULE-ID`: the producer rules of
// the contract, what each rests on, and the cases that pin it.
#include <cctype>
#include <filesystem>
#include <iostream>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "data_dir.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/rule_listing.hpp"

namespace ssec::cli {
namespace {

namespace fs = std::filesystem;

struct rules_options {
  std::string dialect;
  std::string rule;  // explain
  bool json = false;
  // From any directory (tools/docs/cli.md): the data directory's.
  case_source source = installed_cases();
  conformance::contract_source contract;
};

// The rules with the cases that pin them; nullopt after saying why.
std::optional<std::vector<conformance::pinned_rule>> pinned(const rules_options& opt,
                                                            const sse::dialect::catalog& contract,
                                                            std::vector<conformance::test_case>& cases,
                                                            std::string_view command) {
  auto loaded = load_cases_saying_why(opt.source, command);
  if (!loaded.ok) return std::nullopt;
  cases = std::move(loaded.cases);
  return conformance::pin_rules(contract, cases, opt.dialect);
}

int run_rules(const rules_options& opt) {
  const auto contract = load_contract_or_say_why(opt.contract, "rules");
  if (!contract) return exit_usage;
  if (!opt.dialect.empty() && contract->dialect(opt.dialect) == nullptr) {
    std::cerr << "sse-conform rules: unknown dialect '" << opt.dialect << "' (known: " << dialect_names(*contract)
              << ")\n";
    return exit_usage;
  }
  std::vector<conformance::test_case> cases;
  const auto rules = pinned(opt, *contract, cases, "rules");
  if (!rules) return exit_usage;
  if (opt.json) std::cout << dump_line(conformance::rules_to_json(*contract, *rules)) << '\n';
  else conformance::print_rule_lines(std::cout, *rules);
  return exit_ok;
}

int run_explain(const rules_options& opt) {
  const auto contract = load_contract_or_say_why(opt.contract, "explain");
  if (!contract) return exit_usage;
  std::vector<conformance::test_case> cases;
  const auto rules = pinned(opt, *contract, cases, "explain");
  if (!rules) return exit_usage;
  // Rule ids are upper case; `explain agent-done-last` means AGENT-DONE-LAST.
  const auto upper = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string wanted = upper(opt.rule);
  std::vector<std::string> ids;
  for (const auto& p : *rules) {
    ids.push_back(p.rule->id);
    if (p.rule->id != wanted) continue;
    if (opt.json) {
      const auto one = conformance::rules_to_json(*contract, std::span(&p, 1));
      std::cout << dump_line(one["rules"][0]) << '\n';
    } else {
      conformance::print_rule_explained(std::cout, p);
    }
    return exit_ok;
  }
  std::cerr << "sse-conform explain: no rule '" << opt.rule << "'" << did_you_mean(wanted, ids)
            << " (`sse-conform rules` lists them)\n";
  return exit_usage;
}

void add_listing_options(CLI::App* cmd, rules_options& opt) {
  cmd->add_flag("--json", opt.json, "Print JSON (tools/docs/cli.md, \"rules\")");
  add_case_options(cmd, opt.source, "Root of the case files that pin the rules");
  add_contract_options(cmd, opt.contract);
}

}  // namespace

void add_rules_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<rules_options>();
  CLI::App* rules =
      app.add_subcommand("rules", "List the producer rules: severity, basis, and the cases that pin them");
  rules->add_option("--dialect", opt->dialect, "Only the rules of this dialect");
  add_listing_options(rules, *opt);
  rules->callback([opt, &code] { code = run_rules(*opt); });

  auto eopt = std::make_shared<rules_options>();
  CLI::App* explain =
      app.add_subcommand("explain", "Show one producer rule: its text, the words or decision it rests on, its cases");
  explain->add_option("rule", eopt->rule, "The rule id, e.g. AGENT-DONE-LAST")->required();
  add_listing_options(explain, *eopt);
  explain->callback([eopt, &code] { code = run_explain(*eopt); });
}

}  // namespace ssec::cli
