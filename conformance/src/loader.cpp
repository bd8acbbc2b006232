// SPDX-License-Identifier: MIT
#include "ssec/conformance/loader.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <variant>

#include "client_loader.hpp"
#include "ssec/support/base64.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::conformance {
namespace {

// No case input may exceed this: a typo in a repeat count must not exhaust memory.
constexpr std::size_t max_input_bytes = std::size_t{64} << 20;

constexpr std::string_view decisions_prefix = "spec/DECISIONS.md#";

const std::vector<std::string_view>& allowed_keys() {
  static const std::vector<std::string_view> keys{
      "id", "name", "from", "tags", "verdict", "layer", "note", "input", "input_hex", "input_base64", "events",
      "dialect_events", "findings", "conforming", "limits", "no_scan", "needs",
      // layer: client (client_script.hpp)
      "responses", "requests", "close_after_events", "limit_ms", "settle_ms"};
  return keys;
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

// One case file: the shared reader for its errors, and its text, which the
// input and log checks read byte by byte as written.
struct case_file {
  ssec::yaml::reader r;
  std::string_view text;
};

// The source byte where a scalar node starts (its quote or block indicator).
char start_char(const case_file& ctx, const ssec::yaml::node& n) {
  const int pos = n.mark().pos;
  return pos >= 0 && static_cast<std::size_t>(pos) < ctx.text.size() ? ctx.text[static_cast<std::size_t>(pos)] : '\0';
}

// Checks that `n` is written as a one-line double-quoted YAML string whose
// escapes mean what they seem (see README "Writing bytes").
bool check_chunk_string(case_file& ctx, const ssec::yaml::node& n, std::string_view what) {
  if (!n.is_scalar() || start_char(ctx, n) != '"') {
    ctx.r.error(n, std::string(what) + " must be a double-quoted string (\"...\"), so that every byte is visible");
    return false;
  }
  const auto pos = static_cast<std::size_t>(n.mark().pos);
  const auto line = static_cast<std::size_t>(n.mark().line);
  const auto column = static_cast<std::size_t>(n.mark().column);
  for (std::size_t i = pos + 1; i < ctx.text.size(); ++i) {
    const char c = ctx.text[i];
    const auto u = static_cast<unsigned char>(c);
    const std::size_t col = column + (i - pos);
    if (c == '"') return true;
    if (c == '\n' || c == '\r') {
      ctx.r.error(line + 1, col + 1,
                  std::string(what) + " must stay on one line: YAML folds line breaks inside quotes");
      return false;
    }
    if (c == '\t') {
      ctx.r.error(line + 1, col + 1, "write a tab as \\t in " + std::string(what));
      return false;
    }
    if (u >= 0x80) {
      ctx.r.error(line + 1, col + 1,
                  "write non-ASCII characters as \\uXXXX in " + std::string(what) +
                      ", so invisible ones (U+FEFF, U+2028, ...) stay visible");
      return false;
    }
    if (c != '\\' || i + 1 >= ctx.text.size()) continue;
    const char e = ctx.text[i + 1];
    if (e == 'x' && i + 2 < ctx.text.size() &&
        std::string_view("89abcdefABCDEF").find(ctx.text[i + 2]) != std::string_view::npos) {
      ctx.r.error(line + 1, col + 1,
                  "in YAML `\\x" + std::string(ctx.text.substr(i + 2, 2)) + "` is the character U+00" +
                      std::string(ctx.text.substr(i + 2, 2)) +
                      " (two UTF-8 bytes), not a raw byte: write raw bytes as {hex: \"..\"}, the character as \\u00" +
                      std::string(ctx.text.substr(i + 2, 2)));
      return false;
    }
    if (e == 'N' || e == '_') {
      ctx.r.error(line + 1, col + 1,
                  std::string("yaml-cpp writes `\\") + e + "` as a single raw byte: write " +
                      (e == 'N' ? "\\u0085" : "\\u00A0") + " instead");
      return false;
    }
    if (e == '\n' || e == '\r') {
      ctx.r.error(line + 1, col + 1, std::string(what) + " must stay on one line: no escaped line breaks");
      return false;
    }
    ++i;  // skip the escaped character (it may be a quote)
  }
  ctx.r.error(n, "unterminated double-quoted string");
  return false;
}

// One chunk of a case's input as checked: `bytes` written `times` times.
// Repeats are kept as their unit until the whole case has loaded (see
// pending_input), so that a case with an error never builds them.
struct input_piece {
  std::string bytes;
  std::uint64_t times = 1;
};

// A case's input, checked and booked but not yet built: build() runs only
// once the case has loaded without error; a case with an error (a later
// chunk over 64 MiB, a bad `events` log, ...) would throw its input away.
struct pending_input {
  std::vector<input_piece> pieces;
  std::size_t size = 0;  // of the whole input, within max_input_bytes

  // The input, each repeat written straight into it (one allocation).
  std::string build() && {
    if (pieces.size() == 1 && pieces.front().times == 1) return std::move(pieces.front().bytes);
    std::string out;
    out.reserve(size);
    for (const auto& p : pieces) append_repeated(out, p.bytes, p.times);
    return out;
  }
};

// One element of `input`: a double-quoted string, {hex}, {base64} or {repeat, times}.
// Each is booked against the file's budget before it is built; a repeat
// must also fit the `room` left in the case's input.
bool load_input_item(case_file& ctx, const ssec::yaml::node& item, input_piece& chunk, std::size_t room) {
  if (item.is_scalar()) {
    if (!check_chunk_string(ctx, item, "an `input` chunk")) return false;
    if (!ctx.r.charge(item, item.scalar().size(), "this `input` chunk")) return false;
    chunk.bytes = item.scalar();
    return true;
  }
  if (!item.is_map()) {
    ctx.r.error(item,
                "an `input` chunk is a double-quoted string, {hex: ...}, {base64: ...} or {repeat: ..., times: N}");
    return false;
  }
  const auto keys = ctx.r.read_mapping(item, "", {});
  if (!keys || !keys->complete) return false;
  const auto only = [&](std::initializer_list<std::string_view> names) {
    return keys->entries.size() == names.size() &&
           std::all_of(names.begin(), names.end(), [&](std::string_view k) { return keys->has(k); });
  };
  if (only({"hex"})) {
    const auto& v = keys->find("hex")->value;
    if (v.is_scalar() && !ctx.r.charge(v, v.scalar().size() / 2, "this `hex` chunk")) return false;
    auto bytes = v.is_scalar() ? parse_hex(v.scalar()) : std::nullopt;
    if (!bytes) {
      ctx.r.error(v, "`hex` must be pairs of hex digits, optionally separated by spaces (\"EF BB BF\")");
      return false;
    }
    chunk.bytes = std::move(*bytes);
    return true;
  }
  if (only({"base64"})) {
    const auto& v = keys->find("base64")->value;
    if (v.is_scalar() && !ctx.r.charge(v, v.scalar().size() / 4 * 3, "this `base64` chunk")) return false;
    auto bytes = v.is_scalar() ? ssec::base64_decode(v.scalar()) : std::nullopt;
    if (!bytes) {
      ctx.r.error(v, "`base64` must be standard base64 (RFC 4648, no whitespace)");
      return false;
    }
    chunk.bytes = std::move(*bytes);
    return true;
  }
  if (only({"repeat", "times"})) {
    const auto& text = keys->find("repeat")->value;
    const auto& times_entry = *keys->find("times");
    const auto& times_node = times_entry.value;
    if (!check_chunk_string(ctx, text, "`repeat`")) return false;
    const auto times = ctx.r.unsigned_integer(times_entry, "", 1);
    if (!times) return false;
    const std::string& unit = text.scalar();
    if (unit.empty() || *times > max_input_bytes / unit.size()) {
      ctx.r.error(times_node, "a repeat must give between 1 byte and 64 MiB");
      return false;
    }
    if (unit.size() * *times > room) {
      ctx.r.error(times_node, "the input is larger than 64 MiB");
      return false;
    }
    if (!ctx.r.charge(times_node, unit.size() * *times, "this repeat")) return false;
    chunk.bytes = unit;
    chunk.times = *times;
    return true;
  }
  ctx.r.error(item, "an `input` chunk map is {hex: ...}, {base64: ...} or {repeat: \"...\", times: N}");
  return false;
}

// Appends one chunk to the case's input, refusing an input over 64 MiB.
bool add_chunk(case_file& ctx, const ssec::yaml::node& node, input_piece&& chunk, pending_input& input, test_case& c) {
  const std::size_t size = chunk.bytes.size() * static_cast<std::size_t>(chunk.times);
  if (size > max_input_bytes - input.size) {
    ctx.r.error(node, "the input is larger than 64 MiB");
    return false;
  }
  c.written_chunks.push_back(size);
  input.size += size;
  input.pieces.push_back(std::move(chunk));
  return true;
}

// Checks the input and books it against the file's budget; the bytes are
// built from `input` once the whole case has loaded.
bool load_input(case_file& ctx, const ssec::yaml::entry& e, pending_input& input, test_case& c) {
  const std::string& key = e.key;
  const ssec::yaml::node& node = e.value;
  input = pending_input{};
  c.written_chunks.clear();
  if (key == "input") {
    if (!node.is_sequence() || node.size() == 0) {
      ctx.r.error(
          node,
          "`input` must be a non-empty list of chunks, e.g. [\"data: a\\n\\n\"] (use [\"\"] for an empty stream)");
      return false;
    }
    for (const auto& item : node.items()) {
      input_piece chunk;
      if (!load_input_item(ctx, item, chunk, max_input_bytes - input.size) ||
          !add_chunk(ctx, node, std::move(chunk), input, c))
        return false;
    }
    return true;
  }
  const bool hex = key == "input_hex";
  auto items = ctx.r.string_items(e, "", {.single_ok = true, .empty_list_ok = true, .empty_items_ok = true});
  if (!items) return false;
  for (const auto& [text, item] : *items) {
    if (!ctx.r.charge(item, hex ? text.size() / 2 : text.size() / 4 * 3,
                      hex ? "this `input_hex` item" : "this `input_base64` item"))
      return false;
    auto bytes = hex ? parse_hex(text) : ssec::base64_decode(text);
    if (!bytes) {
      ctx.r.error(item, hex ? "`input_hex` must be pairs of hex digits, optionally separated by spaces"
                            : "`input_base64` must be standard base64 (RFC 4648, no whitespace)");
      return false;
    }
    if (!add_chunk(ctx, node, input_piece{std::move(*bytes)}, input, c)) return false;
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
std::size_t log_file_line(const case_file& ctx, const ssec::yaml::node& n, std::size_t text_line) {
  const char style = start_char(ctx, n);
  const auto base = static_cast<std::size_t>(n.mark().line) + 1;
  return style == '|' ? base + 1 + text_line : base + text_line;
}

bool load_events(case_file& ctx, const ssec::yaml::node& n, test_case& c) {
  if (!n.is_scalar()) {
    ctx.r.error(n, "`events` must be the expected log as text: a literal block (|) or \"\" for none");
    return false;
  }
  if (start_char(ctx, n) == '>') {
    ctx.r.error(n, "`events` must be a literal block (|), not a folded one (>): folding joins log lines");
    return false;
  }
  // The log's values count against the file's budget too (`"x"*N` repeats).
  auto parsed = parse_log(n.scalar(), ctx.r.remaining());
  if (parsed && !ctx.r.charge(n, parsed->bytes, "`events`")) return false;
  if (!parsed) {
    const ssec::error& bad = parsed.error();  // 1-based line and column in the log text
    const std::size_t line = log_file_line(ctx, n, bad.line - 1);
    // A literal block strips the same indentation from every line: the file
    // line ends with the log line, so the column shifts by the difference.
    std::size_t column = 0;
    if (start_char(ctx, n) == '|') {
      const std::string_view file_line = nth_line(ctx.text, line - 1);
      const std::string_view log_line = nth_line(n.scalar(), bad.line - 1);
      if (file_line.ends_with(log_line)) column = file_line.size() - log_line.size() + bad.column;
    }
    ctx.r.error(line, column, "in `events`: " + bad.message);
    return false;
  }
  auto& log = parsed.value();
  c.events = std::move(log.lines);
  c.event_lines.clear();
  for (const auto line : log.text_lines) c.event_lines.push_back(log_file_line(ctx, n, line));
  return true;
}

bool load_limits(case_file& ctx, const ssec::yaml::node& n, test_case& c) {
  if (!n.is_map()) {
    ctx.r.error(n, "`limits` must be a map: {max_line: N, max_event_data: N}");
    return false;
  }
  const auto keys = ctx.r.read_mapping(n, "`limits`", {"max_line", "max_event_data"});
  if (!keys || !keys->complete) return false;
  sse::limits lim;
  for (const auto& e : keys->entries) {
    const auto v = ctx.r.unsigned_integer(e, "", 1);
    if (!v) return false;
    (e.key == "max_line" ? lim.max_line : lim.max_event_data) = static_cast<std::size_t>(*v);
  }
  if (keys->entries.empty()) {
    ctx.r.error(n, "`limits` names no limit");
    return false;
  }
  c.limits = lim;
  return true;
}

bool load_dialect_events(case_file& ctx, const ssec::yaml::node& n, test_case& c) {
  if (!n.is_scalar()) {
    ctx.r.error(n, "`dialect_events` must be text: one JSON object per line, in a literal block (|)");
    return false;
  }
  std::string_view text = n.scalar();
  std::size_t line = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string_view row = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    const std::size_t this_line = line++;
    if (row.find_first_not_of(' ') == std::string_view::npos) continue;
    auto j = nlohmann::json::parse(row, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      ctx.r.error(log_file_line(ctx, n, this_line), 1, "in `dialect_events`: each line must be one JSON object");
      return false;
    }
    c.dialect_events.push_back(std::move(j));
  }
  c.has_dialect_events = true;
  return true;
}

// Reads one case; returns false (with errors reported) when it is not valid.
bool load_case(case_file& ctx, const ssec::yaml::node& node, std::string_view topic, const tag_list& tags,
               test_case& c) {
  if (!node.is_map()) {
    ctx.r.error(node, "each case must be a map of keys (id, name, from, tags, verdict, layer, input, events, ...)");
    return false;
  }
  const std::size_t errors_before = ctx.r.count();
  const auto keys_opt = ctx.r.read_mapping(node, "", allowed_keys());
  if (!keys_opt) return false;
  const ssec::yaml::mapping& keys = *keys_opt;
  c.where = source_location{ctx.r.file(), static_cast<std::size_t>(node.mark().line) + 1};
  c.topic = std::string(topic);

  ctx.r.require(keys, "", {"id", "name", "from", "tags", "verdict", "layer", "events"});
  // A client case scripts the server instead of giving one input stream.
  const auto* layer_entry = keys.find("layer");
  const bool client =
      layer_entry != nullptr && layer_entry->value.is_scalar() && layer_entry->value.scalar() == "client";
  const int inputs = static_cast<int>(keys.has("input")) + static_cast<int>(keys.has("input_hex")) +
                     static_cast<int>(keys.has("input_base64"));
  if (client && inputs != 0) {
    ctx.r.error(node, "a client case has no `input`: its `responses` are what the server sends");
  } else if (!client && inputs != 1) {
    ctx.r.error(node, "a case needs exactly one of `input`, `input_hex`, `input_base64`");
  }
  if (!client) {
    for (const char* key : {"responses", "requests", "close_after_events", "limit_ms", "settle_ms"}) {
      if (keys.has(key)) ctx.r.error(keys.find(key)->key_node, std::string("`") + key + "` belongs to client cases");
    }
  }
  if (ctx.r.count() != errors_before) return false;

  // Emptiness and spaces are checked below, with messages that say what each value is for.
  constexpr ssec::yaml::list_rules any_strings{.single_ok = true, .empty_list_ok = true, .empty_items_ok = true};
  const auto field = [&](const char* key) -> const ssec::yaml::entry& { return *keys.find(key); };
  const auto value = [&](const char* key) -> const ssec::yaml::node& { return field(key).value; };

  if (auto id = ctx.r.text(field("id"), "", true)) {
    c.id = *id;
    if (!is_valid_case_id(c.id)) {
      ctx.r.error(value("id"),
                  "id `" + c.id + "` must be 4 characters of A-H J-N P-Z 2-9 with at least one letter and one digit");
    }
  }
  if (auto name = ctx.r.text(field("name"), "", true)) {
    c.name = *name;
    if (c.name.empty() || c.name.find('\n') != std::string::npos)
      ctx.r.error(value("name"), "`name` must be one non-empty line");
  }
  if (keys.has("note")) {
    if (auto note = ctx.r.text(field("note"), "", true)) c.note = *note;
  }
  if (auto from = ctx.r.string_items(field("from"), "", any_strings)) {
    for (const auto& [text, item] : *from) {
      if (text.empty() || text.find_first_of(" \t\n") != std::string::npos) {
        ctx.r.error(item, "each `from` entry is one URL or repository reference, without spaces");
      }
      c.from.push_back(text);
    }
    if (c.from.empty()) ctx.r.error(value("from"), "`from` must name at least one source");
  }
  if (value("tags").is_sequence() && value("tags").size() > 0) {
    for (const auto& item : value("tags").items()) {
      if (!item.is_scalar()) {
        ctx.r.error(item, "each tag must be a single name");
        continue;
      }
      const std::string tag = item.scalar();
      if (!tags.contains(tag)) ctx.r.error(item, "tag `" + tag + "` is not in spec/tags.yaml");
      else if (std::find(c.tags.begin(), c.tags.end(), tag) != c.tags.end())
        ctx.r.error(item, "tag `" + tag + "` repeated");
      c.tags.push_back(tag);
    }
  } else {
    ctx.r.error(value("tags"), "`tags` must be a non-empty list of tags from spec/tags.yaml");
  }
  if (auto v = ctx.r.text(field("verdict"), "", true)) {
    if (auto parsed = verdict_from_string(*v)) c.verdict = *parsed;
    else ctx.r.error(value("verdict"), "`verdict` must be must, should or impl");
  }
  if (auto l = ctx.r.text(field("layer"), "", true)) {
    if (auto parsed = layer_from_string(*l)) c.layer = *parsed;
    else ctx.r.error(value("layer"), "`layer` must be wire, chat, code, agent, workflow or client");
  }
  pending_input input;
  for (const char* key : {"input", "input_hex", "input_base64"}) {
    if (keys.has(key)) load_input(ctx, field(key), input, c);
  }
  load_events(ctx, value("events"), c);
  if (client) load_client_script(ctx.r, keys, node, c);
  if (keys.has("limits")) load_limits(ctx, value("limits"), c);
  if (keys.has("no_scan")) {
    if (auto reason = ctx.r.text(field("no_scan"), "", true)) {
      if (reason->empty()) ctx.r.error(value("no_scan"), "`no_scan` must give the reason");
      c.no_scan = *reason;
    }
  }
  if (keys.has("needs")) {
    if (auto needs = ctx.r.string_items(field("needs"), "", any_strings)) {
      const auto& known = known_capabilities();
      for (const auto& [name, item] : *needs) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
          ctx.r.error(item, "`" + name + "` is not an adapter capability (see tools/docs/adapter-protocol.md)");
        }
        c.needs.push_back(name);
      }
    }
  }
  if (keys.has("dialect_events")) load_dialect_events(ctx, value("dialect_events"), c);
  if (keys.has("findings")) {
    if (auto findings = ctx.r.string_items(field("findings"), "", any_strings)) {
      for (const auto& [rule, item] : *findings) {
        if (rule.empty() || rule.find_first_of(" \t\n") != std::string::npos)
          ctx.r.error(item, "a finding is one rule id");
        c.findings.push_back(rule);
      }
      if (c.findings.empty())
        ctx.r.error(value("findings"),
                    "`findings` lists the rule ids the stream breaks; write `conforming: true` for none");
    }
  }
  if (keys.has("conforming")) {
    const auto& n = value("conforming");
    if (!n.is_scalar() || n.scalar() != "true")
      ctx.r.error(n, "`conforming` can only be `true`; list broken rules in `findings`");
    c.conforming = true;
  }
  if (ctx.r.count() != errors_before) return false;

  // Rules that tie fields together.
  if (c.verdict == verdict::impl && std::none_of(c.from.begin(), c.from.end(), [](const std::string& f) {
        return f.starts_with(decisions_prefix);
      })) {
    ctx.r.error(value("from"), "an `impl` case must cite the decision it follows (spec/DECISIONS.md#anchor) in `from`");
  }
  if (c.limits && c.verdict != verdict::impl) {
    ctx.r.error(value("limits"), "a case that sets `limits` tests our choice of limits: its verdict must be impl");
  }
  const bool fatal = std::any_of(c.events.begin(), c.events.end(),
                                 [](const log_line& l) { return std::holds_alternative<log_error>(l); });
  if (fatal && c.verdict != verdict::impl) {
    ctx.r.error(value("events"), "a fatal `error` comes from a limit of the reference: the verdict must be impl");
  }
  if (c.layer == layer::wire || c.layer == layer::client) {
    for (const char* key : {"dialect_events", "findings", "conforming"}) {
      if (keys.has(key)) {
        ctx.r.error(field(key).key_node,
                    std::string("`") + key + "` belongs to dialect layers, not " + std::string(to_string(c.layer)));
      }
    }
  } else {
    if (!keys.has("dialect_events") && !keys.has("findings") && !keys.has("conforming")) {
      ctx.r.error(node, "a " + std::string(to_string(c.layer)) +
                            " case must expect something of its layer: dialect_events, findings or conforming");
    }
    if (keys.has("findings") && keys.has("conforming")) {
      ctx.r.error(value("conforming"), "`conforming: true` and `findings` contradict each other");
    }
  }
  if (ctx.r.count() != errors_before) return false;
  c.input = std::move(input).build();
  return true;
}

}  // namespace

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

