// SPDX-License-Identifier: MIT
#include "ssec/differential/oracle.hpp"

#include <algorithm>
#include <span>

#include "sse/dialect/decoder.hpp"
#include "sse/utf8.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/harness/grading.hpp"

namespace ssec::differential {

namespace conf = ssec::conformance;
using nlohmann::json;

conf::test_case reference_case(conf::layer layer, const sample& s, const sse::dialect::dialect_spec* dialect) {
  conf::test_case c;
  c.id = "FZ22";
  c.topic = "fuzz";
  c.layer = layer;
  c.verdict = conf::verdict::must;
  c.input = s.bytes;
  const auto chunks = chunks_of(s);
  for (const auto piece : chunks) c.written_chunks.push_back(piece.size());
  c.events = conf::reference_log(conf::run_reference(chunks, sse::limits{}));
  if (layer != conf::layer::wire && dialect != nullptr) {
    const auto decoded = sse::dialect::decode_stream(*dialect, std::span<const std::string_view>(chunks));
    for (const auto& e : decoded.events) c.dialect_events.push_back(json::parse(sse::dialect::to_json(e).dump()));
    c.has_dialect_events = true;
  }
  return c;
}

namespace {

// The class of one character (at `at`, or the end) for fingerprints.
std::string char_class(std::string_view s, std::size_t at) {
  if (at >= s.size()) return "end";
  const auto b = static_cast<unsigned char>(s[at]);
  switch (b) {
    case '\n': return "lf";
    case '\r': return "cr";
    case ' ': return "space";
    case '\t': return "tab";
    case 0: return "nul";
    default: break;
  }
  if (s.substr(at).starts_with("\xEF\xBF\xBD")) return "fffd";
  if (s.substr(at).starts_with("\xEF\xBB\xBF")) return "bom";
  if (b == ':') return "colon";
  if (b < 0x20 || b == 0x7F) return "control";
  if (b < 0x80) return "ascii";
  return "non-ascii";
}

struct wire_expectation {
  std::vector<sse::event> events;
  std::optional<std::uint64_t> retry;
};

wire_expectation expected_wire(const conf::test_case& c) {
  wire_expectation out;
  for (const auto& line : conf::external_view(c.events)) {
    if (const auto* e = std::get_if<conf::log_event>(&line)) out.events.push_back(e->event);
    if (const auto* r = std::get_if<conf::log_retry>(&line)) out.retry = r->milliseconds;
  }
  return out;
}

std::string wire_fingerprint(const wire_expectation& want, const conf::answer& a) {
  const auto& got = *a.wire;
  if (got.error) return "wire.rejected";
  if (!a.lone_surrogate.empty()) return "wire.lone-surrogate";
  const std::size_t common = std::min(want.events.size(), got.events.size());
  // One event more or fewer, wherever it is, is a count difference, not a
  // difference of the events after it.
  if (want.events.size() != got.events.size() && std::max(want.events.size(), got.events.size()) - common == 1) {
    std::size_t i = 0;
    while (i < common && want.events[i] == got.events[i]) ++i;
    const auto& longer = want.events.size() > got.events.size() ? want.events : got.events;
    const auto& shorter = want.events.size() > got.events.size() ? got.events : want.events;
    if (std::equal(longer.begin() + static_cast<std::ptrdiff_t>(i) + 1, longer.end(),
                   shorter.begin() + static_cast<std::ptrdiff_t>(i))) {
      return want.events.size() > got.events.size() ? "wire.events.missing" : "wire.events.extra";
    }
  }
  for (std::size_t i = 0; i < common; ++i) {
    const auto& w = want.events[i];
    const auto& g = got.events[i];
    if (w.type != g.type) return "wire.type." + string_difference_class(w.type, g.type);
    if (w.data != g.data) return "wire.data." + string_difference_class(w.data, g.data);
    if (w.last_event_id != g.last_event_id)
      return "wire.last-id." + string_difference_class(w.last_event_id, g.last_event_id);
  }
  if (want.events.size() > got.events.size()) return "wire.events.missing";
  if (want.events.size() < got.events.size()) return "wire.events.extra";
  if (a.inexact_retry) return "wire.retry.inexact";
  if (want.retry && !got.retry) return "wire.retry.missing";
  if (!want.retry && got.retry) return "wire.retry.extra";
  if (want.retry != got.retry) return "wire.retry.differs";
  return "wire.other";
}

std::string dialect_fingerprint(const conf::test_case& c, const conf::answer& a) {
  const std::string layer(conf::to_string(c.layer));
  if (a.dialect_rejection) return layer + ".rejected";
  const auto& got = *a.dialect;
  const std::size_t common = std::min(c.dialect_events.size(), got.size());
  const auto same = [](const nlohmann::json& x, const nlohmann::json& y) {
    const auto ex = sse::dialect::event_from_json(x);
    const auto ey = sse::dialect::event_from_json(y);
    return ex && ey && *ex == *ey;
  };
  // One event more or fewer, wherever it is, is a count difference, as at the wire layer.
  if (c.dialect_events.size() != got.size() && std::max(c.dialect_events.size(), got.size()) - common == 1) {
    std::size_t i = 0;
    while (i < common && same(c.dialect_events[i], got[i])) ++i;
    const auto& longer = c.dialect_events.size() > got.size() ? c.dialect_events : got;
    const auto& shorter = c.dialect_events.size() > got.size() ? got : c.dialect_events;
    if (std::equal(longer.begin() + static_cast<std::ptrdiff_t>(i) + 1, longer.end(),
                   shorter.begin() + static_cast<std::ptrdiff_t>(i), same)) {
      return layer + (c.dialect_events.size() > got.size() ? ".events.missing" : ".events.extra");
    }
  }
  for (std::size_t i = 0; i < common; ++i) {
    const auto want = sse::dialect::event_from_json(c.dialect_events[i]);
    const auto have = sse::dialect::event_from_json(got[i]);
    if (!want || !have) return layer + ".not-an-event";
    if (*want == *have) continue;
    if (want->kind != have->kind) {
      return layer + ".kind." + std::string(sse::dialect::to_string(want->kind)) + "-vs-" +
             std::string(sse::dialect::to_string(have->kind));
    }
    if (want->type != have->type) return layer + ".type.differs";
    if (want->raw != have->raw) return layer + ".raw." + string_difference_class(want->raw, have->raw);
    if (want->text != have->text) return layer + ".text." + string_difference_class(want->text, have->text);
    if (want->fields != have->fields) {
      // The first key that differs, named only when the catalog could (a
      // generated key would make one bug many fingerprints).
      std::string key = "undeclared";
      if (want->fields.is_object() && have->fields.is_object()) {
        for (const auto& [k, v] : want->fields.items()) {
          if (!have->fields.contains(k) || have->fields[k] != v) {
            key = k.size() <= 24 &&
                          std::all_of(
                              k.begin(), k.end(),
                              [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'; })
                      ? k
                      : "undeclared";
            break;
          }
        }
      }
      std::replace(key.begin(), key.end(), '_', '-');
      return layer + ".field." + key;
    }
    return layer + ".defaulted";
  }
  if (c.dialect_events.size() > got.size()) return layer + ".events.missing";
  if (c.dialect_events.size() < got.size()) return layer + ".events.extra";
  return layer + ".other";
}

bool lacks(const capability_list& caps, std::string_view name) {
  return caps && std::find(caps->begin(), caps->end(), name) == caps->end();
}

}  // namespace

std::vector<repair> repairs_of(const sample& s) {
  std::vector<repair> out;
  const auto add = [&](std::string_view name, std::string bytes, bool keep_cuts) {
    if (bytes == s.bytes && (keep_cuts || s.cuts.empty())) return;
    sample r;
    r.origin = s.origin;
    r.bytes = std::move(bytes);
    if (keep_cuts) {
      for (const std::size_t cut : s.cuts) {
        if (cut < r.bytes.size() && (r.cuts.empty() || r.cuts.back() < cut)) r.cuts.push_back(cut);
      }
    }
    out.push_back(repair{name, std::move(r)});
  };
  const std::string& b = s.bytes;
  add("chunking", b, false);
  std::string t;
  // A removal that would join a lone CR to an LF (one line end made of two)
  // changes what the stream means: those bytes stay.
  const auto joins = [&](std::size_t next) {
    return !t.empty() && t.back() == '\r' && next < b.size() && b[next] == '\n';
  };
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.compare(i, 3, "\xEF\xBB\xBF") == 0 && !joins(i + 3)) i += 2;
    else t += b[i];
  }
  add("bom", t, true);
  t.clear();
  for (std::size_t i = 0; i < b.size(); ++i) t += b[i] == '\r' && (i + 1 == b.size() || b[i + 1] != '\n') ? '\n' : b[i];
  add("lone-cr", t, true);
  t.clear();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] != '\r' || i + 1 == b.size() || b[i + 1] != '\n' || joins(i + 1)) t += b[i];
  }
  add("crlf", t, true);
  t.clear();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] != '\0' || joins(i + 1)) t += b[i];
  }
  add("nul", t, true);
  t.clear();
  sse::utf8::append_repaired(t, b);
  add("invalid-utf8", t, true);
  t.clear();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] != ' ' || t.empty() || t.back() != ' ') t += b[i];
  }
  add("spaces", t, true);
  return out;
}

