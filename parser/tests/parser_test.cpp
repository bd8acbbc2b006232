// SPDX-License-Identifier: MIT
// The wire parser against the WHATWG rules for interpreting an event stream.
// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
// Every case runs under every chunking (harness.hpp): the expected outcome is
// written once, from the rules, and must hold for each way of cutting the input.
// Offsets in expectations are stream byte offsets, counted by hand. Limits,
// steering, finish() and reset() are in parser_lifecycle_test.cpp.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.hpp"
#include "spellings.hpp"
#include "sse/chunking.hpp"
#include "sse/parser.hpp"

namespace {

using namespace std::literals;
using sse::diag;
using sse_test::discarded;
using sse_test::message;
using sse_test::outcome;
using sse_test::parse_case;
using sse_test::repeat;
using sse_test::run_cases;
using sse_test::run_options;

// ---------------------------------------------------------------------------
// UTF-8: "Streams must be decoded using the UTF-8 decode algorithm", so each
// maximal subpart of an ill-formed sequence becomes one U+FFFD
// (https://encoding.spec.whatwg.org/#utf-8-decoder).

struct utf8_value_case {
  const char* name;
  std::string raw;
  std::string decoded;
};

const std::vector<utf8_value_case>& utf8_value_cases() {
  static const std::vector<utf8_value_case> cases = {
      {"truncated 4-byte sequence then ASCII",
       "\xF0\x9F\x98"
       "A",
       U_FFFD "A"},
      {"E0 with a second byte below A0", "\xE0\x80", U_FFFD U_FFFD},
      {"surrogate U+D800", "\xED\xA0\x80", U_FFFD U_FFFD U_FFFD},
      {"surrogate U+DFFF", "\xED\xBF\xBF", U_FFFD U_FFFD U_FFFD},
      {"overlong solidus", "\xC0\xAF", U_FFFD U_FFFD},
      {"overlong with C1", "\xC1\xBF", U_FFFD U_FFFD},
      {"overlong 3-byte", "\xE0\x9F\xBF", U_FFFD U_FFFD U_FFFD},
      {"overlong 4-byte", "\xF0\x8F\xBF\xBF", U_FFFD U_FFFD U_FFFD U_FFFD},
      {"above U+10FFFF", "\xF4\x90\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD},
      {"F5 lead byte", "\xF5\x80\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD},
      {"lone continuation byte", "\x80", U_FFFD},
      {"continuation byte between letters",
       "a\xBF"
       "b",
       "a" U_FFFD "b"},
      {"FF", "\xFF", U_FFFD},
      {"FE", "\xFE", U_FFFD},
      {"truncated 2-byte sequence at line end", "\xC3", U_FFFD},
      {"truncated 3-byte sequence at line end", "\xE2\x82", U_FFFD},
      {"truncated 4-byte sequence at line end", "\xF0\x9F\x98", U_FFFD},
      {"truncated sequence then a whole one", "\xE2\x82\xE2\x82\xAC", U_FFFD "\xE2\x82\xAC"},
      {"two truncated 4-byte sequences", "\xF1\x80\x80\xF1\x80\x80", U_FFFD U_FFFD},
      {"Unicode Table 3-8 example",
       "a\xF1\x80\x80\xE1\x80\xC2"
       "b\x80"
       "c\x80\xBF"
       "d",
       "a" U_FFFD U_FFFD U_FFFD "b" U_FFFD "c" U_FFFD U_FFFD "d"},
      {"partial BOM", "\xEF\xBB", U_FFFD},
      {"partial BOM then a letter",
       "\xEF\xBB"
       "x",
       U_FFFD "x"},
      {"well-formed boundary code points",
       "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF",
       "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"},
  };
  return cases;
}

TEST(Utf8Decoding, EachMaximalSubpartBecomesOneReplacementCharacter) {
  std::vector<parse_case> parse_cases;
  for (const auto& c : utf8_value_cases()) {
    outcome expected{.events = {message(c.decoded, 0)}};
    // The replacement is reported once per repaired value, with the raw bytes.
    if (c.decoded != c.raw) expected.diagnostics = {{diag::invalid_utf8, 0, c.raw}};
    parse_cases.push_back({c.name, "data: " + c.raw + "\n\n", expected});
  }
  run_cases(parse_cases);
}

TEST(Utf8Decoding, ShortRestsAfterAsciiRunsOfEveryLengthAreRepairedAlike) {
  // A value's rest from its first high byte, when short, is checked as one
  // block widened back over the ASCII before it in the line: every length of
  // that ASCII run, in each field the parser repairs.
  std::vector<parse_case> parse_cases;
  for (const auto& c : utf8_value_cases()) {
    for (std::size_t pad = 0; pad <= 40; ++pad) {
      const std::string ascii = repeat("abcdefghij", 4).substr(0, pad);
      const std::string raw = ascii + c.raw;
      const std::string decoded = ascii + c.decoded;
      const bool repairs = c.decoded != c.raw;
      const std::string name = std::string(c.name) + " after " + std::to_string(pad) + " ASCII bytes";
      const auto diagnostics = [&](std::string_view detail) {
        return repairs ? std::vector<sse_test::diag_record>{{diag::invalid_utf8, 0, std::string(detail)}}
                       : std::vector<sse_test::diag_record>{};
      };
      parse_cases.push_back({"data: " + name,
                             "data: " + raw + "\n\n",
                             {.events = {message(decoded, 0)}, .diagnostics = diagnostics(raw)}});
      parse_cases.push_back({"event: " + name,
                             "event:" + raw + "\ndata: x\n\n",
                             {.events = {{decoded, "x", "", 0}}, .diagnostics = diagnostics(raw)}});
      parse_cases.push_back(
          {"id: " + name,
           "id: " + raw + "\ndata: x\n\n",
           {.events = {message("x", 0, decoded)}, .diagnostics = diagnostics(raw), .last_event_id = decoded}});
      parse_cases.push_back(
          {"comment: " + name, ":" + raw + "\n", {.comments = {{decoded, 0}}, .diagnostics = diagnostics(raw)}});
    }
  }
  run_options quick;
  quick.split_points_up_to = 0;
  quick.three_way_splits_up_to = 0;
  run_cases(parse_cases, quick);
}

TEST(Utf8Decoding, EveryAsciiByteButCrAndLfIsKeptInData) {
  std::string value;
  for (int b = 0; b < 0x80; ++b) {
    if (b != '\r' && b != '\n') value.push_back(static_cast<char>(b));
  }
  sse_test::expect_same_under_all_chunkings("data:" + value + "\n\n", {.events = {message(value, 0)}});
}

TEST(Utf8Decoding, MultiByteCharactersSplitAcrossChunksComeOutIntact) {
  run_options exhaustive;
  exhaustive.three_way_splits_up_to = 128;
  run_cases(
      {
          {"in data",
           "data: \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\n\n",
           {.events = {message("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 0)}}},
          {"in type, id, data and a comment",
           ":\xF0\x9F\x92\xA1\nevent: \xE2\x80\x94\nid: \xF4\x8F\xBF\xBF\ndata: \xDF\xBF\n\n",
           {.events = {{"\xE2\x80\x94", "\xDF\xBF", "\xF4\x8F\xBF\xBF", 6}},
            .comments = {{"\xF0\x9F\x92\xA1", 0}},
            .last_event_id = "\xF4\x8F\xBF\xBF"}},
          {"many 4-byte characters in a row",
           "data:" + repeat("\xF0\x9F\x98\x80", 8) + "\n\n",
           {.events = {message(repeat("\xF0\x9F\x98\x80", 8), 0)}}},
      },
      exhaustive);
}

TEST(Utf8Decoding, IncompleteSequenceRightBeforeALineEnd) {
  run_cases({
      {"before LF",
       "data: a\xE2\x82\n\n",
       {.events = {message("a" U_FFFD, 0)}, .diagnostics = {{diag::invalid_utf8, 0, "a\xE2\x82"}}}},
      {"before CRLF",
       "data: \xF0\x9F\x98\r\n\r\n",
       {.events = {message(U_FFFD, 0)}, .diagnostics = {{diag::invalid_utf8, 0, "\xF0\x9F\x98"}}}},
      {"before a lone CR, next line well-formed",
       "data: \xF0\x9F\x98\rdata: x\r\r",
       {.events = {message(U_FFFD "\nx", 0)}, .diagnostics = {{diag::invalid_utf8, 0, "\xF0\x9F\x98"}}}},
      // The next line's first bytes are continuation bytes, yet must not
      // complete the sequence: a line end ends every value.
      {"never completed by the next line",
       "data: \xE2\n\x82\xAC\n\n",
       {.events = {message(U_FFFD, 0)},
        .diagnostics = {{diag::invalid_utf8, 0, "\xE2"}, {diag::unknown_field, 8, "\x82\xAC"}}}},
      {"in an id and a type",
       "id: \xC3\nevent: \xE2\x82\ndata: x\n\n",
       {.events = {{U_FFFD, "x", U_FFFD, 0}},
        .diagnostics = {{diag::invalid_utf8, 0, "\xC3"}, {diag::invalid_utf8, 6, "\xE2\x82"}},
        .last_event_id = U_FFFD}},
      {"in a comment",
       ":\xF0\x9F\x98\n",
       {.comments = {{U_FFFD, 0}}, .diagnostics = {{diag::invalid_utf8, 0, "\xF0\x9F\x98"}}}},
  });
}

TEST(Utf8Decoding, InvalidBytesInEventTypeIdAndComment) {
  run_cases({
      {"event type",
       "event: \xFF\ndata: x\n\n",
       {.events = {{U_FFFD, "x", "", 0}}, .diagnostics = {{diag::invalid_utf8, 0, "\xFF"}}}},
      {"id",
       "id: 1\xC0\ndata: x\n\n",
       {.events = {message("x", 0, "1" U_FFFD)},
        .diagnostics = {{diag::invalid_utf8, 0, "1\xC0"}},
        .last_event_id = "1" U_FFFD}},
      {"comment",
       ":a\xED\xA0\x80"
       "b\n",
       {.comments = {{"a" U_FFFD U_FFFD U_FFFD "b", 0}},
        .diagnostics = {{diag::invalid_utf8, 0,
                         "a\xED\xA0\x80"
                         "b"}}}},
  });
}

// ---------------------------------------------------------------------------
// BOM: "One leading U+FEFF BYTE ORDER MARK character must be ignored if any
// are present" (the UTF-8 decode algorithm strips exactly one, at the start).

TEST(ByteOrderMark, OneLeadingBomIsStrippedOnlyAtStreamStart) {
  run_options exhaustive;
  exhaustive.three_way_splits_up_to = 64;
  run_cases(
      {
          {"leading BOM", U_FEFF "data: x\n\n", {.events = {message("x", 3)}}},
          {"a BOM alone", U_FEFF, {}},
          {"BOM then blank lines", U_FEFF "\r\ndata: x\r\n\r\n", {.events = {message("x", 5)}}},
          {"BOM then comment", U_FEFF ":c\n", {.comments = {{"c", 3}}}},
          // The second BOM is a character of the first line, so the field name is
          // "\uFEFFdata": an unknown field, and no event.
          {"second BOM is kept",
           U_FEFF U_FEFF "data: x\n\n",
           {.diagnostics = {{diag::unknown_field, 3, U_FEFF "data"}}}},
          {"BOM later in the stream is kept",
           "data: a\n\n" U_FEFF "data: b\n\n",
           {.events = {message("a", 0)}, .diagnostics = {{diag::unknown_field, 9, U_FEFF "data"}}}},
          {"U+FEFF in data is kept", "data: " U_FEFF "x\n\n", {.events = {message(U_FEFF "x", 0)}}},
          {"U+FEFF in data after a BOM", U_FEFF "data: " U_FEFF "\n\n", {.events = {message(U_FEFF, 3)}}},
          {"BOM then unterminated line", U_FEFF "data: x", {.diagnostics = {discarded(3, "data: x")}}},
      },
      exhaustive);
}

TEST(ByteOrderMark, PartialBomIsNotStrippedButDecoded) {
  run_options exhaustive;
  exhaustive.three_way_splits_up_to = 64;
  // At stream start a partial BOM can only be part of the first field name;
  // that unknown field line starts the block, hence event offsets of 0.
  run_cases(
      {
          {"EF BB then LF",
           "\xEF\xBB\ndata: x\n\n",
           {.events = {message("x", 0)}, .diagnostics = {{diag::unknown_field, 0, "\xEF\xBB"}}}},
          {"EF then LF",
           "\xEF\ndata: x\n\n",
           {.events = {message("x", 0)}, .diagnostics = {{diag::unknown_field, 0, "\xEF"}}}},
          {"EF BB then a field",
           "\xEF\xBB"
           "data: x\n\n",
           {.diagnostics = {{diag::unknown_field, 0,
                             "\xEF\xBB"
                             "data"}}}},
          {"EF BB then a whole BOM",
           "\xEF\xBB" U_FEFF "data: x\n\n",
           {.diagnostics = {{diag::unknown_field, 0, "\xEF\xBB" U_FEFF "data"}}}},
          {"BOM without its first byte",
           "\xBB\xBF"
           "data: x\n\n",
           {.diagnostics = {{diag::unknown_field, 0,
                             "\xBB\xBF"
                             "data"}}}},
          {"EF BB then a colon",
           "\xEF\xBB:x\ndata: y\n\n",
           {.events = {message("y", 0)}, .diagnostics = {{diag::unknown_field, 0, "\xEF\xBB"}}}},
          {"EF BB at end of stream", "\xEF\xBB", {.diagnostics = {discarded(0, "\xEF\xBB")}}},
          {"EF at end of stream", "\xEF", {.diagnostics = {discarded(0, "\xEF")}}},
          {"partial BOM in a data value",
           "data: \xEF\xBB"
           "x\n\n",
           {.events = {message(U_FFFD "x", 0)},
            .diagnostics = {{diag::invalid_utf8, 0,
                             "\xEF\xBB"
                             "x"}}}},
      },
      exhaustive);
}

// ---------------------------------------------------------------------------
// Line ends: "a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair,
// a single U+000A LINE FEED (LF) character not preceded by a U+000D CARRIAGE
// RETURN (CR) character, and a single U+000D CARRIAGE RETURN (CR) character
// not followed by a U+000A LINE FEED (LF) character".

TEST(LineEnds, CrlfLfAndLoneCrEachEndALine) {
  run_cases({
      {"CRLF", "data: a\r\n\r\n", {.events = {message("a", 0)}}},
      {"LF", "data: a\n\n", {.events = {message("a", 0)}}},
      {"lone CR", "data: a\r\r", {.events = {message("a", 0)}}},
      {"mixed within one event", "data: a\rdata: b\ndata: c\r\ndata: d\r\n\n", {.events = {message("a\nb\nc\nd", 0)}}},
      {"LF then CR is two line ends", "data: a\n\r", {.events = {message("a", 0)}}},
      {"CR then CRLF is two line ends", "data: a\r\r\ndata: b\r\r", {.events = {message("a", 0), message("b", 10)}}},
      {"mixed across events",
       "data: a\r\rdata: b\r\n\r\ndata: c\n\n",
       {.events = {message("a", 0), message("b", 9), message("c", 20)}}},
      {"mixed with a type", "event: x\r\ndata: 1\rdata: 2\n\r\n", {.events = {{"x", "1\n2", "", 0}}}},
      {"blank lines only", "\r\r\n\n\r", {}},
      {"leading LF", "\ndata: a\n\n", {.events = {message("a", 1)}}},
      {"leading CRLF", "\r\ndata: a\r\n\r\n", {.events = {message("a", 2)}}},
      {"leading CR", "\rdata: a\r\r", {.events = {message("a", 1)}}},
  });
}

TEST(LineEnds, CrlfIsOneLineEndEvenWhenSplitAcrossChunks) {
  // If CR|LF counted twice, the LF would be a blank line that dispatches "a"
  // alone; run_cases tries every split point, including between CR and LF.
  run_cases({
      {"CRLF inside an event", "data: a\r\ndata: b\r\n\r\n", {.events = {message("a\nb", 0)}}},
      {"CRLF after a field",
       "event: x\r\nid: 1\r\ndata: a\r\n\r\n",
       {.events = {{"x", "a", "1", 0}}, .last_event_id = "1"}},
      {"lone CR then a field", "data: a\rdata: b\r\r", {.events = {message("a\nb", 0)}}},
  });
}

TEST(LineEnds, CrCrIsTwoLineEnds) {
  run_cases({
      {"CR CR dispatches", "data: a\r\rdata: b\r\r", {.events = {message("a", 0), message("b", 9)}}},
      {"runs of CR dispatch once", "data: a\r\r\r\r\n\n", {.events = {message("a", 0)}}},
  });
}

TEST(LineEnds, CrAtEndOfStream) {
  run_cases({
      // The final CR ends the blank line, so the event is complete.
      {"CR CR at the end", "data: a\r\r", {.events = {message("a", 0)}}},
      // The final CR ends the field line, but no blank line follows.
      {"one CR at the end", "data: a\r", {.diagnostics = {discarded(0)}}},
      {"retry line ended by CR at the end", "retry: 5\r", {.retries = {5}, .diagnostics = {discarded(0)}}},
  });
}

// ---------------------------------------------------------------------------
// Comments: "If the line starts with a U+003A COLON character (:) Ignore the
// line." The parser reports the text after the colon, nothing stripped.

TEST(Comments, TextIsEverythingAfterTheColonUnstripped) {
  run_cases({
      {"plain", ":hello\n", {.comments = {{"hello", 0}}}},
      {"empty", ":\n", {.comments = {{"", 0}}}},
      {"leading space kept", ": data: x\n\n", {.comments = {{" data: x", 0}}}},
      {"looks like a field", ":data: x\ndata: y\n\n", {.events = {message("y", 9)}, .comments = {{"data: x", 0}}}},
      {"inside an event",
       "data: a\n: keep-alive\ndata: b\n\n",
       {.events = {message("a\nb", 0)}, .comments = {{" keep-alive", 8}}}},
      {"second colon kept", "::\n", {.comments = {{":", 0}}}},
      {"spaces on both sides kept", ":  two spaces \r\n", {.comments = {{"  two spaces ", 0}}}},
      {"tab kept", ":\tx\n", {.comments = {{"\tx", 0}}}},
      {"U+FEFF kept", ":" U_FEFF "\n", {.comments = {{U_FEFF, 0}}}},
      {"every line end", ":a\r:b\r\n:c\n", {.comments = {{"a", 0}, {"b", 3}, {"c", 7}}}},
      {"comment alone leaves nothing pending", ":x\n", {.comments = {{"x", 0}}}},
      {"unterminated comment is discarded", ":x", {.diagnostics = {discarded(0, ":x")}}},
  });
}

// ---------------------------------------------------------------------------
// Fields: "If the line contains a U+003A COLON character (:) Collect the
// characters on the line before the first U+003A COLON character (:), and let
// field be that string. Collect the characters on the line after the first
// U+003A COLON character (:), and let value be that string. If value starts
// with a U+0020 SPACE character, remove it from value. ... Otherwise, the
// string is not empty but does not contain a U+003A COLON character (:) ...
// using the whole line as the field name, and the empty string as the field
// value."

TEST(Fields, FieldWithoutColonHasAnEmptyValue) {
  run_cases({
      {"data alone", "data\n\n", {.events = {message("", 0)}}},
      {"data alone twice", "data\ndata\n\n", {.events = {message("\n", 0)}}},
      {"data alone then a value", "data\ndata: a\n\n", {.events = {message("\na", 0)}}},
      {"event alone", "event\ndata: a\n\n", {.events = {message("a", 0)}}},
  });
}

TEST(Fields, ExactlyOneLeadingSpaceIsStripped) {
  run_cases({
      {"no space", "data:a\n\n", {.events = {message("a", 0)}}},
      {"one space", "data: a\n\n", {.events = {message("a", 0)}}},
      {"two spaces keep one", "data:  a\n\n", {.events = {message(" a", 0)}}},
      {"only a space", "data: \n\n", {.events = {message("", 0)}}},
      {"only two spaces", "data:  \n\n", {.events = {message(" ", 0)}}},
      {"tab kept", "data:\ta\n\n", {.events = {message("\ta", 0)}}},
      {"space then tab keeps the tab", "data: \ta\n\n", {.events = {message("\ta", 0)}}},
      {"trailing space kept", "data:a \n\n", {.events = {message("a ", 0)}}},
      {"only the first colon splits", "data: a:b: c\n\n", {.events = {message("a:b: c", 0)}}},
      {"space before the colon is part of the name",
       "data :a\n\n",
       {.diagnostics = {{diag::unknown_field, 0, "data "}}}},
      {"leading space in the name", " data: a\n\n", {.diagnostics = {{diag::unknown_field, 0, " data"}}}},
      {"event value keeps its second space", "event:  x\ndata: a\n\n", {.events = {{" x", "a", "", 0}}}},
      {"id value keeps its second space", "id:  7\n\n", {.last_event_id = " 7"}},
  });
}

TEST(Fields, UnicodeLineSeparatorsNelVtAndFfAreNotLineEnds) {
  run_cases({
      {"all in one value",
       "data: 1\xE2\x80\xA8"
       "2\xE2\x80\xA9"
       "3\xC2\x85"
       "4\x0B"
       "5\x0C"
       "6\n\n",
       {.events = {message("1\xE2\x80\xA8"
                           "2\xE2\x80\xA9"
                           "3\xC2\x85"
                           "4\x0B"
                           "5\x0C"
                           "6",
                           0)}}},
      {"U+2028 before a field",
       "data: a\xE2\x80\xA8"
       "data: b\n\n",
       {.events = {message("a\xE2\x80\xA8"
                           "data: b",
                           0)}}},
      {"U+2029 before a field",
       "data: a\xE2\x80\xA9"
       "data: b\n\n",
       {.events = {message("a\xE2\x80\xA9"
                           "data: b",
                           0)}}},
      {"U+0085 before a field",
       "data: a\xC2\x85"
       "data: b\n\n",
       {.events = {message("a\xC2\x85"
                           "data: b",
                           0)}}},
      {"VT before a field",
       "data: a\x0B"
       "data: b\n\n",
       {.events = {message("a\x0B"
                           "data: b",
                           0)}}},
      {"FF before a field",
       "data: a\x0C"
       "data: b\n\n",
       {.events = {message("a\x0C"
                           "data: b",
                           0)}}},
      {"in an event type",
       "event: a\x0C"
       "b\ndata: x\n\n",
       {.events = {{"a\x0C"
                    "b",
                    "x", "", 0}}}},
      {"in a comment",
       ":a\xE2\x80\xA8"
       "b\n",
       {.comments = {{"a\xE2\x80\xA8"
                      "b",
                      0}}}},
      {"in a field name", "data\x0B: x\n\n", {.diagnostics = {{diag::unknown_field, 0, "data\x0B"}}}},
      {"NEL does not end a blank line",
       "data: a\n\xC2\x85\n",
       {.diagnostics = {{diag::unknown_field, 8, "\xC2\x85"}, discarded(0)}}},
  });
}

// ---------------------------------------------------------------------------
// data and dispatch: "Append the field value to the data buffer, then append a
// single U+000A LINE FEED (LF) character to the data buffer." Dispatch: "If
// the data buffer is an empty string, set the data buffer and the event type
// buffer to the empty string and return. If the data buffer's last character
// is a U+000A LINE FEED (LF) character, then remove the last character ...
// Initialize event's type attribute to "message"".

TEST(Data, ValuesAreJoinedWithLfAndOneTrailingLfIsRemoved) {
  run_cases({
      {"one line", "data: a\n\n", {.events = {message("a", 0)}}},
      {"two lines", "data: a\ndata: b\n\n", {.events = {message("a\nb", 0)}}},
      {"three lines", "data: a\ndata: b\ndata: c\n\n", {.events = {message("a\nb\nc", 0)}}},
      {"only one trailing LF removed", "data: a\ndata:\n\n", {.events = {message("a\n", 0)}}},
      {"two empty values", "data:\ndata:\n\n", {.events = {message("\n", 0)}}},
      {"empty value dispatches empty data", "data:\n\n", {.events = {message("", 0)}}},
      {"two events", "data: a\n\ndata: b\n\n", {.events = {message("a", 0), message("b", 9)}}},
      {"data after other fields",
       "event: e\nid: 1\ndata: d\n\n",
       {.events = {{"e", "d", "1", 0}}, .last_event_id = "1"}},
  });
}

TEST(Data, EmptyDataBufferDispatchesNothingButCommitsTheId) {
  run_cases({
      {"id only", "id: 1\n\n", {.last_event_id = "1"}},
      {"id then an event", "id: 1\n\ndata: a\n\n", {.events = {message("a", 7, "1")}, .last_event_id = "1"}},
      {"event after an id-only block",
       "data: a\n\nid: 1\n\ndata: b\n\n",
       {.events = {message("a", 0), message("b", 16, "1")}, .last_event_id = "1"}},
      {"type and id without data",
       "event: x\nid: 3\n\ndata: y\n\n",
       {.events = {message("y", 16, "3")}, .last_event_id = "3"}},
      {"blank lines alone", "\n\n\n", {}},
  });
}

TEST(Data, TypeDefaultsToMessageAndResetsAfterEveryDispatch) {
  run_cases({
      {"default", "data: a\n\n", {.events = {message("a", 0)}}},
      {"reset after a dispatch", "event: x\ndata: a\n\ndata: b\n\n", {.events = {{"x", "a", "", 0}, message("b", 18)}}},
      {"reset when nothing was dispatched", "event: x\n\ndata: a\n\n", {.events = {message("a", 10)}}},
      {"last event field wins", "event: x\nevent: y\ndata: a\n\n", {.events = {{"y", "a", "", 0}}}},
      {"event field after data", "data: a\nevent: x\n\n", {.events = {{"x", "a", "", 0}}}},
      {"empty event value means message", "event:\ndata: a\n\n", {.events = {message("a", 0)}}},
      {"explicit message", "event: message\ndata: a\n\n", {.events = {message("a", 0)}}},
      {"type is case-sensitive", "event: Message\ndata: a\n\n", {.events = {{"Message", "a", "", 0}}}},
      {"type keeps colons and spaces", "event: a b:c\ndata: x\n\n", {.events = {{"a b:c", "x", "", 0}}}},
  });
}

// ---------------------------------------------------------------------------
// id: "If the field value does not contain U+0000 NULL, then set the last
// event ID buffer to the field value. Otherwise, ignore the field." The buffer
// "does not get reset", so the id persists across events.

TEST(Id, PersistsAcrossEventsUntilChanged) {
  run_cases({
      {"persists",
       "id: 1\ndata: a\n\ndata: b\n\n",
       {.events = {message("a", 0, "1"), message("b", 15, "1")}, .last_event_id = "1"}},
      {"set inside the block", "data: a\nid: 2\n\n", {.events = {message("a", 0, "2")}, .last_event_id = "2"}},
      {"last id field wins", "id: 1\nid: 2\ndata: a\n\n", {.events = {message("a", 0, "2")}, .last_event_id = "2"}},
      {"spaces kept after the first", "id: 7 \n\n", {.last_event_id = "7 "}},
      {"non-ASCII id",
       "id: \xE2\x82\xAC\ndata: x\n\n",
       {.events = {message("x", 0, "\xE2\x82\xAC")}, .last_event_id = "\xE2\x82\xAC"}},
  });
}

TEST(Id, EmptyIdResetsToEmptyString) {
  run_cases({
      {"bare id",
       "id: 1\ndata: a\n\nid\ndata: b\n\n",
       {.events = {message("a", 0, "1"), message("b", 15)}, .last_event_id = ""}},
      {"id with colon and nothing",
       "id: 1\ndata: a\n\nid:\ndata: b\n\n",
       {.events = {message("a", 0, "1"), message("b", 15)}, .last_event_id = ""}},
      {"id with colon and one space", "id: 1\n\nid: \n\n", {.last_event_id = ""}},
  });
}

TEST(Id, IdContainingNulIsIgnored) {
  run_cases({
      {"NUL inside",
       "id: a\0b\ndata: x\n\n"s,
       {.events = {message("x", 0)}, .diagnostics = {{diag::id_has_nul, 0, "a\0b"s}}}},
      {"previous id kept",
       "id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n"s,
       {.events = {message("a", 0, "1"), message("b", 15, "1")},
        .diagnostics = {{diag::id_has_nul, 15, "2\0"s}},
        .last_event_id = "1"}},
      {"NUL alone", "id: 1\n\nid: \0\n\n"s, {.diagnostics = {{diag::id_has_nul, 7, "\0"s}}, .last_event_id = "1"}},
  });
}

// ---------------------------------------------------------------------------
// retry: "If the field value consists of only ASCII digits, then interpret the
// field value as an integer in base ten, and set the event stream's
// reconnection time to that integer. Otherwise, ignore the field."

struct retry_case {
  std::string value;                // what follows "retry:"
  std::optional<std::uint64_t> ms;  // set when valid
  std::optional<diag> rejection;    // set when ignored
  std::string rejected_value = {};  // the value after the one stripped space
};

TEST(Retry, OnlyAsciiDigitsSetTheReconnectionTime) {
  const std::vector<retry_case> cases = {
      {" 3000", 3000, {}},
      {" 0", 0, {}},
      {"5", 5, {}},
      {" 007", 7, {}},
      {" 18446744073709551615", 18446744073709551615ULL, {}},
      {" 0000000000000000000000000018446744073709551615", 18446744073709551615ULL, {}},
      {"", {}, diag::invalid_retry, ""},
      {" ", {}, diag::invalid_retry, ""},
      {" 1a", {}, diag::invalid_retry, "1a"},
      {"  1", {}, diag::invalid_retry, " 1"},
      {" 1 ", {}, diag::invalid_retry, "1 "},
      {" -1", {}, diag::invalid_retry, "-1"},
      {" +1", {}, diag::invalid_retry, "+1"},
      {" 1.5", {}, diag::invalid_retry, "1.5"},
      {" 1e3", {}, diag::invalid_retry, "1e3"},
      {" 0x10", {}, diag::invalid_retry, "0x10"},
      {"\t1", {}, diag::invalid_retry, "\t1"},
      {" \xD9\xA1", {}, diag::invalid_retry, "\xD9\xA1"},  // ARABIC-INDIC DIGIT ONE is not an ASCII digit
      {" 18446744073709551616", {}, diag::retry_out_of_range, "18446744073709551616"},
      {" 99999999999999999999999", {}, diag::retry_out_of_range, "99999999999999999999999"},
  };
  std::vector<parse_case> parse_cases;
  for (const auto& c : cases) {
    outcome expected;
    if (c.ms) expected.retries = {*c.ms};
    if (c.rejection) expected.diagnostics = {{*c.rejection, 0, c.rejected_value}};
    parse_cases.push_back({"retry:" + sse_test::escape(c.value), "retry:" + c.value + "\n\n", expected});
  }
  parse_cases.push_back({"field without colon", "retry\n\n", {.diagnostics = {{diag::invalid_retry, 0, ""}}}});
  run_cases(parse_cases);
}

TEST(Retry, InvalidValuesKeepThePreviousTimeAndRetryNeedsNoBlankLine) {
  run_cases({
      {"sequence",
       "retry: 1\n\nretry: x\n\nretry: 2\n\n",
       {.retries = {1, 2}, .diagnostics = {{diag::invalid_retry, 10, "x"}}}},
      {"invalid after valid in one block",
       "retry: 5\nretry: x\n\n",
       {.retries = {5}, .diagnostics = {{diag::invalid_retry, 9, "x"}}}},
      {"inside an event", "retry: 10\ndata: a\n\n", {.events = {message("a", 0)}, .retries = {10}}},
      // Lines are processed as received: the retry applies though its block
      // is never dispatched.
      {"in a block cut off by the end", "retry: 5\n", {.retries = {5}, .diagnostics = {discarded(0)}}},
      {"unterminated retry line is discarded", "retry: 5", {.diagnostics = {discarded(0, "retry: 5")}}},
  });
}

// ---------------------------------------------------------------------------
// "Otherwise: The field is ignored." Field names are compared exactly.

TEST(UnknownFields, AreIgnoredAndNamesAreCaseSensitive) {
  run_cases({
      {"Data", "Data: a\n\n", {.diagnostics = {{diag::unknown_field, 0, "Data"}}}},
      {"DATA", "DATA: a\n\n", {.diagnostics = {{diag::unknown_field, 0, "DATA"}}}},
      {"EVENT",
       "EVENT: x\ndata: a\n\n",
       {.events = {message("a", 0)}, .diagnostics = {{diag::unknown_field, 0, "EVENT"}}}},
      {"ID", "ID: 5\ndata: a\n\n", {.events = {message("a", 0)}, .diagnostics = {{diag::unknown_field, 0, "ID"}}}},
      {"Retry", "Retry: 5\n\n", {.diagnostics = {{diag::unknown_field, 0, "Retry"}}}},
      {"other name", "foo: bar\n\n", {.diagnostics = {{diag::unknown_field, 0, "foo"}}}},
      {"other name without colon", "foo\n\n", {.diagnostics = {{diag::unknown_field, 0, "foo"}}}},
      {"prefix of data", "dat: a\n\n", {.diagnostics = {{diag::unknown_field, 0, "dat"}}}},
      {"data with a suffix", "datum: a\n\n", {.diagnostics = {{diag::unknown_field, 0, "datum"}}}},
      {"inside an event",
       "data: a\nfoo: b\ndata: c\n\n",
       {.events = {message("a\nc", 0)}, .diagnostics = {{diag::unknown_field, 8, "foo"}}}},
  });
}

TEST(Nul, KeptInDataAndAFieldNameWithNulIsUnknown) {
  run_cases({
      {"NUL in data", "data: a\0b\n\n"s, {.events = {message("a\0b"s, 0)}}},
      {"NUL alone in data", "data: \0\n\n"s, {.events = {message("\0"s, 0)}}},
      {"NUL in an event type", "event: \0\ndata: x\n\n"s, {.events = {{"\0"s, "x", "", 0}}}},
      {"NUL in a comment", ":\0\n"s, {.comments = {{"\0"s, 0}}}},
      {"NUL in a field name", "da\0ta: x\n\n"s, {.diagnostics = {{diag::unknown_field, 0, "da\0ta"s}}}},
      {"NUL as a field name", "\0\n\n"s, {.diagnostics = {{diag::unknown_field, 0, "\0"s}}}},
  });
}

// ---------------------------------------------------------------------------
// "If the line is empty (a blank line) Dispatch the event".

TEST(BlankLines, DispatchAndRunsOfBlankLinesDispatchOnce) {
  run_cases({
      {"run between events", "data: a\n\n\n\ndata: b\n\n", {.events = {message("a", 0), message("b", 11)}}},
      {"runs only", "\n\n\n\r\n\r", {}},
      {"block with a type only", "event: x\n\n", {}},
      {"block with a retry only", "retry: 1\n\n", {.retries = {1}}},
      {"block with an unknown field only", "foo\n\n", {.diagnostics = {{diag::unknown_field, 0, "foo"}}}},
  });
}

// ---------------------------------------------------------------------------
// End of stream: "Once the end of the file is reached, any pending data must be
// discarded. (If the file ends in the middle of an event, before the final
// empty line, the incomplete event is not dispatched.)"

TEST(EndOfStream, IncompleteEventIsDiscarded) {
  run_cases({
      {"empty stream", "", {}},
      {"field line without blank line", "data: a\n", {.diagnostics = {discarded(0)}}},
      {"unterminated line", "data: a", {.diagnostics = {discarded(0, "data: a")}}},
      {"after an event", "data: a\n\ndata: b", {.events = {message("a", 0)}, .diagnostics = {discarded(9, "data: b")}}},
      {"block offset and the partial line",
       "data: a\n\ndata: b\ndata: c",
       {.events = {message("a", 0)}, .diagnostics = {discarded(9, "data: c")}}},
      {"comment after the last event",
       "data: a\n\n:c",
       {.events = {message("a", 0)}, .diagnostics = {discarded(9, ":c")}}},
      {"comment before a cut-off block", ":c\ndata: a\n", {.comments = {{"c", 0}}, .diagnostics = {discarded(3)}}},
  });
}

TEST(EndOfStream, IdOfADiscardedEventIsNotCommitted) {
  run_cases({
      {"id only", "id: 1\n", {.diagnostics = {discarded(0)}, .last_event_id = ""}},
      {"after an event",
       "id: 1\ndata: a\n\nid: 2\ndata: b\n",
       {.events = {message("a", 0, "1")}, .diagnostics = {discarded(15)}, .last_event_id = "1"}},
      {"unterminated id line",
       "id: 1\ndata: a\n\nid: 2",
       {.events = {message("a", 0, "1")}, .diagnostics = {discarded(15, "id: 2")}, .last_event_id = "1"}},
  });
}

// ---------------------------------------------------------------------------
// event_view::offset is the stream offset of the block's first field line:
// comments and blank lines before it do not count; the BOM does.

TEST(Offsets, EventOffsetIsTheFirstFieldLineOfTheBlock) {
  run_cases({
      {"comment before the block", ":c\ndata: a\n\n", {.events = {message("a", 3)}, .comments = {{"c", 0}}}},
      {"comment inside the block",
       "data: a\n:c\ndata: b\n\n",
       {.events = {message("a\nb", 0)}, .comments = {{"c", 8}}}},
      {"retry starts the block", "retry: 1\ndata: a\n\n", {.events = {message("a", 0)}, .retries = {1}}},
      {"unknown field starts the block",
       "foo\ndata: a\n\n",
       {.events = {message("a", 0)}, .diagnostics = {{diag::unknown_field, 0, "foo"}}}},
      {"after an empty dispatch", "id: 1\n\ndata: a\n\n", {.events = {message("a", 7, "1")}, .last_event_id = "1"}},
      {"after the BOM and CRLF lines",
       U_FEFF "\r\n:c\r\ndata: a\r\n\r\ndata: b\r\n\r\n",
       {.events = {message("a", 9), message("b", 20)}, .comments = {{"c", 5}}}},
  });
}

TEST(Offsets, MixedStreamKeepsEveryOffsetUnderEveryChunking) {
  const std::string input = U_FEFF
      ":hi\r\n"
      "event: a\r"
      "data: 1\n"
      "data:  2\r\n"
      "id: x\n"
      "\r\n"
      "retry: 1000\n"
      "foo: bar\n"
      "data\n"
      "\n"
      "data: \xC3\xA9\xE2\x82\n"
      "\r"
      ":end";
  sse_test::expect_same_under_all_chunkings(
      input, {.events = {{"a", "1\n 2", "x", 8}, message("", 43, "x"), message("\xC3\xA9" U_FFFD, 70, "x")},
              .retries = {1000},
              .comments = {{"hi", 3}},
              .diagnostics = {{diag::unknown_field, 55, "foo"},
                              {diag::invalid_utf8, 70, "\xC3\xA9\xE2\x82"},
                              discarded(82, ":end")},
              .last_event_id = "x"});
}

}  // namespace