tag_list load_tags_from_text(std::string_view text, std::string_view display, std::vector<ssec::error>& errors) {
  tag_list out;
  ssec::yaml::reader r(std::string(display), errors);
  const auto root = ssec::yaml::load_document(std::string(text), r.file());
  if (!root) {
    errors.push_back(root.error());
    return out;
  }
  if (!root->is_map() || !(*root)["tags"] || !(*root)["tags"].is_map() || root->size() != 1) {
    r.error(*root, "the tag list must be a map with the single key `tags`, mapping each tag to its description");
    return out;
  }
  const auto list = r.read_mapping((*root)["tags"], "`tags`", {});
  for (const auto& e : list->entries) {
    if (!is_kebab_name(e.key)) {
      r.error(e.key_node, "tag `" + e.key + "` must be lowercase kebab-case (a-z, 0-9, -)");
      continue;
    }
    if (!e.value.is_scalar() || e.value.scalar().empty() || e.value.scalar().find('\n') != std::string::npos) {
      r.error(e.value, "tag `" + e.key + "` needs a one-line description");
      continue;
    }
    out.descriptions.emplace(e.key, e.value.scalar());
  }
  return out;
}

tag_list load_tags(const std::filesystem::path& path, std::string_view display, std::vector<ssec::error>& errors) {
  auto text = ssec::read_document(path.string());
  if (!text) {
    // read_all's message names the path it opened; the error names the file once, as `display`.
    errors.push_back(ssec::error{text.error().message, std::string(display)});
    return {};
  }
  return load_tags_from_text(text.value(), display, errors);
}

