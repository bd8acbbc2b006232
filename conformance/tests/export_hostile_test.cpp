// SPDX-License-Identifier: MIT
// Exports of hostile catalogs: catalog text (purposes, the document, rule
// texts, file and dialect names) never becomes TypeScript code, names that
// collide are made unique within a dialect and refused across dialects.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/export.hpp"

namespace {

using ssec::conformance::export_format;
using ssec::conformance::typescript_shape_violation;

// Each way out of a comment, followed by a statement that must never run.
const std::vector<std::string> breakouts = {"\\n", "\\r", "\\u2028", "\\u2029", "*/", "\\r\\n*/\\u2028"};

std::string hostile(std::string_view what) {
  std::string out;
  for (const auto& b : breakouts) out += std::string(what) + b + "globalThis.pwned = 1; // ";
  return out;
}

// One dialect `name` with the given event types, each with a required
// string `k`; every free text of the catalog is `text` (YAML double-quoted,
// so \u2028 and \r are escapes).
std::string catalog_yaml(const std::string& name, const std::vector<std::string>& types, const std::string& text) {
  const std::string q = "\"" + text + "\"";
  std::string y = "format_version: 1\ncatalog_version: 1.0.0\ndocument: " + q + "\npurpose: " + q +
                  "\ndialects:\n  - name: \"" + name + "\"\n    purpose: " + q +
                  "\n    source: https://example.com/doc\n    frame_shapes:\n"
                  "      - {shape: structured, detection: " +
                  q + ", handling: " + q +
                  ", source: https://example.com/doc}\n"
                  "    events:\n";
  for (const auto& t : types) {
    y += "      - type: \"" + t + "\"\n        purpose: " + q +
         "\n        source: https://example.com/doc\n        fields:\n" +
         "          - {key: k, type: string, required: true, purpose: " + q + ", source: https://example.com/doc}\n" +
         "          - {key: \"odd key\\u2028\", type: string, required: false, purpose: " + q +
         ", source: https://example.com/doc}\n";
  }
  // Rule ids are unique across catalogs: the id carries the name's length.
  y += "rules:\n  - id: DEMO-ONCE-" + std::to_string(name.size()) + "\n    severity: should\n    dialects: [\"" + name +
       "\"]\n    text: " + q + "\n    source: https://example.com/doc\n    quote: " + q +
       "\n    check: {kind: at_most_once, types: [\"" + types.front() + "\"]}\n";
  return y;
}

std::shared_ptr<const sse::dialect::catalog> load(const std::vector<sse::dialect::catalog_source>& sources) {
  const auto loaded = sse::dialect::load_catalogs(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return loaded.value;
}

TEST(export_hostile, catalog_text_and_file_names_never_become_typescript_code) {
  for (const std::string file : {"demo\xE2\x80\xA8globalThis.pwned=2;//.yaml", "demo\nglobalThis.pwned=2;//.yaml",
                                 "demo\rglobalThis.pwned=2;//.yaml", "demo*/globalThis.pwned=2;/*.yaml"}) {
    const auto cat = load({{file, catalog_yaml("demo", {"ping"}, hostile("text"))}});
    ASSERT_TRUE(cat);
    const auto out = ssec::conformance::export_catalog(*cat, export_format::typescript);
    ASSERT_TRUE(out.conflicts.empty()) << out.conflicts.front();
    ASSERT_EQ(out.files.size(), 1u);
    const auto& ts = out.files.front().text;
    EXPECT_EQ(typescript_shape_violation(ts), std::nullopt) << ts;
    for (const char* terminator : {"\r", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
      EXPECT_EQ(ts.find(terminator), std::string::npos) << ts;
    }
    // The text is still there, in comments, for the reader.
    EXPECT_NE(ts.find("text globalThis.pwned = 1;"), std::string::npos) << ts;
    // An odd key is a string literal, with U+2028 escaped.
    EXPECT_NE(ts.find("readonly \"odd key\\u2028\"?: string;"), std::string::npos) << ts;
  }
}

TEST(export_hostile, the_shape_check_finds_every_way_out_of_a_comment) {
  const auto cat = load({{"demo.yaml", catalog_yaml("demo", {"ping"}, "A demo.")}});
  ASSERT_TRUE(cat);
  const auto ts = ssec::conformance::export_catalog(*cat, export_format::typescript).files.at(0).text;
  ASSERT_EQ(typescript_shape_violation(ts), std::nullopt) << ts;
  const auto header_end = ts.find('\n');
  const auto doc_text = ts.find(" * A demo.");  // in a /** */ comment
  ASSERT_NE(doc_text, std::string::npos);
  // Each injection writes code outside the declarations; the check must see it.
  const std::vector<std::pair<std::size_t, std::string>> injections = {
      {header_end, "\xE2\x80\xA8globalThis.pwned = 1;"},
      {header_end, "\xE2\x80\xA9globalThis.pwned = 1;"},
      {header_end, "\rglobalThis.pwned = 1;"},
      {header_end, "\nglobalThis.pwned = 1;"},
      {doc_text, "*/ globalThis.pwned = 1; /*"},
      {ts.size(), "export const pwned = 1;\n"},
      {ts.size(), "export type T = 'x';\n"},
      {ts.size(), "export interface I { a: string; } }\n"},
  };
  for (const auto& [where, code] : injections) {
    std::string bad = ts;
    bad.insert(where, code);
    const auto v = typescript_shape_violation(bad);
    ASSERT_TRUE(v.has_value()) << "not seen: " << code;
    EXPECT_TRUE(v->starts_with("byte ")) << *v;
  }
}

TEST(export_hostile, event_names_that_collide_in_a_dialect_are_made_unique_and_listed) {
  const std::vector<std::string> types = {"sse", "unknown", "a-b", "a_b", "event-type", "a b"};
  const auto cat = load({{"demo.yaml", catalog_yaml("demo", types, "A demo.")}});
  ASSERT_TRUE(cat);
  const auto* d = cat->dialect("demo");
  std::vector<ssec::conformance::export_gap> gaps;
  const auto s = ssec::conformance::json_schema(*cat, *d, gaps);
  // One branch per type and the unknown branch, each a definition of its own
  // whose `type` const is that type: no definition shadows another.
  ASSERT_EQ(s["allOf"].size(), types.size());
  std::set<std::string> refs;
  for (std::size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(s["allOf"][i]["if"]["properties"]["type"]["const"], types[i]);
    const std::string ref = s["allOf"][i]["then"]["$ref"];
    refs.insert(ref);
    const auto name = ref.substr(std::string("#/$defs/").size());
    ASSERT_TRUE(s["$defs"].contains(name)) << name;
    EXPECT_EQ(s["$defs"][name]["properties"]["type"]["const"], types[i]) << name;
  }
  EXPECT_EQ(refs.size(), types.size());
  EXPECT_EQ(s["$defs"]["DemoUnknownEvent"]["x-sse-conform-unknown-type"], true);
  const std::vector<std::string> expected = {"DemoSseEvent2", "DemoUnknownEvent2",  "DemoABEvent",
                                             "DemoABEvent2",  "DemoEventTypeEvent", "DemoABEvent3"};
  for (std::size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(s["allOf"][i]["then"]["$ref"], "#/$defs/" + expected[i]);
  }
  // Each renamed type is listed, with its plain name and the one it got.
  const auto listed = [&](const std::string& type, const std::string& name) {
    return std::any_of(gaps.begin(), gaps.end(), [&](const auto& g) {
      return g.what == "the name of event type \"" + type + "\"" && g.why.ends_with("so it is " + name);
    });
  };
  EXPECT_TRUE(listed("sse", "DemoSseEvent2"));
  EXPECT_TRUE(listed("a_b", "DemoABEvent2"));
  EXPECT_FALSE(listed("a-b", "DemoABEvent"));

  const auto ts = ssec::conformance::export_catalog(*cat, export_format::typescript);
  ASSERT_EQ(ts.files.size(), 1u);
  for (const auto& name : expected) {
    EXPECT_NE(ts.files[0].text.find("export interface " + name + " {"), std::string::npos) << name;
  }
  EXPECT_NE(ts.files[0].text.find("export type DemoSseEvent =\n  | DemoSseEvent2\n"), std::string::npos);
}

TEST(export_hostile, names_two_dialects_collide_on_are_refused) {
  // Dialect names are [a-z][a-z0-9_]* (the loader), yet a_b and a__b are both "AB".
  const auto cat =
      load({{"one.yaml", catalog_yaml("a_b", {"ping"}, "One.")}, {"two.yaml", catalog_yaml("a__b", {"pong"}, "Two.")}});
  ASSERT_TRUE(cat);
  for (auto f : {export_format::jsonschema, export_format::openapi, export_format::typescript}) {
    const auto out = ssec::conformance::export_catalog(*cat, f);
    EXPECT_TRUE(out.files.empty()) << to_string(f);
    ASSERT_FALSE(out.conflicts.empty()) << to_string(f);
    EXPECT_EQ(out.conflicts.front(), "dialects \"a_b\" and \"a__b\" both declare ABSseEvent: rename one of them");
  }
  // One of them alone exports.
  const std::vector<const sse::dialect::dialect_spec*> one{cat->dialect("a_b")};
  EXPECT_TRUE(ssec::conformance::export_catalog(*cat, export_format::typescript, one).conflicts.empty());
}

TEST(export_hostile, the_same_dialect_twice_is_exported_once) {
  const auto cat = load({{"demo.yaml", catalog_yaml("demo", {"ping"}, "A demo.")}});
  ASSERT_TRUE(cat);
  const std::vector<const sse::dialect::dialect_spec*> twice{cat->dialect("demo"), cat->dialect("demo")};
  const auto out = ssec::conformance::export_catalog(*cat, export_format::typescript, twice);
  ASSERT_EQ(out.files.size(), 1u);
  const auto& ts = out.files[0].text;
  EXPECT_EQ(ts.find("export interface DemoPingEvent"), ts.rfind("export interface DemoPingEvent"));
}

}  // namespace
