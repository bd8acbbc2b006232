// SPDX-License-Identifier: MIT
// The catalog diff: the rule table, semver, fingerprints and the whole diff.
// The table's reasoning is written out in tools/docs/catalog-diff.md.
#include "ssec/conformance/catalog_diff.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <tuple>

#include "catalog_diff_parts.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {

namespace {

constexpr auto I = change_level::info;
constexpr auto W = change_level::warn;
constexpr auto E = change_level::err;

// clang-format off
constexpr std::array<diff_rule, 37> all_rules{{
  {"DIALECT_ADDED", I, I, "A dialect is new.", "Nobody reads or writes it yet."},
  {"DIALECT_REMOVED", E, E, "A dialect is gone.", "Its streams are no longer defined: every reader and writer of it is off contract."},
  {"PROFILE_BASE_CHANGED", E, E, "A dialect's profile_of or frames_from names another dialect (or none).", "Every event or frame shape it inherited may change at once."},
  {"PROFILE_DIFFERENCE_ADDED", I, I, "A profile documents a new difference (aspect).", "Documentation; its effects (defaults, error events) are reported by their own rules."},
  {"PROFILE_DIFFERENCE_REMOVED", I, I, "A profile's difference (aspect) is gone.", "Documentation; its effects are reported by their own rules."},
  {"ERROR_WIRE_EVENT_CHANGED", E, E, "The SSE event type that marks an error frame was added, removed or renamed.", "The same bytes become an error or stop being one: readers show errors as text or text as errors."},
  {"FRAME_SHAPE_ADDED", W, I, "A frame shape (plain_text, error) is new in a dialect.", "Frames an OLD reader classified one way now mean another (an `[ERROR]` frame shown as body text)."},
  {"FRAME_SHAPE_REMOVED", E, E, "A frame shape is gone from a dialect.", "NEW's frames of that kind are classified differently by OLD readers; OLD writers' frames are off contract."},
  {"FRAME_PREFIX_CHANGED", E, E, "The error shape's prefix changed.", "Error frames are no longer recognised by the other side."},
  {"EVENT_ADDED", W, I, "An event type is new.", "A tolerant reader ignores it; a strict allow-list rejects it (and may abort the turn)."},
  {"EVENT_REMOVED", W, E, "An event type is gone.", "OLD writers still send it and NEW calls it unknown; readers waiting for it wait in vain."},
  {"EVENT_OPENED", W, I, "An event became open (undeclared fields expected).", "NEW writers may add keys a strict OLD reader rejects."},
  {"EVENT_CLOSED", I, W, "An event is no longer open.", "OLD writers' extra keys are now undeclared fields (a finding)."},
  {"FIELD_ADDED_OPTIONAL", W, I, "An optional field is new.", "A tolerant reader ignores the key; a strict schema (no additional keys) rejects it."},
  {"FIELD_ADDED_REQUIRED", W, E, "A required field is new.", "OLD writers do not send it: every frame of theirs breaks NEW."},
  {"FIELD_REMOVED", E, W, "A required field is gone.", "OLD readers rely on it and NEW writers may omit it; OLD writers' key is now undeclared."},
  {"FIELD_REMOVED_OPTIONAL", W, W, "An optional field is gone.", "OLD readers lose the data they used when present; OLD writers' key is now undeclared."},
  {"FIELD_KEY_CHANGED", E, E, "A field's key changed only in case or `_`/`-` (a removed and an added field).", "Readers look up the old spelling; OLD writers' key is a key_casing finding."},
  {"FIELD_TYPE_NARROWED", I, E, "A field admits fewer JSON types.", "OLD readers handle every value NEW allows; OLD writers may send a type NEW refuses."},
  {"FIELD_TYPE_WIDENED", E, I, "A field admits more JSON types.", "NEW writers may send a type OLD readers cannot handle."},
  {"FIELD_TYPE_CHANGED", E, E, "A field's types changed in both directions.", "Both of the above."},
  {"FIELD_MADE_REQUIRED", I, E, "An optional field became required.", "OLD writers may omit it."},
  {"FIELD_MADE_OPTIONAL", E, I, "A required field became optional.", "NEW writers may omit what OLD readers rely on."},
  {"DEFAULT_ADDED", W, I, "An optional field got a default.", "NEW writers omit it meaning the default; an OLD reader sees it missing."},
  {"DEFAULT_REMOVED", W, W, "An optional field lost its default (or a profile's no_default now names it).", "OLD readers invent a value for a missing field; OLD writers that omit it meaning the default are read as `missing`."},
  {"DEFAULT_CHANGED", E, E, "An optional field's default changed.", "The same frame (field omitted) means a different value to each side."},
  {"RULE_ADDED", I, E, "A must rule is new (or now names this dialect).", "OLD writers may break it and become non-conforming."},
  {"RULE_ADDED_SHOULD", I, W, "A should rule is new (or now names this dialect).", "OLD writers may get findings; validate still passes."},
  {"RULE_REMOVED", E, I, "A must rule is gone (or no longer names this dialect).", "NEW writers may do what it forbade, which OLD readers rely on not happening."},
  {"RULE_REMOVED_SHOULD", W, I, "A should rule is gone (or no longer names this dialect).", "A reader that relied on a should loses a soft guarantee."},
  {"RULE_TIGHTENED", I, E, "A rule became stricter: should -> must, or its check covers more.", "OLD writers may now break it."},
  {"RULE_RELAXED", E, I, "A rule became looser: must -> should, or its check covers less.", "NEW writers may do what OLD readers rely on not happening."},
  {"RULE_CHANGED", E, E, "A rule's check changed in a way that is neither stricter nor looser (kind, parameters).", "Both sides may break."},
  {"TERMINAL_CHANGED", E, E, "A stream-order check (first_frame, last_frame, followed_only_by, at_most_once, pair, pair_closed) changed.", "Readers stop on the terminal frame or wait for it; a changed order loses or hangs the turn."},
  {"DOC_CHANGED", I, I, "Wording or traceability changed (purpose, detection, handling, text, source, quote, decision, document).", "Nothing on the wire changes: a PATCH."},
  {"VERSION_NOT_BUMPED", E, E, "A file's catalog_version is not bumped as its changes require (MAJOR for an ERR, MINOR for any other change on the wire).", "Consumers pin catalog versions; a breaking change under the same MAJOR reaches them unannounced."},
  {"VERSION_PATCH_NOT_BUMPED", I, I, "A file changed only in wording and its catalog_version is unchanged.", "Wording is a PATCH; nothing breaks without it."},
}};
// clang-format on

// The bump a file's changes require: 3 major, 2 minor, 1 patch, 0 none.
int required_bump(const std::vector<const catalog_change*>& changes) {
  int need = 0;
  for (const auto* c : changes) {
    if (c->worst() == change_level::err) return 3;
    need = std::max(need, c->rule == "DOC_CHANGED" ? 1 : 2);
  }
  return need;
}

int bump_rank(std::string_view kind) {
  if (kind == "major") return 3;
  if (kind == "minor") return 2;
  if (kind == "patch") return 1;
  return 0;
}

std::string versions_text(const std::vector<catalog_file_version>& files) {
  if (files.size() == 1) return files.front().version;
  std::vector<std::string> parts;
  parts.reserve(files.size());
  for (const auto& f : files) parts.push_back(f.file + " " + f.version);
  return ssec::join(parts, ", ");
}

std::vector<catalog_file_version> file_versions(const sse::dialect::catalog& cat) {
  std::vector<catalog_file_version> out;
  for (const auto& f : cat.files()) out.push_back({diff_detail::base_name(f.name), f.catalog_version});
  return out;
}

void check_versions(catalog_diff& d, const sse::dialect::catalog& old_set, const sse::dialect::catalog& new_set) {
  std::map<std::string, std::vector<const catalog_change*>> by_file;
  for (const auto& c : d.changes) {
    const auto& file = !c.new_where.file.empty() ? c.new_where.file : c.old_where.file;
    by_file[diff_detail::base_name(file)].push_back(&c);
  }
  std::vector<catalog_change> extra;
  for (const auto& nf : new_set.files()) {
    const auto name = diff_detail::base_name(nf.name);
    const auto of = std::find_if(old_set.files().begin(), old_set.files().end(),
                                 [&](const auto& f) { return diff_detail::base_name(f.name) == name; });
    if (of == old_set.files().end()) continue;  // a new file: nothing to compare with
    const auto it = by_file.find(name);
    const int need = it == by_file.end() ? 0 : required_bump(it->second);
    if (need == 0) continue;
    const auto kind = bump_kind(of->catalog_version, nf.catalog_version);
    const int have = bump_rank(kind);
    if (have >= need) continue;
    static constexpr std::array<std::string_view, 4> names{"none", "PATCH", "MINOR", "MAJOR"};
    const sse::dialect::location old_loc{of->name, 0, 0};
    const sse::dialect::location new_loc{nf.name, 0, 0};
    const bool wording_only = need == 1;
    auto c = diff_detail::make_change(wording_only ? "VERSION_PATCH_NOT_BUMPED" : "VERSION_NOT_BUMPED", "", "", "", "",
                                      name + ": catalog_version " + of->catalog_version + " -> " + nf.catalog_version +
                                          (kind == "none"   ? std::string(" is not bumped")
                                           : kind == "down" ? std::string(" goes down")
                                                            : " is a " + std::string(kind) + " bump") +
                                          "; its changes need a " + std::string(names[static_cast<std::size_t>(need)]) +
                                          " bump (" + ssec::counted(it->second.size(), "change") + ")",
                                      &old_loc, &new_loc);
    c.file = name;
    c.fingerprint = change_fingerprint(c.rule, "file:" + name, "", "", "");
    // The counterexample of a version change is the one of the worst change it covers.
    for (const auto* cc : it->second)
      if (cc->worst() == change_level::err && cc->example) {
        c.example = cc->example;
        break;
      }
    extra.push_back(std::move(c));
  }
  for (auto& c : extra) d.changes.push_back(std::move(c));
}

}  // namespace

