// SPDX-License-Identifier: MIT
// The catalog diff beyond single rules: semver, fingerprints, the envelope,
// profiles, counterexamples, the cases that pin a change, the ignore file and
// the gate.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "catalog_diff_fixture.hpp"
#include "ssec/conformance/catalog_diff_policy.hpp"

namespace ssec::conformance {
namespace {

using diff_fixture::base_catalog;
using diff_fixture::diff_texts;
using diff_fixture::edited;
using diff_fixture::with_rule;

const std::string base(base_catalog);
const std::string note_type_entry =
    "      - type: note\n        purpose: A note.\n        source: doc.txt:3\n        fields: []\n";
// Removing `note` (the rule that names it moves to msg): ERR for writers.
const std::vector<std::pair<std::string, std::string>> breaking{{note_type_entry, ""},
                                                                {"types: [note]", "types: [msg]"}};
const std::string ping_event =
    "      - type: ping\n        purpose: Ping.\n        source: doc.txt:3\n        fields: []\n";

TEST(catalog_diff_semver, parses_and_compares) {
  ASSERT_TRUE(parse_semver("1.2.3"));
  EXPECT_EQ(parse_semver("10.20.30-rc.1+build")->minor, 20);
  for (const char* bad : {"1.2", "1.2.3.4", "01.2.3", "a.b.c", "", "1..3"}) EXPECT_FALSE(parse_semver(bad)) << bad;
  EXPECT_EQ(bump_kind("1.2.3", "2.0.0"), "major");
  EXPECT_EQ(bump_kind("1.2.3", "1.3.0"), "minor");
  EXPECT_EQ(bump_kind("1.2.3", "1.2.4"), "patch");
  EXPECT_EQ(bump_kind("1.2.3", "1.2.3"), "none");
  EXPECT_EQ(bump_kind("1.2.3", "1.2.2"), "down");
  EXPECT_EQ(bump_kind("1.2.3", "x"), "invalid");
}

TEST(catalog_diff_semver, an_err_needs_a_major_bump) {
  for (const auto& [version, fires] :
       std::vector<std::pair<std::string, bool>>{{"1.0.0", true}, {"1.0.1", true}, {"1.1.0", true}, {"2.0.0", false}}) {
    auto edits = breaking;
    edits.emplace_back("catalog_version: 1.0.0", "catalog_version: " + version);
    const auto d = diff_texts(base, edited(base, edits));
    EXPECT_EQ(with_rule(d, "VERSION_NOT_BUMPED").size(), fires ? 1u : 0u) << version;
  }
}

TEST(catalog_diff_semver, an_addition_needs_a_minor_bump) {
  for (const auto& [version, fires] : std::vector<std::pair<std::string, bool>>{
           {"1.0.0", true}, {"1.0.1", true}, {"1.1.0", false}, {"2.0.0", false}, {"0.9.0", true}}) {
    const auto d = diff_texts(base, edited(base, {{note_type_entry, note_type_entry + ping_event},
                                                  {"catalog_version: 1.0.0", "catalog_version: " + version}}));
    ASSERT_EQ(with_rule(d, "EVENT_ADDED").size(), 2u);  // t and its profile p
    EXPECT_EQ(with_rule(d, "VERSION_NOT_BUMPED").size(), fires ? 1u : 0u) << version;
  }
}

TEST(catalog_diff_semver, wording_only_is_a_patch) {
  const auto reworded = edited(base, {{"    purpose: A note.\n", "    purpose: A short note.\n"}});
  const auto d = diff_texts(base, reworded);
  EXPECT_TRUE(with_rule(d, "VERSION_NOT_BUMPED").empty());
  EXPECT_EQ(with_rule(d, "VERSION_PATCH_NOT_BUMPED").size(), 1u);
  const auto bumped = edited(reworded, {{"catalog_version: 1.0.0", "catalog_version: 1.0.1"}});
  EXPECT_TRUE(with_rule(diff_texts(base, bumped), "VERSION_PATCH_NOT_BUMPED").empty());
}

TEST(catalog_diff_semver, the_version_change_carries_a_counterexample) {
  const auto d = diff_texts(base, edited(base, breaking));
  const auto v = with_rule(d, "VERSION_NOT_BUMPED");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]->file, "test.yaml");
  ASSERT_TRUE(v[0]->example);
  EXPECT_FALSE(v[0]->example->chunks.empty());
}

