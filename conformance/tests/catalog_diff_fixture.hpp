// SPDX-License-Identifier: MIT
// A small catalog for the catalog diff tests, and the edits that turn it into
// the OLD and NEW sides of each pair.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/catalog_diff.hpp"

namespace ssec::conformance::diff_fixture {

// Three dialects: `t` (all frame shapes, fields with defaults and nesting),
// `p` (a profile of t with an error wire event), `a` (an envelope).
inline constexpr std::string_view base_catalog = R"(format_version: 1
catalog_version: 1.0.0
document: doc.txt
purpose: A test catalog.
dialects:
  - name: t
    purpose: Test dialect.
    source: doc.txt:1
    frame_shapes:
      - {shape: structured, detection: A JSON object with a string type., handling: Dispatched., source: doc.txt:1}
      - {shape: plain_text, detection: Anything else., handling: Appended as text., source: doc.txt:1}
      - {shape: error, prefix: "[ERROR]", detection: Starts with the prefix., handling: Error state., source: doc.txt:1}
    events:
      - type: msg
        purpose: A message.
        source: doc.txt:2
        fields:
          - {key: text, type: string, required: true, purpose: Text., source: doc.txt:2}
          - {key: count, type: integer, required: false, default: 0, purpose: Count., source: doc.txt:2}
          - {key: value, type: [string, number], required: false, purpose: Value., source: doc.txt:2}
          - key: meta
            type: object
            required: false
            purpose: Meta.
            source: doc.txt:2
            fields:
              - {key: tag, type: string, required: false, purpose: Tag., source: doc.txt:2}
      - type: note
        purpose: A note.
        source: doc.txt:3
        fields: []
      - type: done
        purpose: The end.
        source: doc.txt:4
        fields: []
  - name: p
    purpose: A profile of t.
    source: doc.txt:5
    profile_of: t
    differences:
      - {aspect: errors, base: A prefix., profile: An SSE event type., source: doc.txt:5, error_wire_event: error}
  - name: a
    purpose: A dialect with an envelope.
    source: doc.txt:6
    frame_shapes:
      - {shape: structured, detection: A JSON object with a string type., handling: Dispatched., source: doc.txt:6}
    envelope:
      source: doc.txt:6
      fields:
        - {key: runId, type: string, required: true, purpose: Run id., source: doc.txt:6}
    events:
      - type: step
        purpose: A step.
        source: doc.txt:7
        fields: []
      - type: end
        purpose: The end.
        source: doc.txt:7
        fields: []
rules:
  - id: T-DONE-LAST
    severity: must
    dialects: [t]
    text: The stream ends with done.
    source: doc.txt:4
    quote: The stream ends with done.
    check: {kind: last_frame, types: [done]}
  - id: T-NO-NOTE
    severity: should
    basis: document
    dialects: [t]
    text: Notes are not sent.
    source: doc.txt:3
    check: {kind: forbidden_type, types: [note]}
  - id: T-TYPE-KNOWN
    severity: must
    dialects: [t, p]
    text: Every type is known.
    source: doc.txt:1
    quote: Every type is known.
    check: {kind: known_type}
  - id: T-MEDIA
    severity: must
    dialects: [t]
    text: The media type is text/event-stream.
    source: doc.txt:1
    quote: The media type.
    check: {kind: content_type, value: text/event-stream}
)";

/// `text` with each `from` replaced by its `to`; a `from` that is not found
/// exactly once fails the test (an edit that silently does nothing would make
/// a pair that proves nothing).
inline std::string edited(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "edit not found: " << from;
    if (at == std::string::npos) continue;
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "edit not unique: " << from;
    text.replace(at, from.size(), to);
  }
  return text;
}

/// Loads one catalog text under `name`; a load error fails the test.
inline std::shared_ptr<const sse::dialect::catalog> load_text(const std::string& text,
                                                              const std::string& name = "test.yaml") {
  const std::vector<sse::dialect::catalog_source> sources{{name, text}};
  auto loaded = sse::dialect::load_catalogs(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return loaded.value;
}

/// The diff of two texts (no pinning cases unless asked: they generate cases).
inline catalog_diff diff_texts(const std::string& old_text, const std::string& new_text, bool pin = false) {
  const auto o = load_text(old_text);
  const auto n = load_text(new_text);
  if (!o || !n) return {};
  diff_options opt;
  opt.pin_cases = pin;
  return diff_catalogs(*o, *n, opt);
}

/// The changes with this rule id.
inline std::vector<const catalog_change*> with_rule(const catalog_diff& d, std::string_view rule) {
  std::vector<const catalog_change*> out;
  for (const auto& c : d.changes)
    if (c.rule == rule) out.push_back(&c);
  return out;
}

}  // namespace ssec::conformance::diff_fixture
