// SPDX-License-Identifier: MIT
// What the validator reports for single frames and the stream's end: where a finding points,
// and the readings of the documents in spec/DECISIONS.md.
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sse/chunking.hpp"
#include "sse/dialect/validator.hpp"
#include "validator_test_support.hpp"

namespace {

using validator_test_support::agent;
using validator_test_support::agent_ok;
using validator_test_support::chat_ok;
using validator_test_support::chunk;
using validator_test_support::describe;
using validator_test_support::dialect;
using validator_test_support::f;
using validator_test_support::rules_broken;
using validator_test_support::run_started;

// Where a finding points: frame index and byte offset of the frame's block.
TEST(validator, findings_name_frame_and_offset) {
  const std::string first = f(R"({"type":"run_started","runId":"r1"})");
  const std::string second = f(R"({"type":"message_chunk","runId":"r1","stepId":"s1"})");  // no content
  const std::string stream = first + ": comment\n\n" + second;
  const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
  ASSERT_EQ(report.frames, 2u);
  std::map<std::string, sse::dialect::finding> by_rule;
  for (const auto& fnd : report.findings) by_rule.emplace(fnd.rule->id, fnd);
  ASSERT_TRUE(by_rule.contains("AGENT-FIELD-REQUIRED")) << describe(report);
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].frame, 1u);
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].offset, first.size() + std::string(": comment\n\n").size());
  EXPECT_EQ(by_rule["AGENT-FIELD-REQUIRED"].seen, "no content");
  // End-of-stream findings point past the last frame.
  ASSERT_TRUE(by_rule.contains("AGENT-DONE-LAST"));
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].frame, 2u);
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].offset, stream.size());
  EXPECT_EQ(by_rule["AGENT-DONE-LAST"].seen, "the stream ends after a message_chunk frame");
  EXPECT_FALSE(report.conforming());
}

// spec/DECISIONS.md, frames-after-done: every frame after done is reported, the first at its own offset.
TEST(validator, frames_after_done) {
  const std::string stream = agent_ok + chunk + chunk;
  const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
  std::vector<std::uint64_t> offsets;
  for (const auto& fnd : report.findings) {
    if (fnd.rule->id == "AGENT-DONE-LAST") offsets.push_back(fnd.offset);
  }
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{agent_ok.size(), agent_ok.size() + chunk.size()}));
  // Frames are numbered from 1 in the text, as the reports number them.
  for (const auto& fnd : report.findings) {
    if (fnd.rule->id == "AGENT-DONE-LAST") {
      EXPECT_NE(fnd.expected.find("of frame " + std::to_string(report.frames - 2)), std::string::npos) << fnd.expected;
    }
  }
}

// An empty agent stream has no done.
TEST(validator, empty_stream) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), "");
  EXPECT_EQ(rules_broken(report), (std::set<std::string>{"AGENT-DONE-LAST"}));
  EXPECT_EQ(report.findings.front().seen, "an empty stream");
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("chat"), "").findings.empty());
}

// The documents' own example streams (agent:12-16) keep every MUST rule.
TEST(validator, document_examples) {
  const std::string example =
      "data: {\"type\":\"run_started\",\"runId\":\"clx...\"}\n\n"
      "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"clx...\",\"stepId\":\"stp...\"}\n\n"
      "data: {\"type\":\"done\",\"runId\":\"clx...\"}\n\n";
  const auto report = sse::dialect::validate_stream(dialect("agent"), example);
  EXPECT_TRUE(report.findings.empty()) << describe(report);
}

// Comments and blank lines after done are not frames (spec/DECISIONS.md, frames-after-done).
TEST(validator, comments_after_done_are_fine) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent_ok + ": bye\n\n\n");
  EXPECT_TRUE(report.findings.empty()) << describe(report);
  // An unterminated comment at the end is not a cut frame either.
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("agent"), agent_ok + ": bye").findings.empty());
}

// The forbidden `id` on a question is reported once, as the interchange rule.
TEST(validator, question_with_id_instead_of_tool_call_id) {
  const auto report =
      sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"question","id":"c1","data":{}})"));
  EXPECT_EQ(rules_broken(report),
            (std::set<std::string>{"CHAT-APPROVAL-QUESTION-DISTINCT", "CHAT-QUESTION-TOOLCALLID"}))
      << describe(report);
}

