// SPDX-License-Identifier: MIT
// Every catalog diff rule: a catalog pair that triggers it (at the expected
// place) and a close pair that must not.
#include <ostream>
#include <set>

#include <gtest/gtest.h>

#include "catalog_diff_fixture.hpp"

namespace ssec::conformance {
namespace {

using diff_fixture::base_catalog;
using diff_fixture::diff_texts;
using diff_fixture::edited;
using diff_fixture::with_rule;
using edits = std::vector<std::pair<std::string, std::string>>;

struct rule_pair {
  std::string rule;
  edits old_edits, new_edits;            // the pair that triggers it
  edits near_old_edits, near_new_edits;  // a close pair that must not
  std::string dialect, event, field;     // where the triggered change is
};

// Frequently edited lines of base_catalog.
const std::string text_field = "{key: text, type: string, required: true, purpose: Text., source: doc.txt:2}";
const std::string count_field =
    "{key: count, type: integer, required: false, default: 0, purpose: Count., source: doc.txt:2}";
const std::string value_field =
    "{key: value, type: [string, number], required: false, purpose: Value., source: doc.txt:2}";
const std::string tag_field = "{key: tag, type: string, required: false, purpose: Tag., source: doc.txt:2}";
const std::string note_event =
    "      - type: note\n        purpose: A note.\n        source: doc.txt:3\n        fields: []\n";
const std::string wire_event = "error_wire_event: error}";
const std::string plain_shape =
    "      - {shape: plain_text, detection: Anything else., handling: Appended as text., source: doc.txt:1}\n";
const std::string a_shapes =
    "      - {shape: structured, detection: A JSON object with a string type., handling: Dispatched., source: "
    "doc.txt:6}\n";
const std::string new_rule =
    "rules:\n  - id: T-ONE-DONE\n    severity: must\n    dialects: [t]\n    text: One done.\n"
    "    source: doc.txt:4\n    quote: One done.\n    check: {kind: at_most_once, types: [done]}\n";
const std::string new_should =
    "rules:\n  - id: T-ONE-DONE\n    severity: should\n    basis: document\n    dialects: [t]\n"
    "    text: One done.\n    source: doc.txt:4\n    check: {kind: at_most_once, types: [done]}\n";
const std::string a_dialect_start = "  - name: a\n";
const std::string added_dialect =
    "  - name: b\n    purpose: New.\n    source: doc.txt:8\n    frames_from: t\n    events:\n      - type: x\n"
    "        purpose: X.\n        source: doc.txt:8\n        fields: []\n";
const std::string note_rule_sev =
    "    severity: should\n    basis: document\n    dialects: [t]\n    text: Notes are not sent.";
const std::string note_rule_must =
    "    severity: must\n    dialects: [t]\n    text: Notes are not sent.\n    quote: Notes.";

std::vector<rule_pair> pairs() {
  return {
      {"DIALECT_ADDED",
       {},
       {{a_dialect_start, added_dialect + a_dialect_start}},
       {},
       {{note_event,
         note_event + "      - type: y\n        purpose: Y.\n        source: doc.txt:3\n        fields: []\n"}},
       "b",
       "",
       ""},
      {"DIALECT_REMOVED",
       {{a_dialect_start, added_dialect + a_dialect_start}},
       {},
       {},
       {{"purpose: A dialect with an envelope.", "purpose: Another wording."}},
       "b",
       "",
       ""},
      {"PROFILE_BASE_CHANGED",
       {},
       {{"    frame_shapes:\n" + a_shapes, ""},
        {"    purpose: A dialect with an envelope.\n",
         "    purpose: A dialect with an envelope.\n    frames_from: t\n"}},
       {},
       {{"detection: A JSON object with a string type., handling: Dispatched., source: doc.txt:6",
         "detection: An object., handling: Dispatched., source: doc.txt:6"}},
       "a",
       "",
       ""},
      {"PROFILE_DIFFERENCE_ADDED",
       {},
       {{wire_event, wire_event + "\n      - {aspect: usage, base: Sent., profile: Not sent., source: doc.txt:5}"}},
       {},
       {{"profile: An SSE event type.", "profile: An event type."}},
       "p",
       "",
       "difference:usage"},
      {"PROFILE_DIFFERENCE_REMOVED",
       {{wire_event, wire_event + "\n      - {aspect: usage, base: Sent., profile: Not sent., source: doc.txt:5}"}},
       {},
       {},
       {{"profile: An SSE event type.", "profile: An event type."}},
       "p",
       "",
       "difference:usage"},
      {"ERROR_WIRE_EVENT_CHANGED",
       {},
       {{wire_event, "error_wire_event: failure}"}},
       {},
       {{"base: A prefix.", "base: The prefix."}},
       "p",
       "",
       "error_wire_event"},
      {"FRAME_SHAPE_ADDED",
       {},
       {{a_shapes, a_shapes + "      - {shape: plain_text, detection: Else., handling: Text., source: doc.txt:6}\n"}},
       {},
       {{"handling: Appended as text.", "handling: Appended."}},
       "a",
       "",
       "shape:plain_text"},
      {"FRAME_SHAPE_REMOVED",
       {},
       {{plain_shape, ""}},
       {},
       {{"handling: Appended as text.", "handling: Appended."}},
       "t",
       "",
       "shape:plain_text"},
      {"FRAME_PREFIX_CHANGED",
       {},
       {{"prefix: \"[ERROR]\"", "prefix: \"[ERR]\""}},
       {},
       {{"handling: Error state.", "handling: Shown as an error."}},
       "t",
       "",
       "shape:error"},
      {"EVENT_ADDED",
       {},
       {{note_event,
         note_event + "      - type: ping\n        purpose: Ping.\n        source: doc.txt:3\n        fields: []\n"}},
       {},
       {{text_field,
         text_field + "\n          - {key: extra, type: string, required: false, purpose: E., source: doc.txt:2}"}},
       "t",
       "ping",
       ""},
      {"EVENT_REMOVED",
       {},
       {{note_event, ""},
        {"    check: {kind: forbidden_type, types: [note]}", "    check: {kind: forbidden_type, types: [msg]}"}},
       {},
       {{"    purpose: A note.\n", "    purpose: A short note.\n"}},
       "t",
       "note",
       ""},
      {"EVENT_OPENED",
       {},
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: true\n"}},
       {},
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: false\n"}},
       "t",
       "note",
       ""},
      {"EVENT_CLOSED",
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: true\n"}},
       {},
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: true\n"}},
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: true\n"}},
       "t",
       "note",
       ""},
      {"FIELD_ADDED_OPTIONAL",
       {},
       {{text_field,
         text_field + "\n          - {key: extra, type: string, required: false, purpose: E., source: doc.txt:2}"}},
       {},
       {{text_field,
         text_field + "\n          - {key: extra, type: string, required: true, purpose: E., source: doc.txt:2}"}},
       "t",
       "msg",
       "extra"},
      {"FIELD_ADDED_REQUIRED",
       {},
       {{text_field,
         text_field + "\n          - {key: extra, type: string, required: true, purpose: E., source: doc.txt:2}"}},
       {},
       {{text_field,
         text_field + "\n          - {key: extra, type: string, required: false, purpose: E., source: doc.txt:2}"}},
       "t",
       "msg",
       "extra"},
      {"FIELD_REMOVED",
       {},
       {{text_field, "{key: body, type: string, required: true, purpose: Text., source: doc.txt:2}"}},
       {},
       {{"          - " + count_field + "\n", ""}},
       "t",
       "msg",
       "text"},
      {"FIELD_REMOVED_OPTIONAL",
       {},
       {{tag_field, "{key: label, type: string, required: false, purpose: Tag., source: doc.txt:2}"}},
       {},
       {{"          - " + text_field + "\n", ""}},
       "t",
       "msg",
       "meta.tag"},
      {"FIELD_KEY_CHANGED", {}, {{"key: text,", "key: Text,"}}, {}, {{"key: text,", "key: body,"}}, "t", "msg", "Text"},
      {"FIELD_TYPE_NARROWED",
       {},
       {{"type: [string, number]", "type: string"}},
       {},
       {{"type: [string, number]", "type: [number, string]"}},
       "t",
       "msg",
       "value"},
      {"FIELD_TYPE_WIDENED",
       {},
       {{"key: count, type: integer", "key: count, type: number"}},
       {},
       {{"type: [string, number]", "type: [string, number, integer]"}},
       "t",
       "msg",
       "count"},
      {"FIELD_TYPE_CHANGED",
       {},
       {{"{key: tag, type: string", "{key: tag, type: boolean"}},
       {},
       {{"{key: tag, type: string", "{key: tag, type: [string]"}},
       "t",
       "msg",
       "meta.tag"},
      {"FIELD_MADE_REQUIRED",
       {},
       {{"{key: tag, type: string, required: false", "{key: tag, type: string, required: true"}},
       {},
       {{"{key: tag, type: string, required: false, purpose: Tag.",
         "{key: tag, type: string, required: false, purpose: The tag."}},
       "t",
       "msg",
       "meta.tag"},
      {"FIELD_MADE_OPTIONAL",
       {},
       {{"key: text, type: string, required: true", "key: text, type: string, required: false"}},
       {},
       {{"key: text, type: string, required: true, purpose: Text.",
         "key: text, type: string, required: true, purpose: The text."}},
       "t",
       "msg",
       "text"},
      {"DEFAULT_ADDED",
       {},
       {{"{key: tag, type: string, required: false,", "{key: tag, type: string, required: false, default: none,"}},
       {},
       {{count_field, count_field}},
       "t",
       "msg",
       "meta.tag"},
      {"DEFAULT_REMOVED", {}, {{"default: 0, ", ""}}, {}, {{"default: 0, ", "default: 0.0, "}}, "t", "msg", "count"},
      {"DEFAULT_CHANGED",
       {},
       {{"default: 0, ", "default: 1, "}},
       {},
       {{"purpose: Count.", "purpose: How many."}},
       "t",
       "msg",
       "count"},
      {"RULE_ADDED", {}, {{"rules:\n", new_rule}}, {}, {{"rules:\n", new_should}}, "t", "", ""},
      {"RULE_ADDED_SHOULD", {}, {{"rules:\n", new_should}}, {}, {{"rules:\n", new_rule}}, "t", "", ""},
      {"RULE_REMOVED", {{"rules:\n", new_rule}}, {}, {{"rules:\n", new_should}}, {}, "t", "", ""},
      {"RULE_REMOVED_SHOULD", {{"rules:\n", new_should}}, {}, {{"rules:\n", new_rule}}, {}, "t", "", ""},
      {"RULE_TIGHTENED",
       {},
       {{note_rule_sev, note_rule_must}},
       {},
       {{"text: Notes are not sent.", "text: No notes are sent."}},
       "t",
       "",
       ""},
      {"RULE_RELAXED",
       {{note_rule_sev, note_rule_must}},
       {},
       {},
       {{"text: Notes are not sent.", "text: No notes are sent."}},
       "t",
       "",
       ""},
      {"RULE_CHANGED",
       {},
       {{"value: text/event-stream}", "value: application/json}"}},
       {},
       {{"text: The media type is text/event-stream.", "text: The media type."}},
       "t",
       "",
       ""},
      {"TERMINAL_CHANGED",
       {},
       {{"check: {kind: last_frame, types: [done]}", "check: {kind: last_frame, types: [done, note]}"}},
       {},
       {{"check: {kind: last_frame, types: [done]}", "check: {kind: last_frame, types: [ done ]}"}},
       "t",
       "",
       ""},
      {"DOC_CHANGED",
       {},
       {{"    purpose: A note.\n", "    purpose: A short note.\n"}},
       {},
       {{"    purpose: A note.\n", "    purpose: A note.\n        open: false\n"}},
       "t",
       "note",
       ""},
      {"VERSION_NOT_BUMPED",
       {},
       {{note_event, ""}, {"types: [note]", "types: [msg]"}, {"catalog_version: 1.0.0", "catalog_version: 1.1.0"}},
       {},
       {{note_event, ""}, {"types: [note]", "types: [msg]"}, {"catalog_version: 1.0.0", "catalog_version: 2.0.0"}},
       "",
       "",
       ""},
      {"VERSION_PATCH_NOT_BUMPED",
       {},
       {{"    purpose: A note.\n", "    purpose: A short note.\n"}},
       {},
       {{"    purpose: A note.\n", "    purpose: A short note.\n"},
        {"catalog_version: 1.0.0", "catalog_version: 1.0.1"}},
       "",
       "",
       ""},
  };
}

// The rule id in failure messages, not the parameter's bytes.
void PrintTo(const rule_pair& p, std::ostream* os) { *os << p.rule; }

// The changes with `rule` in `dialect` (a base's change shows again in its profile `p`).
std::vector<const catalog_change*> in_dialect(const catalog_diff& d, const std::string& rule,
                                              const std::string& dialect) {
  std::vector<const catalog_change*> out;
  for (const auto* c : with_rule(d, rule))
    if (c->dialect == dialect) out.push_back(c);
  return out;
}

std::string listing(const catalog_diff& d) {
  std::string s;
  for (const auto& c : d.changes)
    s += "\n  " + c.rule + " " + c.dialect + " " + c.event + " " + c.field + ": " + c.message;
  return s;
}

class diff_rule_pairs : public ::testing::TestWithParam<rule_pair> {};

TEST_P(diff_rule_pairs, triggers_and_close_pair_does_not) {
  const auto& p = GetParam();
  const std::string base(base_catalog);
  const auto d = diff_texts(edited(base, p.old_edits), edited(base, p.new_edits));
  const auto hits = in_dialect(d, p.rule, p.dialect);
  ASSERT_EQ(hits.size(), 1u) << "changes:" << listing(d);
  EXPECT_EQ(hits[0]->dialect, p.dialect);
  EXPECT_EQ(hits[0]->event, p.event);
  EXPECT_EQ(hits[0]->field, p.field);
  const auto* r = find_diff_rule(p.rule);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(hits[0]->reader, r->reader);
  EXPECT_EQ(hits[0]->writer, r->writer);
  EXPECT_FALSE(hits[0]->message.empty());
  if (hits[0]->worst() != change_level::info && !p.rule.starts_with("VERSION_PATCH")) {
    EXPECT_TRUE(hits[0]->example.has_value()) << p.rule << " has no counterexample";
  }

  const auto near = diff_texts(edited(base, p.near_old_edits), edited(base, p.near_new_edits));
  EXPECT_TRUE(with_rule(near, p.rule).empty()) << p.rule << " fired on the close pair:" << listing(near);
}

INSTANTIATE_TEST_SUITE_P(catalog_diff, diff_rule_pairs, ::testing::ValuesIn(pairs()),
                         [](const auto& info) { return info.param.rule; });

TEST(catalog_diff_rules, every_rule_has_a_pair) {
  std::set<std::string> tested;
  for (const auto& p : pairs()) tested.insert(p.rule);
  for (const auto& r : diff_rules()) EXPECT_TRUE(tested.count(std::string(r.id))) << r.id << " has no pair";
  EXPECT_EQ(tested.size(), diff_rules().size());
}

TEST(catalog_diff_rules, identical_sets_have_no_changes) {
  const std::string base(base_catalog);
  EXPECT_TRUE(diff_texts(base, base).changes.empty());
}

}  // namespace
}  // namespace ssec::conformance
