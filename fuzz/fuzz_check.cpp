// SPDX-License-Identifier: MIT
#include "fuzz_check.hpp"

#include <algorithm>
#include <sstream>

namespace ssec::fuzz {
namespace {

std::string escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string describe_event(const sse::event& e) {
  return "event type=\"" + escaped(e.type) + "\" data=\"" + escaped(e.data) + "\" id=\"" + escaped(e.last_event_id) + "\"";
}

}  // namespace

std::string describe(const sse::recording& r) {
  std::ostringstream out;
  for (const auto& e : r.events) out << describe_event(e) << '\n';
  for (const auto ms : r.retries) out << "retry " << ms << '\n';
  for (const auto& c : r.comments) out << "comment \"" << escaped(c) << "\"\n";
  for (const auto& d : r.diagnostics) out << "diag " << sse::to_string(d.code) << " off=" << d.offset << '\n';
  out << "status " << sse::to_string(r.status) << " off=" << r.error_offset << " last_id=\"" << escaped(r.last_event_id)
      << "\"\n";
  return out.str();
}

std::string first_difference(const sse::recording& expected, const sse::recording& got) {
  if (expected == got) return {};
  const std::size_t n = std::min(expected.events.size(), got.events.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!(expected.events[i] == got.events[i])) {
      return "event " + std::to_string(i) + ": expected " + describe_event(expected.events[i]) + "\n got " +
             describe_event(got.events[i]);
    }
  }
  return "expected:\n" + describe(expected) + "got:\n" + describe(got);
}

}  // namespace ssec::fuzz
