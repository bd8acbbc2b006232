// SPDX-License-Identifier: MIT
// The stream validator fed in pieces: frame blocks across pieces and line ends,
// and the same report as validate_stream however the stream is fed.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"
#include "validator_test_support.hpp"

namespace {

using validator_test_support::agent_ok;
using validator_test_support::chat_ok;
using validator_test_support::describe;
using validator_test_support::dialect;
using validator_test_support::f;
using validator_test_support::rules_broken;
using validator_test_support::workflow_ok;

// Fed piece by piece, at any piece size, the stream validator finds what
// validate_stream finds on the whole stream, and a sample cut anywhere in a
// conforming stream breaks no rule, in every dialect (the end-of-stream rules
// are not run on it).
TEST(validator, the_stream_validator_agrees_with_the_whole_stream_and_samples_break_nothing) {
  const std::pair<const char*, const std::string*> streams[] = {
      {"chat", &chat_ok}, {"workflow", &workflow_ok}, {"agent", &agent_ok}};
  for (const auto& [name, stream] : streams) {
    const auto whole = sse::dialect::validate_stream(dialect(name), *stream);
    EXPECT_EQ(whole.must + whole.should, 0u) << name << describe(whole);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
      sse::dialect::stream_validator v(dialect(name));
      for (std::size_t at = 0; at < stream->size(); at += piece) v.feed(std::string_view(*stream).substr(at, piece));
      const auto fed = v.finish();
      EXPECT_EQ(fed.frames, whole.frames) << name;
      EXPECT_EQ(fed.must + fed.should, 0u) << name << " pieces of " << piece << describe(fed);
    }
    for (std::size_t cut = 0; cut <= stream->size(); ++cut) {
      const auto sample = sse::dialect::validate_stream(dialect(name), std::string_view(*stream).substr(0, cut), {},
                                                        std::nullopt, false);
      EXPECT_EQ(sample.must + sample.should, 0u) << name << " cut at " << cut << describe(sample);
    }
  }
}

// Block checks need the frame's bytes: the stream validator keeps the frame
// in progress across pieces (a CR line end split from its LF included).
TEST(validator, the_stream_validator_keeps_blocks_across_pieces) {
  const std::string crlf = "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\r\n\r\n";
  const auto whole = sse::dialect::validate_stream(dialect("agent"), crlf);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-LF")) << describe(whole);
  sse::dialect::stream_validator v(dialect("agent"));
  for (const char c : crlf) v.feed(std::string_view(&c, 1));
  EXPECT_EQ(rules_broken(v.finish()), rules_broken(whole));
}

// The stream validator finds frame boundaries from line end to line end: with
// LF, CRLF and CR line ends, blank lines of each kind, comments and fields
// other than data, every finding (rule, frame, byte) is the same fed whole,
// byte by byte and in seeded random pieces. (What was seen is not compared: a
// frame is judged when the CR of its blank line arrives, so fed in pieces its
// excerpt can lack the LF after that CR.)
TEST(validator, the_stream_validator_finds_blocks_under_every_chunking) {
  const std::string r1 = R"({"type":"run_started","runId":"r1"})";
  const std::string chunk_frame = R"({"type":"message_chunk","runId":"r1","stepId":"s1","content":"x"})";
  const std::string stream = "data: " + r1 + "\r\n\r\n" + ": a comment\n\n" + "data: " + chunk_frame + "\r\r" +
                             "event: chunk\ndata: " + chunk_frame + "\n\n" + "data:" + chunk_frame + "\r\n\n" +
                             "id: 7\r\ndata: " + chunk_frame + "\n\r\n" + "\r\n\n\r" + "data: " + chunk_frame +
                             "\r\n\r\n" + "data: " + R"({"type":"done","runId":"r1"})" + "\n\n";
  const auto findings_of = [](const sse::dialect::validation_report& r) {
    std::vector<std::string> out;
    for (const auto& x : r.findings)
      out.push_back(x.rule->id + " frame " + std::to_string(x.frame) + " byte " + std::to_string(x.offset));
    return out;
  };
  const auto whole = sse::dialect::validate_stream(dialect("agent"), stream);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-LF")) << describe(whole);
  ASSERT_TRUE(rules_broken(whole).contains("AGENT-FRAME-DATA-ONLY")) << describe(whole);
  const auto fed = [&](const std::vector<std::string_view>& pieces) {
    sse::dialect::stream_validator v(dialect("agent"));
    for (const auto piece : pieces) v.feed(piece);
    return findings_of(v.finish());
  };
  EXPECT_EQ(fed(sse::chunking::bytes(stream)), findings_of(whole));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    EXPECT_EQ(fed(sse::chunking::random(stream, seed)), findings_of(whole)) << "seed " << seed;
  }
}

