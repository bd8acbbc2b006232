// SPDX-License-Identifier: MIT
// Captures: the capture file format and its reader (fed whole or in pieces, under a byte limit), and
// what the check engine reads from a capture's pieces and their times.
#include <gtest/gtest.h>

#include <algorithm>

#include "agent_streams.hpp"
#include "sse/chunking.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"

namespace {

using agent_streams::good_agent;
using ssec::live::capture;
using ssec::live::check_report;

TEST(check_engine, one_burst_after_a_long_wait_is_flagged_buffered) {
  capture c;
  c.status = 200;
  c.headers["content-type"] = "text/event-stream";
  c.pieces.push_back({good_agent, 2.0});
  c.seconds_to_first_byte = 2.0;
  c.seconds_total = 2.0;
  ssec::live::check_options opt;
  const auto r = ssec::live::analyze(c, opt);
  bool buffered = false;
  for (const auto& f : r.findings) buffered |= f.rule == "STREAM-BUFFERED";
  EXPECT_TRUE(buffered) << ssec::live::to_text(r);
}

// The read figures of a capture whose pieces hit each case: an event inside
// one read, one completed after an empty read, one whose block began a read
// before the one that ended it. Every expected figure is worked out by hand
// from the pieces.
TEST(check_engine, read_figures_follow_the_pieces_as_they_arrived) {
  capture c;
  c.status = 200;
  c.headers["content-type"] = "text/event-stream";
  // Offsets: a at 0 (read 0); b at 9 (read 1, ended in read 3); c at 18 (read 3, ended in read 4 at 26).
  c.pieces = {{"data: a\n\n", 0.1}, {"data: b", 0.2}, {"", 0.25}, {"\n\ndata: c\n", 0.9}, {"\n", 1.0}};
  c.end = "complete";
  c.seconds_total = 1.5;
  ssec::live::check_options opt;
  opt.heartbeat_s = 0.6;
  const auto has = [](const check_report& r, std::string_view rule) {
    return std::any_of(r.findings.begin(), r.findings.end(), [&](const auto& f) { return f.rule == rule; });
  };
  const auto r = ssec::live::analyze(c, opt);
  EXPECT_EQ(r.pieces, 5u);
  EXPECT_EQ(r.events, 3u);
  EXPECT_EQ(r.event_reads, 3u);                // reads 0, 3 and 4 completed events
  EXPECT_EQ(r.frames_split_across_reads, 2u);  // b and c
  EXPECT_DOUBLE_EQ(r.timing.first_byte, 0.1);
  EXPECT_DOUBLE_EQ(r.timing.last_byte, 1.0);
  EXPECT_NEAR(r.timing.max_gap, 0.65, 1e-9);  // 0.25 to 0.9
  EXPECT_DOUBLE_EQ(r.timing.first_event, 0.1);
  EXPECT_NEAR(r.timing.max_event_gap, 0.8, 1e-9);
  EXPECT_NEAR(r.timing.mean_event_gap, 0.45, 1e-9);
  EXPECT_TRUE(has(r, "STREAM-HEARTBEAT")) << ssec::live::to_text(r);
  // The same pieces at a byte limit: the pass stops, every read is still counted.
  ssec::live::check_options tight = opt;
  tight.limits.max_line = 4;
  const auto stopped = ssec::live::analyze(c, tight);
  EXPECT_TRUE(has(stopped, "WIRE-LIMIT")) << ssec::live::to_text(stopped);
  EXPECT_EQ(stopped.pieces, 5u);
  EXPECT_DOUBLE_EQ(stopped.timing.last_byte, 1.0);
}

TEST(capture_format, round_trips_pieces_times_and_response) {
  capture c;
  c.source = "http://127.0.0.1:1/x";
  c.status = 200;
  c.headers["content-type"] = "text/event-stream";
  c.pieces = {{"data: a\r", 0.01}, {"\n\n", 0.25}, {std::string("\0\xff", 2), 0.5}};
  c.end = "reset";
  c.error = "Recv failure";
  c.seconds_total = 0.75;
  const std::string text = ssec::live::write_capture(c);
  ASSERT_TRUE(ssec::live::looks_like_capture(text));
  auto back = ssec::live::read_capture(text);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  const auto& d = back.value();
  ASSERT_EQ(d.pieces.size(), 3u);
  EXPECT_EQ(d.pieces[0].bytes, "data: a\r");
  EXPECT_EQ(d.pieces[2].bytes, std::string("\0\xff", 2));
  EXPECT_DOUBLE_EQ(d.pieces[1].at_seconds, 0.25);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.headers.at("content-type"), "text/event-stream");
  EXPECT_EQ(d.end, "reset");
  EXPECT_EQ(d.error, "Recv failure");
}

