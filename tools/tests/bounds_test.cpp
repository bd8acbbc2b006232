// SPDX-License-Identifier: MIT
// Hostile input, run as a user runs the tool:
// memory is bounded by the tool's limits, not by what a few bytes of YAML
// expand to or by how many events and findings a stream holds. Peak memory
// is read from getrusage(RUSAGE_CHILDREN) of a child process that runs the
// command; the bounds are generous (a debug or sanitizer build), far below
// what unbounded code takes. Nothing here is timed.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

struct measured {
  outcome run;
  long peak_kb = 0;  ///< Largest resident set of the command, in KiB.
};

class bounds : public tool_test {
 protected:
  bounds() : tool_test("ssec-bounds-") {}

  // Runs `command` (a shell line, `exec`uted so the tool is the shell's
  // process) in a child of a child, and reads the grandchild's peak RSS from
  // the child's getrusage(RUSAGE_CHILDREN). The child's address space is
  // capped at 4 GiB (not under ASan, which reserves terabytes) so the
  // unbounded code fails fast instead of taking the machine's memory.
  // Under ASan the peak is the sanitizer's (shadow memory, a quarantine of
  // up to 256 MB of freed blocks), not the tool's: the bounds are asserted
  // by the release and debug runs, the ASan run checks the same commands'
  // outcomes and memory safety.
  measured run_measured(const std::string& command) const {
    const fs::path peak_file = dir_ / "peak";
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (!sanitized) {
        const rlimit cap{rlim_t{4} << 30, rlim_t{4} << 30};
        ::setrlimit(RLIMIT_AS, &cap);
      }
      const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
      const std::string line = "cd " + quote(dir_.string()) + " && exec " + command + " >" + quote(out.string()) +
                               " 2>" + quote(err.string());
      const int status = std::system(line.c_str());
      rusage usage{};
      ::getrusage(RUSAGE_CHILDREN, &usage);
      std::ofstream(peak_file) << usage.ru_maxrss;
      ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 255);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    measured m;
    m.run = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(dir_ / "stdout"), read_file(dir_ / "stderr")};
    m.peak_kb = std::stol("0" + read_file(peak_file));
    return m;
  }

  static std::string mb(long kb) { return std::to_string(kb / 1024) + " MB"; }
};

// `levels` levels of anchors of ten aliases each in a `default:` of the
// built-in chat catalog: 10^levels copies from a few hundred bytes.
std::string catalog_alias_bomb(int levels) {
  std::string text = read_file(source_dir / "spec/chat.yaml");
  std::string bomb = "[&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]";
  for (int i = 1; i <= levels; ++i) {
    bomb += ", &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) bomb += (k > 0 ? ", *a" : "*a") + std::to_string(i - 1);
    bomb += "]";
  }
  bomb += "]";
  const std::string field = "{key: promptTokens, type: integer, required: false, default: 0,";
  const auto at = text.find(field);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, field.size(), "{key: promptTokens, type: integer, required: false, default: " + bomb + ",");
  return text;
}

// Without the alias measure, seven levels take 1.67 GB and eight end in
// bad_alloc.
TEST_F(bounds, a_catalog_alias_bomb_is_refused_naming_file_and_line) {
  write("bomb.yaml", catalog_alias_bomb(8));
  const auto m = run_measured(quote(tool) + " validate --dialect chat --catalog bomb.yaml /dev/null");
  EXPECT_EQ(m.run.status, 2) << m.run.err;
  EXPECT_NE(m.run.err.find("bomb.yaml:96:"), std::string::npos) << m.run.err;
  EXPECT_NE(m.run.err.find("takes what the document's aliases repeat over 4 MiB"), std::string::npos) << m.run.err;
  if (!sanitized) {
    EXPECT_LT(m.peak_kb, 200 * 1024) << mb(m.peak_kb);
  }
}

