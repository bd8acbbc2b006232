// SPDX-License-Identifier: MIT
#include "ssec/conformance/loader.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <variant>

#include <yaml-cpp/yaml.h>

#include "sse/dialect/catalog.hpp"
#include "ssec/base64.hpp"
#include "ssec/input.hpp"
#include "ssec/text.hpp"

namespace ssec::conformance {
namespace {

// No case input may exceed this: a typo in a repeat count must not exhaust memory.
constexpr std::size_t max_input_bytes = std::size_t{64} << 20;

constexpr std::string_view decisions_prefix = "spec/DECISIONS.md#";

const std::vector<std::string_view>& allowed_keys() {
  static const std::vector<std::string_view> keys{
      "id",     "name",   "from",           "tags",     "verdict",    "layer",   "note",  "input",
      "input_hex", "input_base64", "events", "dialect_events", "findings", "conforming", "limits", "no_scan",
      "needs"};
  return keys;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (const auto w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

bool is_kebab_name(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  char previous = 0;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && previous == '-')) return false;
    previous = c;
  }
  return true;
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<std::string> parse_hex(std::string_view s) {
  std::string out;
  int high = -1;
  for (const char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (high >= 0) return std::nullopt;  // a byte is two adjacent digits
      continue;
    }
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) return std::nullopt;
    if (high < 0) {
      high = d;
    } else {
      out.push_back(static_cast<char>(high * 16 + d));
      high = -1;
    }
  }
  if (high >= 0) return std::nullopt;
  return out;
}

// Everything one file's loading needs to report errors.
class file_context {
 public:
  file_context(std::string_view text, std::string_view display, std::vector<load_error>& errors)
      : text_(text), display_(display), errors_(&errors) {}

  const std::string& display() const { return display_; }
  std::string_view text() const { return text_; }

  // Columns are 0-based here; std::string::npos means unknown.
  void error(std::size_t line0, std::size_t column0, std::string message) {
    const std::size_t column = column0 == std::string::npos ? 0 : column0 + 1;
    errors_->push_back(load_error{display_, line0 + 1, column, std::move(message)});
    ++count_;
  }
  void error(const YAML::Mark& m, std::string message) {
    error(m.line < 0 ? 0 : static_cast<std::size_t>(m.line), m.column < 0 ? 0 : static_cast<std::size_t>(m.column),
          std::move(message));
  }
  void error(const YAML::Node& n, std::string message) { error(n.Mark(), std::move(message)); }
  std::size_t count() const { return count_; }

  // The source byte where a scalar node starts (its quote or block indicator).
  char start_char(const YAML::Node& n) const {
    const int pos = n.Mark().pos;
    return pos >= 0 && static_cast<std::size_t>(pos) < text_.size() ? text_[static_cast<std::size_t>(pos)] : '\0';
  }

