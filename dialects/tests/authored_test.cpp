// SPDX-License-Identifier: MIT
// Authored entries (spec/FORMAT.md, "Authored entries"): a team's own event
// type is the contract's words, so its required fields are a must, through
// one rule the loader generates per dialect.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalog_test_support.hpp"
#include "sse/dialect/catalog.hpp"
#include "sse/dialect/validator.hpp"

namespace {

using namespace sse::dialect;

// `widget` is authored here; `ping` transcribes the document.
const std::string authored_catalog =
    "format_version: 1\n"                                                                                 // 1
    "catalog_version: 1.0.0\n"                                                                            // 2
    "document: doc.txt\n"                                                                                 // 3
    "purpose: A test protocol.\n"                                                                         // 4
    "dialects:\n"                                                                                         // 5
    "  - name: demo_app\n"                                                                                // 6
    "    purpose: Demo.\n"                                                                                // 7
    "    source: doc.txt:1\n"                                                                             // 8
    "    frame_shapes:\n"                                                                                 // 9
    "      - {shape: structured, detection: A JSON object., handling: Dispatched., source: doc.txt:2}\n"  // 10
    "    envelope:\n"                                                                                     // 11
    "      fields:\n"                                                                                     // 12
    "        - {key: runId, type: string, required: true, purpose: Run., source: doc.txt:5}\n"            // 13
    "    events:\n"                                                                                       // 14
    "      - type: ping\n"                                                                                // 15
    "        purpose: A ping.\n"                                                                          // 16
    "        source: doc.txt:3\n"                                                                         // 17
    "        fields:\n"                                                                                   // 18
    "          - {key: n, type: integer, required: true, purpose: Count., source: doc.txt:3}\n"           // 19
    "      - type: widget\n"                                                                              // 20
    "        purpose: A widget the app adds.\n"                                                           // 21
    "        authored: acme-events.md#widget\n"                                                           // 22
    "        fields:\n"                                                                                   // 23
    "          - {key: id, type: string, required: true, purpose: The widget.}\n"                         // 24
    "          - {key: note, type: string, required: false, purpose: A note.}\n"                          // 25
    "          - key: spec\n"                                                                             // 26
    "            type: object\n"                                                                          // 27
    "            required: false\n"                                                                       // 28
    "            purpose: Its spec.\n"                                                                    // 29
    "            fields:\n"                                                                               // 30
    "              - {key: size, type: integer, required: true, purpose: Size.}\n"                        // 31
    "rules:\n"                                                                                            // 32
    "  - id: DEMO-FIELD-REQUIRED\n"                                                                       // 33
    "    severity: should\n"                                                                              // 34
    "    dialects: [demo_app]\n"                                                                          // 35
    "    text: Key fields are sent.\n"                                                                    // 36
    "    decision: demo-fields\n"                                                                         // 37
    "    check: {kind: field_required}\n";                                                                // 38

using catalog_test_support::edited;

ssec::load_result<std::shared_ptr<const catalog>> load(const std::string& text) {
  const catalog_source src{"demo.yaml", text};
  return load_catalogs(std::span<const catalog_source>(&src, 1));
}

std::set<std::string> paths_of(const rule_spec& r) {
  std::set<std::string> out;
  for (const auto& p : r.check.fields) out.insert(p.to_string());
  return out;
}

// rule id -> severity of each finding on `stream`.
std::multiset<std::string> findings(const dialect_spec& d, const std::string& stream) {
  std::multiset<std::string> out;
  for (const auto& f : validate_stream(d, stream).findings) {
    out.insert(f.rule->id + ":" + std::string(to_string(f.rule->level)));
  }
  return out;
}

TEST(authored, required_fields_of_an_authored_event_are_one_generated_must_rule) {
  EXPECT_EQ(authored_rule_id("demo_app"), "DEMO-APP-AUTHORED-FIELD-REQUIRED");
  EXPECT_EQ(authored_rule_id("chat"), "CHAT-AUTHORED-FIELD-REQUIRED");
  const auto loaded = load(authored_catalog);
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  const rule_spec* r = loaded.value->rule("DEMO-APP-AUTHORED-FIELD-REQUIRED");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->generated);
  EXPECT_EQ(r->level, severity::must);
  EXPECT_EQ(r->basis, basis::authored);
  EXPECT_EQ(basis_text(*r), "authored, acme-events.md#widget");
  EXPECT_EQ(r->dialects, std::vector<std::string>{"demo_app"});
  EXPECT_EQ(r->where.line, 20);
  // The event's own required fields and the required ones they nest; not the
  // envelope's runId (the document's), not the optional note.
  EXPECT_EQ(paths_of(*r), (std::set<std::string>{"widget.id", "widget.spec.size"}));
  // A field of an authored event without a trace carries the event's.
  const auto* widget = loaded.value->dialect("demo_app")->event("widget");
  ASSERT_NE(widget, nullptr);
  EXPECT_EQ(widget->origin.authored, "acme-events.md#widget");
  EXPECT_EQ(widget->field("id")->origin.authored, "acme-events.md#widget");
  EXPECT_TRUE(loaded.value->dialect("demo_app")->event("ping")->origin.authored.empty());
}