// Sixty 64 MB repeats in a 2.5 KB case file; built before they are booked,
// they end in exit 134 (bad_alloc) after allocating them all.
TEST_F(bounds, a_case_file_repeat_bomb_is_refused_before_it_is_built) {
  std::string inputs;
  for (int i = 0; i < 60; ++i) inputs += std::string(i > 0 ? ", " : "") + "{repeat: \"abcdefgh\", times: 8000000}";
  fs::create_directories(dir_ / "cases");
  write("cases/bomb.yaml",
        "- id: K7P2\n  name: repeat bomb\n"
        "  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation\n"
        "  tags: [limits]\n  verdict: must\n  layer: wire\n  input: [" +
            inputs + "]\n  events: \"\"\n");
  const auto m =
      run_measured(quote(tool) + " cases --spec " + quote((source_dir / "spec").string()) + " --cases cases");
  EXPECT_EQ(m.run.status, 2) << m.run.err;
  EXPECT_NE(m.run.err.find("cases/bomb.yaml:7:"), std::string::npos) << m.run.err;  // at the second repeat
  EXPECT_NE(m.run.err.find("the input is larger than 64 MiB"), std::string::npos) << m.run.err;
  if (!sanitized) {
    EXPECT_LT(m.peak_kb, 200 * 1024) << mb(m.peak_kb);
  }
}

std::string one_byte_events(std::size_t bytes) {
  std::string s;
  s.reserve(bytes);
  while (s.size() + 9 <= bytes) s += "data: a\n\n";
  return s;
}

// Keeping every event and every finding, 8 MiB of `data: a\n\n` takes
// 288 MB at the wire layer (64 MiB: 1.86 GB; 6.0 GB with --dialect agent);
// check keeps neither, and counts the findings of one rule beyond 100.
TEST_F(bounds, check_memory_does_not_grow_with_events_or_findings) {
  write("a.sse", one_byte_events(std::size_t{8} << 20));
  for (const char* dialect : {"wire", "agent"}) {
    const auto m = run_measured(quote(tool) + " check --chunking-seeds 0 --dialect " + dialect + " --file a.sse");
    EXPECT_EQ(m.run.status, std::string(dialect) == "wire" ? 0 : 1) << m.run.err;
    if (!sanitized) {
      EXPECT_LT(m.peak_kb, 120 * 1024) << dialect << ": " << mb(m.peak_kb);
    }
    if (std::string(dialect) == "agent") {
      EXPECT_NE(m.run.out.find("more findings not shown"), std::string::npos) << m.run.out.substr(0, 2000);
      EXPECT_LT(m.run.out.size(), std::size_t{1} << 20);
    }
  }
}

// validate streams its input; findings beyond a rule's cap are counted, not
// kept, and the file is never read whole first.
TEST_F(bounds, validate_streams_and_counts_findings_beyond_the_cap) {
  write("a.sse", one_byte_events(std::size_t{8} << 20));
  const auto m = run_measured(quote(tool) + " validate --dialect agent --json a.sse");
  EXPECT_EQ(m.run.status, 1) << m.run.err;
  const auto j = nlohmann::json::parse(m.run.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << m.run.out.substr(0, 2000);
  EXPECT_GT(j["summary"]["findings_not_shown"].get<std::size_t>(), 900000u);
  EXPECT_GE(j["summary"]["must"].get<std::size_t>(), 932067u);  // one per frame at least
  if (!sanitized) {
    EXPECT_LT(m.peak_kb, 100 * 1024) << mb(m.peak_kb);
  }
}

// `validate` of an endless line stops at --max-line having read only that
// far, not all 200 MB first.
TEST_F(bounds, validate_stops_reading_at_the_limit) {
  const auto m = run_measured("sh -c " + quote("head -c 200000000 /dev/zero | " + quote(tool) +
                                               " validate --dialect agent --max-line 1048576 -"));
  EXPECT_EQ(m.run.status, 2) << m.run.err;
  EXPECT_NE(m.run.out.find("line_too_long"), std::string::npos) << m.run.out;
  if (!sanitized) {
    EXPECT_LT(m.peak_kb, 64 * 1024) << mb(m.peak_kb);
  }
}

// `parse --chunk 1` streams the file; a file held whole and cut into a list
// of one-byte chunks (a 16-byte view each) takes 17.5 times its size (46 MB
// for 2 MiB, 152 MB for 8 MiB). The bound leaves room for the test process's
// own pages, which a forked child's peak includes until it execs. Under a
// sanitizer the peak is not measured, and 512 KiB takes the same paths as
// 4 MiB in an eighth of the time (4 MiB took 25 s of CI's ASan stage).
TEST_F(bounds, parse_chunk_1_streams_the_file) {
  const std::size_t bytes = sanitized ? std::size_t{512} << 10 : std::size_t{4} << 20;
  write("a.sse", one_byte_events(bytes));
  for (const char* chunking : {"--chunk 1", "--split-seed 7", ""}) {
    const auto m = run_measured(quote(tool) + " parse " + chunking + " a.sse");
    EXPECT_EQ(m.run.status, 0) << m.run.err;
    EXPECT_EQ(m.run.out.size(), bytes / 9 * 47) << chunking;  // one 47-byte line per 9-byte event
    if (!sanitized) {
      EXPECT_LT(m.peak_kb, 48 * 1024) << chunking << ": " << mb(m.peak_kb);
    }
  }
}

// A 10 MB `retry:` value is quoted, clipped, in one short line.
TEST_F(bounds, a_diagnostic_quotes_a_bounded_prefix) {
  const std::size_t digits = 10000000;  // 10 MB of one retry value
  write("retry.sse", "retry: " + std::string(digits, '1') + "x\n\ndata: a\n\n");
  const auto r = shell(quote(tool) + " parse --diagnostics retry.sse", dir_);
  EXPECT_EQ(r.status, 0) << r.err.substr(0, 500);
  EXPECT_LT(r.err.size(), 400u) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("retry.sse: byte 0: invalid_retry \"1\"*200... (9999801 more bytes)"), std::string::npos)
      << r.err.substr(0, 500);
}

