// SPDX-License-Identifier: MIT
#include "ssec/differential/oracle.hpp"

#include <algorithm>
#include <span>

#include "sse/dialect/decoder.hpp"
#include "sse/utf8.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/differential/blocks.hpp"
#include "ssec/differential/shrink.hpp"
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

// An event the answer changed in place, named by its first differing member.
std::string changed_event(const sse::event& w, const sse::event& g, std::string& detail) {
  if (w.type != g.type) {
    detail = string_difference_detail(w.type, g.type);
    return "wire.type." + string_difference_class(w.type, g.type);
  }
  if (w.data != g.data) {
    detail = string_difference_detail(w.data, g.data);
    return "wire.data." + string_difference_class(w.data, g.data);
  }
  detail = string_difference_detail(w.last_event_id, g.last_event_id);
  return "wire.last-id." + string_difference_class(w.last_event_id, g.last_event_id);
}

// The first change of the alignment of the answer's events with the
// reference's blocks (align_blocks; an edit script over the events when the
// alignment is too large) names the divergence: an event the answer has for
// a block the reference dispatched nothing for by that block's kind; an event
// changed in place by its first differing member; an event only the
// reference has by whether its data was empty; any other extra event "other".
std::string wire_fingerprint(const wire_expectation& want, const conf::answer& a, std::string_view input,
                             std::string& detail) {
  const auto& got = *a.wire;
  if (got.error) return "wire.rejected";
  if (!a.lone_surrogate.empty()) return "wire.lone-surrogate";
  const auto& wv = want.events;
  const auto& gv = got.events;
  // The answer's events aligned with the reference's blocks: an event the
  // reference did not dispatch is named by the block it stands for.
  const auto blocks = reference_blocks(input);
  std::size_t dispatched = 0;
  for (const auto& b : blocks) dispatched += dispatches(b.kind) ? 1 : 0;
  std::optional<std::vector<block_edit>> aligned;
  if (dispatched == wv.size()) {
    aligned = align_blocks(
        blocks, gv.size(), [&](std::size_t w, std::size_t g) { return wv[w] == gv[g]; },
        // A block without data gives an event without data; the tail may hold some.
        [&](block_kind k, std::size_t g) { return k == block_kind::unterminated_tail || gv[g].data.empty(); });
  }
  if (aligned) {
    std::size_t k = 0;
    while (k < aligned->size() && (*aligned)[k].what == block_edit::op::keep) ++k;
    if (k < aligned->size()) {
      const auto& first = (*aligned)[k];
      if (first.what == block_edit::op::absorb)
        return "wire.events.extra." + std::string(to_string(blocks[first.block].kind));
      std::optional<std::size_t> removed, inserted;
      for (std::size_t r = k; r < aligned->size(); ++r) {
        const auto& e = (*aligned)[r];
        if (e.what == block_edit::op::keep || e.what == block_edit::op::absorb) break;
        if (e.what == block_edit::op::remove && !removed) removed = e.want;
        if (e.what == block_edit::op::insert && !inserted) inserted = e.got;
      }
      if (removed && inserted) return changed_event(wv[*removed], gv[*inserted], detail);
      if (inserted) return "wire.events.extra.other";
      return std::string("wire.events.missing.") + (wv[*removed].data.empty() ? "empty-data" : "data");
    }
  } else {
    const auto script = edit_script(wv.size(), gv.size(), [&](std::size_t i, std::size_t j) { return wv[i] == gv[j]; });
    std::size_t k = 0;
    while (k < script.size() && script[k].what == edit::op::keep) ++k;
    if (k < script.size()) {
      std::optional<std::size_t> removed, inserted;
      for (std::size_t r = k; r < script.size() && script[r].what != edit::op::keep; ++r) {
        if (script[r].what == edit::op::remove && !removed) removed = script[r].want;
        if (script[r].what == edit::op::insert && !inserted) inserted = script[r].got;
      }
      if (removed && inserted) return changed_event(wv[*removed], gv[*inserted], detail);
      if (inserted) return "wire.events.extra.other";
      return std::string("wire.events.missing.") + (wv[*removed].data.empty() ? "empty-data" : "data");
    }
  }
  if (a.inexact_retry) return "wire.retry.inexact";
  if (want.retry && !got.retry) return "wire.retry.missing";
  if (!want.retry && got.retry) return "wire.retry.extra";
  if (want.retry != got.retry) return "wire.retry.differs";
  return "wire.other";
}

std::string dialect_fingerprint(const conf::test_case& c, const conf::answer& a, std::string& detail) {
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
    if (want->raw != have->raw) {
      detail = string_difference_detail(want->raw, have->raw);
      return layer + ".raw." + string_difference_class(want->raw, have->raw);
    }
    if (want->text != have->text) {
      detail = string_difference_detail(want->text, have->text);
      return layer + ".text." + string_difference_class(want->text, have->text);
    }
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

void mask_answer(conf::external_result& r, conf::answer& a, const capability_list& caps) {
  if (lacks(caps, "retry")) {
    r.retry.reset();
    a.inexact_retry.reset();
  }
  if (lacks(caps, "last-event-id")) {
    for (auto& e : r.events) e.last_event_id.clear();
  }
}

}  // namespace

