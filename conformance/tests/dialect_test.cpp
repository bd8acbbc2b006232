// SPDX-License-Identifier: MIT
// The dialect-layer runner, the generator and the coverage report, on small
// hand-made inputs whose answers follow from spec/FORMAT.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/coverage.hpp"
#include "ssec/conformance/dialect_runner.hpp"
#include "ssec/conformance/generator.hpp"
#include "ssec/conformance/loader.hpp"

namespace {

namespace conf = ssec::conformance;

conf::tag_list tags() {
  conf::tag_list t;
  for (const char* name : {"generated", "json-payload", "producer-rule"}) t.descriptions[name] = "x";
  return t;
}

conf::test_case load_one(const std::string& yaml) {
  const auto r = conf::load_cases_from_text(yaml, "unit.yaml", "unit", tags());
  EXPECT_TRUE(r.ok()) << r.error_text();
  EXPECT_EQ(r.value.size(), 1u);
  return r.value.empty() ? conf::test_case{} : r.value.front();
}

// A chat usage frame: the catalog's defaults (0) fill the missing counts.
const std::string usage_case = R"(- id: U2SE
  name: usage with defaults
  from: spec/chat.yaml#chat.usage
  tags: [json-payload]
  verdict: must
  layer: chat
  input: ["data: {\"type\":\"usage\",\"promptTokens\":12}\n\n"]
  events: |
    event type="message" data="{\"type\":\"usage\",\"promptTokens\":12}" last_id=""
)";

TEST(dialect_runner, passes_a_correct_case) {
  const auto c = load_one(usage_case + R"(  dialect_events: |
    {"kind":"structured","type":"usage","fields":{"type":"usage","promptTokens":12,"completionTokens":0,"cachedTokens":0,"totalTokens":0,"latencyMs":0},"raw":"{\"type\":\"usage\",\"promptTokens\":12}"}
  conforming: true
)");
  const auto failure = conf::check_dialect_reference(c, conf::chunking_plan{});
  EXPECT_FALSE(failure) << *failure;
}

TEST(dialect_runner, reports_a_wrong_dialect_event_with_the_chunking) {
  const auto c = load_one(usage_case + R"(  dialect_events: |
    {"kind":"structured","type":"usage","fields":{"type":"usage","promptTokens":12},"raw":"{\"type\":\"usage\",\"promptTokens\":12}"}
)");
  const auto failure = conf::check_dialect_reference(c, conf::chunking_plan{});
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("U2SE"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("unit.yaml:1"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("chunking whole"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("dialect event 0 differs"), std::string::npos) << *failure;
}

TEST(dialect_runner, reports_findings_that_differ) {
  // A conforming claim for a stream that sends `done`, which CHAT-NO-DONE-FRAME forbids.
  const auto c = load_one(R"(- id: D2NE
  name: done sent
  from: spec/chat.yaml#CHAT-NO-DONE-FRAME
  tags: [json-payload]
  verdict: should
  layer: chat
  input: ["data: {\"type\":\"done\"}\n\n"]
  events: |
    event type="message" data="{\"type\":\"done\"}" last_id=""
  conforming: true
)");
  const auto failure = conf::check_dialect_reference(c, conf::chunking_plan{});
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("CHAT-NO-DONE-FRAME"), std::string::npos) << *failure;
}

TEST(generator, is_deterministic_and_ids_avoid_reserved_ones) {
  const auto& cat = sse::dialect::builtin_catalog();
  ASSERT_TRUE(cat.ok()) << cat.error_text();
  const auto a = conf::generate_cases(*cat.value, {});
  const auto b = conf::generate_cases(*cat.value, {});
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].text, b[i].text) << a[i].name;
  // Reserve the first generated id: it must move, and nothing else may take it.
  const auto first = a.front().text.find("- id: ");
  ASSERT_NE(first, std::string::npos);
  const std::string id = a.front().text.substr(first + 6, 4);
  const auto c = conf::generate_cases(*cat.value, {id});
  for (const auto& f : c) EXPECT_EQ(f.text.find("- id: " + id + "\n"), std::string::npos) << f.name;
}

TEST(coverage, reports_an_uncovered_event_type) {
  const auto& cat = sse::dialect::builtin_catalog();
  ASSERT_TRUE(cat.ok()) << cat.error_text();
  const auto c = load_one(usage_case + R"(  conforming: true
)");
  const std::vector<conf::test_case> cases{c};
  const auto r = conf::compute_coverage(*cat.value, cases);
  const auto find = [&](const std::string& kind, const std::string& what) {
    return std::find_if(r.items.begin(), r.items.end(),
                        [&](const conf::coverage_item& i) { return i.kind == kind && i.what == what; });
  };
  // The case expects no dialect events, so nothing is covered by it.
  ASSERT_NE(find("event", "chat.usage"), r.items.end());
  EXPECT_TRUE(find("event", "chat.usage")->uncovered());
  ASSERT_NE(find("rule-kept", "CHAT-CONTENT-TYPE (chat)"), r.items.end());
  EXPECT_FALSE(find("rule-kept", "CHAT-CONTENT-TYPE (chat)")->uncovered());  // excluded: needs HTTP
  EXPECT_GT(r.uncovered(), 0u);
}

}  // namespace
