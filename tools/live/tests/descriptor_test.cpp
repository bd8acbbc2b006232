// SPDX-License-Identifier: MIT
// check_descriptor (a stream judged as it arrives, its body held once) against
// analyze(read_descriptor(...)), and the body it holds (followed_body) against
// validate_stream, whatever the pieces and however often the buffer grows.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "followed_body.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/live/check.hpp"

namespace {

// Frames of the agent dialect, some of them breaking its rules (an unknown
// type, a frame that is not JSON, a repeated step), so that findings are
// stored, counted past each rule's cap, and fall across the validator's slices.
std::string agent_stream(std::size_t runs) {
  std::string out;
  for (std::size_t i = 0; i < runs; ++i) {
    const std::string run = "\"runId\":\"r" + std::to_string(i) + "\"";
    out += "data: {\"type\":\"run_started\"," + run + "}\n\n";
    out += "data: {\"type\":\"step_started\"," + run + ",\"stepId\":\"s1\"}\n\n";
    out += "id: " + std::to_string(i) + "\ndata: {\"type\":\"message_chunk\",\"content\":\"" +
           std::string(i % 300, 'x') + "\"," + run + ",\"stepId\":\"s1\"}\n\n";
    if (i % 7 == 0) out += "data: {\"type\":\"no_such_type\"," + run + "}\n\n";
    if (i % 11 == 0) out += "data: not json\n\n";
    if (i % 13 == 0) out += ": keep-alive\r\n\r\n";
    out += "data: {\"type\":\"step_completed\"," + run + ",\"stepId\":\"s1\"}\n\n";
    out += "data: {\"type\":\"run_completed\"," + run + "}\n\n";
  }
  out += "data: {\"type\":\"done\"}\n\n";
  return out;
}

// Every member of a producer report that check's report shows.
std::string shown(const sse::dialect::validation_report& v) {
  std::string out = std::to_string(v.frames) + " frames, " + std::to_string(v.must) + " must, " +
                    std::to_string(v.not_shown) + " not shown, " + std::to_string(v.decision) + " decision, " +
                    std::to_string(v.bytes) + " bytes\n";
  for (const auto& f : v.findings) {
    out += f.rule->id + " " + std::to_string(f.frame) + " " + std::to_string(f.offset) + " " + f.expected + " | " +
           f.seen + "\n";
  }
  return out;
}

TEST(followed_body, gives_validate_streams_report_whatever_the_pieces_and_growth) {
  const auto* agent = sse::dialect::builtin_dialect("agent");
  ASSERT_NE(agent, nullptr);
  const std::string stream = agent_stream(6000);  // about 2.5 MiB: slices of 1 MiB and a rest
  ASSERT_GT(stream.size(), 2 * sse::dialect::validation_slice);
  const std::string expected = shown(sse::dialect::validate_stream(*agent, stream));
  for (const std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 random(seed);
    // A first capacity of a few KiB: the buffer doubles many times while followed.
    ssec::live::detail::followed_body body(4096 * seed, agent, sse::limits{});
    for (std::size_t at = 0; at < stream.size();) {
      const std::size_t n = std::min<std::size_t>(stream.size() - at, 1 + random() % 200000);
      stream.copy(body.space(n), n, at);
      body.commit(n);
      at += n;
    }
    EXPECT_EQ(body.view(), stream);
    const auto report = body.finish(true);
    ASSERT_TRUE(report.has_value());
    EXPECT_EQ(shown(*report), expected) << "seed " << seed;
  }
}

// The JSON report without its timing (times differ between two reads).
std::string untimed(const ssec::live::check_report& r) {
  auto j = ssec::live::to_json(r);
  j.erase("timing");
  return j.dump();
}

class descriptor : public ::testing::Test {
 protected:
  void SetUp() override { path_ = ::testing::TempDir() + "ssec_descriptor_" + std::to_string(::getpid()) + ".sse"; }
  void TearDown() override { std::remove(path_.c_str()); }
  void write(const std::string& bytes) { std::ofstream(path_, std::ios::binary) << bytes; }
  // check_descriptor and analyze(read_descriptor) of the file: the same
  // report, and the capture check_descriptor records is read_descriptor's.
  void expect_same(const ssec::live::read_limits& lim, const ssec::live::check_options& opt, const std::string& what,
                   const std::string& end = "complete") {
    const int a = ::open(path_.c_str(), O_RDONLY);
    ASSERT_GE(a, 0);
    ssec::live::capture recorded;
    const auto streamed = ssec::live::check_descriptor(a, "<file>", lim, opt, &recorded);
    ::close(a);
    const int b = ::open(path_.c_str(), O_RDONLY);
    ASSERT_GE(b, 0);
    const auto cap = ssec::live::read_descriptor(b, "<file>", lim);
    ::close(b);
    EXPECT_EQ(cap.end, end) << what;
    const auto analyzed = ssec::live::analyze(cap, opt);
    EXPECT_EQ(untimed(streamed), untimed(analyzed)) << what;
    EXPECT_EQ(recorded.end, cap.end) << what;
    ASSERT_EQ(recorded.pieces.size(), cap.pieces.size()) << what;
    for (std::size_t i = 0; i < cap.pieces.size(); ++i)
      EXPECT_EQ(recorded.pieces[i].bytes, cap.pieces[i].bytes) << what;
  }
  std::string path_;
};

TEST_F(descriptor, is_judged_as_analyze_judges_read_descriptors_capture) {
  ssec::live::check_options agent;
  agent.dialect = sse::dialect::builtin_dialect("agent");
  const ssec::live::check_options wire;
  write(agent_stream(3000));  // about 1.2 MiB: many reads, past one validator slice
  ssec::live::read_limits lim;
  expect_same(lim, agent, "whole, agent");
  expect_same(lim, wire, "whole, wire");
  lim.max_bytes = 300001;  // cut mid-frame, mid-read
  expect_same(lim, agent, "max_bytes", "max_bytes");
  lim.max_bytes = 0;
  lim.max_events = 5000;  // stopped mid-stream
  expect_same(lim, agent, "max_events", "stopped");
  lim.max_events = 0;
  lim.limits.max_line = 200;  // the reference stops at a long line
  agent.limits = lim.limits;
  expect_same(lim, agent, "a limit", "stopped");
  write("");
  expect_same(ssec::live::read_limits{}, agent, "empty");
}

}  // namespace
