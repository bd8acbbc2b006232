// SPDX-License-Identifier: MIT
// The wire parser's lifecycle and bounds: limits (fatal and sticky), the
// visitor's pause and abort, finish() and reset() across streams, and linear
// work on a huge line. The stream-interpretation rules are in parser_test.cpp;
// as there, offsets in expectations are stream byte offsets, counted by hand.
// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "harness.hpp"
#include "spellings.hpp"
#include "sse/chunking.hpp"
#include "sse/parser.hpp"

namespace {

using namespace std::literals;
using sse::diag;
using sse::errc;
using sse_test::discarded;
using sse_test::event_record;
using sse_test::message;
using sse_test::outcome;
using sse_test::parse_case;
using sse_test::repeat;
using sse_test::run_cases;
using sse_test::run_options;

// ---------------------------------------------------------------------------
// Limits (sse::limits): exceeding one is fatal and sticky until reset(). The
// harness checks stickiness (feed consumes 0 and repeats the code; finish
// repeats it) for every chunking.

run_options small_limits() {
  run_options opt;
  opt.lim.max_line = 16;
  opt.lim.max_event_data = 32;
  return opt;
}

TEST(Limits, LineLongerThanMaxLineIsFatalAtLineStartPlusMaxLine) {
  const std::string x16(16, 'x');
  run_cases(
      {
          {"exactly max_line", "data:0123456789a\n\n", {.events = {message("0123456789a", 0)}}},
          {"terminator not counted", "data:0123456789a\r\n\r\n", {.events = {message("0123456789a", 0)}}},
          {"one byte over", "data:0123456789ab\n\n", {.status = errc::line_too_long, .error_offset = 16}},
          {"events before the error are delivered",
           "data: a\n\ndata:0123456789ab\n\n",
           {.events = {message("a", 0)}, .status = errc::line_too_long, .error_offset = 25}},
          {"unterminated and over",
           "data: a\n\n" + x16 + "x",
           {.events = {message("a", 0)}, .status = errc::line_too_long, .error_offset = 25}},
          {"unterminated at exactly max_line",
           "data: a\n\n" + x16,
           {.events = {message("a", 0)}, .diagnostics = {discarded(9, x16)}}},
          {"comment over", ":0123456789abcdef\n", {.status = errc::line_too_long, .error_offset = 16}},
          {"after a BOM", U_FEFF "data:0123456789ab\n", {.status = errc::line_too_long, .error_offset = 19}},
          {"far over",
           "data: a\n\n" + repeat("y", 100) + "\n\n",
           {.events = {message("a", 0)}, .status = errc::line_too_long, .error_offset = 25}},
      },
      small_limits());
}

TEST(Limits, DataBeyondMaxEventDataIsFatalAtTheOverflowingLine) {
  run_cases(
      {
          // 11 + LF + 11 + LF + 7 + LF = 32 bytes: exactly the limit.
          {"exactly max_event_data",
           "data:0123456789a\ndata:0123456789a\ndata:0123456\n\n",
           {.events = {message("0123456789a\n0123456789a\n0123456", 0)}}},
          {"one byte over",
           "data:0123456789a\ndata:0123456789a\ndata:01234567\n\n",
           {.status = errc::event_too_large, .error_offset = 34}},
          {"events before the error are delivered",
           "data: a\n\ndata:0123456789a\ndata:0123456789a\ndata:01234567\n\n",
           {.events = {message("a", 0)}, .status = errc::event_too_large, .error_offset = 43}},
          {"the limit is per event",
           "data:0123456789a\ndata:0123456789a\n\ndata:0123456789a\ndata:0123456789a\n\n",
           {.events = {message("0123456789a\n0123456789a", 0), message("0123456789a\n0123456789a", 35)}}},
          {"each empty value counts its LF", repeat("data\n", 32) + "\n", {.events = {message(repeat("\n", 31), 0)}}},
          {"one empty value too many",
           repeat("data\n", 33) + "\n",
           {.status = errc::event_too_large, .error_offset = 160}},
          // The limit counts bytes after repair: FF (1 byte) becomes U+FFFD (3).
          {"repaired size at the limit",
           "data:" + repeat("\xFF", 10) + "\n\n",
           {.events = {message(repeat(U_FFFD, 10), 0)}, .diagnostics = {{diag::invalid_utf8, 0, repeat("\xFF", 10)}}}},
          {"repaired size over the limit",
           "data:" + repeat("\xFF", 11) + "\n\n",
           {.diagnostics = {{diag::invalid_utf8, 0, repeat("\xFF", 11)}},
            .status = errc::event_too_large,
            .error_offset = 0}},
      },
      small_limits());
}

// ---------------------------------------------------------------------------
// The visitor steers with action::pause and action::abort.

TEST(Steering, PauseStopsRightAfterTheDispatchingLineAndResumes) {
  run_options pausing;
  pausing.pause_each_event = true;
  const std::vector<parse_case> cases = {
      {"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", {.events = {message("a", 0), message("b", 11)}, .pauses = {11, 22}}},
      {"LF, comment between",
       "data: a\n\n:c\ndata: b\n\n",
       {.events = {message("a", 0), message("b", 12)}, .comments = {{"c", 9}}, .pauses = {9, 21}}},
      {"lone CR", "data: a\r\rdata: b\r\r", {.events = {message("a", 0), message("b", 9)}, .pauses = {9, 18}}},
      {"CR then CRLF",
       "data: a\r\r\ndata: b\r\r\n",
       {.events = {message("a", 0), message("b", 10)}, .pauses = {10, 20}}},
      {"blank lines that dispatch nothing do not pause",
       "\n\nid: 1\n\ndata: a\n\n\n",
       {.events = {message("a", 9, "1")}, .last_event_id = "1", .pauses = {18}}},
      {"three events in a row",
       "data:1\n\ndata:2\n\ndata:3\n\n",
       {.events = {message("1", 0), message("2", 8), message("3", 16)}, .pauses = {8, 16, 24}}},
  };
  run_cases(cases, pausing);
  // Pausing changes nothing else: the same cases without pausing.
  std::vector<parse_case> unpaused = cases;
  for (auto& c : unpaused) c.expected.pauses.clear();
  run_cases(unpaused);
}

TEST(Steering, AbortIsFatalAndSticky) {
  run_options abort_first;
  abort_first.abort_at_event = 0;
  run_options abort_second;
  abort_second.abort_at_event = 1;
  // The aborting event was delivered; error_offset is its block's offset.
  run_cases(
      {
          {"first event", "data: a\n\ndata: b\n\n", {.events = {message("a", 0)}, .status = errc::aborted}},
          {"nothing after the aborting line",
           "id: 1\ndata: a\r\n\r\n:c\nid: 2\n\n",
           {.events = {message("a", 0, "1")}, .last_event_id = "1", .status = errc::aborted}},
      },
      abort_first);
  run_cases(
      {
          {"second event",
           "data: a\n\ndata: b\n\ndata: c\n\n",
           {.events = {message("a", 0), message("b", 9)}, .status = errc::aborted, .error_offset = 9}},
      },
      abort_second);
}

// ---------------------------------------------------------------------------
// finish() and reset() across streams. These drive one parser through two
// streams, so they loop over chunkings themselves.

struct chunking_kind {
  std::string name;
  std::vector<std::string_view> (*cut)(std::string_view, std::uint64_t);
  std::uint64_t seed;
};

std::vector<chunking_kind> chunking_kinds() {
  std::vector<chunking_kind> kinds = {
      {"whole", [](std::string_view s, std::uint64_t) { return sse::chunking::whole(s); }, 0},
      {"bytes", [](std::string_view s, std::uint64_t) { return sse::chunking::bytes(s); }, 0},
  };
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    kinds.push_back({"random seed=" + std::to_string(seed),
                     [](std::string_view s, std::uint64_t k) { return sse::chunking::random(s, k); }, seed});
  }
  return kinds;
}

