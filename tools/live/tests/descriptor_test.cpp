// SPDX-License-Identifier: MIT
// check_descriptor (a stream judged as it arrives, its body not held) against
// analyze(read_descriptor(...)); the producer rules following it
// (rules_follower) against validate_stream; and the whole-body checks
// followed read by read (body_pass) against the same checks of the whole
// body, whatever the reads.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "check_internal.hpp"
#include "rules_follower.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/escape.hpp"
#include "unterminated_by_search.hpp"

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

// Feeds `stream` to a rules_follower in reads cut by `cuts` (the chunks'
// sizes), then finishes it; `told` gets what on_finding said, one line a finding.
sse::dialect::validation_report follow_in_reads(const sse::dialect::dialect_spec& d,
                                                std::string_view /*stream: the cuts are views into it*/,
                                                const std::vector<std::string_view>& cuts, bool read_to_end,
                                                std::string& told) {
  ssec::live::detail::rules_follower rules(&d, sse::limits{}, [&told](const sse::dialect::finding& f) {
    told += f.rule->id + " " + std::to_string(f.frame) + " " + std::to_string(f.offset) + " " + f.expected + " | " +
            f.seen + "\n";
  });
  for (const auto cut : cuts) {
    std::copy(cut.begin(), cut.end(), rules.space(cut.size()));
    rules.commit(cut.size());
  }
  auto report = rules.finish(read_to_end);
  EXPECT_TRUE(report.has_value());
  return report ? std::move(*report) : sse::dialect::validation_report{};
}

// The findings of a report after its counts line (shown's format).
std::string findings_shown(const sse::dialect::validation_report& v) {
  const std::string all = shown(v);
  return all.substr(all.find('\n') + 1);
}

// The report, and the findings told as they were found (check's "as it
// arrives" lines), are validate_stream's whatever the reads: reads that do
// not fit the slice in use, reads longer than a slice, and more slices than
// are kept (so slices are recycled).
TEST(rules_follower, gives_validate_streams_report_whatever_the_reads) {
  const auto* agent = sse::dialect::builtin_dialect("agent");
  ASSERT_NE(agent, nullptr);
  const std::string stream = agent_stream(25000);  // about 11 MiB: more slices than the follower keeps, and a rest
  ASSERT_GT(stream.size(),
            (ssec::live::detail::rules_follower::slices_kept + 1) * ssec::live::detail::rules_follower::slice_size);
  const auto whole = sse::dialect::validate_stream(*agent, stream);
  const auto sample = sse::dialect::validate_stream(*agent, stream, {}, std::nullopt, false);
  for (const std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 random(seed);
    // Reads of up to 200,000 bytes; on the second seed of up to 3 MiB
    // (longer than a slice); on the last, of up to 100.
    const std::size_t longest = seed == 3 ? 100 : (seed == 2 ? std::size_t{3} << 20 : 200000);
    std::vector<std::string_view> cuts;
    for (std::size_t at = 0; at < stream.size();) {
      const std::size_t n = std::min<std::size_t>(stream.size() - at, 1 + random() % longest);
      cuts.push_back(std::string_view(stream).substr(at, n));
      at += n;
    }
    std::string told;
    EXPECT_EQ(shown(follow_in_reads(*agent, stream, cuts, true, told)), shown(whole)) << "seed " << seed;
    // Told as found: every finding but those of the stream's end, in order.
    EXPECT_EQ(findings_shown(whole).substr(0, told.size()), told) << "seed " << seed;
    EXPECT_GT(told.size(), findings_shown(whole).size() / 2) << "seed " << seed;
    told.clear();
    EXPECT_EQ(shown(follow_in_reads(*agent, stream, cuts, false, told)), shown(sample)) << "seed " << seed;
    EXPECT_EQ(told, findings_shown(sample)) << "seed " << seed;
  }
}

