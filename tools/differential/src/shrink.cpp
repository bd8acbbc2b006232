// SPDX-License-Identifier: MIT
#include "ssec/differential/shrink.hpp"

#include <algorithm>

namespace ssec::differential {

sample remove_range(const sample& s, std::size_t from, std::size_t to) {
  sample out;
  out.origin = s.origin;
  out.bytes = s.bytes.substr(0, from) + s.bytes.substr(to);
  const std::size_t removed = to - from;
  for (const std::size_t cut : s.cuts) {
    const std::size_t moved = cut <= from ? cut : cut >= to ? cut - removed : from;
    if (moved == 0 || moved >= out.bytes.size()) continue;
    if (!out.cuts.empty() && out.cuts.back() >= moved) continue;
    out.cuts.push_back(moved);
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> line_spans(std::string_view b) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t start = 0, i = 0; i < b.size(); ++i) {
    const bool end = b[i] == '\n' || (b[i] == '\r' && (i + 1 == b.size() || b[i + 1] != '\n'));
    if (end || i + 1 == b.size()) {
      spans.emplace_back(start, i + 1);
      start = i + 1;
    }
  }
  return spans;
}

std::string trigger_shape(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);  // the stream's BOM is no line's
  std::vector<std::string> lines;
  for (const auto& [from, to] : line_spans(bytes)) {
    std::string_view line = bytes.substr(from, to - from);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    std::string shape;
    const std::size_t colon = line.find(':');
    if (colon == 0) {
      shape = ":";
    } else if (!line.empty()) {
      // A name no reader knows is one name: which letters the sample had does not make another trigger.
      const std::string_view name = line.substr(0, colon);
      shape = name == "data" || name == "event" || name == "id" || name == "retry" ? name : "other";
      if (colon != std::string_view::npos) {
        std::string_view value = line.substr(colon + 1);
        if (value.starts_with(' ')) value.remove_prefix(1);
        shape += value.empty() ? ":" : ":v";
      }
    }
    lines.push_back(std::move(shape));
  }
  // In order of the shapes, not of the stream: one bug reached with its
  // lines in another order is one trigger.
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

namespace {

class reducer {
 public:
  reducer(const std::function<bool(const sample&)>& p, const shrink_limits& l, shrink_stats& st)
      : interesting_(p), limits_(l), stats_(st) {}

  bool exhausted() const {
    return stats_.tests >= limits_.max_tests || std::chrono::steady_clock::now() >= limits_.deadline;
  }

  // Keeps `candidate` when it is interesting.
  bool attempt(sample& current, sample candidate) {
    if (exhausted()) return false;
    ++stats_.tests;
    if (!interesting_(candidate)) return false;
    current = std::move(candidate);
    return true;
  }

  // Whole lines first (C-Reduce's line pass): a line is rarely removable
  // byte by byte, and ddmin's aligned pieces seldom fall on its bounds.
  bool lines(sample& s) {
    bool changed = false;
    const auto spans = line_spans(s.bytes);
    for (auto it = spans.rbegin(); it != spans.rend() && !exhausted(); ++it) {
      if (it->second <= s.bytes.size()) changed |= attempt(s, remove_range(s, it->first, it->second));
    }
    return changed;
  }

  bool ddmin(sample& s) {
    bool changed = false;
    std::size_t granularity = 2;
    while (!s.bytes.empty() && !exhausted()) {
      const std::size_t size = s.bytes.size();
      const std::size_t piece = std::max<std::size_t>(1, size / std::min(granularity, size));
      bool removed = false;
      for (std::size_t from = 0; from < s.bytes.size() && !exhausted();) {
        const std::size_t to = std::min(s.bytes.size(), from + piece);
        if (attempt(s, remove_range(s, from, to))) {
          removed = changed = true;  // the same offset now holds the next piece
        } else {
          from = to;
        }
      }
      if (piece == 1 && !removed) break;
      if (!removed) granularity *= 2;
    }
    return changed;
  }

  bool simplify(sample& s) {
    bool changed = false;
    for (std::size_t i = 0; i < s.bytes.size() && !exhausted(); ++i) {
      const auto b = static_cast<unsigned char>(s.bytes[i]);
      const bool printable = (b >= 0x20 && b < 0x7F) || b == '\n';
      if (printable) continue;
      sample candidate = s;
      candidate.bytes[i] = b == '\r' ? '\n' : 'a';
      if (attempt(s, std::move(candidate))) {
        changed = true;
      } else if (b != '\r' && b != 'a') {
        // Non-ASCII bytes: try one printable character that is not a letter too.
        candidate = s;
        candidate.bytes[i] = ' ';
        changed |= attempt(s, std::move(candidate));
      }
    }
    return changed;
  }

  bool merge(sample& s) {
    if (s.cuts.empty()) return false;
    sample whole = s;
    whole.cuts.clear();
    if (attempt(s, std::move(whole))) return true;
    bool changed = false;
    for (std::size_t i = 0; i < s.cuts.size() && !exhausted();) {
      sample candidate = s;
      candidate.cuts.erase(candidate.cuts.begin() + static_cast<std::ptrdiff_t>(i));
      if (attempt(s, std::move(candidate))) changed = true;
      else ++i;
    }
    return changed;
  }

 private:
  const std::function<bool(const sample&)>& interesting_;
  const shrink_limits& limits_;
  shrink_stats& stats_;
};

}  // namespace

sample shrink(sample s, const std::function<bool(const sample&)>& interesting, const shrink_limits& limits,
              shrink_stats* stats) {
  shrink_stats local;
  shrink_stats& st = stats != nullptr ? *stats : local;
  reducer r(interesting, limits, st);
  for (;;) {
    ++st.passes;
    bool changed = r.lines(s);
    changed |= r.ddmin(s);
    changed |= r.simplify(s);
    changed |= r.merge(s);
    if (r.exhausted()) break;
    if (!changed) {
      st.complete = true;
      break;
    }
  }
  return s;
}

}  // namespace ssec::differential