// Feeds every chunk (each from an exact-size copy) until a status other than
// ok; returns that status.
template <class Parser>
errc feed_chunks(Parser& p, const std::vector<std::string_view>& chunks) {
  for (const std::string_view chunk : chunks) {
    const sse::feed_result r = sse_test::feed_exact(p, chunk);
    if (r.status != errc::ok) return r.status;
    EXPECT_EQ(r.consumed, chunk.size()) << "feed returned ok without consuming the whole chunk";
  }
  return errc::ok;
}

TEST(Reset, ClearsAFatalErrorAndKeepsLastEventIdAndRetry) {
  // "data:0123456789ab" is 17 bytes: over max_line 16, at offset 26.
  const std::string first = "retry: 250\nid: 7\ndata: a\n\ndata:0123456789ab\n";
  const std::string second = U_FEFF "id: 8\ndata: b\n\n:c\n";
  for (const auto& kind : chunking_kinds()) {
    SCOPED_TRACE("chunking: " + kind.name);
    outcome got;
    const run_options opt = small_limits();
    sse_test::recording_visitor visitor(got, opt);
    sse::parser<sse_test::recording_visitor> p(visitor, opt.lim);

    EXPECT_EQ(feed_chunks(p, kind.cut(first, kind.seed)), errc::line_too_long);
    EXPECT_EQ(p.error_offset(), 42u);
    EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: z\n\n"), 0, errc::line_too_long));
    EXPECT_EQ(p.finish(), errc::line_too_long);

    p.reset();
    EXPECT_EQ(p.error(), errc::ok);
    EXPECT_EQ(p.offset(), 0u);
    EXPECT_EQ(p.last_event_id(), "7");
    EXPECT_EQ(p.retry(), std::optional<std::uint64_t>(250));

    // A new stream: its BOM is stripped again and offsets restart at 0.
    EXPECT_EQ(feed_chunks(p, kind.cut(second, kind.seed)), errc::ok);
    EXPECT_EQ(p.offset(), second.size());
    EXPECT_EQ(p.finish(), errc::ok);
    EXPECT_EQ(got.events, (std::vector<event_record>{message("a", 0, "7"), message("b", 3, "8")}));
    EXPECT_EQ(got.comments, (std::vector<sse_test::comment_record>{{"c", 18}}));
    EXPECT_EQ(got.retries, (std::vector<std::uint64_t>{250}));
    EXPECT_TRUE(got.diagnostics.empty());
    EXPECT_EQ(p.last_event_id(), "8");
    EXPECT_TRUE(got.violations.empty());
  }
}