// Every member of a report and every finding's text, to compare two reports.
std::string report_text(const sse::dialect::validation_report& r) {
  std::string out = std::to_string(r.frames) + " frames, " + std::to_string(r.bytes) + " bytes, must " +
                    std::to_string(r.must) + ", should " + std::to_string(r.should) + ", decision " +
                    std::to_string(r.decision) + ", not shown " + std::to_string(r.not_shown) + ", wire " +
                    std::string(sse::to_string(r.wire_status)) + " at " + std::to_string(r.wire_error_offset) +
                    (r.end_graded ? ", graded\n" : ", not graded\n");
  for (const auto& x : r.findings) out += sse::dialect::to_json(x).dump() + "\n";
  return out;
}

// validate_pieces (check's producer rules over the reads of a live stream)
// gives validate_stream's report of the concatenation, every member and
// every finding's text: whole, byte by byte and in seeded random pieces, on
// streams past the validator's 1 MiB slices, whose frames break rules and
// whose blank lines (CR, CRLF, LF) fall on slice and piece boundaries.
TEST(validator, validate_pieces_is_validate_stream_of_the_concatenation) {
  const std::string ends[] = {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n"};
  for (std::uint64_t stream_seed = 1; stream_seed <= 3; ++stream_seed) {
    sse::chunking::splitmix64 rng(stream_seed);
    std::string stream = f(R"({"type":"run_started","runId":"r1"})");
    std::size_t sequence = 0;
    while (stream.size() < (std::size_t{5} << 19)) {  // 2.5 MiB: three slices
      const std::uint64_t pick = rng.next() % 16;
      const std::string end = ends[rng.next() % 4];
      if (pick == 0) stream += "data: not json" + end;
      else if (pick == 1) stream += ": a comment" + end;
      else if (pick == 2) stream += "data: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s9\"}" + end;
      else
        stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r" + std::to_string(pick % 3) +
                  "\",\"stepId\":\"s1\",\"content\":\"" + std::string(rng.next() % 300, 'x') +
                  "\",\"sequence\":" + std::to_string(sequence++) + "}" + end;
    }
    stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r1\"";  // cut off: an end-of-stream finding
    for (const bool read_to_end : {true, false}) {
      const std::string whole =
          report_text(sse::dialect::validate_stream(dialect("agent"), stream, {}, std::nullopt, read_to_end));
      const auto pieces_text = [&](const std::vector<std::string_view>& pieces) {
        return report_text(sse::dialect::validate_pieces(dialect("agent"), pieces, {}, std::nullopt, read_to_end));
      };
      EXPECT_EQ(pieces_text({stream}), whole);
      EXPECT_EQ(pieces_text(sse::chunking::fixed(stream, 65536)), whole);
      EXPECT_EQ(pieces_text(sse::chunking::fixed(stream, 1000003)), whole);
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        EXPECT_EQ(pieces_text(sse::chunking::random(stream, seed)), whole) << "seed " << seed;
      }
    }
    if (stream_seed == 1) {
      EXPECT_EQ(report_text(sse::dialect::validate_pieces(dialect("agent"), sse::chunking::bytes(stream))),
                report_text(sse::dialect::validate_stream(dialect("agent"), stream)));
    }
  }
}

