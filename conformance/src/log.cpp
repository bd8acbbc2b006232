// SPDX-License-Identifier: MIT
#include "ssec/conformance/log.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {
namespace {

// A repeated string expands to at most this many bytes: a typo in a count
// must not exhaust memory.
constexpr std::uint64_t max_value_bytes = std::uint64_t{256} << 20;

std::string mib(std::uint64_t bytes) {
  return bytes % (std::uint64_t{1} << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : counted(bytes, "byte");
}

template <class Code>
std::optional<Code> code_from_name(std::string_view name) {
  for (unsigned v = 0; v < 256; ++v) {
    const auto code = static_cast<Code>(v);
    const std::string_view known = sse::to_string(code);
    if (known != "unknown" && known == name) return code;
  }
  return std::nullopt;
}

// --- Reading ----------------------------------------------------------------

class line_reader {
 public:
  /// `built` counts the bytes of every value read, across the lines of a
  /// log; no value is built that would take it over `max_built`.
  line_reader(std::string_view line, std::uint64_t& built, std::uint64_t max_built)
      : line_(line), built_(&built), max_built_(max_built) {}

  std::size_t column() const { return pos_; }
  bool at_end() const { return pos_ >= line_.size(); }
  const std::string& error() const { return error_; }
  std::size_t error_column() const { return error_column_; }

  void skip_spaces() {
    while (pos_ < line_.size() && line_[pos_] == ' ') ++pos_;
  }

  bool fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_column_ = pos_;
    }
    return false;
  }

  std::string_view word() {
    const std::size_t start = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ') ++pos_;
    return line_.substr(start, pos_ - start);
  }

  // Expects `text` (after optional spaces).
  bool expect(std::string_view text) {
    skip_spaces();
    if (line_.substr(pos_, text.size()) != text) return fail("expected `" + std::string(text) + "`");
    pos_ += text.size();
    return true;
  }

  bool number(std::uint64_t& out) {
    skip_spaces();
    const std::size_t start = pos_;
    while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') ++pos_;
    if (start == pos_) return fail("expected a decimal number");
    const auto [ptr, ec] = std::from_chars(line_.data() + start, line_.data() + pos_, out);
    if (ec != std::errc()) {
      pos_ = start;
      return fail("number does not fit in 64 bits");
    }
    (void)ptr;
    return true;
  }

  bool end() {
    skip_spaces();
    if (!at_end()) return fail("unexpected text after the line's last value");
    return true;
  }

  // value := piece (" + " piece)*; piece := '"' chars '"' ['*' count]
  bool value(std::string& out) {
    out.clear();
    skip_spaces();
    for (;;) {
      std::string piece;
      if (!quoted(piece)) return false;
      std::uint64_t times = 1;
      if (pos_ < line_.size() && line_[pos_] == '*') {
        ++pos_;
        const std::size_t start = pos_;
        while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') ++pos_;
        const auto [ptr, ec] = std::from_chars(line_.data() + start, line_.data() + pos_, times);
        (void)ptr;
        if (start == pos_ || ec != std::errc()) {
          pos_ = start;
          return fail("expected a repeat count after `*`");
        }
      }
      if (!piece.empty() && times > (max_value_bytes - out.size()) / piece.size()) {
        return fail("value longer than 256 MiB");
      }
      // Checked before building: a log of many long repeats is refused as a whole.
      const std::uint64_t more = piece.size() * (times > 0 ? times - 1 : 0);
      if (more > max_built_ - std::min(max_built_, *built_ + piece.size())) {
        return fail("the log's values would build more than " + mib(max_built_) + " (repeats multiplied)");
      }
      *built_ += piece.size() + more;
      append_repeated(out, piece, times);
      const std::size_t save = pos_;
      skip_spaces();
      if (pos_ < line_.size() && line_[pos_] == '+') {
        ++pos_;
        skip_spaces();
        continue;
      }
      pos_ = save;
      return true;
    }
  }