TEST(capture_format, errors_name_the_line) {
  const std::string text =
      "{\"format\":\"sse-conform-capture\",\"version\":1}\n{\"t\":0.5,\"b64\":\"YQ==\"}\n{\"t\":0.1,\"b64\":\"YQ==\"}"
      "\n";
  auto back = ssec::live::read_capture(text);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().line, 3u);
  auto v2 = ssec::live::read_capture("{\"format\":\"sse-conform-capture\",\"version\":2}\n");
  ASSERT_FALSE(v2.ok());
  EXPECT_EQ(v2.error().line, 1u);
  // No end line: cut short.
  auto cut =
      ssec::live::read_capture("{\"format\":\"sse-conform-capture\",\"version\":1}\n{\"t\":0.5,\"b64\":\"YQ==\"}\n");
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut.value().end, "truncated");
}

// A member of the wrong type is an error naming its line and member, never
// an exception (each of these aborted check and validate before).
TEST(capture_format, members_of_the_wrong_type_are_errors_naming_the_line) {
  const std::string head = "{\"format\":\"sse-conform-capture\",\"version\":1}\n";
  const std::vector<std::pair<std::string, std::string>> bad{
      {"{\"format\":\"sse-conform-capture\",\"version\":\"1\"}\n", "version: expected a whole number, got string"},
      {"{\"format\":5,\"version\":1}\n", "the first line must be the header"},
      {"{\"format\":\"sse-conform-capture\",\"version\":1,\"status\":\"200\"}\n",
       "status: expected a whole number, got string"},
      {"{\"format\":\"sse-conform-capture\",\"version\":1,\"source\":[]}\n", "source: expected a string, got array"},
      {"{\"format\":\"sse-conform-capture\",\"version\":1,\"timed\":1}\n", "timed: expected true or false, got number"},
      {"{\"format\":\"sse-conform-capture\",\"version\":1,\"headers\":[]}\n", "headers: expected an object, got array"},
      {head + "\n{\"end\":\"complete\",\"t\":\"x\"}\n", "t: expected a number, got string"},
      {head + "{\"t\":\"0\",\"b64\":\"\"}\n", "a piece needs \"t\" (a number)"},
      // A time beyond a double's range is refused by the JSON parser itself.
      {head + "{\"t\":1e400,\"b64\":\"\"}\n", "not a JSON object"},
      {head + "{\"end\":7}\n", "end: expected a string, got number"},
      {head + "{\"end\":\"reset\",\"error\":{}}\n", "error: expected a string, got object"},
      {head + "{\"end\":\"complete\",\"redirect\":1}\n", "redirect: expected a string, got number"},
  };
  for (const auto& [text, message] : bad) {
    const auto back = ssec::live::read_capture(text, "c.jsonl");
    ASSERT_FALSE(back.ok()) << text;
    EXPECT_NE(back.error().message.find(message), std::string::npos) << text << back.error().to_string();
    EXPECT_EQ(back.error().file, "c.jsonl");
    EXPECT_EQ(back.error().line, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'))) << text;
  }
}

// The reader fed in pieces reads what it reads whole: whole, byte by byte
// and under seeded random splits, with a sink and without, with and without
// the last line's line feed.
TEST(capture_format, the_reader_reads_the_same_capture_however_the_text_arrives) {
  capture c;
  c.source = "http://127.0.0.1:1/x";
  c.status = 200;
  c.headers["content-type"] = "text/event-stream";
  for (int i = 0; i < 40; ++i)
    c.pieces.push_back({"data: " + std::string(static_cast<std::size_t>(i), 'x') + "\n\n", i * 0.01});
  c.pieces.push_back({"", 0.5});
  c.end = "reset";
  c.seconds_to_first_byte = 0;  // what a reader finds: the first piece with bytes
  c.seconds_total = 0.75;
  const std::string written = ssec::live::write_capture(c);
  for (const std::string& text : {written, written.substr(0, written.size() - 1)}) {
    std::vector<std::vector<std::string_view>> splits{sse::chunking::whole(text), sse::chunking::bytes(text)};
    for (std::uint64_t seed = 1; seed <= 8; ++seed) splits.push_back(sse::chunking::random(text, seed));
    for (const auto& chunks : splits) {
      std::vector<ssec::live::piece> sunk;
      ssec::live::capture_reader kept("t");
      ssec::live::capture_reader streamed("t", 0, [&](ssec::live::piece&& p) {
        sunk.push_back(std::move(p));
        return true;
      });
      for (const auto chunk : chunks) {
        ASSERT_TRUE(kept.feed(chunk));
        ASSERT_TRUE(streamed.feed(chunk));
      }
      const auto a = kept.finish();
      const auto b = streamed.finish();
      ASSERT_TRUE(a.ok()) << a.error().to_string();
      ASSERT_TRUE(b.ok()) << b.error().to_string();
      EXPECT_TRUE(ssec::live::write_capture(a.value()) == written) << chunks.size() << " chunks";
      EXPECT_TRUE(b.value().pieces.empty());
      capture with_sunk = b.value();
      with_sunk.pieces = sunk;
      EXPECT_TRUE(ssec::live::write_capture(with_sunk) == written) << chunks.size() << " chunks";
    }
  }
}

// With a byte limit the reader stops at the piece that crosses it, cut, and
// reads no further: an endless capture is not held. A line longer than any
// piece within the limit is refused before it is held.
TEST(capture_format, the_reader_stops_at_the_byte_limit) {
  const std::string head = "{\"format\":\"sse-conform-capture\",\"version\":1}\n";
  const std::string piece = "{\"t\":0.25,\"b64\":\"ZGF0YTogYQoK\"}\n";  // "data: a\n\n", 9 bytes
  ssec::live::capture_reader reader("t", 20);
  ASSERT_TRUE(reader.feed(head));
  ASSERT_TRUE(reader.feed(piece));
  ASSERT_TRUE(reader.feed(piece));
  EXPECT_FALSE(reader.feed(piece + "not even JSON\n")) << "the third piece crosses 20 bytes: nothing more is read";
  const auto cut = reader.finish();
  ASSERT_TRUE(cut.ok()) << cut.error().to_string();
  ASSERT_EQ(cut.value().pieces.size(), 3u);
  EXPECT_EQ(cut.value().pieces[2].bytes, "da");
  EXPECT_EQ(cut.value().size(), 20u);
  EXPECT_EQ(cut.value().end, "max_bytes");
  EXPECT_DOUBLE_EQ(cut.value().seconds_total, 0.25);
  // Exactly at the limit: read on, and the end line is the capture's.
  ssec::live::capture_reader exact("t", 18);
  EXPECT_TRUE(exact.feed(head + piece + piece + "{\"end\":\"complete\",\"t\":1}\n"));
  ASSERT_TRUE(exact.finish().ok());
  // A line that cannot fit: refused, naming it, before a line feed arrives.
  ssec::live::capture_reader longer("t", 3);
  ASSERT_TRUE(longer.feed(head));
  EXPECT_FALSE(longer.feed("{\"t\":0,\"b64\":\"" + std::string(70000, 'A')));
  const auto refused = longer.finish();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().line, 2u);
  EXPECT_NE(refused.error().message.find("--max-bytes (3 bytes)"), std::string::npos) << refused.error().message;
}

}  // namespace