  // Checks that `n` is written as a one-line double-quoted YAML string whose
  // escapes mean what they seem (see README "Writing bytes").
  bool check_chunk_string(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar() || start_char(n) != '"') {
      error(n, std::string(what) + " must be a double-quoted string (\"...\"), so that every byte is visible");
      return false;
    }
    const auto pos = static_cast<std::size_t>(n.Mark().pos);
    const auto line = static_cast<std::size_t>(n.Mark().line);
    const auto column = static_cast<std::size_t>(n.Mark().column);
    for (std::size_t i = pos + 1; i < text_.size(); ++i) {
      const char c = text_[i];
      const auto u = static_cast<unsigned char>(c);
      const std::size_t col = column + (i - pos);
      if (c == '"') return true;
      if (c == '\n' || c == '\r') {
        error(line, col, std::string(what) + " must stay on one line: YAML folds line breaks inside quotes");
        return false;
      }
      if (c == '\t') {
        error(line, col, "write a tab as \\t in " + std::string(what));
        return false;
      }
      if (u >= 0x80) {
        error(line, col, "write non-ASCII characters as \\uXXXX in " + std::string(what) +
                             ", so invisible ones (U+FEFF, U+2028, ...) stay visible");
        return false;
      }
      if (c != '\\' || i + 1 >= text_.size()) continue;
      const char e = text_[i + 1];
      if (e == 'x' && i + 2 < text_.size() && std::string_view("89abcdefABCDEF").find(text_[i + 2]) != std::string_view::npos) {
        error(line, col, "in YAML `\\x" + std::string(text_.substr(i + 2, 2)) + "` is the character U+00" +
                             std::string(text_.substr(i + 2, 2)) +
                             " (two UTF-8 bytes), not a raw byte: write raw bytes as {hex: \"..\"}, the character as \\u00" +
                             std::string(text_.substr(i + 2, 2)));
        return false;
      }
      if (e == 'N' || e == '_') {
        error(line, col, std::string("yaml-cpp writes `\\") + e + "` as a single raw byte: write " +
                             (e == 'N' ? "\\u0085" : "\\u00A0") + " instead");
        return false;
      }
      if (e == '\n' || e == '\r') {
        error(line, col, std::string(what) + " must stay on one line: no escaped line breaks");
        return false;
      }
      ++i;  // skip the escaped character (it may be a quote)
    }
    error(n, "unterminated double-quoted string");
    return false;
  }

 private:
  std::string_view text_;
  std::string display_;
  std::vector<load_error>* errors_;
  std::size_t count_ = 0;
};

// A scalar's text, or an error.
std::optional<std::string> scalar(file_context& ctx, const YAML::Node& n, std::string_view key) {
  if (!n.IsScalar()) {
    ctx.error(n, "`" + std::string(key) + "` must be a single value");
    return std::nullopt;
  }
  return n.Scalar();
}

// A scalar or a sequence of scalars.
std::optional<std::vector<std::pair<std::string, YAML::Node>>> scalar_list(file_context& ctx, const YAML::Node& n,
                                                                            std::string_view key) {
  std::vector<std::pair<std::string, YAML::Node>> out;
  if (n.IsScalar()) {
    out.emplace_back(n.Scalar(), n);
    return out;
  }
  if (!n.IsSequence()) {
    ctx.error(n, "`" + std::string(key) + "` must be a value or a list of values");
    return std::nullopt;
  }
  for (const auto& item : n) {
    if (!item.IsScalar()) {
      ctx.error(item, "each entry of `" + std::string(key) + "` must be a single value");
      return std::nullopt;
    }
    out.emplace_back(item.Scalar(), item);
  }
  return out;
}

// Maps a YAML node's key names to their key and value nodes, reporting
// duplicates and non-scalar keys.
std::optional<std::map<std::string, std::pair<YAML::Node, YAML::Node>>> keyed(file_context& ctx, const YAML::Node& n) {
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> out;
  bool ok = true;
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!it->first.IsScalar()) {
      ctx.error(it->first, "keys must be plain names");
      ok = false;
      continue;
    }
    const std::string key = it->first.Scalar();
    if (out.count(key)) {
      ctx.error(it->first, "duplicate key `" + key + "` (first at line " +
                               std::to_string(out[key].first.Mark().line + 1) + ")");
      ok = false;
      continue;
    }
    out.emplace(key, std::make_pair(it->first, it->second));
  }
  if (!ok) return std::nullopt;
  return out;
}