// Fingerprints depend on the rule and the place only.
TEST(catalog_diff_fingerprints, stable_across_reordering_and_rewording) {
  const auto plain = diff_texts(base, edited(base, breaking));
  // The same change, with the events reordered and every purpose reworded.
  const std::string done_event =
      "      - type: done\n        purpose: The end.\n        source: doc.txt:4\n        fields: []\n";
  const auto reordered_old = edited(base, {{note_type_entry + done_event, done_event + note_type_entry}});
  const auto reworded_new = edited(base, {{note_type_entry, ""},
                                          {"types: [note]", "types: [msg]"},
                                          {"    purpose: The end.\n        source: doc.txt:4",
                                           "    purpose: Stop reading.\n        source: doc.txt:4"},
                                          {"purpose: A message.", "purpose: One message."}});
  const auto moved = diff_texts(reordered_old, reworded_new);
  const auto a = with_rule(plain, "EVENT_REMOVED");
  const auto b = with_rule(moved, "EVENT_REMOVED");
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]->fingerprint, b[i]->fingerprint);
    EXPECT_EQ(a[i]->fingerprint.size(), 16u);
  }
  EXPECT_EQ(a[0]->fingerprint, change_fingerprint("EVENT_REMOVED", a[0]->dialect, "note", "", ""));
  EXPECT_NE(a[0]->fingerprint, a[1]->fingerprint);  // t and p: two places
}

TEST(catalog_diff_fingerprints, differ_by_rule_and_place) {
  EXPECT_NE(change_fingerprint("FIELD_REMOVED", "t", "msg", "text", ""),
            change_fingerprint("FIELD_REMOVED", "t", "msg", "count", ""));
  EXPECT_NE(change_fingerprint("FIELD_REMOVED", "t", "msg", "text", ""),
            change_fingerprint("FIELD_MADE_OPTIONAL", "t", "msg", "text", ""));
  // The separators keep "a|bc" and "ab|c" apart.
  EXPECT_NE(change_fingerprint("R", "a", "bc", "", ""), change_fingerprint("R", "ab", "c", "", ""));
}

TEST(catalog_diff_envelope, a_change_to_the_envelope_is_reported_once_not_per_event) {
  const auto d = diff_texts(base, edited(base, {{"{key: runId, type: string, required: true, purpose: Run id.",
                                                 "{key: runId, type: string, required: false, purpose: Run id."}}));
  const auto hits = with_rule(d, "FIELD_MADE_OPTIONAL");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0]->event, "*");
  EXPECT_EQ(hits[0]->field, "runId");
  ASSERT_TRUE(hits[0]->example);  // shown on an event of the dialect
  EXPECT_NE(hits[0]->example->explanation.find("Envelope field"), std::string::npos);
}

TEST(catalog_diff_envelope, an_event_that_refines_the_field_differently_is_reported_for_that_event) {
  const auto d =
      diff_texts(base, edited(base, {{"        purpose: A step.\n        source: doc.txt:7\n        fields: []",
                                      "        purpose: A step.\n        source: doc.txt:7\n        fields:\n"
                                      "          - {key: runId, type: [string, object], purpose: Run id or a run.}"}}));
  const auto hits = with_rule(d, "FIELD_TYPE_WIDENED");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0]->event, "step");
}

TEST(catalog_diff_profiles, a_base_change_shows_in_the_profile_too) {
  const auto d = diff_texts(base, edited(base, {{note_type_entry, note_type_entry + ping_event}}));
  std::vector<std::string> dialects;
  for (const auto* c : with_rule(d, "EVENT_ADDED")) dialects.push_back(c->dialect);
  EXPECT_EQ(dialects, (std::vector<std::string>{"p", "t"}));
}