// A stream_validator's report does not hang on where its feeds stop, which
// `check` (each read as it comes) and `validate` (64 KiB reads) rely on to
// give validate_stream's report. Two things would otherwise depend on it: a
// frame whose blank line ends in CR at the end of a feed (held back until the
// next byte says whether an LF follows, so its block and the line ends it
// names are the same), and a block longer than what is kept (its start cut
// only at each MiB of the stream, not at the end of a feed). Here: small
// limits (768 bytes kept), blocks of unread fields' lines past that across the
// 1 MiB slices, CR, CRLF and LF line ends, fed whole, in fixed and seeded
// random pieces.
TEST(validator, a_stream_validator_reports_the_same_however_it_is_fed) {
  sse::limits lim;
  lim.max_line = 256;
  lim.max_event_data = 512;
  const auto fed = [&](const std::vector<std::string_view>& pieces, bool read_to_end) {
    sse::dialect::stream_validator v(dialect("agent"), lim);
    for (const auto piece : pieces) v.feed(piece);
    return report_text(v.finish(read_to_end));
  };
  // The smallest case of each: the LF of a CRLF blank line in the next feed.
  const std::string crlf_blank = "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\r\r\n";
  EXPECT_EQ(fed({std::string_view(crlf_blank).substr(0, crlf_blank.size() - 1),
                 std::string_view(crlf_blank).substr(crlf_blank.size() - 1)},
                true),
            report_text(sse::dialect::validate_stream(dialect("agent"), crlf_blank, lim)));
  EXPECT_NE(fed({crlf_blank}, true).find("CRLF line ends"), std::string::npos) << fed({crlf_blank}, true);

  const std::string ends[] = {"\n\n", "\r\n\r\n", "\r\r", "\n\r\n", "\r\r\n"};
  sse::chunking::splitmix64 rng(7);
  std::string stream;
  std::size_t overlong = 0;
  while (stream.size() < (std::size_t{5} << 19)) {  // 2.5 MiB: three slices
    const std::string end = ends[rng.next() % 5];
    const std::uint64_t pick = rng.next() % 8;
    if (pick == 0) {
      // A block longer than what is kept: lines of a field no client reads
      // (comments start no block), then a frame's line.
      const std::size_t lines = 4 + rng.next() % 12;
      for (std::size_t i = 0; i < lines; ++i) stream += "pad: " + std::string(100 + rng.next() % 150, 'c') + "\r\n";
      stream += "data:{\"type\":\"run_started\"}" + end;
      ++overlong;
    } else if (pick == 1) {
      stream += "event: x\rdata: not json" + end;
    } else {
      stream += "data: {\"type\":\"message_chunk\",\"runId\":\"r1\",\"stepId\":\"s1\",\"content\":\"" +
                std::string(rng.next() % 150, 'x') + "\"}" + end;
    }
  }
  ASSERT_GT(overlong, 500u);
  for (const bool read_to_end : {true, false}) {
    const std::string whole =
        report_text(sse::dialect::validate_stream(dialect("agent"), stream, lim, std::nullopt, read_to_end));
    EXPECT_EQ(fed({stream}, read_to_end), whole);
    EXPECT_EQ(fed(sse::chunking::fixed(stream, 65536), read_to_end), whole);
    EXPECT_EQ(fed(sse::chunking::fixed(stream, 4093), read_to_end), whole);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      EXPECT_EQ(fed(sse::chunking::random(stream, seed), read_to_end), whole) << "seed " << seed;
    }
  }
}

// findings() (check's "as it arrives" lines) has a frame's findings once its
// blank line has arrived, fed byte by byte; a blank line ending in CR, once
// the next byte shows whether an LF belongs to it, or at finish. The end's
// rules wait for finish.
TEST(validator, a_frames_findings_are_stored_once_its_blank_line_is_known) {
  const std::string ok = f(R"({"type":"run_started","runId":"r1"})");
  const std::string bad = R"(data: {"type":"message_chunk","content":"Hi","stepId":"s1"})";
  for (const std::string end : {"\n\n", "\r\r"}) {
    for (const bool more : {true, false}) {
      const std::string stream = ok + bad + end + (more ? ok : "");
      sse::dialect::stream_validator v(dialect("agent"));
      std::size_t found_at = 0;
      for (std::size_t i = 0; i < stream.size() && found_at == 0; ++i) {
        v.feed(std::string_view(stream).substr(i, 1));
        if (!v.findings().empty()) found_at = i + 1;
      }
      const std::size_t frame_end = ok.size() + bad.size() + end.size();
      if (end == "\n\n") EXPECT_EQ(found_at, frame_end);
      else EXPECT_EQ(found_at, more ? frame_end + 1 : 0) << "a CR at the end waits for finish";
      for (const auto& x : v.findings()) EXPECT_NE(x.rule->id, "AGENT-DONE-LAST");
      const auto report = v.finish();
      std::set<std::string> rules;
      for (const auto& x : report.findings) {
        rules.insert(x.rule->id);
        if (x.rule->id != "AGENT-DONE-LAST") {
          EXPECT_EQ(x.frame, 1u);
          EXPECT_EQ(x.offset, ok.size());
        }
      }
      EXPECT_TRUE(rules.contains("AGENT-RUNID-PRESENT")) << describe(report);
      EXPECT_TRUE(rules.contains("AGENT-DONE-LAST")) << describe(report);
    }
  }
}

// block_at: the frame's lines through the blank line, whatever the line ends.
TEST(validator, block_at) {
  EXPECT_EQ(sse::dialect::block_at("data: a\n\ndata: b\n\n", 0), "data: a\n\n");
  EXPECT_EQ(sse::dialect::block_at("data: a\n\ndata: b\n\n", 9), "data: b\n\n");
  EXPECT_EQ(sse::dialect::block_at("id: 1\r\ndata: a\r\n\r\nx", 0), "id: 1\r\ndata: a\r\n\r\n");
  EXPECT_EQ(sse::dialect::block_at("data: a\r\rdata: b", 0), "data: a\r\r");
  EXPECT_EQ(sse::dialect::block_at("data: a", 0), "data: a");
  EXPECT_EQ(sse::dialect::block_at("abc", 7), "");
}

}  // namespace
