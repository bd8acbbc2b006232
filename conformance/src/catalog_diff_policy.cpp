// SPDX-License-Identifier: MIT
// The catalog diff as a gate: roles, levels, the ignore file.
#include "ssec/conformance/catalog_diff_policy.hpp"

#include <algorithm>
#include <map>

#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance {

namespace {

bool is_fingerprint(std::string_view s) {
  return s.size() == 16 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Blanks around a value: a file written on Windows keeps its CRs.
constexpr std::string_view blanks = " \t\r";

// The YAML form: `ignore:` a list of {fingerprint, reason}.
void parse_yaml(const std::string& text, const std::string& file, ssec::load_result<std::vector<ignore_entry>>& out) {
  auto doc = ssec::yaml::load_document(text, file);
  if (!doc) {
    out.errors.push_back(doc.error());
    return;
  }
  ssec::yaml::reader r(file, out.errors);
  const auto top = r.read_mapping(*doc, "the ignore file", {"ignore"});
  if (!top || !r.require(*top, "the ignore file", {"ignore"})) return;
  const auto* list = top->find("ignore");
  if (!list->value.is_sequence()) {
    r.error(*list, "`ignore` must be a list of {fingerprint, reason}");
    return;
  }
  for (const auto& item : list->value.items()) {
    const auto m = r.read_mapping(item, "an ignore entry", {"fingerprint", "reason"});
    if (!m || !r.require(*m, "an ignore entry", {"fingerprint", "reason"})) continue;
    const auto fp = r.text(*m->find("fingerprint"), "an ignore entry");
    const auto reason = r.text(*m->find("reason"), "an ignore entry");
    if (!fp || !reason) continue;
    if (!is_fingerprint(*fp)) {
      r.error(m->find("fingerprint")->value, "fingerprint `" + *fp + "` is not 16 lower-case hex digits");
      continue;
    }
    if (ssec::trim(*reason, blanks).empty()) {
      r.error(m->find("reason")->value, "the reason of an ignore entry must not be blank");
      continue;
    }
    out.value.push_back({*fp, std::string(ssec::trim(*reason, blanks)), ssec::yaml::reader::line(item)});
  }
}

// The text form: `<fingerprint> <reason>` per line.
void parse_text(std::string_view text, const std::string& file, ssec::load_result<std::vector<ignore_entry>>& out) {
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = ssec::trim(text.substr(0, nl), blanks);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const auto space = line.find_first_of(" \t");
    const auto fp = line.substr(0, space);
    const auto reason = space == std::string_view::npos ? std::string_view{} : ssec::trim(line.substr(space), blanks);
    if (!is_fingerprint(fp)) {
      out.errors.push_back(
          {"`" + std::string(fp) + "` is not a fingerprint (16 lower-case hex digits)", file, line_no, 1});
      continue;
    }
    if (reason.empty()) {
      out.errors.push_back(
          {"fingerprint " + std::string(fp) + " has no reason (write `<fingerprint> <why it is accepted>`)", file,
           line_no, 1});
      continue;
    }
    out.value.push_back({std::string(fp), std::string(reason), line_no});
  }
}

}  // namespace

std::string_view to_string(diff_role r) noexcept {
  switch (r) {
    case diff_role::reader: return "reader";
    case diff_role::writer: return "writer";
    case diff_role::both: return "both";
  }
  return "both";
}

std::optional<diff_role> parse_diff_role(std::string_view s) noexcept {
  if (s == "reader") return diff_role::reader;
  if (s == "writer") return diff_role::writer;
  if (s == "both") return diff_role::both;
  return std::nullopt;
}

change_level level_for(const catalog_change& c, diff_role role) noexcept {
  switch (role) {
    case diff_role::reader: return c.reader;
    case diff_role::writer: return c.writer;
    case diff_role::both: return c.worst();
  }
  return c.worst();
}

ssec::load_result<std::vector<ignore_entry>> parse_ignore_file(std::string_view text, std::string_view display) {
  ssec::load_result<std::vector<ignore_entry>> out;
  const std::string file(display);
  // YAML when the first line that is not blank or a comment opens `ignore:`.
  std::string_view rest = text;
  bool yaml = false;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const auto line = ssec::trim(rest.substr(0, nl), blanks);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    yaml = line.starts_with("ignore:");
    break;
  }
  if (yaml) parse_yaml(std::string(text), file, out);
  else parse_text(text, file, out);
  std::map<std::string, std::size_t> seen;
  for (const auto& e : out.value) {
    const auto [it, fresh] = seen.emplace(e.fingerprint, e.line);
    if (!fresh)
      out.errors.push_back(
          {"fingerprint " + e.fingerprint + " is listed twice (first at line " + std::to_string(it->second) + ")", file,
           e.line, 1});
  }
  return out;
}

judged_diff judge_diff(const catalog_diff& d, diff_role role, change_level fail_on,
                       const std::vector<ignore_entry>& ignores, std::string_view ignore_display) {
  judged_diff j;
  j.role = role;
  j.fail_on = fail_on;
  j.ignored.resize(d.changes.size());
  std::vector<bool> used(ignores.size(), false);
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const auto& c = d.changes[i];
    for (std::size_t k = 0; k < ignores.size(); ++k)
      if (ignores[k].fingerprint == c.fingerprint) {
        j.ignored[i] = ignores[k].reason;
        used[k] = true;
      }
    if (j.ignored[i]) continue;
    for (auto r : {diff_role::reader, diff_role::writer, diff_role::both})
      ++j.counts[static_cast<int>(r)][static_cast<int>(level_for(c, r))];
    if (level_for(c, role) >= fail_on) ++j.failing;
  }
  for (std::size_t k = 0; k < ignores.size(); ++k)
    if (!used[k])
      j.unknown_ignores.push_back(std::string(ignore_display) + ":" + std::to_string(ignores[k].line) +
                                  ": fingerprint " + ignores[k].fingerprint + " matches no change");
  return j;
}

}  // namespace ssec::conformance
