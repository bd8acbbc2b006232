// SPDX-License-Identifier: MIT
// The catalog diff's part of the certify report: the changes of
// conformance::diff_catalogs (tools/docs/catalog-diff.md), and the contract
// verdict. A change that breaks readers or writers is listed, not a verdict
// by itself: the producers and consumers actually run decide. What fails the
// contract is a version that does not follow its changes (VERSION_* at ERR).
#include "certify_parts.hpp"
#include "ssec/conformance/catalog_diff.hpp"

namespace ssec::certify {
namespace conf = ssec::conformance;

void add_diff(report& r, const sse::dialect::catalog& prev, const sse::dialect::catalog& next) {
  conf::diff_options options;
  options.pin_cases = false;  // certify generates and runs NEW's cases itself
  const conf::catalog_diff d = conf::diff_catalogs(prev, next, options);
  r.diff_available = true;
  r.old_version = d.old_version;
  r.new_version = d.new_version;
  bool warned = false;
  for (const auto& c : d.changes) {
    r.changes.push_back({c.rule, c.dialect, c.event, c.field, std::string(conf::to_string(c.reader)),
                         std::string(conf::to_string(c.writer)), c.message, c.fingerprint});
    if (c.rule.rfind("VERSION_", 0) == 0 && c.worst() == conf::change_level::err) {
      r.contract = verdict::broke;
      r.contract_reason += (r.contract_reason.empty() ? "" : "; ") + c.message;
    }
    warned = warned || c.worst() != conf::change_level::info;
  }
  if (r.contract != verdict::broke && warned) {
    r.contract = verdict::warned;
    r.contract_reason = "changes at WARN or ERR for a role: see the producers and consumers below";
  }
}

}  // namespace ssec::certify
