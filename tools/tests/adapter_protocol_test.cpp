// SPDX-License-Identifier: MIT
// The adapter's fast reading of parse requests (read_parse_request_line):
// where it answers, it answers exactly what the general reading
// (nlohmann_json, then parse_request_from_json) gives; everything else it
// leaves to the general reading.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ssec/adapter/protocol.hpp"
#include "ssec/support/base64.hpp"

namespace {

// What the general reading makes of a line: the request, or nothing.
std::optional<ssec::parse_request> general(const std::string& line) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("op", "") != "parse") return std::nullopt;
  auto r = ssec::parse_request_from_json(j);
  if (!r) return std::nullopt;
  return std::move(r.value());
}

void expect_same(const std::string& line) {
  auto fast = ssec::read_parse_request_line(line);
  const auto slow = general(line);
  ASSERT_TRUE(fast.has_value()) << line;
  ASSERT_TRUE(slow.has_value()) << line;
  EXPECT_EQ(fast->id, slow->id) << line;
  EXPECT_EQ(fast->layer, slow->layer) << line;
  const std::vector<std::string> chunks(fast->chunks.begin(), fast->chunks.end());
  EXPECT_EQ(chunks, slow->chunks) << line;
  const ssec::packed_parse_request moved = std::move(*fast);  // the views follow the bytes
  EXPECT_EQ(std::vector<std::string>(moved.chunks.begin(), moved.chunks.end()), slow->chunks) << line;
}

TEST(read_parse_request_line, well_formed_requests_read_as_the_general_path_reads_them) {
  expect_same(R"({"op":"parse","id":"wire/bom/K7P2","layer":"wire","chunks":["ZGF0YTog","YQoK"]})");
  expect_same(R"({"chunks":[],"layer":"agent","id":"x","op":"parse"})");  // any order, no chunks
  expect_same(R"(  {"op" : "parse", "id":"a\"b\u00e9","layer":"chat","chunks":["AA==", "/w==", ""]}  )");
  expect_same(R"({"op":"parse","id":"\ud83d\ude00","layer":"wire","chunks":["\u0059\u0051\u003d\u003d"]})");
  // The harness's own lines, byte by byte, as it sends them.
  ssec::parse_request r{"wire/large/X@bytes", "wire", {}};
  for (int b = 0; b < 256; ++b) r.chunks.emplace_back(1, static_cast<char>(b));
  const std::string line = ssec::to_json(r).dump();
  expect_same(line);
  const auto packed = ssec::read_parse_request_line(line);
  EXPECT_EQ(std::vector<std::string>(packed->chunks.begin(), packed->chunks.end()), r.chunks);
}

TEST(read_parse_request_line, anything_else_is_left_to_the_general_path) {
  for (const std::string line :
       {R"({"op":"hello","protocol":1})",                                        // another op
        R"({"op":"bye"})",                                                       //
        R"({"op":"parse","id":"a","layer":"wire","chunks":["YQ=="],"x":1})",     // an unknown member
        R"({"op":"parse","id":"a","layer":"wire","chunks":["YQ=="],"x":[1,}})",  // ... not even JSON
        R"({"op":"parse","id":"a","id":"b","layer":"wire","chunks":[]})",        // a member twice
        R"({"op":"parse","id":"a","layer":"wire","chunks":[],"chunks":[]})",     //
        R"({"op":"parse","id":1,"layer":"wire","chunks":[]})",                   // wrong types
        R"({"op":"parse","id":"a","layer":"wire","chunks":"YQ=="})",             //
        R"({"op":"parse","id":"a","layer":"wire","chunks":[1]})",                //
        R"({"op":"parse","id":"a","layer":"wire","chunks":["not base64!"]})",    // bad base64
        R"({"op":"parse","id":"a","layer":"wire"})",                             // a member missing
        R"({"op":"parse","id":"a","layer":"wire","chunks":[]} {"op":"bye"})",    // two documents
        R"({"op":"parse","id":"a","layer":"wire","chunks":["YQ=="])",            // cut off
        R"(["op","parse"])",                                                     // not an object
        "", "nonsense"}) {
    EXPECT_FALSE(ssec::read_parse_request_line(line).has_value()) << line;
  }
}

}  // namespace
