// SPDX-License-Identifier: MIT
#include "sse/dialect/traceability.hpp"

#include <charconv>

namespace sse::dialect {
namespace {

// Calls `visit(trace, where, what)` for every traced entry, each position once.
template <class Visit>
void each_trace(const catalog& cat, Visit visit) {
  std::set<std::tuple<std::string, int, int>> seen;
  const auto once = [&](const trace& t, const location& at, const std::string& what) {
    if (seen.insert({at.file, at.line, at.column}).second) visit(t, at, what);
  };
  for (const auto& d : cat.dialects()) {
    once(d->origin, d->where, "dialect `" + d->name + "`");
    for (const auto& s : d->shapes) once(s.origin, s.where, "a frame shape of `" + d->name + "`");
    for (const auto& x : d->differences) once(x.origin, x.where, "difference `" + x.aspect + "`");
    for (const auto& f : d->envelope) once(f.origin, f.where, "envelope field `" + f.key + "`");
    for (const auto& e : d->events) {
      once(e.origin, e.where, "event `" + e.type + "`");
      for (const auto& f : e.fields) {
        once(f.origin, f.where, "field `" + e.type + "." + f.key + "`");
        for (const auto& n : f.fields) once(n.origin, n.where, "field `" + e.type + "." + f.key + "." + n.key + "`");
      }
    }
  }
  for (const auto& r : cat.rules()) once(r->origin, r->where, "rule `" + r->id + "`");
}

ssec::error error_at(const location& at, std::string message) {
  return ssec::error{std::move(message), at.file, static_cast<std::size_t>(at.line > 0 ? at.line : 0),
                     static_cast<std::size_t>(at.column > 0 ? at.column : 0)};
}

// The line'th line (1-based) of `text`, or nullopt past the end.
std::optional<std::string_view> line_of(std::string_view text, std::size_t line) {
  std::size_t start = 0;
  for (std::size_t n = 1; n < line; ++n) {
    const auto lf = text.find('\n', start);
    if (lf == std::string_view::npos) return std::nullopt;
    start = lf + 1;
  }
  if (start >= text.size() && line > 1) return std::nullopt;
  const auto end = text.find('\n', start);
  std::string_view out = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return out;
}

}  // namespace

std::set<std::string, std::less<>> decision_anchors(std::string_view decisions_md) {
  std::set<std::string, std::less<>> out;
  std::size_t start = 0;
  while (start < decisions_md.size()) {
    auto end = decisions_md.find('\n', start);
    if (end == std::string_view::npos) end = decisions_md.size();
    std::string_view line = decisions_md.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("## ")) out.emplace(line.substr(3));
    start = end + 1;
  }
  return out;
}

std::vector<ssec::error> check_decisions(const catalog& cat, const std::function<bool(const std::string&)>& applies,
                                         const std::set<std::string, std::less<>>& anchors,
                                         std::string_view decisions_file) {
  std::vector<ssec::error> out;
  each_trace(cat, [&](const trace& t, const location& at, const std::string& what) {
    if (t.decision.empty() || !applies(at.file) || anchors.contains(t.decision)) return;
    out.push_back(error_at(at, "decision `" + t.decision + "` of " + what + " is not a heading (`## " + t.decision +
                                   "`) of " + std::string(decisions_file)));
  });
  return out;
}

std::vector<ssec::error> check_sources(const catalog& cat,
                                       const std::map<std::string, std::string, std::less<>>& documents) {
  std::vector<ssec::error> out;
  const auto line_text = [&](const std::string& source, std::string& problem) -> std::optional<std::string_view> {
    const auto colon = source.rfind(':');
    if (source.starts_with("https://") || colon == std::string::npos) return std::nullopt;
    const auto doc = documents.find(std::string_view(source).substr(0, colon));
    if (doc == documents.end()) return std::nullopt;
    std::size_t line = 0;
    const char* first = source.data() + colon + 1;
    const char* last = source.data() + source.size();
    if (std::from_chars(first, last, line).ec != std::errc() || line == 0) return std::nullopt;
    const auto text = line_of(doc->second, line);
    if (!text) {
      problem = "source `" + source + "` is past the end of " + doc->first;
      return std::nullopt;
    }
    if (text->find_first_not_of(" \t") == std::string_view::npos) {
      problem = "source `" + source + "` is a blank line of " + doc->first;
      return std::nullopt;
    }
    return text;
  };
  each_trace(cat, [&](const trace& t, const location& at, const std::string& what) {
    for (const auto& s : t.sources) {
      std::string problem;
      line_text(s, problem);
      if (!problem.empty()) out.push_back(error_at(at, problem + " (cited by " + what + ")"));
    }
  });
  for (const auto& r : cat.rules()) {
    for (std::size_t i = 0; i < r->quotes.size() && i < r->origin.sources.size(); ++i) {
      std::string problem;
      const auto text = line_text(r->origin.sources[i], problem);
      if (text && text->find(r->quotes[i]) == std::string_view::npos) {
        out.push_back(error_at(r->where, "quote of rule `" + r->id + "` is not on " + r->origin.sources[i] +
                                             ": it reads \"" + std::string(*text) + "\""));
      }
    }
  }
  return out;
}

}  // namespace sse::dialect
