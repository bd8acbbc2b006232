// SPDX-License-Identifier: MIT
// The floor of `sse-conform bench --layer scan` (bench::scan_once): it finds
// the lines the parser finds, CR LF as one line end, and counts a line a
// chunk's end cuts once per piece. Speed is not asserted here.
#include <gtest/gtest.h>

#include <string>

#include "ssec/bench/measure.hpp"

namespace {

using ssec::bench::scan_once;

TEST(ScanFloor, CountsTheLinesAndTheirBytesWithCrLfAsOneEnd) {
  // "data: a", "", "data: \xC3\xA9" (é), "", ": c", "" with LF, CR LF and CR ends.
  const std::string stream = "data: a\r\n\r\ndata: \xC3\xA9\n\n: c\r\r";
  const auto whole = scan_once(stream, 0);
  EXPECT_EQ(whole.events, 6u);
  EXPECT_EQ(whole.data_bytes, 7u + 8u + 3u);
}

TEST(ScanFloor, FindsTheLinesOfAStreamLongerThanTheVectorSteps) {
  // Lines of 100 bytes (past the 16-byte steps of the SSE2 scan), some with
  // a two-byte character, one with a byte that is not UTF-8: bytes, not text.
  std::string stream;
  for (int i = 0; i < 50; ++i) {
    std::string line = "data: " + std::string(94, static_cast<char>('a' + i % 26));
    if (i % 5 == 0) line.replace(50, 2, "\xC3\xA9");
    if (i == 7) line[80] = '\xFF';
    stream += line + "\n\n";
  }
  const auto whole = scan_once(stream, 0);
  EXPECT_EQ(whole.events, 100u);
  EXPECT_EQ(whole.data_bytes, 50u * 100u);
}

TEST(ScanFloor, ALineCutByAChunkEndCountsOncePerPiece) {
  const std::string stream = "data: abcdef\n\n";  // 14 bytes: two lines whole
  EXPECT_EQ(scan_once(stream, 0).events, 2u);
  // Chunks of 7: "data: a" | "bcdef\n\n": the first line in two pieces.
  const auto cut = scan_once(stream, 7);
  EXPECT_EQ(cut.events, 3u);
  EXPECT_EQ(cut.data_bytes, 12u);  // the same bytes, counted once
  // One byte at a time: the line's 12 bytes are 12 pieces, and each LF ends
  // an empty piece of its own.
  EXPECT_EQ(scan_once(stream, 1).events, 12u + 2u);
}

TEST(ScanFloor, MeasureScanRunsAndAgrees) {
  const auto m = ssec::bench::measure_scan("data: x\n\ndata: y\n\n", 5, 3);
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(m->runs.size(), 3u);
  EXPECT_EQ(m->runs.front().events, m->runs.back().events);
}

}  // namespace
