// SPDX-License-Identifier: MIT
// Load-time checks of a catalog against the files it cites: its decisions
// (the DECISIONS.md beside it) and its sources (the protocol documents, when
// they are at hand). The loader checks the grammar; these check the links.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/support/result.hpp"

namespace sse::dialect {

/// The anchors of a DECISIONS.md text: every `## name` heading.
std::set<std::string, std::less<>> decision_anchors(std::string_view decisions_md);

/// Every entry (dialect, shape, difference, envelope field, event, field,
/// rule) of the catalog files for which `applies(file)` holds, whose
/// `decision` is not among `anchors`: an error at the entry's
/// file:line:column naming `decisions_file`. Each position is reported once
/// (a profile's inherited events are the base's).
std::vector<ssec::error> check_decisions(const catalog& cat, const std::function<bool(const std::string&)>& applies,
                                         const std::set<std::string, std::less<>>& anchors,
                                         std::string_view decisions_file);

/// Every `<document>:<line>` source of the catalog whose document is in
/// `documents` (name -> text) and whose line does not exist or is blank, and
/// every rule quote that is not on the line it cites: an error at the entry's
/// position. Sources of documents not given, and URLs, are not checked.
std::vector<ssec::error> check_sources(const catalog& cat,
                                       const std::map<std::string, std::string, std::less<>>& documents);

}  // namespace sse::dialect