// A key variant beside the mapped key loses nothing (the frontend maps the
// exact key, which is there): an extra field, so CHAT-FIELD-UNDECLARED (should),
// not CHAT-KEY-CASING (must). Instead of the mapped key it is the MUST
// (spec/DECISIONS.md, chat-key-casing).
TEST(validator, key_variant_beside_the_mapped_key_is_an_undeclared_field) {
  const auto beside =
      sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"content","text":"a","Text":"a"})"));
  EXPECT_EQ(rules_broken(beside), (std::set<std::string>{"CHAT-FIELD-UNDECLARED"})) << describe(beside);
  EXPECT_TRUE(beside.conforming()) << describe(beside);
  const auto instead = sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"type":"content","Text":"a"})"));
  EXPECT_EQ(rules_broken(instead), (std::set<std::string>{"CHAT-KEY-CASING", "CHAT-FIELD-REQUIRED"}))
      << describe(instead);
  EXPECT_FALSE(instead.conforming());
}

// Each finding as "RULE severity frame N byte M": which rule, how grave, and where.
std::vector<std::string> located(const sse::dialect::validation_report& r) {
  std::vector<std::string> out;
  for (const auto& x : r.findings) {
    out.push_back(x.rule->id + " " + std::string(sse::dialect::to_string(x.rule->level)) + " frame " +
                  std::to_string(x.frame) + " byte " + std::to_string(x.offset));
  }
  return out;
}

// located() of `stream` fed to a stream validator whole, byte by byte and in
// seeded random pieces: the same every way (a test failure otherwise).
std::vector<std::string> located_under_every_chunking(const sse::dialect::dialect_spec& d, const std::string& stream) {
  const auto fed = [&](const std::vector<std::string_view>& pieces) {
    sse::dialect::stream_validator v(d);
    for (const auto piece : pieces) v.feed(piece);
    return located(v.finish());
  };
  auto whole = located(sse::dialect::validate_stream(d, stream));
  EXPECT_EQ(fed(sse::chunking::whole(stream)), whole);
  EXPECT_EQ(fed(sse::chunking::bytes(stream)), whole) << "byte by byte";
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    EXPECT_EQ(fed(sse::chunking::random(stream, seed)), whole) << "seed " << seed;
  }
  return whole;
}

const std::string run_done = f(R"({"type":"done","runId":"r1"})");

const std::string chunk_json = R"({"type":"message_chunk","content":"Hi","runId":"r1","stepId":"s1"})";

