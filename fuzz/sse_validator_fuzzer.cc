// SPDX-License-Identifier: MIT
// Arbitrary event sequences through the producer rules. The fuzzer's bytes
// build frames from the catalog's own event types and fields (so the rules
// about pairing, ids and termination are reached), or raw frames, written as
// a wire stream. Properties: no crash; findings are stable and independent
// of chunking (the same stream, whole or fed in seeded pieces, gives the same
// findings and counts); every finding names a rule and points inside the
// stream.
//
// Speed: the frames' JSON is written directly, the bytes nlohmann_json's
// dump() gives for the same objects (members in key order, a repeated key's
// last value), and the two reports are compared member by member; building
// and dumping JSON would be most of the harness's time
// (tools/docs/benchmarks.md, "The fuzz harnesses").
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/dialect/validator.hpp"
#include "sse/utf8.hpp"
#include "sse/writer.hpp"

namespace {

// `s` as a JSON string, escaped as nlohmann_json's dump() escapes valid UTF-8.
// Runs that need no escape are appended whole: a byte at a time, the
// comparisons traced in every push_back were a visible part of the harness.
void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  const auto plain = [](char c) { return c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20; };
  out.push_back('"');
  while (!s.empty()) {
    const auto run = static_cast<std::size_t>(std::find_if_not(s.begin(), s.end(), plain) - s.begin());
    out.append(s.substr(0, run));
    s.remove_prefix(run);
    if (s.empty()) break;
    const char c = s.front();
    s.remove_prefix(1);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out.push_back(hex[(c >> 4) & 0xF]);
        out.push_back(hex[c & 0xF]);
    }
  }
  out.push_back('"');
}

// A JSON value chosen by the fuzzer, as text: mostly the right shapes, sometimes not.
std::string pick_value(ssec::fuzz::fuzz_input& in, std::string_view run_id) {
  switch (in.byte() % 7) {
    case 0: return '"' + std::string(run_id) + '"';
    case 1: return "\"stp" + std::to_string(in.byte() % 3) + '"';
    case 2: return std::to_string(in.byte() % 100);
    case 3: return "{\"id\":\"call" + std::to_string(in.byte() % 3) + "\"}";
    case 4: return "[]";
    case 5: return "null";
    default: return (in.byte() & 1) != 0 ? "true" : "false";
  }
}

bool same_findings(const sse::dialect::validation_report& a, const sse::dialect::validation_report& b) {
  return std::equal(a.findings.begin(), a.findings.end(), b.findings.begin(), b.findings.end(),
                    [](const sse::dialect::finding& x, const sse::dialect::finding& y) {
                      return x.rule == y.rule && x.frame == y.frame && x.offset == y.offset &&
                             x.expected == y.expected && x.seen == y.seen;
                    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  static const auto names = sse::dialect::builtin_dialect_names();
  ssec::fuzz::fuzz_input in(bytes, size);
  const std::uint8_t first_byte = in.byte();
  const sse::dialect::dialect_spec* dialect = sse::dialect::builtin_dialect(names[first_byte % names.size()]);
  SSEC_FUZZ_CHECK(dialect != nullptr);
  // Each rule's cap, 1 to 4, from the same byte's other bits (the corpus
  // keeps its meaning): a rule's findings past its cap are counted, their
  // texts never built, and the texts of the tens of findings a random input
  // earns per rule were most of what an execution allocated. Which findings
  // each rule stores is compared below, and every count.
  const std::size_t cap = 1 + (first_byte / names.size()) % 4;

  sse::writer writer;
  std::string stream;
  std::vector<std::pair<std::string_view, std::string>> members;  // key, value as JSON text
  const std::string run_id = "run" + std::to_string(in.byte() % 2);
  sse::event e;  // one event, its buffers reused by every frame
  for (int frames = 0; !in.empty() && frames < 64; ++frames) {
    e.type = "message";
    e.data.clear();
    const std::uint8_t how = in.byte();
    if (how % 8 == 0) {
      sse::utf8::append_repaired(e.data, in.bytes(32));  // a raw frame: text, broken JSON, [ERROR] ...
      std::erase(e.data, '\r');
    } else {
      const auto& ev = dialect->events[in.byte() % dialect->events.size()];
      members.clear();
      members.emplace_back("type", std::string());
      append_json_string(members.back().second, ev.type);
      for (const auto& field : ev.fields) {
        if (in.byte() % 4 == 0) continue;
        std::string value = pick_value(in, run_id);
        const auto same =
            std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == field.key; });
        if (same != members.end()) same->second = std::move(value);
        else members.emplace_back(field.key, std::move(value));
      }
      std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      e.data.push_back('{');
      for (const auto& [key, value] : members) {
        if (e.data.size() > 1) e.data.push_back(',');
        append_json_string(e.data, key);
        e.data.push_back(':');
        e.data += value;
      }
      e.data.push_back('}');
    }
    if (how & 0x80) e.type = "error";
    if (writer.write_event(stream, e) != sse::errc::ok) continue;
  }

  const auto first = sse::dialect::validate_stream(*dialect, stream, {}, std::nullopt, true, cap);
  // The second judgement is fed in pieces of 1 to 64 bytes, seeded by the
  // stream's size: findings are stable and do not depend on how the bytes
  // arrive. (The stream has no CR, so even the excerpts must agree.)
  sse::dialect::stream_validator pieces(*dialect, {}, std::nullopt, cap);
  std::minstd_rand split(static_cast<std::minstd_rand::result_type>(stream.size() + 1));
  for (std::size_t at = 0; at < stream.size();) {
    const std::size_t n = 1 + split() % 64;
    pieces.feed(std::string_view(stream).substr(at, n));
    at += n;
  }
  const auto second = pieces.finish();
  SSEC_FUZZ_CHECK(same_findings(first, second), "findings must be the same, the stream whole or in pieces");
  SSEC_FUZZ_CHECK(first.frames == second.frames && first.must == second.must && first.should == second.should &&
                      first.decision == second.decision && first.not_shown == second.not_shown,
                  "counts must be the same, the stream whole or in pieces");
  // Every finding is counted; those beyond a rule's cap are counted, not stored.
  SSEC_FUZZ_CHECK(first.must + first.should == first.findings.size() + first.not_shown);
  // Every finding's text is UTF-8, whatever bytes the stream held: a JSON
  // report of it must dump (nlohmann_json throws on anything else). The JSON
  // form names the same rule and frame: checked on each input's first
  // finding (to_json takes the same path for every rule; building the form
  // of every finding was a quarter of the harness's time, and of each rule's
  // first, once the validator's own allocations were cut, a third of what
  // an execution allocated). Not a set kept across inputs: an input's
  // coverage must not depend on the inputs before it.
  for (const auto& f : first.findings) {
    SSEC_FUZZ_CHECK(f.rule != nullptr);
    SSEC_FUZZ_CHECK(f.offset <= stream.size(), stream);
    SSEC_FUZZ_CHECK(f.frame <= first.frames);
    SSEC_FUZZ_CHECK(sse::utf8::is_valid(f.expected) && sse::utf8::is_valid(f.seen), f.expected + " / " + f.seen);
  }
  if (!first.findings.empty()) {
    const auto& f = first.findings.front();
    const auto form = sse::dialect::to_json(f);
    SSEC_FUZZ_CHECK(form["rule"] == f.rule->id && form["frame"] == f.frame, form.dump());
  }
  return 0;
}