conf::test_case masked_case(const conf::test_case& c, const capability_list& caps) {
  conf::test_case out = c;
  if (lacks(caps, "retry")) {
    std::erase_if(out.events, [](const conf::log_line& l) { return std::holds_alternative<conf::log_retry>(l); });
  }
  if (lacks(caps, "last-event-id")) {
    for (auto& l : out.events) {
      if (auto* e = std::get_if<conf::log_event>(&l)) e->event.last_event_id.clear();
      if (auto* id = std::get_if<conf::log_last_id>(&l)) id->id.clear();
    }
  }
  return out;
}

std::vector<repair> repairs_of(const sample& s) {
  std::vector<repair> out;
  const std::string& b = s.bytes;
  // `at[i]`: where byte offset i of the sample lands in the repaired bytes,
  // so each chunk cut moves with the bytes removed before it.
  std::vector<std::size_t> at;
  const auto add = [&](std::string_view name, std::string bytes, bool keep_cuts) {
    if (bytes == s.bytes && (keep_cuts || s.cuts.empty())) return;
    sample r;
    r.origin = s.origin;
    r.bytes = std::move(bytes);
    if (keep_cuts) {
      for (const std::size_t cut : s.cuts) {
        const std::size_t moved = at.empty() ? cut : at[cut];
        if (moved > 0 && moved < r.bytes.size() && (r.cuts.empty() || r.cuts.back() < moved)) r.cuts.push_back(moved);
      }
    }
    out.push_back(repair{name, std::move(r)});
  };
  add("chunking", b, false);
  const auto blocks = reference_blocks(b);
  std::string t;
  // Builds `t` from the bytes `keep(i)` keeps (at most one byte each), and `at`.
  const auto filter = [&](const auto& keep) {
    t.clear();
    at.assign(b.size() + 1, 0);
    for (std::size_t i = 0; i < b.size(); ++i) {
      at[i] = t.size();
      if (keep(i)) t += b[i];
    }
    at[b.size()] = t.size();
  };
  // A removal that would join a lone CR to an LF (one line end made of two)
  // changes what the stream means: those bytes stay.
  const auto joins = [&](std::size_t next) {
    return !t.empty() && t.back() == '\r' && next < b.size() && b[next] == '\n';
  };
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  std::size_t skip = 0;
  filter([&](std::size_t i) {
    if (skip > 0) {
      --skip;
      return false;
    }
    if (b.compare(i, 3, bom) != 0 || joins(i + 3)) return true;
    // A line of BOMs only, past the stream's start, is a field line every
    // reader ignores; without its BOMs it would be a blank line, which
    // dispatches: it goes whole, with its line end, or stays.
    if (i > 0 && (b[i - 1] == '\n' || b[i - 1] == '\r')) {
      std::size_t j = i;
      while (b.compare(j, 3, bom) == 0) j += 3;
      std::size_t end = j;
      if (j < b.size() && b[j] == '\r') end = j + (j + 1 < b.size() && b[j + 1] == '\n' ? 2 : 1);
      else if (j < b.size() && b[j] == '\n') end = j + 1;
      if (end > j || j == b.size()) {
        if (joins(end)) return true;
        skip = end - i - 1;
        return false;
      }
    }
    skip = 2;
    return false;
  });
  add("bom", t, true);
  at.clear();
  t.clear();
  for (std::size_t i = 0; i < b.size(); ++i) t += b[i] == '\r' && (i + 1 == b.size() || b[i + 1] != '\n') ? '\n' : b[i];
  add("lone-cr", t, true);
  filter([&](std::size_t i) { return b[i] != '\r' || i + 1 == b.size() || b[i + 1] != '\n' || joins(i + 1); });
  add("crlf", t, true);
  // Where each line's field name ends (its first colon): a NUL removed from a
  // name would make another field of it ("\0data" a data line), so only the
  // NULs of values and comments go.
  std::vector<bool> in_name(b.size(), false);
  for (std::size_t i = 0, colon = 0; i < b.size(); ++i) {
    if (b[i] == '\n' || b[i] == '\r') {
      colon = 0;
      continue;
    }
    colon |= b[i] == ':' ? 1 : 0;
    in_name[i] = colon == 0;
  }
  // A value that is NULs but for its leading space stays too: removing them
  // would make it the empty value, which means something else (the empty
  // type is "message", an empty data value dispatches nothing more).
  std::vector<bool> nul_value(b.size(), false);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] != ':' || !(i + 1 < b.size()) || in_name[i + 1]) continue;
    if (i > 0 && !in_name[i - 1] && b[i - 1] != '\n' && b[i - 1] != '\r') continue;  // not the line's first colon
    // The value runs to the line's end; without its NULs, and without the
    // one leading space the rules strip, is anything left?
    const std::size_t from = i + 1;
    std::size_t end = from;
    while (end < b.size() && b[end] != '\n' && b[end] != '\r') ++end;
    std::string rest;
    for (std::size_t k = from; k < end; ++k) {
      if (b[k] != '\0') rest += b[k];
    }
    if (rest.starts_with(' ')) rest.erase(0, 1);
    if (rest.empty() && end - from > (b[from] == ' ' ? 1u : 0u)) {
      for (std::size_t k = from; k < end; ++k) nul_value[k] = true;
    }
  }
  filter([&](std::size_t i) { return b[i] != '\0' || in_name[i] || nul_value[i] || joins(i + 1); });
  add("nul", t, true);
  t.clear();
  at.assign(b.size() + 1, 0);
  for (const std::size_t cut : s.cuts) {
    // A cut inside a UTF-8 sequence moves to the sequence's start: the prefix
    // before it repairs to the same bytes as in the whole stream.
    std::size_t from = cut;
    while (from > 0 && cut - from < 3 && from < b.size() && (static_cast<unsigned char>(b[from]) & 0xC0) == 0x80)
      --from;
    std::string prefix;
    sse::utf8::append_repaired(prefix, std::string_view(b).substr(0, from));
    at[cut] = prefix.size();
  }
  sse::utf8::append_repaired(t, b);
  add("invalid-utf8", t, true);
  // Runs of spaces become one, except a run that is a whole value (`event:  `
  // made `event: ` would turn the type " " into the empty one).
  filter([&](std::size_t i) {
    if (b[i] != ' ' || i == 0 || b[i - 1] != ' ') return true;
    std::size_t run = i;
    while (run > 0 && b[run - 1] == ' ') --run;
    std::size_t end = i;
    while (end < b.size() && b[end] == ' ') ++end;
    const bool whole_value = run > 0 && b[run - 1] == ':' && (end == b.size() || b[end] == '\n' || b[end] == '\r');
    return whole_value;
  });
  add("spaces", t, true);
  // The dispatch rules: the unterminated tail the reference discards, taken
  // out (the reference's events stay the same); after the others, so a tail that diverges
  // only through a BOM or a NUL is named after those.
  if (!blocks.empty() && blocks.back().kind == block_kind::unterminated_tail && blocks.back().offset < b.size()) {
    const sample r = remove_range(s, static_cast<std::size_t>(blocks.back().offset), b.size());
    out.push_back(repair{"unterminated-tail", r});
  }
  // Blocks with field lines but no data, up to and with the blank line that
  // ends each, taken out; a block with an `id` or `retry` line stays (it sets
  // the last event id or the reconnection time, so the events would change).
  sample r = s;
  bool removed = false;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    if (it->kind != block_kind::no_data) continue;
    const auto from = static_cast<std::size_t>(it->offset);
    std::size_t to = from;
    bool sets_state = false;
    for (const auto& [begin, end] : line_spans(std::string_view(r.bytes).substr(from))) {
      const std::string_view line = std::string_view(r.bytes).substr(from + begin, end - begin);
      to = from + end;
      if (line.find_first_not_of("\r\n") == std::string_view::npos) break;  // the blank line
      const std::string_view name = line.substr(0, line.find_first_of(":\r\n"));
      sets_state |= name == "id" || name == "retry";
    }
    if (sets_state) continue;
    r = remove_range(r, from, to);
    removed = true;
  }
  if (removed) out.push_back(repair{"no-data", std::move(r)});
  return out;
}