// One element of `input`: a double-quoted string, {hex}, {base64} or {repeat, times}.
bool load_input_item(file_context& ctx, const YAML::Node& item, std::string& chunk) {
  if (item.IsScalar()) {
    if (!ctx.check_chunk_string(item, "an `input` chunk")) return false;
    chunk = item.Scalar();
    return true;
  }
  if (!item.IsMap()) {
    ctx.error(item, "an `input` chunk is a double-quoted string, {hex: ...}, {base64: ...} or {repeat: ..., times: N}");
    return false;
  }
  auto keys = keyed(ctx, item);
  if (!keys) return false;
  const auto has = [&](const char* k) { return keys->count(k) > 0; };
  if (keys->size() == 1 && has("hex")) {
    const auto& v = (*keys)["hex"].second;
    auto bytes = v.IsScalar() ? parse_hex(v.Scalar()) : std::nullopt;
    if (!bytes) {
      ctx.error(v, "`hex` must be pairs of hex digits, optionally separated by spaces (\"EF BB BF\")");
      return false;
    }
    chunk = std::move(*bytes);
    return true;
  }
  if (keys->size() == 1 && has("base64")) {
    const auto& v = (*keys)["base64"].second;
    auto bytes = v.IsScalar() ? ssec::base64_decode(v.Scalar()) : std::nullopt;
    if (!bytes) {
      ctx.error(v, "`base64` must be standard base64 (RFC 4648, no whitespace)");
      return false;
    }
    chunk = std::move(*bytes);
    return true;
  }
  if (keys->size() == 2 && has("repeat") && has("times")) {
    const auto& text = (*keys)["repeat"].second;
    const auto& times_node = (*keys)["times"].second;
    if (!ctx.check_chunk_string(text, "`repeat`")) return false;
    const auto times = times_node.IsScalar() ? parse_u64(times_node.Scalar()) : std::nullopt;
    if (!times || *times == 0) {
      ctx.error(times_node, "`times` must be a positive integer");
      return false;
    }
    const std::string unit = text.Scalar();
    if (unit.empty() || *times > max_input_bytes / unit.size()) {
      ctx.error(times_node, "a repeat must give between 1 byte and 64 MiB");
      return false;
    }
    chunk.clear();
    append_repeated(chunk, unit, *times);
    return true;
  }
  ctx.error(item, "an `input` chunk map is {hex: ...}, {base64: ...} or {repeat: \"...\", times: N}");
  return false;
}

bool load_input(file_context& ctx, const std::string& key, const YAML::Node& node, test_case& c) {
  std::vector<std::string> chunks;
  if (key == "input") {
    if (!node.IsSequence() || node.size() == 0) {
      ctx.error(node, "`input` must be a non-empty list of chunks, e.g. [\"data: a\\n\\n\"] (use [\"\"] for an empty stream)");
      return false;
    }
    for (const auto& item : node) {
      std::string chunk;
      if (!load_input_item(ctx, item, chunk)) return false;
      chunks.push_back(std::move(chunk));
    }
  } else {
    const bool hex = key == "input_hex";
    auto items = scalar_list(ctx, node, key);
    if (!items) return false;
    for (const auto& [text, item] : *items) {
      auto bytes = hex ? parse_hex(text) : ssec::base64_decode(text);
      if (!bytes) {
        ctx.error(item, hex ? "`input_hex` must be pairs of hex digits, optionally separated by spaces"
                            : "`input_base64` must be standard base64 (RFC 4648, no whitespace)");
        return false;
      }
      chunks.push_back(std::move(*bytes));
    }
  }
  std::size_t total = 0;
  for (const auto& chunk : chunks) total += chunk.size();
  if (total > max_input_bytes) {
    ctx.error(node, "the input is larger than 64 MiB");
    return false;
  }
  c.input.clear();
  c.input.reserve(total);
  c.written_chunks.clear();
  for (const auto& chunk : chunks) {
    c.input += chunk;
    c.written_chunks.push_back(chunk.size());
  }
  return true;
}

// The 0-based line `k` of `text`, without its line break.
std::string_view nth_line(std::string_view text, std::size_t k) {
  for (; k > 0; --k) {
    const std::size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return {};
    text.remove_prefix(eol + 1);
  }
  return text.substr(0, text.find('\n'));
}

// The 1-based file line of a log's text line, for the block styles we allow.
std::size_t log_file_line(const file_context& ctx, const YAML::Node& n, std::size_t text_line) {
  const char style = ctx.start_char(n);
  const auto base = static_cast<std::size_t>(n.Mark().line) + 1;
  return style == '|' ? base + 1 + text_line : base + text_line;
}

