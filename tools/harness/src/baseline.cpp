// SPDX-License-Identifier: MIT
#include "ssec/harness/baseline.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ssec::harness {

namespace {
constexpr std::string_view header = "# sse-conform baseline 1";

bool is_path_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '/' || ch == '-' ||
         ch == '_' || ch == '.';
}
}  // namespace

result<baseline> parse_baseline(std::string_view text, std::string_view display) {
  baseline b;
  std::size_t line_no = 0;
  const auto fail = [&](const std::string& reason) -> result<baseline> {
    return error{reason, std::string(display), line_no, 0};
  };
  while (!text.empty() || line_no == 0) {
    const std::size_t lf = text.find('\n');
    std::string_view line = text.substr(0, lf);
    text = lf == std::string_view::npos ? std::string_view() : text.substr(lf + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_no == 1) {
      if (line != header) return fail("a baseline starts with the line `" + std::string(header) + "`");
      continue;
    }
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos || line[start] == '#') continue;
    line.remove_prefix(start);
    const std::size_t end = line.find_first_of(" \t");
    const std::string_view path = line.substr(0, end);
    if (path.find('/') == std::string_view::npos ||
        std::find_if_not(path.begin(), path.end(), is_path_char) != path.end()) {
      return fail("`" + std::string(path) + "` is not a case path such as wire/bom/K7P2");
    }
    if (!b.paths.emplace(path).second) return fail("`" + std::string(path) + "` is listed twice");
  }
  return b;
}

result<baseline> load_baseline(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{"cannot read the baseline", path.string()};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_baseline(text.str(), path.string());
}

void apply_baseline(const baseline& b, std::vector<case_result>& results) {
  for (auto& r : results) {
    if (!b.paths.contains(r.path)) continue;
    if (r.outcome == outcome::pass) r.stale = true;
    else if (r.outcome == outcome::fail || r.outcome == outcome::non_strict || r.outcome == outcome::error ||
             r.outcome == outcome::timeout)
      r.baselined = true;
  }
}

bool counts_as_failure(const case_result& r, bool strict) noexcept {
  if (r.stale) return true;
  if (r.baselined) return false;
  switch (r.outcome) {
    case outcome::fail:
    case outcome::error:
    case outcome::timeout: return true;
    case outcome::non_strict: return strict;
    default: return false;
  }
}

std::string write_baseline(const std::vector<case_result>& results, bool strict) {
  std::string out = std::string(header) + "\n";
  // A timeout says how loaded the machine was, not what the implementation
  // does: listed, the case would be stale (and fail the run) as soon as it
  // finishes in time. Timeouts are named in comments, never listed.
  std::string timed_out;
  for (const auto& r : results) {
    if (r.outcome == outcome::timeout) {
      timed_out += "#   " + r.path + "\n";
      continue;
    }
    const bool failing =
        r.outcome == outcome::fail || r.outcome == outcome::error || (strict && r.outcome == outcome::non_strict);
    if (failing) out += r.path + "  # " + std::string(to_string(r.outcome)) + "\n";
  }
  if (!timed_out.empty()) {
    out += "# Timed out, so not known failures (not listed; run them again, or raise --timeout-ms):\n" + timed_out;
  }
  return out;
}

}  // namespace ssec::harness