// agent:8: a frame is `data: ` and its JSON object. A line under any other
// field name is ignored by every reader (WHATWG compares names literally), so
// a frame made of one is dispatched by none: AGENT-FRAME-DATA-NAME (must) at
// the line, with the index the frame would have had (the next frame's). In a
// frame that is dispatched, the line is that rule's too, not DATA-ONLY's.
// Blocks of comments or known fields alone carry no event and are no frames
// (spec/DECISIONS.md, agent-frame-data-name, agent-frame-data-only).
TEST(validator, a_data_line_under_another_field_name_is_a_lost_frame) {
  const std::string at = std::to_string(run_started.size());
  for (const std::string& line : {"Data: " + chunk_json, "DATA:" + chunk_json, "data : " + chunk_json,
                                  " data: " + chunk_json, "dta: " + chunk_json, chunk_json}) {
    const std::string stream = run_started + line + "\n\n" + run_done;
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), stream),
              (std::vector<std::string>{"AGENT-FRAME-DATA-NAME must frame 1 byte " + at}))
        << line;
    const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
    EXPECT_EQ(report.frames, 2u) << line;
    EXPECT_FALSE(report.conforming()) << line;
    ASSERT_EQ(report.findings.size(), 1u);
    EXPECT_NE(report.findings.front().seen.find("which every reader ignores"), std::string::npos)
        << report.findings.front().seen;
  }
  // Beside the frame's data line: only the misnamed line's rule, at that line.
  const std::string data_line = "data: " + chunk_json + "\n";
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + data_line + "Data: more\n\n" + run_done),
            (std::vector<std::string>{"AGENT-FRAME-DATA-NAME must frame 1 byte " +
                                      std::to_string(run_started.size() + data_line.size())}));
  // With an id line as well: that one is DATA-ONLY's, at the frame's block.
  EXPECT_EQ(
      located_under_every_chunking(dialect("agent"), run_started + data_line + "id: 7\nData: more\n\n" + run_done),
      (std::vector<std::string>{
          "AGENT-FRAME-DATA-NAME must frame 1 byte " + std::to_string(run_started.size() + data_line.size() + 6),
          "AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}));
  // Kept: a keepalive comment, a retry, an id and an event type, each a block
  // of its own, dispatch nothing and lose nothing.
  EXPECT_TRUE(located_under_every_chunking(dialect("agent"), run_started + ": keepalive\n\nretry: 1000\n\nid: 3\n\n" +
                                                                 "event: ping\n\n" + run_done + ": bye\n\n")
                  .empty());
}

// agent:8 read once for every line of a frame: an id, event, retry or comment
// line beside the data line breaks it as a second data line does (both MUST,
// spec/DECISIONS.md, agent-frame-data-only), at the frame's block. A comment
// before the frame's first field line starts no block and is not judged.
TEST(validator, a_line_beside_the_data_line_is_a_must_finding) {
  const std::string at = std::to_string(run_started.size());
  const std::string data_line = "data: " + chunk_json + "\n";
  for (const std::string extra : {"id: 7", "event: chunk", "retry: 1000", ": note"}) {
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + data_line + extra + "\n\n" + run_done),
              (std::vector<std::string>{"AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}))
        << extra << " after the data line";
  }
  for (const std::string extra : {"id: 7", "event: chunk", "retry: 1000"}) {
    EXPECT_EQ(located_under_every_chunking(dialect("agent"), run_started + extra + "\n" + data_line + "\n" + run_done),
              (std::vector<std::string>{"AGENT-FRAME-DATA-ONLY must frame 1 byte " + at}))
        << extra << " before the data line";
  }
  EXPECT_TRUE(
      located_under_every_chunking(dialect("agent"), run_started + ": note\n" + data_line + "\n" + run_done).empty());
  const auto report =
      sse::dialect::validate_stream(dialect("agent"), run_started + "id: 7\n" + data_line + "\n" + run_done);
  EXPECT_FALSE(report.conforming());
}

// chat:48 holds for the key the frontend dispatches on: `Type` (or any
// spelling of `type` up to case and `_`/`-`) instead of `type` is
// CHAT-TYPE-KEY-CASING (must) in chat, code and workflow, and not also
// CHAT-TYPE-STRING. Beside `type` it is an extra field; a `type` that is not a
// string is CHAT-TYPE-STRING's (spec/DECISIONS.md, chat-type-key-casing).
TEST(validator, a_miscased_type_key_is_a_must_casing_finding) {
  const std::string workflow_start = f(R"({"type":"run_started","runId":"w1"})");
  const std::string workflow_end = f(R"({"type":"run_completed","runId":"w1"})");
  const std::size_t chat_frames = sse::dialect::validate_stream(dialect("chat"), chat_ok).frames;
  for (const std::string variant : {R"({"Type":"content","text":"x"})", R"({"TYPE":"content","text":"x"})",
                                    R"({"ty_pe":"content","text":"x"})", R"({"text":"x","Type":5})"}) {
    for (const char* name : {"chat", "code"}) {
      EXPECT_EQ(located_under_every_chunking(dialect(name), chat_ok + f(variant)),
                (std::vector<std::string>{"CHAT-TYPE-KEY-CASING must frame " + std::to_string(chat_frames) + " byte " +
                                          std::to_string(chat_ok.size())}))
          << name << " " << variant;
    }
    EXPECT_EQ(
        located_under_every_chunking(dialect("workflow"), workflow_start + f(variant) + workflow_end),
        (std::vector<std::string>{"CHAT-TYPE-KEY-CASING must frame 1 byte " + std::to_string(workflow_start.size())}))
        << variant;
    EXPECT_FALSE(sse::dialect::validate_stream(dialect("chat"), chat_ok + f(variant)).conforming());
  }
  const auto seen = sse::dialect::validate_stream(dialect("chat"), chat_ok + f(R"({"Type":"content","text":"x"})"));
  ASSERT_EQ(seen.findings.size(), 1u);
  EXPECT_EQ(seen.findings.front().seen, R"(key "Type")");
  // Beside the key: an extra field (should); a non-string type: the type rule (should).
  EXPECT_EQ(
      located_under_every_chunking(dialect("chat"), chat_ok + f(R"({"type":"content","Type":"content","text":"x"})")),
      (std::vector<std::string>{"CHAT-FIELD-UNDECLARED should frame " + std::to_string(chat_frames) + " byte " +
                                std::to_string(chat_ok.size())}));
  EXPECT_EQ(located_under_every_chunking(dialect("chat"), chat_ok + f(R"({"type":5,"Type":"content"})")),
            (std::vector<std::string>{"CHAT-TYPE-STRING should frame " + std::to_string(chat_frames) + " byte " +
                                      std::to_string(chat_ok.size())}));
  // In agent a frame without `type` is already not a JSON object with a string type (must).
  EXPECT_EQ(located_under_every_chunking(dialect("agent"),
                                         run_started + f(R"({"Type":"message_chunk","content":"Hi"})") + run_done),
            (std::vector<std::string>{"AGENT-FRAME-JSON must frame 1 byte " + std::to_string(run_started.size())}));
}

// agent:29: an `error` frame carries `error`: AGENT-ERROR-MESSAGE (must) at
// its frame. run_failed's `error` is a key field only: AGENT-FIELD-REQUIRED
// (should). A misspelt `Error` is a casing slip and still no message
// (spec/DECISIONS.md, agent-error-message).
TEST(validator, an_error_frame_without_its_message_is_a_must_finding) {
  const std::string at = std::to_string(run_started.size());
  const auto with = [&](const std::string& frame) { return run_started + f(frame) + run_done; };
  EXPECT_TRUE(
      located_under_every_chunking(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1","error":"x"})"))
          .empty());
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1"})")),
            (std::vector<std::string>{"AGENT-ERROR-MESSAGE must frame 1 byte " + at}));
  EXPECT_EQ(located_under_every_chunking(dialect("agent"),
                                         with(R"({"type":"error","runId":"r1","stepId":"s1","Error":"x"})")),
            (std::vector<std::string>{"AGENT-ERROR-MESSAGE must frame 1 byte " + at,
                                      "AGENT-KEY-CASING should frame 1 byte " + at}));
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), with(R"({"type":"run_failed","runId":"r1","stepId":"s1"})")),
            (std::vector<std::string>{"AGENT-FIELD-REQUIRED should frame 1 byte " + at}));
  EXPECT_FALSE(sse::dialect::validate_stream(dialect("agent"), with(R"({"type":"error","runId":"r1","stepId":"s1"})"))
                   .conforming());
}