bool load_events(file_context& ctx, const YAML::Node& n, test_case& c) {
  if (!n.IsScalar()) {
    ctx.error(n, "`events` must be the expected log as text: a literal block (|) or \"\" for none");
    return false;
  }
  if (ctx.start_char(n) == '>') {
    ctx.error(n, "`events` must be a literal block (|), not a folded one (>): folding joins log lines");
    return false;
  }
  auto parsed = parse_log(n.Scalar());
  if (auto* bad = std::get_if<log_syntax_error>(&parsed)) {
    const std::size_t line = log_file_line(ctx, n, bad->line);
    // A literal block strips the same indentation from every line: the file
    // line ends with the log line, so the column shifts by the difference.
    std::size_t column = std::string::npos;
    if (ctx.start_char(n) == '|') {
      const std::string_view file_line = nth_line(ctx.text(), line - 1);
      const std::string_view log_line = nth_line(n.Scalar(), bad->line);
      if (file_line.ends_with(log_line)) column = file_line.size() - log_line.size() + bad->column;
    }
    if (column == std::string::npos) ctx.error(line - 1, std::string::npos, "in `events`: " + bad->message);
    else ctx.error(line - 1, column, "in `events`: " + bad->message);
    return false;
  }
  auto& log = std::get<parsed_log>(parsed);
  c.events = std::move(log.lines);
  c.event_lines.clear();
  for (const auto line : log.text_lines) c.event_lines.push_back(log_file_line(ctx, n, line));
  return true;
}

bool load_limits(file_context& ctx, const YAML::Node& n, test_case& c) {
  if (!n.IsMap()) {
    ctx.error(n, "`limits` must be a map: {max_line: N, max_event_data: N}");
    return false;
  }
  auto keys = keyed(ctx, n);
  if (!keys) return false;
  sse::limits lim;
  for (const auto& [name, nodes] : *keys) {
    std::size_t* slot = name == "max_line" ? &lim.max_line : name == "max_event_data" ? &lim.max_event_data : nullptr;
    if (!slot) {
      ctx.error(nodes.first, "unknown limit `" + name + "` (allowed: max_line, max_event_data)");
      return false;
    }
    const auto v = nodes.second.IsScalar() ? parse_u64(nodes.second.Scalar()) : std::nullopt;
    if (!v || *v == 0) {
      ctx.error(nodes.second, "`" + name + "` must be a positive integer");
      return false;
    }
    *slot = static_cast<std::size_t>(*v);
  }
  if (keys->empty()) {
    ctx.error(n, "`limits` names no limit");
    return false;
  }
  c.limits = lim;
  return true;
}

bool load_dialect_events(file_context& ctx, const YAML::Node& n, test_case& c) {
  if (!n.IsScalar()) {
    ctx.error(n, "`dialect_events` must be text: one JSON object per line, in a literal block (|)");
    return false;
  }
  std::string_view text = n.Scalar();
  std::size_t line = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string_view row = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    const std::size_t this_line = line++;
    if (row.find_first_not_of(' ') == std::string_view::npos) continue;
    auto j = nlohmann::json::parse(row, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      ctx.error(log_file_line(ctx, n, this_line) - 1, 0, "in `dialect_events`: each line must be one JSON object");
      return false;
    }
    c.dialect_events.push_back(std::move(j));
  }
  c.has_dialect_events = true;
  return true;
}