 private:
  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool quoted(std::string& out) {
    if (pos_ >= line_.size() || line_[pos_] != '"') return fail("expected a double-quoted string");
    ++pos_;
    while (pos_ < line_.size()) {
      const char c = line_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      const auto u = static_cast<unsigned char>(c);
      if (c != '\\') {
        if (u < 0x20 || u >= 0x7F) {
          return fail("write this character as an escape (\\t, \\uXXXX, ...): log values are printable ASCII");
        }
        out.push_back(c);
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= line_.size()) return fail("unfinished escape");
      const char e = line_[pos_ + 1];
      std::size_t digits = 0;
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case '0': out.push_back('\0'); break;
        case 'u': digits = 4; break;
        case 'U': digits = 8; break;
        case 'x': return fail("`\\x` is not a log escape: values are text, write U+00NN as \\u00NN");
        default: return fail(std::string("unknown escape `\\") + e + "`");
      }
      if (digits == 0) {
        pos_ += 2;
        continue;
      }
      if (pos_ + 2 + digits > line_.size()) return fail("expected " + std::to_string(digits) + " hex digits");
      std::uint32_t cp = 0;
      for (std::size_t i = 0; i < digits; ++i) {
        const int d = hex_digit(line_[pos_ + 2 + i]);
        if (d < 0) return fail("expected " + std::to_string(digits) + " hex digits");
        cp = cp * 16 + static_cast<std::uint32_t>(d);
      }
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return fail("not a Unicode scalar value");
      append_utf8(out, cp);
      pos_ += 2 + digits;
    }
    return fail("unterminated string");
  }

  std::string_view line_;
  std::uint64_t* built_;
  std::uint64_t max_built_;
  std::size_t pos_ = 0;
  std::string error_;
  std::size_t error_column_ = 0;
};

std::optional<log_line> parse_line(line_reader& in) {
  const std::string_view keyword = in.word();
  if (keyword == "event") {
    sse::event e;
    if (in.expect("type=") && in.value(e.type) && in.expect("data=") && in.value(e.data) && in.expect("last_id=") &&
        in.value(e.last_event_id) && in.end()) {
      return log_event{std::move(e)};
    }
    return std::nullopt;
  }
  if (keyword == "retry") {
    std::uint64_t ms = 0;
    if (in.number(ms) && in.end()) return log_retry{ms};
    return std::nullopt;
  }
  if (keyword == "comment") {
    std::string text;
    if (in.value(text) && in.end()) return log_comment{std::move(text)};
    return std::nullopt;
  }
  if (keyword == "last_id") {
    std::string id;
    if (in.value(id) && in.end()) return log_last_id{std::move(id)};
    return std::nullopt;
  }
  if (keyword == "diag" || keyword == "error") {
    in.skip_spaces();
    const std::size_t at = in.column();
    const std::string name(in.word());
    std::uint64_t offset = 0;
    if (keyword == "diag") {
      const auto code = code_from_name<sse::diag>(name);
      if (!code) {
        in.fail("unknown diagnostic `" + name + "` (see sse::diag in parser/include/sse/errc.hpp)");
        return std::nullopt;
      }
      if (in.expect("off=") && in.number(offset) && in.end()) return log_diag{*code, offset};
      return std::nullopt;
    }
    const auto code = code_from_name<sse::errc>(name);
    if (!code || !sse::is_fatal(*code)) {
      (void)at;
      in.fail("`" + name + "` is not a fatal parser error (see sse::errc in parser/include/sse/errc.hpp)");
      return std::nullopt;
    }
    if (in.expect("off=") && in.number(offset) && in.end()) return log_error{*code, offset};
    return std::nullopt;
  }
  in.fail("unknown line `" + std::string(keyword) + "`: expected event, retry, comment, diag, error or last_id");
  return std::nullopt;
}

std::string truncated(std::string text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  const std::size_t more = text.size() - max_chars;
  text.resize(max_chars);
  return text + " ... (" + std::to_string(more) + " more characters)";
}

// --- Comparing --------------------------------------------------------------

std::size_t channel(const log_line& line) {
  switch (line.index()) {
    case 0: return 0;   // event
    case 1: return 1;   // retry
    case 2: return 2;   // comment
    case 3: return 3;   // diag
    case 4:             // error
    case 5: return 4;   // rejected
    default: return 5;  // last_id
  }
}
constexpr std::size_t channel_count = 6;

// Where two strings first differ, with a short excerpt of each around it.
std::string first_difference(std::string_view member, std::string_view want, std::string_view got) {
  std::size_t k = 0;
  while (k < want.size() && k < got.size() && want[k] == got[k]) ++k;
  const std::size_t from = k > 24 ? k - 24 : 0;
  std::string out = std::string(member) + " differs at byte " + std::to_string(k) + " (expected " +
                    ssec::counted(want.size(), "byte") + ", got " + ssec::counted(got.size(), "byte") + "): expected ";
  out += from > 0 ? "..." : "";
  out += quote(want.substr(std::min(from, want.size()), 64));
  out += want.size() > from + 64 ? "..." : "";
  out += ", got ";
  out += from > 0 ? "..." : "";
  out += quote(got.substr(std::min(from, got.size()), 64));
  out += got.size() > from + 64 ? "..." : "";
  return out;
}