// What is told as found, however the stream arrives, is what the validator
// finds in the whole stream (its end aside): dropping what no later frame
// needs, between frames full of comments, retries and blank lines, never
// drops a byte a finding quotes.
TEST(rules_follower, tells_what_the_whole_stream_validation_finds_under_every_chunking) {
  const auto& agent = *sse::dialect::builtin_dialect("agent");
  std::string stream;
  for (int i = 0; i < 30; ++i) {
    const std::string n = std::to_string(i);
    stream += ": ping " + n + "\r\n\r\n";  // a comment block: nothing dispatched
    if (i % 3 == 0) stream += "retry: 100\n\n\n";
    stream += "data: {\"type\":\"message_chunk\",\"content\":\"c" + n + "\"" + (i % 2 == 0 ? "" : ",\"runId\":\"r1\"") +
              "}\n";
    if (i % 4 == 0) stream += ": inside the frame\n";
    stream += i % 5 == 0 ? "data: not json " + n + "\n\n" : (i % 7 == 0 ? "\r" : "\n");
  }
  const auto whole = sse::dialect::validate_stream(agent, stream, {}, std::nullopt, false);
  ASSERT_GT(whole.findings.size(), 20u);
  std::vector<std::vector<std::string_view>> splits{sse::chunking::whole(stream), sse::chunking::bytes(stream)};
  for (std::uint64_t seed = 1; seed <= 8; ++seed) splits.push_back(sse::chunking::random(stream, seed));
  for (const auto& chunks : splits) {
    std::string told;
    follow_in_reads(agent, stream, chunks, false, told);
    EXPECT_EQ(told, findings_shown(whole)) << chunks.size() << " chunks";
  }
}

// Feeds `body` to a body_pass in reads cut by `cuts` (sizes, repeated), then finishes it.
void feed_in_reads(ssec::live::detail::body_pass& pass, std::string_view body, const std::vector<std::size_t>& cuts) {
  for (std::size_t at = 0, i = 0; at < body.size(); ++i) {
    const std::size_t n = std::min(body.size() - at, cuts[i % cuts.size()]);
    pass.feed(body.substr(at, n));
    at += n;
  }
  pass.finish();
}

// Where the unterminated block begins, its first bytes and its size, as
// the whole body gives them, whatever the reads: separators and endings
// cut between reads included.
TEST(body_pass, follows_the_unterminated_block_head_and_size_whatever_the_reads) {
  std::vector<std::string> bodies = {"",
                                     "a",
                                     "a\n\nb",
                                     "data: x\r\n\r\ndata: y",
                                     "x\r\r",
                                     "x\n\r\n",
                                     "x\r\n\n",
                                     "\n\n\n",
                                     "a\r\n\r\nb\r\n",
                                     "a\r\n\r",
                                     "\r",
                                     "a\n\nb\r\rc",
                                     std::string(600, 'x') + "\n\n" + std::string(300, 'y')};
  std::mt19937 random(7);
  for (int i = 0; i < 300; ++i) {
    std::string b(random() % 24, 'a');
    for (auto& c : b) c = "a\r\n"[random() % 3];
    bodies.push_back(b);
  }
  for (const auto& b : bodies) {
    const auto expected = ssec::live::oracle::unterminated_by_search(b);
    EXPECT_EQ(ssec::live::detail::unterminated_block(b), expected) << ssec::quote(b);
    for (const std::vector<std::size_t>& cuts :
         std::vector<std::vector<std::size_t>>{{b.size() + 1}, {1}, {2}, {3, 1, 5}, {7, 2}}) {
      ssec::live::detail::body_pass pass(sse::limits{}, 1, false);
      feed_in_reads(pass, b, cuts);
      const std::string what = ssec::quote(b) + " cut every " + std::to_string(cuts.front());
      EXPECT_EQ(pass.unterminated(), expected) << what;
      EXPECT_EQ(pass.size(), b.size()) << what;
      EXPECT_EQ(pass.head(), std::string_view(b).substr(0, ssec::live::detail::body_pass::head_size)) << what;
    }
  }
}

