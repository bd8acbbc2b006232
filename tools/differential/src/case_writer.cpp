// SPDX-License-Identifier: MIT
#include "ssec/differential/case_writer.hpp"

#include <algorithm>
#include <sstream>

#include "sse/utf8.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::differential {

namespace conf = ssec::conformance;

namespace {
constexpr std::string_view whatwg_parsing =
    "https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation";
constexpr std::string_view alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

std::string hex_item(std::string_view bytes) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out = "{hex: \"";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (i > 0) out += ' ';
    out += digits[b >> 4];
    out += digits[b & 0xF];
  }
  return out + "\"}";
}
// A name safe in a plain YAML scalar and a comment.
std::string plain(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    std::string_view("._@/+ -").find(ch) != std::string_view::npos;
    out += ok ? ch : '_';
  }
  return out.empty() ? std::string("unnamed") : out;
}
}  // namespace

std::string finding_id(std::string_view key) {
  std::uint64_t h = ssec::fnv1a(key);
  for (;; h = h * 0x100000001B3ULL + 1) {
    std::string id;
    std::uint64_t v = h;
    for (int i = 0; i < 4; ++i, v >>= 5) id += alphabet[v % alphabet.size()];
    const bool letter = std::any_of(id.begin(), id.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    const bool digit = std::any_of(id.begin(), id.end(), [](char ch) { return ch >= '2' && ch <= '9'; });
    if (letter && digit) return id;
  }
}

std::vector<std::string> tags_for(const conf::test_case& c) {
  std::vector<std::string> tags;
  const std::string_view in = c.input;
  const auto add = [&](const char* t) {
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.emplace_back(t);
  };
  if (in.starts_with("\xEF\xBB\xBF")) add("bom");
  bool lone_cr = false;
  for (std::size_t i = 0; i < in.size(); ++i) lone_cr |= in[i] == '\r' && (i + 1 == in.size() || in[i + 1] != '\n');
  if (in.find('\r') != std::string_view::npos) add("line-endings");
  if (lone_cr) add("lone-cr");
  if (in.find('\0') != std::string_view::npos) add("nul");
  if (!sse::utf8::is_valid(in)) add("invalid-utf8");
  else if (std::any_of(in.begin(), in.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; }))
    add("utf8");
  if (c.layer == conf::layer::wire) {
    if (in.find("id") != std::string_view::npos) add("id");
    if (in.find("retry") != std::string_view::npos) add("retry");
    if (in.starts_with(":") || in.find("\n:") != std::string_view::npos || in.find("\r:") != std::string_view::npos)
      add("comments");
    if (in.find("event") != std::string_view::npos) add("event-type");
    for (const auto& line : c.events) {
      if (const auto* d = std::get_if<conf::log_diag>(&line); d && d->code == sse::diag::unknown_field)
        add("unknown-field");
    }
    if (in.find("data") != std::string_view::npos) add("data");
  } else {
    for (const auto& e : c.dialect_events) {
      if (e.value("kind", "") == "unknown") add("unknown-type");
    }
    add("frame-shape");
  }
  if (c.written_chunks.size() > 1) add("chunking");
  if (tags.empty()) add("dispatch");
  return tags;
}

std::string finding_case_text(const conf::test_case& c, const divergence& d, const provenance& p) {
  std::ostringstream out;
  const std::string key =
      p.impl_name + "/" + d.fingerprint + (p.exemplar > 1 ? "#" + std::to_string(p.exemplar) : std::string());
  const std::string which = p.exemplar > 1 ? " (exemplar " + std::to_string(p.exemplar) + ")" : std::string();
  const std::string hash = [&] {
    std::ostringstream h;
    h << std::hex << ssec::fnv1a(key + "\n" + c.input);
    return h.str();
  }();
  out << "# Found by `sse-conform fuzz` (tools/docs/fuzz.md); review before moving it into conformance/cases/.\n"
      << "# fingerprint: " << d.fingerprint << which << "\n"
      << "# grade: " << conf::to_string(d.outcome) << "\n"
      << (p.compound_of.empty() ? std::string()
                                : "# compound of: " + ssec::join(p.compound_of, " + ") +
                                      " (the case needs both: without either of two of its lines it shows the other)\n")
      << "# implementation: " << plain(p.impl_name) << " " << plain(p.impl_version) << "\n"
      << "# provenance: seed=" << p.seed << " sample=" << p.sample_index << " generator=" << p.generator
      << " reference=\"" << plain(p.reference) << "\"\n";
  for (const auto& line : brief_difference(d.first_difference)) out << "#   " << line << "\n";
  out << "- id: " << finding_id(key) << "\n";
  out << "  name: Differential fuzzing of " << plain(p.impl_name) << " found " << d.fingerprint << which << "\n";
  out << "  from: [fuzz/" << hash;
  std::vector<std::string> decisions =
      d.outcome == conf::outcome::informational ? d.decisions : std::vector<std::string>{};
  for (const auto& dec : decisions) out << ", spec/DECISIONS.md#" << dec;
  if (c.layer == conf::layer::wire) out << ", " << whatwg_parsing;
  out << "]\n";
  out << "  tags: [" << ssec::join(tags_for(c), ", ") << "]\n";
  out << "  verdict: " << (decisions.empty() ? "must" : "impl") << "\n";
  out << "  layer: " << conf::to_string(c.layer) << "\n";
  out << "  note: >-\n    Shrunk by sse-conform fuzz from sample " << p.sample_index << " of seed " << p.seed
      << " (generator " << p.generator << ", reference " << plain(p.reference) << ") against " << plain(p.impl_name)
      << " " << plain(p.impl_version) << "; fingerprint " << d.fingerprint << ".\n";
  out << "  input:\n";
  std::size_t at = 0;
  for (const std::size_t n : c.written_chunks) {
    const std::string_view chunk = std::string_view(c.input).substr(at, n);
    at += n;
    out << "    - " << (sse::utf8::is_valid(chunk) ? "\"" + ssec::escape(chunk) + "\"" : hex_item(chunk)) << "\n";
  }
  const std::string log = conf::format_log(c.events, "    ");
  if (log.empty()) out << "  events: \"\"\n";
  else out << "  events: |\n" << log << "\n";
  if (c.layer != conf::layer::wire) {
    if (c.dialect_events.empty()) {
      out << "  dialect_events: \"\"\n";
    } else {
      out << "  dialect_events: |\n";
      for (const auto& e : c.dialect_events) out << "    " << e.dump(-1, ' ', true) << "\n";
    }
  }
  return out.str();
}

}  // namespace ssec::differential
