// SPDX-License-Identifier: MIT
// The decoder's interface: the view API and how long its views live, the JSON
// form of events (spec/FORMAT.md section 2), and whole streams under every chunking.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "decoder_test_support.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/decoder.hpp"

namespace {

using decoder_test_support::decode;
using decoder_test_support::dialect;
using nlohmann::json;
using sse::dialect::event;
using sse::dialect::event_kind;

// ---------------------------------------------------------------------------
// The view API.

TEST(decoder, view_api) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode(
      {R"({"type":"resume_update","runId":"r1","stepId":"s1","data":{"name":"A","years":3},"payload":{"resume":{"name":"A"}}})",
       "message", "7", 42});
  EXPECT_EQ(v.kind, event_kind::structured);
  ASSERT_NE(v.spec, nullptr);
  EXPECT_EQ(v.spec->type, "resume_update");
  EXPECT_EQ(v.offset, 42u);
  EXPECT_EQ(v.wire_type, "message");
  const auto* data = v.find("data");
  ASSERT_NE(data, nullptr);
  ASSERT_NE(data->spec, nullptr);
  EXPECT_EQ(data->value.type(), sse::dialect::json_type::object);
  EXPECT_EQ(data->value.member("name")->as_string(), "A");
  EXPECT_EQ(data->value.member("years")->as_number(), 3);
  EXPECT_TRUE(data->value.member("years")->is_integral());
  EXPECT_FALSE(data->value.member("missing"));
  EXPECT_EQ(data->value.members().size(), 2u);
  EXPECT_EQ(data->value.to_json(), json::parse(R"({"name":"A","years":3})"));
  EXPECT_EQ(v.find("payload")->value.member("resume")->member("name")->as_string(), "A");
  EXPECT_EQ(v.find("nope"), nullptr);
  // Undeclared fields have no spec.
  const auto& u = dec.decode({R"({"type":"done","runId":"r1","extra":true})"});
  ASSERT_NE(u.find("extra"), nullptr);
  EXPECT_EQ(u.find("extra")->spec, nullptr);
  EXPECT_TRUE(u.find("extra")->value.as_bool());
}

// ---------------------------------------------------------------------------
// The JSON form (spec/FORMAT.md section 2).

TEST(decoder, json_form) {
  EXPECT_EQ(
      to_json(decode("chat", R"({"type":"usage","promptTokens":12})")).dump(),
      R"({"kind":"structured","type":"usage","fields":{"cachedTokens":0,"completionTokens":0,"latencyMs":0,"promptTokens":12,"totalTokens":0,"type":"usage"},"raw":"{\"type\":\"usage\",\"promptTokens\":12}"})");
  EXPECT_EQ(
      to_json(decode("chat", R"({"type":"brand_new","x":1})")).dump(),
      R"({"kind":"unknown","type":"brand_new","fields":{"type":"brand_new","x":1},"raw":"{\"type\":\"brand_new\",\"x\":1}"})");
  EXPECT_EQ(to_json(decode("chat", "Hello")).dump(), R"({"kind":"plain_text","text":"Hello","raw":"Hello"})");
  EXPECT_EQ(to_json(decode("chat", "[ERROR] Rate limited")).dump(),
            R"({"kind":"error","text":"Rate limited","raw":"[ERROR] Rate limited"})");
}

TEST(decoder, json_form_round_trip) {
  for (const std::string f : {R"({"type":"usage"})", R"({"type":"x","y":[1]})", "plain", "[ERROR] e"}) {
    const event e = decode("chat", f);
    const auto back = sse::dialect::event_from_json(json::parse(to_json(e).dump()));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, e);
  }
  // Fields compare as JSON values: 1 and 1.0 are equal.
  auto a = sse::dialect::event_from_json(json::parse(R"({"kind":"structured","type":"t","fields":{"n":1},"raw":"r"})"));
  auto b =
      sse::dialect::event_from_json(json::parse(R"({"kind":"structured","type":"t","fields":{"n":1.0},"raw":"r"})"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

TEST(decoder, json_form_rejects_malformed) {
  for (const std::string j :
       {R"([])", R"({"raw":"x"})", R"({"kind":"nope","raw":"x"})", R"({"kind":"plain_text","raw":"x"})",
        R"({"kind":"plain_text","text":"x"})", R"({"kind":"plain_text","text":"x","raw":"x","type":"t"})",
        R"({"kind":"structured","type":"t","raw":"r"})", R"({"kind":"structured","type":"t","fields":[],"raw":"r"})",
        R"({"kind":"error","text":1,"raw":"r"})"}) {
    const auto e = sse::dialect::event_from_json(json::parse(j));
    ASSERT_FALSE(e) << j;
    EXPECT_FALSE(e.error().message.empty()) << j;
  }
}

// ---------------------------------------------------------------------------
// Whole streams: one dialect event per wire event, whatever the chunking.

TEST(decoder, stream_under_every_chunking) {
  const std::string stream =
      ": hello\n\n"
      "data: {\"type\":\"content\",\"text\":\"Hi \\u00e9\"}\n\n"
      "data: plain text\r\ndata: on two lines\r\n\r\n"
      "event: error\ndata: [ERROR] boom\n\n"
      "data: {\"type\":\"usage\",\"promptTokens\":1}\n\n"
      "data: {\"type\":\"mystery\"}\n\n"
      "data: cut off at the end";
  const auto whole = sse::dialect::decode_stream(dialect("chat"), stream);
  ASSERT_EQ(whole.status, sse::errc::ok);
  ASSERT_EQ(whole.events.size(), 5u);
  EXPECT_EQ(whole.events[0].fields["text"], "Hi \xC3\xA9");
  EXPECT_EQ(whole.events[1].kind, event_kind::plain_text);
  EXPECT_EQ(whole.events[1].text, "plain text\non two lines");
  EXPECT_EQ(whole.events[2].kind, event_kind::error);
  EXPECT_EQ(whole.events[3].fields["latencyMs"], 0);
  EXPECT_EQ(whole.events[4].kind, event_kind::unknown);

  const auto by_bytes = sse::chunking::bytes(stream);
  EXPECT_EQ(sse::dialect::decode_stream(dialect("chat"), std::span<const std::string_view>(by_bytes)).events,
            whole.events);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto pieces = sse::chunking::random(stream, seed);
    EXPECT_EQ(sse::dialect::decode_stream(dialect("chat"), std::span<const std::string_view>(pieces)).events,
              whole.events)
        << "seed " << seed;
  }
}

// A decoder reuses its buffers; events of earlier calls must not be needed later.
TEST(decoder, views_are_replaced_by_the_next_decode) {
  sse::dialect::decoder dec(dialect("agent"));
  std::vector<event> kept;
  for (int i = 0; i < 100; ++i) {
    const std::string f =
        R"({"type":"message_chunk","content":"t)" + std::to_string(i) + R"(","runId":"r","stepId":"s"})";
    kept.push_back(dec.decode_event({f}));
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(kept[static_cast<std::size_t>(i)].fields["content"], "t" + std::to_string(i));
}

}  // namespace
