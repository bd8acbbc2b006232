// SPDX-License-Identifier: MIT
// sse::writer: the exact bytes it writes, the values it refuses, and the round
// trip (write, then parse under every chunking, gives back the same events,
// comments and retries) for tricky events and seeded random streams.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sse/chunking.hpp"
#include "sse/event.hpp"
#include "sse/writer.hpp"

namespace {

using namespace std::literals;
using sse::errc;
using sse_test::escape;
using sse_test::outcome;

#define U_FEFF "\xEF\xBB\xBF"

// Writes `events` with one writer and returns the bytes.
std::string written(const std::vector<sse::event>& events) {
  sse::writer w;
  std::string out;
  for (const auto& e : events) {
    const errc status = w.write_event(out, e);
    EXPECT_EQ(status, errc::ok) << "writing data \"" << escape(e.data) << "\"";
  }
  return out;
}

struct wire_case {
  const char* name;
  std::vector<sse::event> events;
  std::string wire;
};

TEST(Writer, WritesTheExpectedBytes) {
  const std::vector<wire_case> cases = {
      {"one line", {{"message", "a"}}, "data: a\n\n"},
      {"multi-line data, one data line per piece", {{"message", "a\nb\n\nc"}}, "data: a\ndata: b\ndata:\ndata: c\n\n"},
      {"empty data", {{"message", ""}}, "data:\n\n"},
      {"data of one LF", {{"message", "\n"}}, "data:\ndata:\n\n"},
      {"trailing LF", {{"message", "a\n"}}, "data: a\ndata:\n\n"},
      {"type message omitted", {{"message", "x"}}, "data: x\n\n"},
      {"empty type omitted", {{"", "x"}}, "data: x\n\n"},
      {"other type written", {{"update", "x"}}, "event: update\ndata: x\n\n"},
      {"type is case-sensitive", {{"Message", "x"}}, "event: Message\ndata: x\n\n"},
      {"data starting with a space", {{"message", " a"}}, "data:  a\n\n"},
      {"every piece keeps its space", {{"message", "a\n b"}}, "data: a\ndata:  b\n\n"},
      {"type starting with a space", {{" t", "x"}}, "event:  t\ndata: x\n\n"},
      {"id starting with a space", {{"message", "x", " 2"}}, "id:  2\ndata: x\n\n"},
      {"data holding field syntax", {{"message", "data: x\n:c"}}, "data: data: x\ndata: :c\n\n"},
      {"id written only on change",
       {{"message", "a", "1"}, {"message", "b", "1"}, {"message", "c", "2"}},
       "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n"},
      {"empty id after a non-empty one is a bare id line",
       {{"message", "a", "1"}, {"message", "b", ""}, {"message", "c", ""}},
       "id: 1\ndata: a\n\nid\ndata: b\n\ndata: c\n\n"},
      {"empty id at stream start is not written", {{"message", "a", ""}}, "data: a\n\n"},
      {"type, id and data", {{"t", "d", "i"}}, "event: t\nid: i\ndata: d\n\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(escape(written(c.events)), escape(c.wire));
  }
}

TEST(Writer, AppendsAndTracksTheLastId) {
  sse::writer w;
  std::string out = "kept\n";
  EXPECT_EQ(w.last_event_id(), "");
  EXPECT_EQ(w.write_event(out, {"message", "a", "7"}), errc::ok);
  EXPECT_EQ(out, "kept\nid: 7\ndata: a\n\n");
  EXPECT_EQ(w.last_event_id(), "7");
}

TEST(Writer, CommentsAndRetry) {
  const sse::writer w;
  struct comment_case {
    std::string text;
    std::string wire;
  };
  for (const auto& c : std::vector<comment_case>{
           {"hello", ":hello\n"},
           {"", ":\n"},
           {" keep-alive", ": keep-alive\n"},  // parsers strip nothing from comments
           {"a\nb", ":a\n:b\n"},
           {"a\n", ":a\n:\n"},
           {"data: x", ":data: x\n"},
       }) {
    std::string out = "x";
    EXPECT_EQ(w.write_comment(out, c.text), errc::ok) << escape(c.text);
    EXPECT_EQ(escape(out), escape("x" + c.wire));
  }
  std::string out;
  w.write_retry(out, 0);
  w.write_retry(out, 3000);
  w.write_retry(out, UINT64_MAX);
  EXPECT_EQ(out, "retry: 0\n\nretry: 3000\n\nretry: 18446744073709551615\n\n");
}

struct refusal_case {
  const char* name;
  sse::event e;
  errc expected;
};

TEST(Writer, RefusesUnframeableValuesAndLeavesEverythingUnchanged) {
  const std::vector<refusal_case> cases = {
      {"LF in type", {"a\nb", "x"}, errc::value_has_line_break},
      {"CR in type", {"a\rb", "x"}, errc::value_has_line_break},
      {"LF in id", {"message", "x", "1\n"}, errc::value_has_line_break},
      {"CR in id", {"message", "x", "\r1"}, errc::value_has_line_break},
      {"CR in data", {"message", "a\rb"}, errc::value_has_line_break},
      {"CRLF in data", {"message", "a\r\nb"}, errc::value_has_line_break},
      {"NUL in id", {"message", "x", "a\0b"s}, errc::id_has_nul},
      {"NUL alone in id", {"message", "x", "\0"s}, errc::id_has_nul},
      {"invalid UTF-8 in type", {"\xFF", "x"}, errc::invalid_utf8},
      {"invalid UTF-8 in data", {"message", "\xC0\xAF"}, errc::invalid_utf8},
      {"truncated sequence in data", {"message", "a\xE2\x82"}, errc::invalid_utf8},
      {"surrogate in id", {"message", "x", "\xED\xA0\x80"}, errc::invalid_utf8},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    sse::writer w;
    std::string out = "id: 1\ndata: before\n\n";
    ASSERT_EQ(w.write_event(out, {"message", "before", "1"}), errc::ok);
    const std::string before = out;
    EXPECT_EQ(w.write_event(out, c.e), c.expected);
    EXPECT_EQ(out, before);
    EXPECT_EQ(w.last_event_id(), "1");
    // The refused event left no trace: the same id is still not rewritten.
    EXPECT_EQ(w.write_event(out, {"message", "after", "1"}), errc::ok);
    EXPECT_EQ(out, before + "data: after\n\n");
  }
  const sse::writer w;
  std::string out = "x";
  EXPECT_EQ(w.write_comment(out, "a\rb"), errc::value_has_line_break);
  EXPECT_EQ(w.write_comment(out, "\xFF"), errc::invalid_utf8);
  EXPECT_EQ(out, "x");
}

// ---------------------------------------------------------------------------
// Round trip. A builder writes a stream and, item by item, the outcome the
// parser must report for it: each event at the offset where its block starts.

class stream_builder {
 public:
  void event(const sse::event& e) {
    const std::uint64_t offset = wire_.size();
    const errc status = writer_.write_event(wire_, e);
    if (status != errc::ok) {
      ADD_FAILURE() << "write_event refused type \"" << escape(e.type) << "\" data \"" << escape(e.data) << "\" id \""
                    << escape(e.last_event_id) << "\": " << sse::to_string(status);
      return;
    }
    expected_.events.push_back({e.type.empty() ? "message" : e.type, e.data, e.last_event_id, offset});
    expected_.last_event_id = e.last_event_id;
  }
  void comment(std::string_view text) {
    std::uint64_t offset = wire_.size();
    const errc status = writer_.write_comment(wire_, text);
    if (status != errc::ok) {
      ADD_FAILURE() << "write_comment refused \"" << escape(text) << "\": " << sse::to_string(status);
      return;
    }
    // One comment line per LF-separated piece: ':' + piece + LF.
    for (;;) {
      const auto lf = text.find('\n');
      const std::string_view piece = text.substr(0, lf);
      expected_.comments.push_back({std::string(piece), offset});
      offset += piece.size() + 2;
      if (lf == std::string_view::npos) break;
      text.remove_prefix(lf + 1);
    }
  }
  void retry(std::uint64_t ms) {
    writer_.write_retry(wire_, ms);
    expected_.retries.push_back(ms);
  }
  const std::string& wire() const { return wire_; }
  const outcome& expected() const { return expected_; }

 private:
  sse::writer writer_;
  std::string wire_;
  outcome expected_;
};

TEST(RoundTrip, TrickyEventsComeBackUnchangedUnderEveryChunking) {
  const std::vector<sse::event> tricky = {
      {"message", ""},
      {"message", "\n"},
      {"message", "\n\n"},
      {"message", " "},
      {"message", "  two leading spaces"},
      {"message", "a\n"},
      {"message", "\na"},
      {"message", "data: x"},
      {"message", ":not a comment"},
      {"message", "\n:\n"},
      {"message", U_FEFF "starts with U+FEFF"},
      {"message", U_FEFF},
      {"message", "a\0b"s},
      {"message", "\x0B\x0C\xC2\x85\xE2\x80\xA8\xE2\x80\xA9"},
      {"", "empty type means message"},
      {" spaced type", " spaced data", " spaced id"},
      {"message", "x", "1"},
      {"message", "same id", "1"},
      {"message", "id reset", ""},
      {"\xC3\xA9\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF0\x9F\x92\xA1"},
      {"a:b", "c:d", "e:f"},
      {"event", "id: 3\nretry: 5\nevent: x", "x"},
      {U_FEFF, U_FEFF, U_FEFF},
      {"\t", "\t", "\t"},
      {"message", "last", ""},
  };
  // Each event alone (as the stream's first block), then all in one stream
  // with comments and retries between them.
  for (const auto& e : tricky) {
    SCOPED_TRACE("event data \"" + escape(e.data) + "\"");
    stream_builder b;
    b.event(e);
    sse_test::expect_same_under_all_chunkings(b.wire(), b.expected());
  }
  stream_builder b;
  b.comment(U_FEFF " leading comment");
  for (std::size_t i = 0; i < tricky.size(); ++i) {
    b.event(tricky[i]);
    if (i % 5 == 1) b.comment(i % 2 ? "" : " two\nlines");
    if (i % 7 == 3) b.retry(i * 100);
  }
  sse_test::expect_same_under_all_chunkings(b.wire(), b.expected());
}

// Values drawn from pieces chosen to trip a writer or parser: field syntax,
// colons and spaces at value starts, LF, NUL, multi-byte UTF-8, U+FEFF and
// characters that only look like line ends.
std::string random_value(sse::chunking::splitmix64& rng, bool allow_lf, bool allow_nul) {
  static const std::vector<std::string> pieces = {"a",
                                                  "b",
                                                  "z",
                                                  " ",
                                                  "  ",
                                                  ":",
                                                  "\n",
                                                  "\t",
                                                  "\0"s,
                                                  "\xC3\xA9",
                                                  "\xE2\x82\xAC",
                                                  "\xF0\x9F\x98\x80",
                                                  "data:",
                                                  "data: ",
                                                  "id:",
                                                  "event: x",
                                                  "retry: 1",
                                                  U_FEFF,
                                                  "\x0B",
                                                  "\xC2\x85",
                                                  "\xE2\x80\xA8",
                                                  "message"};
  std::string out;
  const auto count = rng.next() % 7;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string& piece = pieces[rng.next() % pieces.size()];
    if (!allow_lf && piece == "\n") continue;
    if (!allow_nul && piece == "\0"s) continue;
    out += piece;
  }
  return out;
}

TEST(RoundTrip, SeededRandomStreamsComeBackUnchangedUnderEveryChunking) {
  // 400 streams of 12 items: about 4,000 events, plus comments and retries.
  sse_test::run_options opt;
  opt.split_points_up_to = 0;  // whole, bytes and the 16 seeded splits
  opt.three_way_splits_up_to = 0;
  std::size_t events = 0;
  for (std::uint64_t stream = 1; stream <= 400; ++stream) {
    sse::chunking::splitmix64 rng(stream * 7919);
    stream_builder b;
    std::string id;
    for (int item = 0; item < 12; ++item) {
      const auto pick = rng.next() % 12;
      if (pick == 0) {
        b.comment(random_value(rng, true, true));
      } else if (pick == 1) {
        b.retry(rng.next() % 100000);
      } else {
        const auto type_pick = rng.next() % 6;
        const std::string type = type_pick < 2 ? "message" : type_pick == 2 ? "" : random_value(rng, false, true);
        const auto id_pick = rng.next() % 6;
        if (id_pick == 0) id.clear();
        else if (id_pick == 1) id = random_value(rng, false, false);
        b.event({type, random_value(rng, true, true), id});
        ++events;
      }
    }
    SCOPED_TRACE("stream seed " + std::to_string(stream * 7919));
    sse_test::expect_same_under_all_chunkings(b.wire(), b.expected(), opt);
  }
  EXPECT_GT(events, 3500u);
}

}  // namespace