// Reads one case; returns false (with errors reported) when it is not valid.
bool load_case(file_context& ctx, const YAML::Node& node, std::string_view topic, const tag_list& tags, test_case& c) {
  if (!node.IsMap()) {
    ctx.error(node, "each case must be a map of keys (id, name, from, tags, verdict, layer, input, events, ...)");
    return false;
  }
  const std::size_t errors_before = ctx.count();
  auto keys_opt = keyed(ctx, node);
  if (!keys_opt) return false;
  auto& keys = *keys_opt;
  c.where = source_location{ctx.display(), static_cast<std::size_t>(node.Mark().line) + 1};
  c.topic = std::string(topic);

  for (const auto& [key, nodes] : keys) {
    if (std::find(allowed_keys().begin(), allowed_keys().end(), key) == allowed_keys().end()) {
      ctx.error(nodes.first, "unknown key `" + key + "` (allowed: " + join(allowed_keys()) + ")");
    }
  }
  for (const char* required : {"id", "name", "from", "tags", "verdict", "layer", "events"}) {
    if (!keys.count(required)) ctx.error(node, std::string("missing required key `") + required + "`");
  }
  const int inputs = static_cast<int>(keys.count("input") + keys.count("input_hex") + keys.count("input_base64"));
  if (inputs != 1) ctx.error(node, "a case needs exactly one of `input`, `input_hex`, `input_base64`");
  if (ctx.count() != errors_before) return false;

  const auto value = [&](const char* key) -> const YAML::Node& { return keys.at(key).second; };

  if (auto id = scalar(ctx, value("id"), "id")) {
    c.id = *id;
    if (!is_valid_case_id(c.id)) {
      ctx.error(value("id"), "id `" + c.id +
                                 "` must be 4 characters of A-H J-N P-Z 2-9 with at least one letter and one digit");
    }
  }
  if (auto name = scalar(ctx, value("name"), "name")) {
    c.name = *name;
    if (c.name.empty() || c.name.find('\n') != std::string::npos) ctx.error(value("name"), "`name` must be one non-empty line");
  }
  if (keys.count("note")) {
    if (auto note = scalar(ctx, value("note"), "note")) c.note = *note;
  }
  if (auto from = scalar_list(ctx, value("from"), "from")) {
    for (const auto& [text, item] : *from) {
      if (text.empty() || text.find_first_of(" \t\n") != std::string::npos) {
        ctx.error(item, "each `from` entry is one URL or repository reference, without spaces");
      }
      c.from.push_back(text);
    }
    if (c.from.empty()) ctx.error(value("from"), "`from` must name at least one source");
  }
  if (value("tags").IsSequence() && value("tags").size() > 0) {
    for (const auto& item : value("tags")) {
      if (!item.IsScalar()) {
        ctx.error(item, "each tag must be a single name");
        continue;
      }
      const std::string tag = item.Scalar();
      if (!tags.contains(tag)) ctx.error(item, "tag `" + tag + "` is not in spec/tags.yaml");
      else if (std::find(c.tags.begin(), c.tags.end(), tag) != c.tags.end()) ctx.error(item, "tag `" + tag + "` repeated");
      c.tags.push_back(tag);
    }
  } else {
    ctx.error(value("tags"), "`tags` must be a non-empty list of tags from spec/tags.yaml");
  }
  if (auto v = scalar(ctx, value("verdict"), "verdict")) {
    if (auto parsed = verdict_from_string(*v)) c.verdict = *parsed;
    else ctx.error(value("verdict"), "`verdict` must be must, should or impl");
  }
  if (auto l = scalar(ctx, value("layer"), "layer")) {
    if (auto parsed = layer_from_string(*l)) c.layer = *parsed;
    else ctx.error(value("layer"), "`layer` must be wire, chat, code, agent or workflow");
  }
  for (const char* key : {"input", "input_hex", "input_base64"}) {
    if (keys.count(key)) load_input(ctx, key, value(key), c);
  }
  load_events(ctx, value("events"), c);
  if (keys.count("limits")) load_limits(ctx, value("limits"), c);
  if (keys.count("no_scan")) {
    if (auto reason = scalar(ctx, value("no_scan"), "no_scan")) {
      if (reason->empty()) ctx.error(value("no_scan"), "`no_scan` must give the reason");
      c.no_scan = *reason;
    }
  }
  if (keys.count("needs")) {
    if (auto needs = scalar_list(ctx, value("needs"), "needs")) {
      const auto& known = known_capabilities();
      for (const auto& [name, item] : *needs) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
          ctx.error(item, "`" + name + "` is not an adapter capability (see tools/docs/adapter-protocol.md)");
        }
        c.needs.push_back(name);
      }
    }
  }
  if (keys.count("dialect_events")) load_dialect_events(ctx, value("dialect_events"), c);
  if (keys.count("findings")) {
    if (auto findings = scalar_list(ctx, value("findings"), "findings")) {
      for (const auto& [rule, item] : *findings) {
        if (rule.empty() || rule.find_first_of(" \t\n") != std::string::npos) ctx.error(item, "a finding is one rule id");
        c.findings.push_back(rule);
      }
      if (c.findings.empty()) ctx.error(value("findings"), "`findings` lists the rule ids the stream breaks; write `conforming: true` for none");
    }
  }
  if (keys.count("conforming")) {
    const auto& n = value("conforming");
    if (!n.IsScalar() || n.Scalar() != "true") ctx.error(n, "`conforming` can only be `true`; list broken rules in `findings`");
    c.conforming = true;
  }
  if (ctx.count() != errors_before) return false;

  // Rules that tie fields together.
  if (c.verdict == verdict::impl &&
      std::none_of(c.from.begin(), c.from.end(), [](const std::string& f) { return f.starts_with(decisions_prefix); })) {
    ctx.error(value("from"), "an `impl` case must cite the decision it follows (spec/DECISIONS.md#anchor) in `from`");
  }
  if (c.limits && c.verdict != verdict::impl) {
    ctx.error(value("limits"), "a case that sets `limits` tests our choice of limits: its verdict must be impl");
  }
  const bool fatal =
      std::any_of(c.events.begin(), c.events.end(), [](const log_line& l) { return std::holds_alternative<log_error>(l); });
  if (fatal && c.verdict != verdict::impl) {
    ctx.error(value("events"), "a fatal `error` comes from a limit of the reference: the verdict must be impl");
  }
  if (c.layer == layer::wire) {
    for (const char* key : {"dialect_events", "findings", "conforming"}) {
      if (keys.count(key)) ctx.error(keys.at(key).first, std::string("`") + key + "` belongs to dialect layers, not wire");
    }
  } else {
    if (!keys.count("dialect_events") && !keys.count("findings") && !keys.count("conforming")) {
      ctx.error(node, "a " + std::string(to_string(c.layer)) +
                          " case must expect something of its layer: dialect_events, findings or conforming");
    }
    if (keys.count("findings") && keys.count("conforming")) {
      ctx.error(value("conforming"), "`conforming: true` and `findings` contradict each other");
    }
  }
  return ctx.count() == errors_before;
}

}  // namespace