// agent:24 and agent:40 are each too weak for a MUST, and together they are
// a reading: a step event without stepId is AGENT-STEP-STEPID, a should
// finding, and the run conforms (spec/DECISIONS.md, agent-step-stepid).
TEST(validator, step_events_without_step_id_are_a_should_finding) {
  const std::string started = f(R"({"type":"step_started","runId":"r1"})");
  const std::string stream = run_started + started + f(R"({"type":"step_completed","runId":"r1"})") + run_done;
  EXPECT_EQ(located_under_every_chunking(dialect("agent"), stream),
            (std::vector<std::string>{
                "AGENT-STEP-STEPID should frame 1 byte " + std::to_string(run_started.size()),
                "AGENT-STEP-STEPID should frame 2 byte " + std::to_string(run_started.size() + started.size())}));
  EXPECT_TRUE(sse::dialect::validate_stream(dialect("agent"), stream).conforming());
}

// Unknown agent types still carry the envelope (spec/DECISIONS.md, unknown-types).
TEST(validator, unknown_agent_type_keeps_envelope_rules) {
  const auto report =
      sse::dialect::validate_stream(dialect("agent"), agent({f(R"({"type":"brand_new","RunId":"r1"})")}));
  EXPECT_EQ(rules_broken(report), (std::set<std::string>{"AGENT-TYPE-KNOWN", "AGENT-RUNID-PRESENT",
                                                         "AGENT-STEPID-PRESENT", "AGENT-KEY-CASING"}))
      << describe(report);
}

// Truncated JSON is named as JSON that does not parse, with where it stops.
TEST(validator, truncated_json_is_reported_as_json_that_does_not_parse) {
  const std::string cut = R"({"type":"message_chunk","runId":"r1","stepId")";
  const auto report = sse::dialect::validate_stream(dialect("agent"), agent({f(cut)}));
  bool named = false;
  for (const auto& fnd : report.findings) {
    if (fnd.seen.find("JSON that does not parse (stops at byte " + std::to_string(cut.size()) + " of the data)") !=
        std::string::npos)
      named = true;
    EXPECT_EQ(fnd.seen.find("plain text"), std::string::npos) << describe(report);
  }
  EXPECT_TRUE(named) << describe(report);
  // Text that is not JSON-like stays plain text.
  const auto plain = sse::dialect::validate_stream(dialect("agent"), agent({f("hello")}));
  bool plain_named = false;
  for (const auto& fnd : plain.findings) plain_named |= fnd.seen.find("plain text") != std::string::npos;
  EXPECT_TRUE(plain_named) << describe(plain);
}