std::vector<std::string> brief_difference(std::string_view text, std::size_t max_lines) {
  std::vector<std::string> out;
  while (!text.empty() && out.size() < max_lines) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.starts_with("expected log") || line.starts_with("expected (")) break;
    if (!line.empty()) out.emplace_back(line.substr(0, 300));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

std::string string_difference_class(std::string_view expected, std::string_view got) {
  std::size_t i = 0;
  while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
  // A lost or extra tail is one class whatever its first character: one bug
  // (a value cut short) reached through many streams stays one fingerprint.
  if (i == got.size() && i < expected.size()) return "truncated";
  if (i == expected.size() && i < got.size()) return "extended";
  // Named only by the characters that carry structure (line ends, the
  // removed space, NUL, U+FFFD, the BOM): any other pair is one class.
  const auto named = [](const std::string& k) -> std::string {
    return k == "lf" || k == "cr" || k == "space" || k == "nul" || k == "fffd" || k == "bom" ? k : std::string("other");
  };
  const std::string a = named(char_class(expected, i)), b = named(char_class(got, i));
  return a == "other" && b == "other" ? std::string("differs") : a + "-vs-" + b;
}

std::vector<std::string> retry_decisions(const conf::test_case& c, const conf::answer& a) {
  std::vector<std::string> out;
  if (!a.wire || a.wire->error) return out;
  const std::optional<std::uint64_t> got = a.wire->retry;
  const bool got_huge = a.inexact_retry.has_value() || (got && *got > 2147483647ULL);
  const auto empty_retry_at = [&](std::uint64_t off) {
    for (const std::uint64_t at : {off, off + 3}) {  // a leading BOM may or may not count
      if (at >= c.input.size()) continue;
      std::string_view rest = std::string_view(c.input).substr(static_cast<std::size_t>(at));
      if (!rest.starts_with("retry")) continue;
      rest.remove_prefix(5);
      if (rest.starts_with(":")) rest.remove_prefix(1);
      if (rest.starts_with(" ")) rest.remove_prefix(1);
      if (rest.empty() || rest.front() == '\r' || rest.front() == '\n') return true;
    }
    return false;
  };
  bool beyond = false, empty = false;
  std::optional<std::uint64_t> final_retry;
  for (const auto& line : c.events) {
    if (const auto* d = std::get_if<conf::log_diag>(&line)) {
      beyond |= d->code == sse::diag::retry_out_of_range;
      empty |= d->code == sse::diag::invalid_retry && empty_retry_at(d->offset);
    }
    if (const auto* r = std::get_if<conf::log_retry>(&line)) final_retry = r->milliseconds;
  }
  // Each decision covers one way of differing: a large value held inexactly,
  // digits beyond 64 bits taken as some large value, an empty value taken as 0.
  if (final_retry && *final_retry > 2147483647ULL && (got || a.inexact_retry)) out.emplace_back("retry-large");
  if (beyond && got_huge) out.emplace_back("retry-beyond-64-bits");
  if (empty && got && *got == 0) out.emplace_back("retry-empty");
  return out;
}