TEST(authored, a_missing_required_field_fails_as_must_on_authored_types_only) {
  const auto loaded = load(authored_catalog);
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  const dialect_spec& d = *loaded.value->dialect("demo_app");
  EXPECT_TRUE(
      findings(d, "data: {\"type\":\"widget\",\"runId\":\"r\",\"id\":\"w\",\"spec\":{\"size\":1}}\n\n").empty());
  EXPECT_EQ(findings(d, "data: {\"type\":\"widget\",\"runId\":\"r\"}\n\n"),
            (std::multiset<std::string>{"DEMO-APP-AUTHORED-FIELD-REQUIRED:must"}));
  EXPECT_EQ(findings(d, "data: {\"type\":\"widget\",\"runId\":\"r\",\"id\":\"w\",\"spec\":{}}\n\n"),
            (std::multiset<std::string>{"DEMO-APP-AUTHORED-FIELD-REQUIRED:must"}));
  // The transcribed type and the envelope keep the document's severities.
  EXPECT_EQ(findings(d, "data: {\"type\":\"ping\",\"runId\":\"r\"}\n\n"),
            (std::multiset<std::string>{"DEMO-FIELD-REQUIRED:should"}));
  EXPECT_EQ(findings(d, "data: {\"type\":\"widget\",\"id\":\"w\"}\n\n"),
            (std::multiset<std::string>{"DEMO-FIELD-REQUIRED:should"}));
}

TEST(authored, an_explicit_rule_for_a_path_keeps_it_and_authored_rules_may_be_must) {
  const std::string text = authored_catalog +
                           "  - id: DEMO-WIDGET-ID\n"
                           "    severity: should\n"
                           "    dialects: [demo_app]\n"
                           "    text: A widget names itself.\n"
                           "    authored: acme-events.md#widget-id\n"
                           "    check: {kind: field_required, fields: [widget.id]}\n"
                           "  - id: DEMO-WIDGET-FIRST\n"
                           "    severity: must\n"
                           "    basis: authored\n"
                           "    dialects: [demo_app]\n"
                           "    text: A widget comes first.\n"
                           "    authored: acme-events.md#order\n"
                           "    check: {kind: first_frame, types: [widget]}\n";
  const auto loaded = load(text);
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  EXPECT_EQ(paths_of(*loaded.value->rule("DEMO-APP-AUTHORED-FIELD-REQUIRED")),
            std::set<std::string>{"widget.spec.size"});
  const rule_spec* explicit_rule = loaded.value->rule("DEMO-WIDGET-ID");
  EXPECT_EQ(explicit_rule->basis, basis::authored);  // the default when a rule names `authored`
  EXPECT_FALSE(explicit_rule->generated);
  EXPECT_EQ(loaded.value->rule("DEMO-WIDGET-FIRST")->level, severity::must);
  const dialect_spec& d = *loaded.value->dialect("demo_app");
  EXPECT_EQ(findings(d, "data: {\"type\":\"widget\",\"runId\":\"r\"}\n\n"),
            (std::multiset<std::string>{"DEMO-WIDGET-ID:should"}));
}

TEST(authored, a_catalog_without_authored_events_generates_nothing) {
  const auto loaded =
      load(edited(authored_catalog, "        authored: acme-events.md#widget\n", "        decision: demo-widget\n"));
  // The widget's fields have no trace of their own: outside an authored event that is an error.
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error_text().find("demo.yaml:24:"), std::string::npos) << loaded.error_text();
  EXPECT_NE(loaded.error_text().find("needs a `source`"), std::string::npos) << loaded.error_text();
}

TEST(authored, errors_name_the_line_and_the_fix) {
  const auto error_of = [](const std::string& text) {
    const auto r = load(text);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error_text();
  };
  // A rule of that id already exists.
  EXPECT_NE(
      error_of(edited(authored_catalog, "  - id: DEMO-FIELD-REQUIRED\n", "  - id: DEMO-APP-AUTHORED-FIELD-REQUIRED\n"))
          .find("demo.yaml:20:9: rule id `DEMO-APP-AUTHORED-FIELD-REQUIRED` belongs to the required fields"),
      std::string::npos);
  // An empty or multi-line reference, and a rule that rests on `authored` without one.
  EXPECT_NE(error_of(edited(authored_catalog, "authored: acme-events.md#widget", "authored: \"\""))
                .find("demo.yaml:22:19: `authored` of event `widget` must not be empty"),
            std::string::npos);
  EXPECT_NE(error_of(edited(authored_catalog, "authored: acme-events.md#widget", "authored: \"a\\nb\""))
                .find("demo.yaml:22:19: `authored` of event `widget` must be one line"),
            std::string::npos);
  EXPECT_NE(error_of(edited(authored_catalog, "    decision: demo-fields\n", "    basis: authored\n"))
                .find("names no reference (`authored:`)"),
            std::string::npos);
  // A must rule still needs the document's words, or the authors'.
  EXPECT_NE(error_of(edited(authored_catalog, "severity: should\n", "severity: must\n"))
                .find("a must rule rests on the document's words"),
            std::string::npos);
}

}  // namespace
