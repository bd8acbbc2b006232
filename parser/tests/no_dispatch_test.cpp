// SPDX-License-Identifier: MIT
// The optional on_no_dispatch hook: every blank line that finds the data
// buffer empty (step 2 of "dispatch the event") is reported once, at the
// block's first field line or at the blank line itself, whatever the chunking
// (whole, byte by byte, every two-chunk split, seeded random splits).
// https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"
#include "sse/chunking.hpp"
#include "sse/parser.hpp"

namespace {

using namespace std::literals;

struct no_dispatch {
  std::uint64_t offset = 0;
  bool had_fields = false;
  friend bool operator==(const no_dispatch&, const no_dispatch&) = default;
};

struct recorder {
  std::vector<no_dispatch> seen;
  std::vector<std::uint64_t> events;
  sse::action on_event(const sse::event_view& e) {
    events.push_back(e.offset);
    return sse::action::proceed;
  }
  void on_no_dispatch(std::uint64_t offset, bool had_fields) { seen.push_back({offset, had_fields}); }
};

recorder run(const std::vector<std::string_view>& chunks) {
  recorder r;
  sse::parser<recorder> p(r);
  for (const auto c : chunks) p.feed(c);
  p.finish();
  return r;
}

void expect_every_chunking(std::string_view in, const std::vector<no_dispatch>& want,
                           const std::vector<std::uint64_t>& events) {
  std::vector<std::vector<std::string_view>> chunkings{sse::chunking::whole(in), sse::chunking::bytes(in)};
  for (std::size_t at = 0; at <= in.size(); ++at) chunkings.push_back(sse::chunking::split_at(in, at));
  for (std::uint64_t seed = 1; seed <= 16; ++seed) chunkings.push_back(sse::chunking::random(in, seed));
  for (const auto& chunks : chunkings) {
    const recorder r = run(chunks);
    EXPECT_EQ(r.seen, want) << sse_test::escape(in) << " in " << chunks.size() << " chunks";
    EXPECT_EQ(r.events, events) << sse_test::escape(in) << " in " << chunks.size() << " chunks";
  }
}

TEST(NoDispatch, ABlockWithFieldsButNoDataIsReportedAtItsFirstFieldLine) {
  expect_every_chunking("event:a\nid:1\n\ndata:x\n\n"sv, {{0, true}}, {14});
  expect_every_chunking("retry:5\r\n\r\n"sv, {{0, true}}, {});
  expect_every_chunking("\xEF\xBB\xBFnope:1\r\r"sv, {{3, true}}, {});
}

TEST(NoDispatch, ABlankLineAfterNothingOrCommentsIsReportedAtTheBlankLine) {
  expect_every_chunking("\n"sv, {{0, false}}, {});
  expect_every_chunking(":c\r\n\r\ndata\n\n\n"sv, {{4, false}, {12, false}}, {6});
}

TEST(NoDispatch, AnEmptyDataValueDispatchesAndAnUnterminatedTailIsNotANoDispatch) {
  expect_every_chunking("data\n\nevent:b"sv, {}, {0});
  expect_every_chunking("data:\n\nevent:b\n"sv, {}, {0});
}

}  // namespace