std::optional<divergence> judge(const conf::test_case& c, const exchange& ex, const capability_list& caps) {
  divergence d;
  switch (ex.status) {
    case exchange_status::ok: break;
    case exchange_status::timeout:
      d.fingerprint = "adapter.timeout";
      d.outcome = conf::outcome::timeout;
      break;
    case exchange_status::crashed:
      d.fingerprint = "adapter.crash";
      d.outcome = conf::outcome::error;
      break;
    case exchange_status::oversized:
      d.fingerprint = "adapter.oversized";
      d.outcome = conf::outcome::error;
      break;
    case exchange_status::not_running:
      d.fingerprint = "adapter.not-running";
      d.outcome = conf::outcome::error;
      break;
  }
  if (ex.status != exchange_status::ok) {
    d.first_difference = ex.detail;
    d.received = "(no answer)";
    d.answer_key = d.fingerprint;
    return d;
  }
  const bool wire = c.layer == conf::layer::wire;
  conf::answer a = harness::decode_answer(ex.line, c.path(), wire);
  if (!a.malformed.empty()) {
    d.fingerprint = "adapter.malformed";
    d.outcome = conf::outcome::error;
    d.first_difference = a.malformed;
    d.received = ex.line.substr(0, 400);
    d.answer_key = d.fingerprint;
    return d;
  }
  std::optional<wire_expectation> want;
  if (wire && a.wire && !a.wire->error) {
    want = expected_wire(c);
    // What the adapter says it cannot report is not compared (run skips such cases).
    if (lacks(caps, "retry")) {
      a.wire->retry = want->retry;
      a.inexact_retry.reset();
    }
    if (lacks(caps, "last-event-id")) {
      for (std::size_t i = 0; i < a.wire->events.size(); ++i) {
        a.wire->events[i].last_event_id = i < want->events.size() ? want->events[i].last_event_id : "";
      }
    }
  }
  conf::grade g = conf::grade_answer(c, a, false);
  if (g.outcome == conf::outcome::pass) return std::nullopt;
  d.fingerprint = wire ? (want ? wire_fingerprint(*want, a) : "wire.rejected") : dialect_fingerprint(c, a);
  if (d.fingerprint.starts_with("wire.retry.")) {
    d.decisions = retry_decisions(c, a);
    if (!d.decisions.empty()) {
      conf::test_case open = c;
      open.verdict = conf::verdict::impl;
      g = conf::grade_answer(open, a, false);
      d.fingerprint += ".impl";
    }
  }
  d.outcome = g.outcome;
  if (g.mismatch) {
    d.first_difference = g.mismatch->first_difference;
    d.expected = g.mismatch->expected;
    d.received = g.mismatch->received;
  }
  if (a.wire) {
    d.answer_key = a.wire->error ? "rejected" : conf::format_log(conf::external_log(*a.wire));
  } else if (a.dialect) {
    for (const auto& e : *a.dialect) d.answer_key += e.dump() + "\n";
  } else {
    d.answer_key = "rejected";
  }
  return d;
}

}  // namespace ssec::differential
