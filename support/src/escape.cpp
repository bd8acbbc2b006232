// SPDX-License-Identifier: MIT
#include "ssec/support/escape.hpp"

#include <algorithm>
#include <utility>

#include "ssec/support/text.hpp"

namespace ssec {
namespace {

void append_hex(std::string& out, std::uint32_t v, int digits) {
  static constexpr char hex[] = "0123456789ABCDEF";
  for (int i = digits - 1; i >= 0; --i) out.push_back(hex[(v >> (4 * i)) & 0xF]);
}

// Escapes `s` (no quotes around it).
void append_escaped(std::string& out, std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x80) {
      switch (s[i]) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\0': out += "\\0"; break;
        default:
          if (u < 0x20 || u == 0x7F) {
            out += "\\u";
            append_hex(out, u, 4);
          } else {
            out.push_back(s[i]);
          }
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\\x";
      append_hex(out, u, 2);
      ++i;
      continue;
    }
    const std::uint32_t cp = decode_utf8(s.substr(i, n));
    if (cp <= 0xFFFF) {
      out += "\\u";
      append_hex(out, cp, 4);
    } else {
      out += "\\U";
      append_hex(out, cp, 8);
    }
    i += n;
  }
}

// The longest periodic run starting at `i` worth writing as "p"*n: at least
// 64 bytes and 4 repetitions, period up to 32 bytes, starting and ending on
// character boundaries. Returns {period, repetitions} or {0, 0}.
std::pair<std::size_t, std::size_t> run_at(std::string_view s, std::size_t i) {
  const auto is_continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  // A run covers at least 64 bytes: with fewer left there is none (and a
  // finding's excerpt, 60 bytes at most, never searches one).
  if (s.size() - i < 64 || is_continuation(s[i])) return {0, 0};
  std::size_t best_period = 0;
  std::size_t best_reps = 0;
  for (std::size_t p = 1; p <= 32 && i + 4 * p <= s.size(); ++p) {
    if (s[i + p] != s[i]) continue;
    std::size_t reps = 1;
    while (i + (reps + 1) * p <= s.size() && s.compare(i + reps * p, p, s, i, p) == 0) ++reps;
    if (reps >= 4 && reps * p >= 64 && reps * p > best_reps * best_period) {
      best_period = p;
      best_reps = reps;
    }
    if (best_period == 1) break;  // a run of one character: no longer period covers more
  }
  return {best_period, best_reps};
}

}  // namespace

std::string escape(std::string_view bytes) {
  std::string out;
  append_escaped(out, bytes);
  return out;
}

std::string quote(std::string_view value) {
  std::string out;
  bool open = false;
  const auto separate = [&] {
    if (open) {
      out.push_back('"');
      open = false;
    }
    if (!out.empty()) out += " + ";
  };
  std::size_t i = 0;
  while (i < value.size()) {
    const auto [period, reps] = run_at(value, i);
    if (reps > 0) {
      separate();
      out.push_back('"');
      append_escaped(out, value.substr(i, period));
      out += "\"*" + std::to_string(reps);
      i += period * reps;
      continue;
    }
    if (!open) {
      if (!out.empty()) out += " + ";
      out.push_back('"');
      open = true;
    }
    // One character (or one stray byte) at a time, so runs are found at
    // every boundary.
    std::size_t n = static_cast<unsigned char>(value[i]) < 0x80 ? 1 : utf8_sequence_length(value, i);
    if (n == 0) n = 1;
    append_escaped(out, value.substr(i, n));
    i += n;
  }
  if (open) out.push_back('"');
  if (out.empty()) out = "\"\"";
  return out;
}

std::string quote_clipped(std::string_view bytes, std::size_t max_bytes) {
  return quote_clipped(bytes, max_bytes, bytes.size());
}

std::string quote_clipped(std::string_view head, std::size_t max_bytes, std::uint64_t total_size) {
  if (total_size <= max_bytes) return quote(head.substr(0, total_size));
  // Cut on a character boundary, so the excerpt shows no broken sequence
  // that the stream does not have.
  std::size_t cut = std::min(max_bytes, head.size());
  while (cut > 0 && cut < head.size() && (static_cast<unsigned char>(head[cut]) & 0xC0) == 0x80) --cut;
  return quote(head.substr(0, cut)) + "... (" + std::to_string(total_size - cut) + " more bytes)";
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x80) {
      if ((u < 0x20 && u != '\t') || u == 0x7F) append_escaped(out, text.substr(i, 1));
      else out.push_back(text[i]);
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(text, i);
    const std::string_view seq = text.substr(i, n == 0 ? 1 : n);
    const std::uint32_t cp = n == 0 ? 0 : decode_utf8(seq);
    const bool acts = n == 0 || cp <= 0x9F || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
                      (cp >= 0x2066 && cp <= 0x2069);
    if (acts) append_escaped(out, seq);
    else out += seq;
    i += seq.size();
  }
  return out;
}

}  // namespace ssec