TEST(Reset, DiscardsThePendingLineEventAndTypeOfTheOldStream) {
  // The old stream stops mid-line, with data and a type pending.
  const std::string first = "event: x\ndata: a\ndata: par";
  const std::string second = "\ndata: b\n\n";
  for (const auto& kind : chunking_kinds()) {
    SCOPED_TRACE("chunking: " + kind.name);
    outcome got;
    const run_options opt;
    sse_test::recording_visitor visitor(got, opt);
    sse::parser<sse_test::recording_visitor> p(visitor);
    EXPECT_EQ(feed_chunks(p, kind.cut(first, kind.seed)), errc::ok);
    p.reset();
    // The leading LF of the new stream is a blank line with nothing pending.
    EXPECT_EQ(feed_chunks(p, kind.cut(second, kind.seed)), errc::ok);
    EXPECT_EQ(p.finish(), errc::ok);
    EXPECT_EQ(got.events, (std::vector<event_record>{message("b", 1)}));
    EXPECT_TRUE(got.diagnostics.empty());
  }
}

// "When a stream is parsed, a data buffer, an event type buffer, and a last
// event ID buffer must be associated with it. They must be initialized to the
// empty string": the id string survives reset() (it is what a reconnect sends
// as Last-Event-ID), but the new stream's first dispatch without an id field
// commits the empty buffer (spec/DECISIONS.md, reset-id-buffer).
TEST(Reset, TheNewStreamsIdBufferStartsEmpty) {
  const std::string first = "id: 7\ndata: a\n\n";
  const std::string second = "data: b\n\nid: 9\ndata: c\n\n";
  for (const auto& kind : chunking_kinds()) {
    SCOPED_TRACE("chunking: " + kind.name);
    outcome got;
    const run_options opt;
    sse_test::recording_visitor visitor(got, opt);
    sse::parser<sse_test::recording_visitor> p(visitor);
    EXPECT_EQ(feed_chunks(p, kind.cut(first, kind.seed)), errc::ok);
    EXPECT_EQ(p.finish(), errc::ok);
    p.reset();
    EXPECT_EQ(p.last_event_id(), "7");
    EXPECT_EQ(feed_chunks(p, kind.cut(second, kind.seed)), errc::ok);
    EXPECT_EQ(p.finish(), errc::ok);
    EXPECT_EQ(got.events, (std::vector<event_record>{message("a", 0, "7"), message("b", 0, ""), message("c", 9, "9")}));
    EXPECT_EQ(p.last_event_id(), "9");
  }
}