ssec::load_result<std::vector<test_case>> load_cases_from_text(std::string_view text, std::string_view display,
                                                               std::string_view topic, const tag_list& tags) {
  return load_cases_from_text(text, display, topic, tags, ssec::yaml::default_build_budget);
}

namespace {

// load_cases_from_text that adds what the file's cases built to `built`.
ssec::load_result<std::vector<test_case>> load_cases_counted(std::string_view text, std::string_view display,
                                                             std::string_view topic, const tag_list& tags,
                                                             std::uint64_t build_budget, std::uint64_t& built,
                                                             const std::string& budget_name = {}) {
  ssec::load_result<std::vector<test_case>> out;
  case_file ctx{ssec::yaml::reader(std::string(display), out.errors, build_budget), text};
  if (!budget_name.empty()) ctx.r.name_budget(budget_name);
  // Counted on every way out, refusals included: what was booked was built.
  const struct count_built {
    const ssec::yaml::reader& r;
    std::uint64_t& total;
    ~count_built() { total += r.built(); }
  } counted{ctx.r, built};
  if (text.starts_with("\xEF\xBB\xBF")) {
    ctx.r.error(1, 1, "case files must not start with a byte order mark (it would shift every position)");
    return out;
  }
  const auto root = ssec::yaml::load_document(std::string(text), ctx.r.file());
  if (!root) {
    out.errors.push_back(root.error());
    return out;
  }
  if (!root->is_sequence()) {
    ctx.r.error(1, 1, "a case file must be one YAML document: a list of cases (`- id: ...`)");
    return out;
  }
  std::map<std::string, std::size_t> first_line;
  for (const auto& node : root->items()) {
    test_case c;
    if (!load_case(ctx, node, topic, tags, c)) continue;
    if (const auto seen = first_line.find(c.id); seen != first_line.end()) {
      ctx.r.error(node, "duplicate id `" + c.id + "` (first at line " + std::to_string(seen->second) + ")");
      continue;
    }
    first_line.emplace(c.id, c.where.line);
    out.value.push_back(std::move(c));
  }
  return out;
}

}  // namespace