std::string load_error::to_string() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out + ": " + message;
}

std::string load_result::error_text() const {
  std::string out;
  for (const auto& e : errors) out += e.to_string() + "\n";
  return out;
}

bool is_valid_case_id(std::string_view id) noexcept {
  if (id.size() != 4) return false;
  bool letter = false;
  bool digit = false;
  for (const char c : id) {
    if (c >= '2' && c <= '9') digit = true;
    else if (c >= 'A' && c <= 'Z' && c != 'I' && c != 'O') letter = true;
    else return false;
  }
  return letter && digit;
}

tag_list load_tags_from_text(std::string_view text, std::string_view display, std::vector<load_error>& errors) {
  tag_list out;
  file_context ctx(text, display, errors);
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap() || !root["tags"] || !root["tags"].IsMap() || root.size() != 1) {
      ctx.error(root, "the tag list must be a map with the single key `tags`, mapping each tag to its description");
      return out;
    }
    const YAML::Node list = root["tags"];
    for (auto it = list.begin(); it != list.end(); ++it) {
      const std::string name = it->first.IsScalar() ? it->first.Scalar() : std::string();
      if (!is_kebab_name(name)) {
        ctx.error(it->first, "tag `" + name + "` must be lowercase kebab-case (a-z, 0-9, -)");
        continue;
      }
      if (out.contains(name)) {
        ctx.error(it->first, "duplicate tag `" + name + "`");
        continue;
      }
      if (!it->second.IsScalar() || it->second.Scalar().empty() || it->second.Scalar().find('\n') != std::string::npos) {
        ctx.error(it->second, "tag `" + name + "` needs a one-line description");
        continue;
      }
      out.descriptions.emplace(name, it->second.Scalar());
    }
  } catch (const YAML::Exception& e) {
    ctx.error(e.mark, "malformed YAML: " + e.msg);
  }
  return out;
}

