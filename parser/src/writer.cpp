// SPDX-License-Identifier: MIT
#include "sse/writer.hpp"

#include <charconv>

#include "sse/utf8.hpp"

namespace sse {
namespace {

bool has_line_break(std::string_view s) noexcept { return s.find_first_of("\r\n") != std::string_view::npos; }

// Appends `name: value` lines, one per LF-separated piece of `value`. The space
// after the colon is written before every non-empty piece, so a value that
// itself starts with a space keeps it (parsers strip exactly one). Comments get
// no space: parsers strip nothing from them.
void append_lines(std::string& out, std::string_view name, std::string_view value, bool space = true) {
  for (;;) {
    const auto lf = value.find('\n');
    const std::string_view piece = value.substr(0, lf);
    out.append(name);
    out.push_back(':');
    if (space && !piece.empty()) out.push_back(' ');
    out.append(piece);
    out.push_back('\n');
    if (lf == std::string_view::npos) return;
    value.remove_prefix(lf + 1);
  }
}

}  // namespace

errc writer::write_event(std::string& out, const event& e) {
  const std::string_view type = e.type.empty() ? std::string_view("message") : std::string_view(e.type);
  if (has_line_break(type) || has_line_break(e.last_event_id) || e.data.find('\r') != std::string::npos) {
    return errc::value_has_line_break;
  }
  if (e.last_event_id.find('\0') != std::string::npos) return errc::id_has_nul;
  if (!utf8::is_valid(type) || !utf8::is_valid(e.data) || !utf8::is_valid(e.last_event_id)) {
    return errc::invalid_utf8;
  }
  if (type != "message") append_lines(out, "event", type);
  if (e.last_event_id != last_id_) {
    // A bare `id` line resets the id to the empty string.
    if (e.last_event_id.empty()) out.append("id\n");
    else append_lines(out, "id", e.last_event_id);
    last_id_ = e.last_event_id;
  }
  append_lines(out, "data", e.data);
  out.push_back('\n');
  return errc::ok;
}

errc writer::write_comment(std::string& out, std::string_view text) const {
  if (text.find('\r') != std::string_view::npos) return errc::value_has_line_break;
  if (!utf8::is_valid(text)) return errc::invalid_utf8;
  append_lines(out, "", text, false);
  return errc::ok;
}

void writer::write_retry(std::string& out, std::uint64_t ms) const {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, ms).ptr;
  out.append("retry: ");
  out.append(digits, end);
  out.append("\n\n");
}

}  // namespace sse