TEST(Reset, RecoversFromAbortAndFromFinished) {
  outcome got;
  run_options opt;
  opt.abort_at_event = 0;
  sse_test::recording_visitor visitor(got, opt);
  sse::parser<sse_test::recording_visitor> p(visitor);
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: a\n\ndata: b\n\n"), 9, errc::aborted));
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: c\n\n"), 0, errc::aborted));
  EXPECT_EQ(p.finish(), errc::aborted);
  p.reset();
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: d\n\n"), 9, errc::ok));  // event #1: proceed
  EXPECT_EQ(p.finish(), errc::ok);
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: e\n\n"), 0, errc::finished));
  p.reset();
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: f\n\n"), 9, errc::ok));
  EXPECT_EQ(p.finish(), errc::ok);
  EXPECT_EQ(got.events, (std::vector<event_record>{message("a", 0), message("d", 0), message("f", 0)}));
}

TEST(Finish, FeedAndFinishAfterFinishGiveFinished) {
  outcome got;
  const run_options opt;
  sse_test::recording_visitor visitor(got, opt);
  sse::parser<sse_test::recording_visitor> p(visitor);
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: a\n\n"), 9, errc::ok));
  EXPECT_EQ(p.finish(), errc::ok);
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, "data: b\n\n"), 0, errc::finished));
  EXPECT_TRUE(sse_test::fed(sse_test::feed_exact(p, ""), 0, errc::finished));
  EXPECT_EQ(p.finish(), errc::finished);
  EXPECT_EQ(p.error(), errc::finished);
  EXPECT_EQ(got.events, (std::vector<event_record>{message("a", 0)}));
}

// ---------------------------------------------------------------------------
// pending_offset(): what a caller keeps of the stream for the blocks still to
// come (the producer validator drops everything before it). Never past the
// start of a block that is dispatched later, or of the tail discarded at the
// end; never behind the end of the last blank line (so nothing before a
// finished frame is kept); whole, byte by byte and in seeded random pieces.

// Just after the last blank line of `prefix`, by the line ends of the rules
// (CRLF, LF, CR; a CR last in the prefix ends its line).
std::uint64_t after_last_blank_line(std::string_view prefix) {
  std::uint64_t after = 0;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != '\r' && prefix[i] != '\n') continue;
    const bool blank = i == line_start;
    if (prefix[i] == '\r' && i + 1 < prefix.size() && prefix[i + 1] == '\n') ++i;
    line_start = i + 1;
    if (blank) after = line_start;
  }
  return after;
}

struct pending_visitor {
  std::vector<std::uint64_t> event_offsets;
  std::optional<std::uint64_t> discarded_at;
  sse::action on_event(const sse::event_view& e) {
    event_offsets.push_back(e.offset);
    return sse::action::proceed;
  }
  void on_diagnostic(const sse::diagnostic& d) {
    if (d.code == diag::discarded_at_eof) discarded_at = d.offset;
  }
};

