// SPDX-License-Identifier: MIT
#include "ssec/conformance/dialect_runner.hpp"

#include <set>
#include <sstream>

#include "sse/dialect/decoder.hpp"
#include "sse/dialect/validator.hpp"

namespace ssec::conformance {

namespace {

std::string header(const test_case& c) {
  return "case " + c.id + " (" + c.name + ") at " + c.where.to_string() + ", layer " + std::string(to_string(c.layer)) +
         "\n";
}

}  // namespace

std::optional<std::string> check_dialect_reference(const test_case& c, const chunking_plan& plan) {
  const auto& builtin = sse::dialect::builtin_catalog();
  if (!builtin.ok()) return header(c) + "the built-in catalogs do not load: " + builtin.error_text();
  return check_dialect_reference(c, plan, *builtin.value);
}

std::optional<std::string> check_dialect_reference(const test_case& c, const chunking_plan& plan,
                                                   const sse::dialect::catalog& contract) {
  if (c.layer == layer::wire) return std::nullopt;
  const std::string dialect_name(to_string(c.layer));
  const auto* d = contract.dialect(dialect_name);
  if (d == nullptr) return header(c) + "the catalogs have no dialect '" + dialect_name + "'";
  if (c.has_dialect_events) {
    std::vector<sse::dialect::event> expected;
    for (std::size_t i = 0; i < c.dialect_events.size(); ++i) {
      auto e = sse::dialect::event_from_json(c.dialect_events[i]);
      if (!e) {
        return header(c) + "dialect_events line " + std::to_string(i + 1) +
               " is not a dialect event: " + e.error().message;
      }
      expected.push_back(std::move(*e));
    }
    std::optional<std::string> first;
    std::size_t failing = 0;
    const auto kinds = chunkings_for(c, plan);
    for (const auto& k : kinds) {
      const auto chunks = chunks_of(c, k);
      const auto got = sse::dialect::decode_stream(*d, std::span<const std::string_view>(chunks), c.reference_limits());
      std::size_t i = 0;
      while (i < expected.size() && i < got.events.size() && expected[i] == got.events[i]) ++i;
      if (i == expected.size() && i == got.events.size()) continue;
      ++failing;
      if (first) continue;
      std::ostringstream out;
      out << header(c) << "chunking " << k.name() << ": " << describe_chunks(chunks) << "\n"
          << "dialect event " << i << " differs:\n"
          << "  expected: " << (i < expected.size() ? to_json(expected[i]).dump() : "(no more events)") << "\n"
          << "  got:      " << (i < got.events.size() ? to_json(got.events[i]).dump() : "(no more events)") << "\n";
      first = out.str();
    }
    if (first) return *first + std::to_string(failing) + " of " + std::to_string(kinds.size()) + " chunkings fail\n";
  }
  if (!c.conforming && c.findings.empty()) return std::nullopt;
  const auto report = sse::dialect::validate_stream(*d, c.input, c.reference_limits());
  std::set<std::string> got;
  for (const auto& f : report.findings) got.insert(f.rule->id);
  const std::set<std::string> want(c.findings.begin(), c.findings.end());
  if (got == want) return std::nullopt;
  std::ostringstream out;
  out << header(c) << "producer findings differ (whole stream):\n";
  for (const auto& id : want) {
    if (!got.contains(id)) out << "  expected, not reported: " << id << "\n";
  }
  for (const auto& f : report.findings) {
    if (!want.contains(f.rule->id)) out << "  reported, not expected: " << to_json(f).dump() << "\n";
  }
  if (want.empty()) out << "  (the case says the stream is conforming)\n";
  return out.str();
}

std::optional<std::string> check_against_reference(const test_case& c, const chunking_plan& plan,
                                                   const sse::dialect::catalog& contract) {
  if (const auto f = check_reference(c, plan)) return describe(c, *f);
  return check_dialect_reference(c, plan, contract);
}

}  // namespace ssec::conformance