ssec::load_result<std::vector<test_case>> load_cases_from_text(std::string_view text, std::string_view display,
                                                               std::string_view topic, const tag_list& tags,
                                                               std::uint64_t build_budget) {
  std::uint64_t built = 0;
  return load_cases_counted(text, display, topic, tags, build_budget, built);
}

namespace {

// load_case_file within `budget`, adding what it built to `built`.
ssec::load_result<std::vector<test_case>> load_case_file_counted(const std::filesystem::path& path,
                                                                 std::string_view display, const tag_list& tags,
                                                                 std::uint64_t budget, std::uint64_t& built,
                                                                 const std::string& budget_name = {}) {
  auto text = ssec::read_document(path.string());
  if (!text) {
    ssec::load_result<std::vector<test_case>> out;
    out.errors.push_back(ssec::error{text.error().to_string(), std::string(display)});
    return out;
  }
  return load_cases_counted(text.value(), display, path.stem().string(), tags, budget, built, budget_name);
}

}  // namespace

ssec::load_result<std::vector<test_case>> load_case_file(const std::filesystem::path& path, std::string_view display,
                                                         const tag_list& tags) {
  std::uint64_t built = 0;
  return load_case_file_counted(path, display, tags, ssec::yaml::default_build_budget, built);
}

ssec::load_result<std::vector<test_case>> load_case_tree(const std::filesystem::path& root,
                                                         std::string_view display_root, const tag_list& tags,
                                                         std::uint64_t tree_budget) {
  ssec::load_result<std::vector<test_case>> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) {
    out.errors.push_back(ssec::error{"not a directory of case files", std::string(display_root)});
    return out;
  }
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".yaml") files.push_back(it->path());
  }
  if (ec) {
    out.errors.push_back(ssec::error{"cannot list the case files: " + ec.message(), std::string(display_root)});
    return out;
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, source_location> seen;
  std::uint64_t built = 0;
  for (const auto& file : files) {
    const std::string display =
        std::string(display_root) + "/" + std::filesystem::relative(file, root).generic_string();
    // Each file builds within its own budget and what the files before it left of the load's.
    const std::uint64_t left = tree_budget - std::min(built, tree_budget);
    const bool tree_bound = left < ssec::yaml::default_build_budget;
    auto one = load_case_file_counted(file, display, tags, tree_bound ? left : ssec::yaml::default_build_budget, built,
                                      tree_bound ? "this load's budget of " + ssec::yaml::size_text(tree_budget) +
                                                       " (the case files before it built " +
                                                       ssec::yaml::size_text(tree_budget - left) + ")"
                                                 : std::string());
    out.errors.insert(out.errors.end(), one.errors.begin(), one.errors.end());
    for (auto& c : one.value) {
      if (const auto first = seen.find(c.id); first != seen.end()) {
        out.errors.push_back(ssec::error{"duplicate id `" + c.id + "` (first at " + first->second.to_string() + ")",
                                         c.where.file, c.where.line});
        continue;
      }
      seen.emplace(c.id, c.where);
      out.value.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace ssec::conformance
