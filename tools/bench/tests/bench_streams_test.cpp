// SPDX-License-Identifier: MIT
// The benchmark streams are what their contract (bench_streams.hpp) says, and
// the same bytes on every run. Small sizes keep these tests quick; no test here
// measures speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "sse/recording.hpp"
#include "sse/utf8.hpp"
#include "ssec/bench/streams.hpp"

namespace {

using ssec::bench::big_frames_stream;
using ssec::bench::crlf_multiline_stream;
using ssec::bench::llm_stream;
using ssec::bench::long_line_stream;

constexpr std::size_t small = std::size_t{512} << 10;

TEST(BenchStreams, SameSeedSameBytesOtherSeedOtherBytes) {
  EXPECT_EQ(llm_stream(small), llm_stream(small));
  EXPECT_NE(llm_stream(small, 1), llm_stream(small, 2));
  EXPECT_EQ(crlf_multiline_stream(small), crlf_multiline_stream(small));
  EXPECT_EQ(big_frames_stream(3, 4096), big_frames_stream(3, 4096));
  EXPECT_EQ(long_line_stream(1000), long_line_stream(1000));
}

TEST(BenchStreams, LlmStreamIsAgentServiceFramesEndingInDone) {
  const std::string stream = llm_stream(small);
  EXPECT_GE(stream.size(), small);
  EXPECT_LT(stream.size(), small + (64 << 10));
  EXPECT_TRUE(sse::utf8::is_valid(stream));
  EXPECT_EQ(stream.find('\r'), std::string::npos);

  const sse::recording rec = sse::record_parse(stream);
  ASSERT_EQ(rec.status, sse::errc::ok);
  EXPECT_TRUE(rec.diagnostics.empty());
  ASSERT_GT(rec.events.size(), 1000u);
  std::set<std::string> types;
  std::uint64_t expected_sequence = 0;
  bool non_ascii_content = false;
  for (const auto& e : rec.events) {
    // One `data:` line per frame, so the data is exactly one JSON object.
    ASSERT_EQ(e.data.find('\n'), std::string::npos);
    const auto frame = nlohmann::json::parse(e.data, nullptr, false);
    ASSERT_TRUE(frame.is_object()) << e.data;
    ASSERT_TRUE(frame["type"].is_string()) << e.data;
    ASSERT_TRUE(frame["runId"].is_string()) << e.data;
    EXPECT_EQ(frame["sequence"], expected_sequence++) << e.data;
    const std::string type = frame["type"];
    types.insert(type);
    if (type == "message_chunk") {
      ASSERT_TRUE(frame["content"].is_string()) << e.data;
      ASSERT_TRUE(frame["stepId"].is_string()) << e.data;
      const std::string content = frame["content"];
      non_ascii_content |= std::any_of(content.begin(), content.end(), [](char c) { return (c & 0x80) != 0; });
    }
    if (type == "tool_started" || type == "tool_completed") {
      EXPECT_TRUE(frame["payload"].is_object()) << e.data;
    }
    if (type == "tool_result") {
      EXPECT_TRUE(frame["payload"].is_object()) << e.data;
      EXPECT_TRUE(frame["data"].is_object()) << e.data;
    }
    if (type == "llm_usage") {
      EXPECT_TRUE(frame["payload"]["totalTokens"].is_number()) << e.data;
    }
  }
  EXPECT_TRUE(non_ascii_content);
  for (const char* t : {"run_started", "step_started", "message_chunk", "tool_started", "tool_result", "tool_completed",
                        "llm_usage", "step_completed", "run_completed", "done"}) {
    EXPECT_TRUE(types.count(t)) << t;
  }
  EXPECT_EQ(nlohmann::json::parse(rec.events.back().data)["type"], "done");
}

TEST(BenchStreams, BigFramesAreOneLineOfExactlyTheFrameSize) {
  const std::string stream = big_frames_stream(4, 100000);
  EXPECT_EQ(stream.size(), 4u * 100000u);
  const sse::recording rec = sse::record_parse(stream);
  ASSERT_EQ(rec.status, sse::errc::ok);
  ASSERT_EQ(rec.events.size(), 4u);
  for (const auto& e : rec.events) {
    // "data: " and the blank line's two LFs are the 8 bytes around the value.
    EXPECT_EQ(e.data.size(), 100000u - 8u);
    const auto frame = nlohmann::json::parse(e.data, nullptr, false);
    ASSERT_TRUE(frame.is_object());
    EXPECT_EQ(frame["type"], "tool_result");
    EXPECT_TRUE(frame["data"]["content"].is_string());
  }
}

TEST(BenchStreams, CrlfStreamUsesOnlyCrlfAndMultiLineEvents) {
  const std::string stream = crlf_multiline_stream(small);
  EXPECT_GE(stream.size(), small);
  for (std::size_t at = 0; at < stream.size(); ++at) {
    if (stream[at] == '\n') {
      ASSERT_TRUE(at > 0 && stream[at - 1] == '\r') << "bare LF at byte " << at;
    }
    if (stream[at] == '\r') {
      ASSERT_TRUE(at + 1 < stream.size() && stream[at + 1] == '\n') << "bare CR at byte " << at;
    }
  }
  const sse::recording rec = sse::record_parse(stream);
  ASSERT_EQ(rec.status, sse::errc::ok);
  ASSERT_GT(rec.events.size(), 100u);
  EXPECT_FALSE(rec.comments.empty());
  EXPECT_FALSE(rec.retries.empty());
  std::uint64_t id = 0;
  for (const auto& e : rec.events) {
    // 5-20 data lines give 4-19 LFs once the final one is removed.
    const auto lfs = std::count(e.data.begin(), e.data.end(), '\n');
    EXPECT_GE(lfs, 4);
    EXPECT_LE(lfs, 19);
    EXPECT_NE(e.type, "message");
    EXPECT_EQ(e.last_event_id, std::to_string(++id));
  }
}

TEST(BenchStreams, LongLineIsOneEventOfTheValueSize) {
  const std::string stream = long_line_stream(300000);
  EXPECT_EQ(stream.size(), 300000u + 8u);
  EXPECT_EQ(stream.substr(0, 6), "data: ");
  EXPECT_EQ(stream.substr(stream.size() - 2), "\n\n");
  const sse::recording rec = sse::record_parse(stream);
  ASSERT_EQ(rec.status, sse::errc::ok);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].data.size(), 300000u);
  EXPECT_EQ(rec.events[0].data.find_first_of("\r\n"), std::string::npos);
}

TEST(BenchStreams, NamedStreamsAreTheDocumentedFiles) {
  std::vector<std::string> names;
  for (const auto& s : ssec::bench::named_streams()) names.emplace_back(s.file_name);
  EXPECT_EQ(names, (std::vector<std::string>{"llm.sse", "big-frames.sse", "crlf-multiline.sse", "line-4mb.sse",
                                             "line-16mb.sse"}));
}

}  // namespace