// A body outgrowing what is held is let go: from then on the first seed's
// random split follows it, and its digest does not depend on the reads (nor
// on where the body was let go), for LF, CR and CR LF line ends, CR LF pairs
// cut between reads, and a line past the limit; a changed byte changes it.
TEST(body_pass, a_body_let_go_is_reparsed_under_one_random_split_whatever_the_reads) {
  using ssec::live::detail::body_pass;
  std::string lf = agent_stream(12000);
  ASSERT_GT(lf.size(), body_pass::held_whole);
  std::string crlf;
  std::string cr;
  for (const char c : lf) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    cr += c == '\n' ? '\r' : c;
  }
  sse::limits short_lines;
  short_lines.max_line = 1000;
  const std::string long_line = lf.substr(0, 1 << 20) + "data: " + std::string(5000, 'x') + "\n\n" + lf;
  struct body {
    std::string name;
    const std::string* bytes;
    sse::limits lim;
  };
  std::vector<std::uint64_t> digests;
  for (const body& b : {body{"lf", &lf, {}}, body{"crlf", &crlf, {}}, body{"cr", &cr, {}},
                        body{"a line past the limit", &long_line, short_lines}}) {
    body_pass one(b.lim, 16, true);
    feed_in_reads(one, *b.bytes, {b.bytes->size()});
    EXPECT_TRUE(one.let_go()) << b.name;
    EXPECT_FALSE(one.reference().has_value()) << b.name;
    ASSERT_EQ(one.chunkings().size(), 1u) << b.name;  // one seed for a body let go
    EXPECT_EQ(one.chunkings()[0].name, "with random seed 1") << b.name;
    digests.push_back(one.chunkings()[0].digest);
    // Reads of odd sizes, so that many end inside a CR LF pair or a line.
    for (const std::vector<std::size_t>& cuts :
         std::vector<std::vector<std::size_t>>{{65536}, {65537, 4093}, {(std::size_t{3} << 20) + 1}}) {
      body_pass pass(b.lim, 16, false);
      feed_in_reads(pass, *b.bytes, cuts);
      const std::string what = b.name + " in reads of " + std::to_string(cuts.front());
      EXPECT_TRUE(pass.let_go()) << what;
      EXPECT_FALSE(pass.reference().has_value()) << what;
      ASSERT_EQ(pass.chunkings().size(), 1u) << what;
      EXPECT_EQ(pass.chunkings()[0].digest, one.chunkings()[0].digest) << what;
    }
  }
  // LF, CR and CR LF line ends make the same events: the same digest. The
  // line past the limit, or one byte changed, make another.
  EXPECT_EQ(digests[0], digests[1]);
  EXPECT_EQ(digests[0], digests[2]);
  EXPECT_NE(digests[0], digests[3]);
  std::string changed = lf;
  changed[changed.size() / 2] = changed[changed.size() / 2] == 'x' ? 'y' : 'x';
  body_pass other(sse::limits{}, 16, true);
  feed_in_reads(other, changed, {changed.size()});
  EXPECT_NE(digests[0], other.chunkings()[0].digest);
  // A held body (at most held_whole bytes) is re-parsed whole, byte by byte
  // up to 64 KiB, and under every seed.
  const std::string small = agent_stream(20);
  ASSERT_LE(small.size(), body_pass::byte_by_byte_max);
  body_pass held(sse::limits{}, 16, false);
  feed_in_reads(held, small, {100, 7});
  EXPECT_FALSE(held.let_go());
  ASSERT_EQ(held.chunkings().size(), 17u);
  EXPECT_EQ(held.chunkings()[0].name, "byte by byte");
  for (const auto& c : held.chunkings()) EXPECT_EQ(c.digest, *held.reference()) << c.name;
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
  write(agent_stream(40000));  // about 17 MiB: let go (body_pass::held_whole), more slices than are kept
  ssec::live::read_limits lim;
  expect_same(lim, agent, "let go, agent");
  expect_same(lim, wire, "let go, wire");
  {
    // Compared with what it was received as: one random split.
    const int fd = ::open(path_.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    const auto r = ssec::live::check_descriptor(fd, "<file>", lim, agent);
    ::close(fd);
    EXPECT_EQ(r.chunkings_tried, 1u);
    EXPECT_TRUE(r.chunking_invariant);
    EXPECT_GT(r.events, 200000u);
  }
  write(agent_stream(3000));  // about 1.2 MiB: many reads, past one validator slice
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

// check --file of a capture, judged as its lines are read, gives analyze's
// report of the loaded capture, timing included (the times are the
// capture's): streams of every size, a cut, a response that is no stream,
// a reference limit; a raw stream is left to analyze; a broken capture is an
// error naming its line.
TEST_F(descriptor, a_capture_file_is_judged_as_analyze_judges_it_loaded) {
  ssec::live::check_options agent;
  agent.dialect = sse::dialect::builtin_dialect("agent");
  const ssec::live::check_options wire;
  const auto expect_same_as_loaded = [&](const ssec::live::capture& c, std::uint64_t max_bytes,
                                         const ssec::live::check_options& opt, const std::string& what) {
    write(ssec::live::write_capture(c));
    const auto streamed = ssec::live::check_capture_file(path_, max_bytes, opt);
    ASSERT_TRUE(streamed.ok()) << what << ": " << streamed.error().to_string();
    ASSERT_TRUE(streamed.value().has_value()) << what;
    const auto loaded = ssec::live::load_capture_or_stream(path_, max_bytes);
    ASSERT_TRUE(loaded.ok()) << what;
    EXPECT_EQ(ssec::live::to_json(*streamed.value()).dump(),
              ssec::live::to_json(ssec::live::analyze(loaded.value(), opt)).dump())
        << what;
  };
  ssec::live::capture c;
  c.source = "http://127.0.0.1:1/run";
  c.status = 200;
  c.headers["content-type"] = "text/event-stream";
  const std::string body = agent_stream(3000);  // about 1.2 MiB: past one validator slice
  std::mt19937 rng(7);
  double t = 0.01;
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t n = 1 + rng() % 9000;
    c.pieces.push_back({body.substr(at, n), t});
    at += n;
    t += (rng() % 4) * 0.01;
  }
  c.seconds_to_first_byte = 0.01;
  c.seconds_total = t + 0.5;
  expect_same_as_loaded(c, 0, agent, "whole, agent");
  expect_same_as_loaded(c, 0, wire, "whole, wire");
  expect_same_as_loaded(c, 300001, agent, "cut mid-frame, mid-piece");
  auto limited = agent;
  limited.limits.max_line = 200;  // the reference stops at a long line
  expect_same_as_loaded(c, 0, limited, "a limit");
  auto error_page = c;
  error_page.status = 500;
  error_page.headers["content-type"] = "text/html";
  error_page.pieces = {{"<html>down</html>", 0.2}};
  expect_same_as_loaded(error_page, 0, agent, "no stream");
  auto empty = c;
  empty.pieces.clear();
  empty.end = "reset";
  expect_same_as_loaded(empty, 0, agent, "no pieces");
  write("data: a\n\n");
  const auto raw = ssec::live::check_capture_file(path_, 0, agent);
  ASSERT_TRUE(raw.ok());
  EXPECT_FALSE(raw.value().has_value()) << "a raw stream is analyze's";
  write(ssec::live::write_capture(c) + "not a line of a capture\n");
  const auto broken = ssec::live::check_capture_file(path_, 0, agent);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().line, c.pieces.size() + 3);  // the header, the pieces, the end line, then this
  EXPECT_EQ(broken.error().file, path_);
}

}  // namespace
