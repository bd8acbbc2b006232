// SPDX-License-Identifier: MIT
// Private to the catalog loader: reading one catalog file's entries
// (spec/FORMAT.md, format_version 1) on the shared YAML reader. The
// cross-file resolution is in catalog_builder.cpp, the public load
// functions in catalog_loader.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace sse::dialect::detail {

using ssec::yaml::entry;
using ssec::yaml::in_backticks;
using ssec::yaml::mapping;

/// The shared YAML reader plus what the catalog grammar adds: positions as
/// catalog `location`s, the file's `document` for checking `source` values,
/// and lookups that report a missing required key.
class catalog_reader : public ssec::yaml::reader {
 public:
  using ssec::yaml::reader::error;
  using ssec::yaml::reader::reader;

  std::string document;  ///< The file's `document`, once read.
  /// The `authored` of the event whose fields are being read, or empty: a
  /// field without a trace of its own carries it.
  std::string authored_scope;

  location where(const ssec::yaml::node& n) const;
  void error(const location& at, std::string message);

  std::optional<std::string> text(const mapping& m, std::string_view key, std::string_view what, bool required);
  std::optional<bool> boolean(const mapping& m, std::string_view key, std::string_view what, bool required);
  std::optional<std::int64_t> integer(const mapping& m, std::string_view key, std::string_view what, bool required);
  /// A list of non-empty strings; a single string too when `single_ok`.
  std::optional<std::vector<std::string>> strings(const mapping& m, std::string_view key, std::string_view what,
                                                  bool required, bool single_ok, bool may_be_empty = false);
  /// `source` / `decision` / `authored` (a key only events and rules
  /// allow); at least one unless `optional` or inside an authored event.
  trace origin(const mapping& m, std::string_view what, bool optional = false);

 private:
  bool valid_source(const std::string& s) const;
};

/// A dialect as read from its file, before profiles and frames_from resolve.
struct raw_dialect {
  std::unique_ptr<dialect_spec> spec;
  catalog_reader* reader = nullptr;
  bool has_own_shapes = false;
};

std::optional<raw_dialect> parse_dialect(catalog_reader& r, const ssec::yaml::node& n);
std::optional<rule_spec> parse_rule(catalog_reader& r, const ssec::yaml::node& n);

/// Reads the sources as one set and resolves names across them
/// (catalog_builder.cpp). `documents`, when given, holds each source's text
/// already read (the built-in catalogs, compiled in), in the same order.
ssec::load_result<std::shared_ptr<const catalog>> build_catalogs(std::span<const catalog_source> sources,
                                                                 std::span<const ssec::yaml::node> documents = {});

/// MAJOR.MINOR.PATCH with an optional -prerelease.
bool is_semver(std::string_view s);

}  // namespace sse::dialect::detail