std::string explain(const log_line& want, const log_line& got) {
  const auto* a = std::get_if<log_event>(&want);
  const auto* b = std::get_if<log_event>(&got);
  if (!a || !b) return {};
  if (a->event.type != b->event.type) return first_difference("type", a->event.type, b->event.type);
  if (a->event.data != b->event.data) return first_difference("data", a->event.data, b->event.data);
  if (a->event.last_event_id != b->event.last_event_id) {
    return first_difference("last_id", a->event.last_event_id, b->event.last_event_id);
  }
  return {};
}

}  // namespace

ssec::result<parsed_log> parse_log(std::string_view text, std::uint64_t max_bytes) {
  parsed_log out;
  std::size_t line_no = 0;
  std::optional<std::size_t> error_line;
  std::optional<std::size_t> last_id_line;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    const std::size_t this_line = line_no++;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t first = 0;
    while (first < line.size() && line[first] == ' ') ++first;
    if (first == line.size() || line[first] == '#') continue;
    line_reader in(line.substr(first), out.bytes, max_bytes);
    auto parsed = parse_line(in);
    // Positions in the error are 1-based, as every ssec::error's.
    const auto fail = [&](std::size_t column, std::string message) {
      return ssec::error{std::move(message), {}, this_line + 1, column + 1};
    };
    if (!parsed) return fail(first + in.error_column(), in.error());
    if (last_id_line) return fail(first, "nothing may follow the `last_id` line (it is the state at the end)");
    if (error_line && !std::holds_alternative<log_last_id>(*parsed)) {
      return fail(first, "only `last_id` may follow an `error` line (the error is fatal)");
    }
    if (std::holds_alternative<log_error>(*parsed)) error_line = this_line;
    if (std::holds_alternative<log_last_id>(*parsed)) last_id_line = this_line;
    out.lines.push_back(std::move(*parsed));
    out.text_lines.push_back(this_line);
  }
  return out;
}

std::string format_line(const log_line& line) {
  struct visitor {
    std::string operator()(const log_event& e) const {
      return "event type=" + quote(e.event.type) + " data=" + quote(e.event.data) +
             " last_id=" + quote(e.event.last_event_id);
    }
    std::string operator()(const log_retry& r) const { return "retry " + std::to_string(r.milliseconds); }
    std::string operator()(const log_comment& c) const { return "comment " + quote(c.text); }
    std::string operator()(const log_diag& d) const {
      return "diag " + std::string(sse::to_string(d.code)) + " off=" + std::to_string(d.offset);
    }
    std::string operator()(const log_error& e) const {
      return "error " + std::string(sse::to_string(e.code)) + " off=" + std::to_string(e.offset);
    }
    std::string operator()(const log_rejected& r) const {
      return r.reason.empty() ? std::string("rejected") : "rejected " + quote(r.reason);
    }
    std::string operator()(const log_last_id& l) const { return "last_id " + quote(l.id); }
  };
  return std::visit(visitor{}, line);
}

std::string format_log(const event_log& log, std::string_view indent) {
  std::string out;
  for (const auto& line : log) {
    out += indent;
    out += format_line(line);
    out.push_back('\n');
  }
  return out;
}

event_log reference_log(const sse::recording& rec) {
  event_log out;
  out.reserve(rec.events.size() + rec.retries.size() + rec.comments.size() + rec.diagnostics.size() + 2);
  for (const auto& e : rec.events) out.emplace_back(log_event{e});
  for (const auto ms : rec.retries) out.emplace_back(log_retry{ms});
  for (const auto& c : rec.comments) out.emplace_back(log_comment{c});
  for (const auto& d : rec.diagnostics) out.emplace_back(log_diag{d.code, d.offset});
  if (sse::is_fatal(rec.status)) out.emplace_back(log_error{rec.status, rec.error_offset});
  out.emplace_back(log_last_id{rec.last_event_id});
  return out;
}

event_log external_log(const external_result& result) {
  if (result.error) return {log_rejected{*result.error}};
  event_log out;
  out.reserve(result.events.size() + 1);
  for (const auto& e : result.events) out.emplace_back(log_event{e});
  if (result.retry) out.emplace_back(log_retry{*result.retry});
  return out;
}

event_log reference_view(const event_log& expected) {
  event_log out = expected;
  const bool has_last_id =
      std::any_of(out.begin(), out.end(), [](const log_line& l) { return std::holds_alternative<log_last_id>(l); });
  if (!has_last_id) {
    std::string implied;
    for (const auto& line : out) {
      if (const auto* e = std::get_if<log_event>(&line)) implied = e->event.last_event_id;
    }
    out.emplace_back(log_last_id{std::move(implied)});
  }
  return out;
}