TEST(catalog_diff_profiles, no_default_in_a_profile_is_a_default_removed_there) {
  const auto d = diff_texts(
      base, edited(base, {{"error_wire_event: error}", "error_wire_event: error, no_default: [msg.count]}"}}));
  const auto hits = with_rule(d, "DEFAULT_REMOVED");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0]->dialect, "p");
  EXPECT_EQ(hits[0]->field, "count");
}

TEST(catalog_diff_examples, a_writer_counterexample_is_what_new_refuses) {
  const auto d = diff_texts(base, edited(base, {{"key: text, type: string", "key: text, type: boolean"}}));
  const auto hits = with_rule(d, "FIELD_TYPE_CHANGED");
  ASSERT_FALSE(hits.empty());
  ASSERT_TRUE(hits[0]->example);
  const auto& x = *hits[0]->example;
  EXPECT_EQ(x.role, "reader");
  EXPECT_NE(x.input.find("\\\"text\\\":true"), std::string::npos) << x.input;
  EXPECT_EQ(x.input.front(), '[');

  const auto removal = diff_texts(base, edited(base, breaking));
  const auto removed = with_rule(removal, "EVENT_REMOVED");
  ASSERT_FALSE(removed.empty());
  ASSERT_TRUE(removed[0]->example);
  EXPECT_EQ(removed[0]->example->role, "writer");
  EXPECT_NE(removed[0]->example->input.find("\\\"type\\\":\\\"note\\\""), std::string::npos);
  EXPECT_NE(removed[0]->example->explanation.find("T-TYPE-KNOWN"), std::string::npos)
      << removed[0]->example->explanation;
}

TEST(catalog_diff_examples, counterexamples_are_bounded) {
  diff_options opt;
  opt.pin_cases = false;
  opt.max_counterexample_bytes = 10;
  const auto o = diff_fixture::load_text(base);
  const auto n = diff_fixture::load_text(edited(base, breaking));
  const auto d = diff_catalogs(*o, *n, opt);
  std::size_t with_example = 0;
  for (const auto& c : d.changes) {
    if (!c.example) continue;
    ++with_example;
    std::size_t bytes = 0;
    for (const auto& ch : c.example->chunks) bytes += ch.size();
    EXPECT_LE(bytes, 10u);
  }
  EXPECT_GT(with_example, 0u);
}

TEST(catalog_diff_examples, info_changes_have_none) {
  const auto d = diff_texts(base, edited(base, {{"    purpose: A note.\n", "    purpose: A short note.\n"}}));
  ASSERT_FALSE(d.changes.empty());
  for (const auto& c : d.changes) EXPECT_FALSE(c.example) << c.rule;
}

TEST(catalog_diff_pinning, names_the_generated_cases_of_new_and_is_bounded) {
  const auto d = diff_texts(base, edited(base, {{note_type_entry, note_type_entry + ping_event}}), /*pin=*/true);
  const auto hits = with_rule(d, "EVENT_ADDED");
  ASSERT_FALSE(hits.empty());
  EXPECT_FALSE(hits[0]->pinned_by.empty());
  EXPECT_GE(hits[0]->pinned_total, hits[0]->pinned_by.size());
  for (const auto& id : hits[0]->pinned_by) EXPECT_EQ(id.size(), 4u);

  const auto rules =
      diff_texts(base,
                 edited(base, {{"severity: should\n    basis: document\n    dialects: [t]\n    text: Notes",
                                "severity: must\n    dialects: [t]\n    text: Notes"},
                               {"    text: Notes are not sent.\n    source: doc.txt:3\n",
                                "    text: Notes are not sent.\n    source: doc.txt:3\n    quote: No.\n"}}),
                 /*pin=*/true);
  const auto tight = with_rule(rules, "RULE_TIGHTENED");
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_EQ(tight[0]->pinned_by.size(), 2u);  // the rule's kept and broken cases

  const auto o = diff_fixture::load_text(base);
  const auto n = diff_fixture::load_text(edited(base, {{note_type_entry, note_type_entry + ping_event}}));
  diff_options one;
  one.max_pinned = 1;
  for (const auto& c : diff_catalogs(*o, *n, one).changes) EXPECT_LE(c.pinned_by.size(), 1u);
}