// A report that cannot be written is an error that says so.
TEST_F(bounds, a_failed_write_of_the_output_is_an_error_that_says_so) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  write("a.sse", "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n");
  for (const std::string args :
       {"parse a.sse", "validate --dialect agent a.sse", "check --dialect agent --file a.sse"}) {
    // The inner shell sends standard output to /dev/full; shell() captures standard error.
    const auto r = shell("sh -c " + quote(quote(tool) + " " + args + " >/dev/full"), dir_);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("cannot write to standard output: No space left on device"), std::string::npos)
        << args << ": " << r.err;
  }
  const auto json = shell(quote(tool) + " check --dialect agent --file a.sse --json /dev/full", dir_);
  EXPECT_EQ(json.status, 2) << json.err;
  EXPECT_NE(json.err.find("/dev/full: cannot write: No space left on device"), std::string::npos) << json.err;
}

// A conforming stream cut by the tool's own limits (--max-bytes,
// --max-events) breaks no end-of-stream rule, in check and validate, for
// every dialect; the verdict says the stream was sampled.
TEST_F(bounds, a_sample_cut_by_the_tools_limits_breaks_no_rule) {
  const std::pair<const char*, const char*> streams[] = {
      {"chat", "data: {\"type\":\"content\",\"text\":\"hello\"}\n\n"},
      {"agent", "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"},
  };
  for (const auto& [dialect, frame] : streams) {
    std::string stream;
    for (int i = 0; i < 50; ++i) stream += frame;
    write("s.sse", stream);
    const std::string d = std::string(" --dialect ") + dialect;
    for (const std::string cut : {"--max-bytes 100", "--max-bytes 1000", "--max-events 3"}) {
      const auto c = shell("cat s.sse | " + quote(tool) + " check" + d + " " + cut + " -", dir_);
      EXPECT_EQ(c.status, 0) << dialect << " " << cut << ": " << c.out;
      EXPECT_NE(c.out.find("sampled"), std::string::npos) << c.out;
      const auto f = shell(quote(tool) + " check" + d + " " + cut + " --file s.sse", dir_);
      if (cut.starts_with("--max-bytes")) {
        EXPECT_EQ(f.status, 0) << dialect << " " << cut << ": " << f.out;
        EXPECT_NE(f.out.find("sampled"), std::string::npos) << f.out;
      }
    }
    for (const std::string cut : {"100", "1000"}) {
      const auto v = shell(quote(tool) + " validate" + d + " --max-bytes " + cut + " s.sse", dir_);
      EXPECT_EQ(v.status, 0) << dialect << " --max-bytes " << cut << ": " << v.out;
      EXPECT_NE(v.out.find("conforming (sampled: the end was not read)"), std::string::npos) << v.out;
      EXPECT_EQ(v.out.find("-FRAME-TERMINATED"), std::string::npos) << v.out;
    }
  }
}

}  // namespace