tag_list load_tags(const std::filesystem::path& path, std::string_view display, std::vector<load_error>& errors) {
  auto text = ssec::read_all(path.string());
  if (!text) {
    errors.push_back(load_error{std::string(display), 0, 0, text.error().to_string()});
    return {};
  }
  return load_tags_from_text(text.value(), display, errors);
}

load_result load_cases_from_text(std::string_view text, std::string_view display, std::string_view topic,
                                 const tag_list& tags) {
  load_result out;
  file_context ctx(text, display, out.errors);
  if (text.starts_with("\xEF\xBB\xBF")) {
    ctx.error(0, 0, "case files must not start with a byte order mark (it would shift every position)");
    return out;
  }
  const std::string owned(text);
  YAML::Node root;
  try {
    root = YAML::Load(owned);
  } catch (const YAML::Exception& e) {
    ctx.error(e.mark, "malformed YAML: " + e.msg);
    return out;
  }
  if (const auto second = sse::dialect::second_yaml_document(owned)) {
    ctx.error(second->first, second->second, "a case file must be one YAML document: a second one starts here");
    return out;
  }
  if (!root.IsSequence()) {
    ctx.error(0, 0, "a case file must be one YAML document: a list of cases (`- id: ...`)");
    return out;
  }
  std::map<std::string, std::size_t> first_line;
  for (const auto& node : root) {
    test_case c;
    if (!load_case(ctx, node, topic, tags, c)) continue;
    if (const auto seen = first_line.find(c.id); seen != first_line.end()) {
      ctx.error(node, "duplicate id `" + c.id + "` (first at line " + std::to_string(seen->second) + ")");
      continue;
    }
    first_line.emplace(c.id, c.where.line);
    out.cases.push_back(std::move(c));
  }
  return out;
}

load_result load_case_file(const std::filesystem::path& path, std::string_view display, const tag_list& tags) {
  auto text = ssec::read_all(path.string());
  if (!text) {
    load_result out;
    out.errors.push_back(load_error{std::string(display), 0, 0, text.error().to_string()});
    return out;
  }
  return load_cases_from_text(text.value(), display, path.stem().string(), tags);
}

load_result load_case_tree(const std::filesystem::path& root, std::string_view display_root, const tag_list& tags) {
  load_result out;
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) {
    out.errors.push_back(load_error{std::string(display_root), 0, 0, "not a directory of case files"});
    return out;
  }
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".yaml") files.push_back(it->path());
  }
  if (ec) {
    out.errors.push_back(load_error{std::string(display_root), 0, 0, "cannot list the case files: " + ec.message()});
    return out;
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, source_location> seen;
  for (const auto& file : files) {
    const std::string display =
        std::string(display_root) + "/" + std::filesystem::relative(file, root).generic_string();
    load_result one = load_case_file(file, display, tags);
    out.errors.insert(out.errors.end(), one.errors.begin(), one.errors.end());
    for (auto& c : one.cases) {
      if (const auto first = seen.find(c.id); first != seen.end()) {
        out.errors.push_back(load_error{c.where.file, c.where.line, 0,
                                        "duplicate id `" + c.id + "` (first at " + first->second.to_string() + ")"});
        continue;
      }
      seen.emplace(c.id, c.where);
      out.cases.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace ssec::conformance