TEST(catalog_diff_ignore, text_and_yaml_forms) {
  const auto text = parse_ignore_file("# accepted\n0123456789abcdef  ping reaches only our own frontend\n\n", "ig.txt");
  ASSERT_TRUE(text.ok()) << text.error_text();
  ASSERT_EQ(text.value.size(), 1u);
  EXPECT_EQ(text.value[0].reason, "ping reaches only our own frontend");
  EXPECT_EQ(text.value[0].line, 2u);
  const auto yaml = parse_ignore_file("ignore:\n  - fingerprint: 0123456789abcdef\n    reason: accepted\n", "ig.yaml");
  ASSERT_TRUE(yaml.ok()) << yaml.error_text();
  ASSERT_EQ(yaml.value.size(), 1u);
  EXPECT_EQ(yaml.value[0].line, 2u);
}

TEST(catalog_diff_ignore, a_reason_is_required_and_errors_name_the_line) {
  const auto no_reason = parse_ignore_file("0123456789abcdef\n", "ig.txt");
  ASSERT_FALSE(no_reason.ok());
  EXPECT_NE(no_reason.error_text().find("ig.txt:1:1: fingerprint 0123456789abcdef has no reason"), std::string::npos)
      << no_reason.error_text();
  const auto yaml = parse_ignore_file("ignore:\n  - fingerprint: 0123456789abcdef\n", "ig.yaml");
  ASSERT_FALSE(yaml.ok());
  EXPECT_NE(yaml.error_text().find("ig.yaml:2:"), std::string::npos) << yaml.error_text();
  EXPECT_NE(yaml.error_text().find("reason"), std::string::npos);
  EXPECT_FALSE(parse_ignore_file("xyz because\n", "ig.txt").ok());
  EXPECT_FALSE(parse_ignore_file("ignore:\n  - {fingerprint: 0123456789abcdef, reason: a, typo: 1}\n", "i").ok());
  const auto twice = parse_ignore_file("0123456789abcdef a\n0123456789abcdef b\n", "ig.txt");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error_text().find("ig.txt:2:1: fingerprint 0123456789abcdef is listed twice (first at line 1)"),
            std::string::npos);
}

TEST(catalog_diff_gate, role_level_and_ignores) {
  const auto d = diff_texts(base, edited(base, {{note_type_entry, note_type_entry + ping_event},
                                                {"catalog_version: 1.0.0", "catalog_version: 1.1.0"}}));
  ASSERT_EQ(d.changes.size(), 2u);  // EVENT_ADDED in t and p: reader WARN, writer INFO
  EXPECT_FALSE(judge_diff(d, diff_role::both, change_level::err, {}).fails());
  EXPECT_EQ(judge_diff(d, diff_role::reader, change_level::warn, {}).failing, 2u);
  EXPECT_FALSE(judge_diff(d, diff_role::writer, change_level::warn, {}).fails());
  EXPECT_TRUE(judge_diff(d, diff_role::writer, change_level::info, {}).fails());

  const std::vector<ignore_entry> ignores{{d.changes[0].fingerprint, "accepted", 1}, {"ffffffffffffffff", "stale", 2}};
  const auto j = judge_diff(d, diff_role::reader, change_level::warn, ignores, "ig.txt");
  EXPECT_EQ(j.failing, 1u);
  ASSERT_TRUE(j.ignored[0]);
  EXPECT_EQ(*j.ignored[0], "accepted");
  EXPECT_FALSE(j.ignored[1]);
  ASSERT_EQ(j.unknown_ignores.size(), 1u);
  EXPECT_EQ(j.unknown_ignores[0], "ig.txt:2: fingerprint ffffffffffffffff matches no change");
  EXPECT_EQ(j.counts[static_cast<int>(diff_role::reader)][static_cast<int>(change_level::warn)], 1u);
}