std::string_view to_string(change_level l) noexcept {
  switch (l) {
    case change_level::info: return "INFO";
    case change_level::warn: return "WARN";
    case change_level::err: return "ERR";
  }
  return "INFO";
}

std::optional<change_level> parse_change_level(std::string_view s) noexcept {
  std::string up;
  for (char ch : s) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  if (up == "ERR" || up == "ERROR") return change_level::err;
  if (up == "WARN" || up == "WARNING") return change_level::warn;
  if (up == "INFO") return change_level::info;
  return std::nullopt;
}

std::span<const diff_rule> diff_rules() noexcept { return all_rules; }

const diff_rule* find_diff_rule(std::string_view id) noexcept {
  for (const auto& r : all_rules)
    if (r.id == id) return &r;
  return nullptr;
}

std::string change_fingerprint(std::string_view rule, std::string_view dialect, std::string_view event,
                               std::string_view field, std::string_view producer_rule) {
  std::string key;
  for (auto part : {rule, dialect, event, field, producer_rule}) {
    key.append(part);
    key.push_back('|');
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(ssec::fnv1a(key)));
  return buf;
}

std::optional<semver> parse_semver(std::string_view s) noexcept {
  const auto end_core = s.find_first_of("-+");
  auto core = s.substr(0, end_core);
  semver v;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto dot = i < 2 ? core.find('.') : std::string_view::npos;
    if (i < 2 && dot == std::string_view::npos) return std::nullopt;
    const auto piece = core.substr(0, dot);
    if (piece.empty() || (piece.size() > 1 && piece[0] == '0')) return std::nullopt;
    const auto [p, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), *parts[i]);
    if (ec != std::errc{} || p != piece.data() + piece.size()) return std::nullopt;
    core = i < 2 ? core.substr(dot + 1) : std::string_view{};
  }
  return v;
}