event_log external_view(const event_log& expected) {
  const bool fatal = std::any_of(expected.begin(), expected.end(),
                                 [](const log_line& l) { return std::holds_alternative<log_error>(l); });
  if (fatal) return {log_rejected{}};
  event_log out;
  std::optional<std::uint64_t> retry;
  for (const auto& line : expected) {
    if (const auto* e = std::get_if<log_event>(&line)) out.push_back(*e);
    if (const auto* r = std::get_if<log_retry>(&line)) retry = r->milliseconds;
  }
  if (retry) out.emplace_back(log_retry{*retry});
  return out;
}

std::optional<log_difference> compare_logs(const event_log& expected, const event_log& got) {
  // A rejection on one side only is the difference that matters, whatever
  // else the logs hold: show it first.
  const auto rejection = [](const event_log& log) {
    return std::find_if(log.begin(), log.end(),
                        [](const log_line& l) { return std::holds_alternative<log_rejected>(l); });
  };
  const bool expected_rejects = rejection(expected) != expected.end();
  const bool got_rejects = rejection(got) != got.end();
  if (expected_rejects != got_rejects) {
    log_difference diff;
    diff.expected_line = expected_rejects   ? format_line(*rejection(expected))
                         : expected.empty() ? "(end of log)"
                                            : format_line(expected.front());
    diff.got_line = got_rejects   ? format_line(*rejection(got))
                    : got.empty() ? "(end of log)"
                                  : format_line(got.front());
    diff.got_arranged = got;
    return diff;
  }

  // The got lines of each kind, in order.
  std::array<std::vector<std::size_t>, channel_count> queues;
  for (std::size_t i = 0; i < got.size(); ++i) queues[channel(got[i])].push_back(i);
  std::array<std::size_t, channel_count> next{};

  // Arrange: each expected line takes the next got line of its kind (or a
  // hole when there is none left); leftovers follow, kind by kind.
  std::vector<const log_line*> arranged;
  arranged.reserve(std::max(expected.size(), got.size()));
  for (const auto& want : expected) {
    const std::size_t c = channel(want);
    arranged.push_back(next[c] < queues[c].size() ? &got[queues[c][next[c]++]] : nullptr);
  }
  for (std::size_t c = 0; c < channel_count; ++c) {
    for (; next[c] < queues[c].size(); ++next[c]) arranged.push_back(&got[queues[c][next[c]]]);
  }

  for (std::size_t i = 0; i < arranged.size() || i < expected.size(); ++i) {
    const log_line* want = i < expected.size() ? &expected[i] : nullptr;
    const log_line* have = i < arranged.size() ? arranged[i] : nullptr;
    if (want && have && *want == *have) continue;
    log_difference diff;
    diff.index = i;
    diff.expected_line = want ? format_line(*want) : "(end of log)";
    diff.got_line = have ? format_line(*have) : (i < arranged.size() ? "(no such line)" : "(end of log)");
    if (want && have) diff.detail = explain(*want, *have);
    for (const log_line* line : arranged) {
      if (line) diff.got_arranged.push_back(*line);
    }
    return diff;
  }
  return std::nullopt;
}

std::optional<log_difference> compare_reference(const event_log& expected, const sse::recording& rec) {
  return compare_logs(reference_view(expected), reference_log(rec));
}

std::optional<log_difference> compare_external(const event_log& expected, const external_result& result) {
  return compare_logs(external_view(expected), external_log(result));
}

std::string describe(const log_difference& diff, const event_log& expected_view) {
  constexpr std::size_t line_chars = 400;
  constexpr std::size_t context = 6;
  std::string out = "first difference at log line " + std::to_string(diff.index + 1) + ":\n";
  out += "  expected: " + truncated(diff.expected_line, line_chars) + "\n";
  out += "  got:      " + truncated(diff.got_line, line_chars) + "\n";
  if (!diff.detail.empty()) out += "  " + diff.detail + "\n";
  const auto window = [&](const event_log& log, std::string_view title) {
    out += std::string(title) + " (" + std::to_string(log.size()) + " lines):\n";
    const std::size_t from = diff.index > context ? diff.index - context : 0;
    const std::size_t to = std::min(log.size(), diff.index + context + 1);
    if (from > 0) out += "  ... " + std::to_string(from) + " lines before\n";
    for (std::size_t i = from; i < to; ++i) {
      out += (i == diff.index ? "> " : "  ") + truncated(format_line(log[i]), line_chars) + "\n";
    }
    if (to < log.size()) out += "  ... " + std::to_string(log.size() - to) + " lines after\n";
  };
  window(expected_view, "expected log");
  window(diff.got_arranged, "got log");
  return out;
}

}  // namespace ssec::conformance