std::string repair_fingerprint(std::string_view layer, std::string_view name) {
  const bool dispatch_rule = name == "unterminated-tail" || name == "no-data";
  return std::string(layer) + (dispatch_rule ? ".events.extra." : ".") + std::string(name);
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

std::string string_difference_detail(std::string_view expected, std::string_view got) {
  std::size_t i = 0;
  while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
  return char_class(expected, i) + "/" + char_class(got, i);
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
  // One run of characters lost (or added) inside the value, the rest equal:
  // named by the run's first character, not by whatever follows it, so one
  // bug (a line's data dropped) is one class through every stream.
  std::size_t j = 0;
  while (j < expected.size() - i && j < got.size() - i && expected[expected.size() - 1 - j] == got[got.size() - 1 - j])
    ++j;
  if (i + j == got.size()) return "dropped-" + named(char_class(expected, i));
  if (i + j == expected.size()) return "inserted-" + named(char_class(got, i));
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
  // What the adapter says it cannot report is masked on both sides: the case
  // is graded as `run` grades it with what the implementation can show.
  const conf::test_case graded = masked_case(c, caps);
  if (a.wire && !a.wire->error) mask_answer(*a.wire, a, caps);
  std::optional<wire_expectation> want;
  if (wire && a.wire && !a.wire->error) want = expected_wire(graded);
  conf::grade g = conf::grade_answer(graded, a, false);
  if (g.outcome == conf::outcome::pass) return std::nullopt;
  d.fingerprint = wire ? (want ? wire_fingerprint(*want, a, c.input, d.detail) : "wire.rejected")
                       : dialect_fingerprint(c, a, d.detail);
  if (d.fingerprint.starts_with("wire.retry.")) {
    d.decisions = retry_decisions(c, a);
    if (!d.decisions.empty()) {
      conf::test_case open = graded;
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