std::string_view bump_kind(std::string_view old_version, std::string_view new_version) noexcept {
  const auto a = parse_semver(old_version);
  const auto b = parse_semver(new_version);
  if (!a || !b) return "invalid";
  const auto ta = std::tie(a->major, a->minor, a->patch);
  const auto tb = std::tie(b->major, b->minor, b->patch);
  if (tb < ta) return "down";
  if (b->major > a->major) return "major";
  if (b->minor > a->minor) return "minor";
  if (b->patch > a->patch) return "patch";
  return "none";
}

namespace diff_detail {

std::string base_name(std::string_view file) {
  const auto slash = file.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1));
}

catalog_change make_change(std::string_view rule, std::string dialect, std::string event, std::string field,
                           std::string producer_rule, std::string message, const dl::location* old_where,
                           const dl::location* new_where) {
  catalog_change c;
  c.rule = std::string(rule);
  c.dialect = std::move(dialect);
  c.event = std::move(event);
  c.field = std::move(field);
  c.producer_rule = std::move(producer_rule);
  c.message = std::move(message);
  if (old_where) c.old_where = *old_where;
  if (new_where) c.new_where = *new_where;
  c.file = base_name(!c.new_where.file.empty() ? c.new_where.file : c.old_where.file);
  if (const auto* r = find_diff_rule(rule)) {
    c.reader = r->reader;
    c.writer = r->writer;
  }
  c.fingerprint = change_fingerprint(c.rule, c.dialect, c.event, c.field, c.producer_rule);
  return c;
}

}  // namespace diff_detail

catalog_diff diff_catalogs(const sse::dialect::catalog& old_set, const sse::dialect::catalog& new_set) {
  return diff_catalogs(old_set, new_set, diff_options{});
}

catalog_diff diff_catalogs(const sse::dialect::catalog& old_set, const sse::dialect::catalog& new_set,
                           const diff_options& options) {
  catalog_diff d;
  d.old_files = file_versions(old_set);
  d.new_files = file_versions(new_set);
  d.old_version = versions_text(d.old_files);
  d.new_version = versions_text(d.new_files);
  d.changes = diff_detail::compare_sets(old_set, new_set);
  std::stable_sort(d.changes.begin(), d.changes.end(), [](const catalog_change& a, const catalog_change& b) {
    return std::tie(a.dialect, a.event, a.field, a.rule, a.producer_rule) <
           std::tie(b.dialect, b.event, b.field, b.rule, b.producer_rule);
  });
  diff_detail::add_evidence(d.changes, old_set, new_set, options);
  check_versions(d, old_set, new_set);
  return d;
}

}  // namespace ssec::conformance