TEST(catalog_diff_gate, levels_parse) {
  EXPECT_EQ(parse_change_level("err"), change_level::err);
  EXPECT_EQ(parse_change_level("WARN"), change_level::warn);
  EXPECT_EQ(parse_change_level("Info"), change_level::info);
  EXPECT_FALSE(parse_change_level("fatal"));
  EXPECT_EQ(to_string(change_level::err), "ERR");
  EXPECT_EQ(parse_diff_role("writer"), diff_role::writer);
  EXPECT_FALSE(parse_diff_role("all"));
}

// Authored events (spec/FORMAT.md, "Authored entries"): the rule generated
// from their required fields is compared through the events, so a team's new
// type is one addition, and an event that becomes authored tightens its
// required fields to must.
const std::string authored_ping =
    "      - type: ping\n        purpose: Ping.\n        authored: team.md#ping\n        fields:\n"
    "          - {key: id, type: string, required: true, purpose: Id.}\n";
const std::string msg_source = "        purpose: A message.\n        source: doc.txt:2\n";

TEST(catalog_diff_authored, a_new_authored_type_is_an_addition_only) {
  const auto d = diff_texts(base, edited(base, {{note_type_entry, note_type_entry + authored_ping}}));
  std::set<std::string> rules;
  for (const auto& c : d.changes) rules.insert(c.rule);
  EXPECT_EQ(rules, (std::set<std::string>{"EVENT_ADDED", "VERSION_NOT_BUMPED"}));
  // Another required field on it is the field's change, not a second rule change.
  const auto more = edited(authored_ping, {{"purpose: Id.}\n",
                                            "purpose: Id.}\n          - {key: n, type: "
                                            "integer, required: true, purpose: N.}\n"}});
  const auto d2 = diff_texts(edited(base, {{note_type_entry, note_type_entry + authored_ping}}),
                             edited(base, {{note_type_entry, note_type_entry + more}}));
  rules.clear();
  for (const auto& c : d2.changes) rules.insert(c.rule);
  EXPECT_EQ(rules, (std::set<std::string>{"FIELD_ADDED_REQUIRED", "VERSION_NOT_BUMPED"}));
}

TEST(catalog_diff_authored, an_event_that_becomes_authored_tightens_its_required_fields) {
  const auto authored = edited(base, {{msg_source, msg_source + "        authored: team.md#msg\n"}});
  const auto d = diff_texts(base, authored);
  const auto tightened = with_rule(d, "RULE_TIGHTENED");
  ASSERT_EQ(tightened.size(), 2u);  // t and its profile p
  for (const auto* c : tightened) {
    EXPECT_EQ(c->event, "msg");
    EXPECT_EQ(c->producer_rule, sse::dialect::authored_rule_id(c->dialect));
    EXPECT_NE(c->message.find("its required fields msg.text to must"), std::string::npos) << c->message;
    EXPECT_TRUE(c->example.has_value()) << c->message;
  }
  EXPECT_TRUE(with_rule(d, "RULE_ADDED").empty());
  const auto back = diff_texts(authored, base);
  const auto relaxed = with_rule(back, "RULE_RELAXED");
  ASSERT_EQ(relaxed.size(), 2u);
  EXPECT_NE(relaxed[0]->message.find("no longer authored here"), std::string::npos) << relaxed[0]->message;
  ASSERT_TRUE(relaxed[0]->example.has_value());
  EXPECT_EQ(relaxed[0]->example->role, "reader");
  EXPECT_EQ(tightened[0]->example->role, "writer");
  EXPECT_EQ(tightened[0]->example->chunks.front(), "data: {\"type\":\"msg\"}\n\n");
  // A new reference is wording.
  const auto moved = edited(authored, {{"team.md#msg", "team.md#message"}});
  std::set<std::string> rules;
  for (const auto& c : diff_texts(authored, moved).changes) rules.insert(c.rule);
  EXPECT_EQ(rules, (std::set<std::string>{"DOC_CHANGED", "VERSION_PATCH_NOT_BUMPED"}));
}

TEST(catalog_diff_builtin, the_built_in_set_against_itself_has_no_changes) {
  const auto& b = sse::dialect::builtin_catalog();
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(diff_catalogs(*b.value, *b.value).changes.empty());
}

}  // namespace
}  // namespace ssec::conformance