TEST(PendingOffset, NeverPastABlockStillToComeNorBehindTheLastBlankLine) {
  const std::vector<std::string> streams = {
      "data: a\n\ndata: b\n\n",
      "id: 1\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\n: c\r\n\r\ndata: cut",
      "data: a\r\rdata: b\r\r\r: only a comment\rretry: 5\r\rdata: tail\r",
      std::string("\xEF\xBB\xBF") + "data: after a BOM\n\n\n\n: c\n\nevent: e\ndata: x\ndata",
      std::string("\xEF\xBB") + "data: a partial BOM\n\ndata: b\n\n",
      ": leading comment\n\n\ndata: x\n\nid: 7\n\nunknown: y\n\ndata:z\n\n",
  };
  for (const auto& stream : streams) {
    std::vector<std::pair<std::string, std::vector<std::string_view>>> chunkings = {
        {"whole", {stream}}, {"bytes", sse::chunking::bytes(stream)}};
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
      chunkings.emplace_back("seed " + std::to_string(seed), sse::chunking::random(stream, seed));
    }
    for (const auto& [how, chunks] : chunkings) {
      SCOPED_TRACE(testing::PrintToString(stream) + ", " + how);
      pending_visitor v;
      sse::parser<pending_visitor> p(v);
      std::uint64_t pending = 0;
      std::uint64_t fed = 0;
      for (const auto chunk : chunks) {
        const std::size_t events_before = v.event_offsets.size();
        ASSERT_EQ(p.feed(chunk).status, errc::ok);
        fed += chunk.size();
        for (std::size_t i = events_before; i < v.event_offsets.size(); ++i) {
          EXPECT_GE(v.event_offsets[i], pending);
        }
        const std::uint64_t now = p.pending_offset();
        EXPECT_GE(now, pending) << "never moves back";
        EXPECT_LE(now, p.offset());
        const bool bom_may_arrive = fed < 3 && stream.starts_with(std::string_view("\xEF\xBB\xBF").substr(0, fed));
        if (!bom_may_arrive) {
          EXPECT_GE(now, after_last_blank_line(std::string_view(stream).substr(0, fed)));
        }
        pending = now;
      }
      ASSERT_EQ(p.finish(), errc::ok);
      if (v.discarded_at) {
        EXPECT_GE(*v.discarded_at, pending);
      }
      EXPECT_FALSE(v.event_offsets.empty());
    }
  }
}

// ---------------------------------------------------------------------------
// Linear work: a functional check, never timed. A parser that rescanned its
// buffered line on every byte would need ~8e12 steps here and never finish.

TEST(Linearity, FourMebibyteLineFedOneByteAtATimeCompletes) {
  constexpr std::size_t size = std::size_t{4} << 20;
  const std::string input = "data: " + std::string(size, 'x') + "\n\n";
  outcome got;
  const run_options opt;
  sse_test::recording_visitor visitor(got, opt);
  sse::parser<sse_test::recording_visitor> p(visitor);
  std::size_t bad_feeds = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const sse_test::exact_copy byte(std::string_view(input).substr(i, 1));
    const sse::feed_result r = p.feed(byte.view());
    if (r.consumed != 1 || r.status != errc::ok) ++bad_feeds;
  }
  EXPECT_EQ(bad_feeds, 0u);
  EXPECT_EQ(p.finish(), errc::ok);
  ASSERT_EQ(got.events.size(), 1u);
  EXPECT_EQ(got.events[0].data.size(), size);
  EXPECT_EQ(got.events[0].data.find_first_not_of('x'), std::string::npos);
}

// `parse --chunk N` and `--split-seed S` cut a file as it is read; the
// chunks must be those of the whole-stream cutters, whatever the size of the
// pieces the file arrives in.
TEST(chunking, recutter_gives_the_chunks_of_the_whole_stream_from_pieces_of_any_size) {
  std::string stream;
  for (int i = 0; i < 3000; ++i) stream += "data: " + std::to_string(i * 7919) + "\r\n\n";
  const auto cut = [&](sse::chunking::recutter r, std::size_t piece) {
    std::vector<std::string> out;
    const auto emit = [&](std::string_view c) {
      out.emplace_back(c);
      return true;
    };
    for (std::size_t at = 0; at < stream.size(); at += piece) r.push(std::string_view(stream).substr(at, piece), emit);
    r.finish(emit);
    return out;
  };
  const auto strings = [](const std::vector<std::string_view>& v) {
    return std::vector<std::string>(v.begin(), v.end());
  };
  for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{65536}}) {
    for (const std::size_t size : {std::size_t{1}, std::size_t{3}, std::size_t{5000}}) {
      EXPECT_EQ(cut(sse::chunking::recutter(size), piece), strings(sse::chunking::fixed(stream, size)))
          << "size " << size << ", pieces of " << piece;
    }
    for (const std::uint64_t seed : {1u, 2u, 99u}) {
      EXPECT_EQ(cut(sse::chunking::recutter(sse::chunking::random_cuts(seed)), piece),
                strings(sse::chunking::random(stream, seed)))
          << "seed " << seed << ", pieces of " << piece;
    }
  }
}

}  // namespace