// A catalog, ignore file or case file is a document of at most 64 MiB read
// from a regular file: /dev/zero, a FIFO (which blocks when opened) and a
// sparse file are refused at once, naming the file.
TEST_F(bounds, a_document_that_is_not_a_bounded_regular_file_is_refused_at_once) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.yaml").c_str(), 0600), 0);
  write("big.yaml", "");
  fs::resize_file(dir_ / "big.yaml", std::uint64_t{2} << 30);
  const std::string chat = quote((source_dir / "spec/chat.yaml").string());
  const std::vector<std::pair<std::string, std::string>> commands{
      {" validate --dialect chat --catalog /dev/zero /dev/null", "/dev/zero: is not a regular file"},
      {" validate --dialect chat --catalog fifo.yaml /dev/null", "fifo.yaml: is not a regular file"},
      {" validate --dialect chat --catalog big.yaml /dev/null", "big.yaml: is 2048 MiB, more than the 64 MiB"},
      {" catalog diff " + chat + " " + chat + " --ignore fifo.yaml", "fifo.yaml: is not a regular file"},
      {" catalog diff " + chat + " " + chat + " --ignore /dev/zero", "/dev/zero: is not a regular file"},
  };
  for (const auto& [args, said] : commands) {
    // `timeout` turns a read that blocks into a failure of this test, not a hung suite.
    const auto m = run_measured("timeout 60 " + quote(tool) + args);
    EXPECT_EQ(m.run.status, 2) << args << "\n" << m.run.err;
    EXPECT_NE(m.run.err.find(said), std::string::npos) << args << "\n" << m.run.err;
    if (!sanitized) {
      EXPECT_LT(m.peak_kb, 100 * 1024) << args << ": " << mb(m.peak_kb);
    }
  }
}

// Forty case files that each build 48 MiB (under a file's 128 MiB budget)
// would build 1.9 GB together; the load's one budget (256 MiB) refuses the
// file that would pass it, saying so.
TEST_F(bounds, a_load_of_case_files_shares_one_build_budget) {
  fs::create_directories(dir_ / "cases");
  const std::string letters = "ABCDEFGHJKLMNPQRSTUVWXYZ";  // the case id alphabet's letters
  for (std::size_t i = 0; i < 40; ++i) {
    const std::string id = std::string("K") + letters[i % letters.size()] + (i < letters.size() ? "P2" : "P3");
    write("cases/f" + std::to_string(100 + i) + ".yaml",
          "- id: " + id +
              "\n  name: forty-eight MiB\n"
              "  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation\n"
              "  tags: [limits]\n  verdict: must\n  layer: wire\n"
              "  input: [{repeat: \"abcdefgh\", times: 6291456}]\n  events: \"\"\n");
  }
  const auto m =
      run_measured(quote(tool) + " cases --spec " + quote((source_dir / "spec").string()) + " --cases cases");
  EXPECT_EQ(m.run.status, 2) << m.run.err.substr(0, 2000);
  EXPECT_NE(m.run.err.find("cases/f105.yaml:7:"), std::string::npos) << m.run.err.substr(0, 2000);
  EXPECT_NE(m.run.err.find("left of this load's budget of 256 MiB (the case files before it built "), std::string::npos)
      << m.run.err.substr(0, 2000);
  if (!sanitized) {
    EXPECT_LT(m.peak_kb, 700 * 1024) << mb(m.peak_kb);
  }
}

// A pipe (`check <(curl ...)`) is read once, as it arrives: read a second
// time after the first piece was looked at, its first bytes were lost and
// an empty stream was called conforming.
TEST_F(bounds, check_reads_a_pipe_once_and_a_device_within_its_limits) {
  ASSERT_EQ(::mkfifo((dir_ / "stream").c_str(), 0600), 0);
  const auto piped = run_measured("sh -c " + quote("printf 'data: a\\n\\ndata: b\\n\\n' > stream & exec " +
                                                   quote(tool) + " check --dialect wire stream"));
  EXPECT_EQ(piped.run.status, 0) << piped.run.err;
  EXPECT_NE(piped.run.out.find("stream: 18 bytes"), std::string::npos) << piped.run.out;
  EXPECT_NE(piped.run.out.find("2 events"), std::string::npos) << piped.run.out;
  const auto zero = run_measured("timeout 60 " + quote(tool) + " check --dialect wire --max-line 1048576 /dev/zero");
  EXPECT_NE(zero.run.status, 0) << zero.run.out;
  EXPECT_NE(zero.run.status, 124) << "check /dev/zero did not stop";
  if (!sanitized) {
    EXPECT_LT(zero.peak_kb, 100 * 1024) << mb(zero.peak_kb);
  }
}