// The JSON form of a finding (spec/FORMAT.md section 3).
TEST(validator, finding_json_form) {
  const auto report = sse::dialect::validate_stream(dialect("agent"), f(R"({"type":"done","runId":"r1"})") + chunk);
  ASSERT_FALSE(report.findings.empty());
  const auto j = to_json(report.findings.front());
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"rule", "severity", "basis", "grounds", "frame", "frame_number", "offset",
                                            "expected", "seen", "text"}));
}

// Only a finding about the end of the stream is at_end: a line of a block
// that dispatches nothing is reported at the frame count too, mid-stream.
TEST(validator, only_end_of_stream_findings_are_at_the_end) {
  const std::string stream =
      f(R"({"type":"run_started","runId":"r1"})") + "id: \xff\n\n" + f(R"({"type":"run_completed","runId":"r1"})");
  const auto report = sse::dialect::validate_stream(dialect("agent"), stream);
  bool done_last = false, mid_stream_at_count = false;
  for (const auto& finding : report.findings) {
    const auto j = to_json(finding);
    if (finding.rule->id == "AGENT-DONE-LAST") {
      done_last = true;
      EXPECT_TRUE(finding.at_end);
      EXPECT_EQ(finding.frame, 2u);
      EXPECT_TRUE(j["frame_number"].is_null());
      EXPECT_EQ(sse::dialect::frame_text(finding.frame, finding.at_end), "the end of the stream, after frame 2");
    } else {
      EXPECT_FALSE(finding.at_end) << finding.rule->id;
      EXPECT_EQ(j["frame_number"], finding.frame + 1) << finding.rule->id;
      mid_stream_at_count |= finding.frame == 1 && finding.offset < stream.size();
    }
  }
  EXPECT_TRUE(done_last);
  EXPECT_TRUE(mid_stream_at_count) << "no finding in the block that dispatches nothing";
  EXPECT_EQ(sse::dialect::frame_text(0, true), "the end of an empty stream");
  EXPECT_EQ(sse::dialect::frame_text(4, false), "frame 5");
}

// Pairs are matched oldest first per key: on seeded streams of step_started
// and step_completed over three stepIds, with many steps of one id open at
// once and closed in runs, AGENT-STEP-PAIR names exactly the completions
// with none open, and AGENT-STEP-CLOSED exactly the frames of the steps
// still open at the end (by stepId, oldest first), as a plain queue per id
// says.
TEST(validator, pairs_close_oldest_first_per_key_as_a_queue_does) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    sse::chunking::splitmix64 rng(seed);
    std::string stream = f(R"({"type":"run_started","runId":"r1"})");
    std::map<std::string, std::deque<std::size_t>> open;  // stepId -> frames, oldest first
    std::vector<std::size_t> unmatched;                   // completions with none open
    std::size_t frame = 1;
    for (int i = 0; i < 2000; ++i, ++frame) {
      const std::string id = "s" + std::to_string(rng.next() % 3);
      // Runs of opens then runs of closes, so a queue grows and empties.
      const bool opens = (i / 40) % 2 == 0 ? rng.next() % 4 != 0 : rng.next() % 4 == 0;
      stream += f(R"({"type":")" + std::string(opens ? "step_started" : "step_completed") +
                  R"(","runId":"r1","stepId":")" + id + R"("})");
      if (opens) {
        open[id].push_back(frame);
      } else if (open[id].empty()) {
        unmatched.push_back(frame);
      } else {
        open[id].pop_front();
      }
    }
    stream += f(R"({"type":"done","runId":"r1"})");
    std::vector<std::size_t> still_open;
    for (const auto& [id, frames] : open) still_open.insert(still_open.end(), frames.begin(), frames.end());
    sse::dialect::stream_validator v(dialect("agent"), {}, std::nullopt, std::numeric_limits<std::size_t>::max());
    v.feed(stream);
    const auto report = v.finish();
    std::vector<std::size_t> pair_frames;
    std::vector<std::size_t> closed_frames;
    for (const auto& x : report.findings) {
      if (x.rule->id == "AGENT-STEP-PAIR") pair_frames.push_back(x.frame);
      if (x.rule->id == "AGENT-STEP-CLOSED") closed_frames.push_back(x.frame);
    }
    EXPECT_EQ(pair_frames, unmatched) << "seed " << seed;
    EXPECT_EQ(closed_frames, still_open) << "seed " << seed;
    EXPECT_FALSE(unmatched.empty()) << "seed " << seed << ": the stream must close steps that are not open";
    EXPECT_GT(still_open.size(), 10U) << "seed " << seed << ": the stream must leave steps open";
  }
}

}  // namespace
