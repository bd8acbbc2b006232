// SPDX-License-Identifier: MIT
// The rough edges of the command line, run as a user runs them:
// `-` as standard output, one output there at a time, help and mistyped
// commands, numeric ranges, URL schemes, captures given to validate, the
// tool's own limits and samples, plurals, and progress off a terminal.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;  // the tool, its outcome, read_file, quote, the fixture

const fs::path example = source_dir / "tools/examples/agent-run.sse";

class cli_edges : public tool_test {
 protected:
  cli_edges() : tool_test("ssec-cli-edges-") {}

  // Runs `prefix 'tool' args` in the test's directory (a directory outside
  // the repository), stdout and stderr captured to files (never a terminal).
  outcome run(const std::string& args, const std::string& prefix = "") const {
    return shell(prefix + quote(tool) + " " + args, dir_);
  }
};

// `-` is standard output for run's reports; two reports there at once are refused.
TEST_F(cli_edges, run_json_dash_writes_to_stdout_and_no_file_named_dash) {
  const auto r = run("run --impl \"'" + tool + "' adapter\" --run 'wire/bom/*' --json - --no-progress");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "-"));
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j.value("format", ""), "sse-conform-run");
  // The console summary moved to stderr.
  EXPECT_FALSE(r.err.empty());
}

// B. Off a terminal, `run` prints a progress line every few seconds.
TEST_F(cli_edges, run_off_a_terminal_prints_progress_lines) {
  const auto r = run("run --impl \"'" + tool + "' adapter\" --run 'wire/bom/*' --progress-s 0.001");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(" cases, 0 failed, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("run: 1/"), std::string::npos) << r.err;
  const auto quiet = run("run --impl \"'" + tool + "' adapter\" --run 'wire/bom/*' --no-progress");
  EXPECT_EQ(quiet.err.find("run: 1/"), std::string::npos) << quiet.err;
}

TEST_F(cli_edges, two_outputs_on_stdout_are_a_usage_error_naming_both) {
  const auto r = run("check --dialect wire --json - --junit - --file '" + example.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--json - and --junit -"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto q = run("run --impl true --json - --junit -");
  EXPECT_EQ(q.status, 2);
  EXPECT_NE(q.err.find("--json - and --junit -"), std::string::npos) << q.err;
}

TEST_F(cli_edges, check_json_dash_is_one_json_document) {
  const auto r = run("check --dialect agent --json - --file '" + example.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["summary"]["conforming"], true);
}

// The tool's own line limit stops reading: said so, the producer not blamed, exit 2.
TEST_F(cli_edges, validate_says_its_own_limit_stopped_reading) {
  const auto r = run("validate --dialect agent --max-line 10 '" + example.string() + "'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(r.out.find("AGENT-DONE-LAST"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reading stopped"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not graded to the end (a limit stopped reading)"), std::string::npos) << r.out;
}

// A sampled check does not grade the end it did not read.
TEST_F(cli_edges, check_max_events_is_a_sample_not_a_failure) {
  const auto r = run("check --dialect agent --max-events 3 - < '" + example.string() + "'");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("AGENT-DONE-LAST"), std::string::npos) << r.out;
  // One read brought the whole file: every event in it was read and graded.
  EXPECT_NE(r.out.find("sampled: 7 events read, end of stream not graded"), std::string::npos) << r.out;
}

// help, help SUB, and the nearest subcommand for a typo.
TEST_F(cli_edges, help_and_mistyped_commands) {
  const auto h = run("help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("validate"), std::string::npos) << h.out;
  // The usage line names the tool (not an empty name, nor the path it was run by).
  EXPECT_NE(h.out.find("Usage: sse-conform [OPTIONS] SUBCOMMAND"), std::string::npos) << h.out;
  const auto hs = run("help parse");
  EXPECT_EQ(hs.status, 0);
  EXPECT_NE(hs.out.find("--chunk"), std::string::npos) << hs.out;
  EXPECT_NE(hs.out.find("Usage: sse-conform parse "), std::string::npos) << hs.out;
  const auto dash = run("parse --help");
  EXPECT_NE(dash.out.find("Usage: sse-conform parse "), std::string::npos) << dash.out;
  const auto typo = run("pars x");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("did you mean 'parse'?"), std::string::npos) << typo.err;
  const auto far = run("zzzzzzzz");
  EXPECT_EQ(far.status, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

// 9 and 17. Numeric options are range-checked and say the valid range.
TEST_F(cli_edges, numeric_options_say_their_valid_range) {
  const auto chunk = run("parse --chunk -1 '" + example.string() + "'");
  EXPECT_EQ(chunk.status, 2);
  EXPECT_NE(chunk.err.find("'-1' is not a number of at least 0"), std::string::npos) << chunk.err;
  const auto port = run("serve --port 99999 --duration-s 0.1");
  EXPECT_EQ(port.status, 2);
  EXPECT_NE(port.err.find("between 0 and 65535"), std::string::npos) << port.err;
  const auto runs = run("bench --help");
  EXPECT_EQ(runs.out.find("UINT:UINT in ["), std::string::npos) << runs.out;
  EXPECT_NE(runs.out.find("1..100000"), std::string::npos) << runs.out;
  const auto idle = run("check --dialect wire --idle-timeout-s -3 -");
  EXPECT_EQ(idle.status, 2);
}

// Only http and https.
TEST_F(cli_edges, check_refuses_other_url_schemes) {
  const auto r = run("check --dialect wire --url ftp://127.0.0.1/x");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("only http:// and https://"), std::string::npos) << r.err;
}

// When its data cannot be read, `cases` prints its error and no table of
// zeros. (From any directory it finds its data: tools/docs/cli.md, "Where
// the data comes from"; an empty SSEC_DATA_DIR stands for a data directory
// that is not there.)
TEST_F(cli_edges, cases_outside_the_repository_prints_only_the_error) {
  fs::create_directories(dir_ / "empty-data");
  const auto r = run("cases", "SSEC_DATA_DIR='" + (dir_ / "empty-data").string() + "' ");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(r.err.empty());
}

// validate reads a `check --record` capture as check --file does.
TEST_F(cli_edges, validate_reads_a_capture) {
  const auto rec = run("check --dialect agent --record rec.jsonl - < '" + example.string() + "'");
  ASSERT_EQ(rec.status, 0) << rec.out << rec.err;
  const auto r = run("validate --dialect agent rec.jsonl");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rec.jsonl (capture of <stdin>)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("0 frames"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": conforming"), std::string::npos) << r.out;
}

// A capture is read as it arrives: under --max-bytes, no further than the
// piece that crosses it, however much follows; a member of the wrong type is
// an error naming its line (both were an unbounded read and an abort).
TEST_F(cli_edges, validate_reads_a_capture_no_further_than_its_limit) {
  const std::string header = R"({"format":"sse-conform-capture","version":1})";
  const std::string piece = R"({"t":0,"b64":"ZGF0YTogYQoK"})";  // "data: a\n\n"
  const auto r = run("validate --dialect agent --max-bytes 1000 --json -",
                     "{ printf '%s\\n' '" + header + "'; yes '" + piece + "' | head -n 400000; } | ");
  EXPECT_EQ(r.status, 1) << r.err;  // "a" is no agent frame: MUST findings in what was read
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out << r.err;
  EXPECT_EQ(j["frames"], 111) << r.out;  // 1,000 bytes: 111 whole frames, the 112th cut
  EXPECT_EQ(j["summary"]["sampled"], true) << r.out;
  const auto bad = run("validate --dialect agent -",
                       "printf '%s\\n' '" + header.substr(0, header.size() - 1) + R"(,"status":"200"}' | )");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("<stdin>:1: status: expected a whole number, got string"), std::string::npos) << bad.err;
}

// The reference adapter answers a request of any shape with an error answer
// and reads on; only {"op":"bye"} (or the end of its input) ends it.
TEST_F(cli_edges, the_reference_adapter_answers_requests_of_any_shape) {
  const auto r = run("adapter", R"(printf '%s\n' '{"op":5}' '{"op":["bye"]}' '[1]' '{"op":"hello","protocol":1}' )"
                                R"('{"op":"bye"}' '{"op":"hello","protocol":1}' | )");
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<nlohmann::json> answers;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) answers.push_back(nlohmann::json::parse(line, nullptr, false));
  ASSERT_EQ(answers.size(), 4u) << r.out;  // nothing after the bye
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(answers[i].contains("error")) << answers[i];
  EXPECT_EQ(answers[3]["op"], "hello") << answers[3];
}

// A request line longer than --max-request-bytes is answered with an error
// as soon as the adapter holds more than that, and the rest of it is dropped
// as it arrives; the requests after it are answered as usual, and a line of
// exactly the bound is held and answered.
TEST_F(cli_edges, the_reference_adapter_refuses_a_request_line_longer_than_its_bound) {
  const std::string hello = R"({"op":"hello","protocol":1})";
  const std::string at_bound = hello + std::string(1000 - hello.size(), ' ');
  const auto r =
      run("adapter --max-request-bytes 1000",
          "{ head -c 200000 /dev/zero | tr '\\0' x; printf '\\n%s\\n%s\\n' '" + hello + "' '" + at_bound + "'; } | ");
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<nlohmann::json> answers;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) answers.push_back(nlohmann::json::parse(line, nullptr, false));
  ASSERT_EQ(answers.size(), 3u) << r.out;
  EXPECT_EQ(answers[0].value("error", ""),
            "request line longer than 1000 bytes (--max-request-bytes): skipped to its end")
      << answers[0];
  EXPECT_EQ(answers[1]["op"], "hello") << answers[1];
  EXPECT_EQ(answers[2]["op"], "hello") << answers[2];
  EXPECT_EQ(run("adapter --max-request-bytes 0", "true | ").status, 2);
}

// One of a thing is singular; the JUnit suite is not named twice.
TEST_F(cli_edges, plurals_are_right) {
  const fs::path one = write("one.sse", "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n");
  const auto r = run("check --dialect wire --file one.sse");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 read,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 event ("), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1 reads"), std::string::npos) << r.out;
  const auto v = run("validate --dialect agent one.sse");
  EXPECT_NE(v.out.find("1 frame,"), std::string::npos) << v.out;
  // serve over a case tree of one case.
  fs::create_directories(dir_ / "cases/ours");
  write("cases/ours/one.yaml", one_case_yaml);
  const auto s = run("serve --cases cases --client-cases '' --port 0 --duration-s 0.2");
  EXPECT_EQ(s.status, 0) << s.out << s.err;
  EXPECT_NE(s.out.find("sse-conform serve: 1 case at http://"), std::string::npos) << s.out << s.err;
  // The client cases are played beside them by default.
  const auto with_clients = run("serve --cases cases --port 0 --duration-s 0.2");
  EXPECT_NE(with_clients.out.find("sse-conform serve: 1 case and 24 client cases at http://"), std::string::npos)
      << with_clients.out << with_clients.err;
}

// The overall timeout is opt-in; the idle timeout is the default guard.
TEST_F(cli_edges, check_overall_timeout_is_off_by_default) {
  const auto r = run("check --help");
  EXPECT_NE(r.out.find("--timeout-s"), std::string::npos);
  // The default is shown as =0 (none).
  const auto at = r.out.find("--timeout-s");
  EXPECT_NE(r.out.substr(at, 200).find("=0 "), std::string::npos) << r.out.substr(at, 200);
}

// B. `check` says it is still reading while a stream is open; --quiet silences it.
TEST_F(cli_edges, check_prints_a_heartbeat_while_the_stream_is_open) {
  // The stream stays open until the heartbeat is on stderr (60 s at most), however slowly the tool starts.
  const auto r = run("check --dialect wire --progress-s 0.3 -",
                     "(printf 'data: a\\n\\n'; i=0; until grep -qs 'still reading after' stderr || [ $i -ge 600 ]; "
                     "do sleep 0.1; i=$((i+1)); done) | ");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("still reading after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("9 bytes, 1 event, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("s since the last byte"), std::string::npos) << r.err;
  const auto q = run("check --dialect wire --progress-s 0.3 --quiet -", "(printf 'data: a\\n\\n'; sleep 1) | ");
  EXPECT_EQ(q.err.find("still reading"), std::string::npos) << q.err;
}

// B. Producer findings are printed on stderr as the frame that breaks a rule
// arrives, before the stream ends (here: before the next heartbeat). The
// writer holds the stream open until the finding is on stderr, then for more
// than one heartbeat, so the order does not hang on how fast the tool starts
// (a second or more in an ASan build under load); it gives up after 60 s.
TEST_F(cli_edges, check_prints_findings_as_they_happen) {
  const std::string frame = "data: {\\\"type\\\":\\\"message_chunk\\\",\\\"stepId\\\":\\\"s1\\\"}\\n\\n";
  const std::string writer = "(printf \"" + frame +
                             "\"; i=0; until grep -qs 'as it arrives' stderr || [ $i -ge 600 ]; do sleep 0.1; "
                             "i=$((i+1)); done; sleep 1.2) | ";
  const auto r = run("check --dialect agent --progress-s 0.8 -", writer);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  // Numbered from 1, as the report numbers the same frame.
  const auto live = r.err.find("sse-conform check: as it arrives: frame 1, byte 0: AGENT-RUNID-PRESENT (must)");
  const auto beat = r.err.find("still reading after");
  ASSERT_NE(live, std::string::npos) << r.err;
  ASSERT_NE(beat, std::string::npos) << r.err;
  EXPECT_LT(live, beat) << r.err;
  EXPECT_NE(r.out.find("frame 1, byte 0: AGENT-RUNID-PRESENT"), std::string::npos) << r.out;  // and in the report
}

// `fuzz --json -`: the JSON alone on standard output, the text summary on stderr.
TEST_F(cli_edges, fuzz_json_dash_is_one_json_document) {
  const auto r = run("fuzz --impl \"'" + tool + "' adapter\" --max-execs 20 --budget 5 --no-progress --json - --out f");
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j.value("fuzz_format", 0), 1);
  EXPECT_NE(r.err.find("sse-conform fuzz: "), std::string::npos) << r.err;
}

// The HTML report's case links lead to the case files from wherever the page
// is written (here: a folder outside the repository, the cases in the source tree).
TEST_F(cli_edges, html_case_links_resolve_from_the_pages_folder) {
  fs::create_directories(dir_ / "reports");
  const auto r = run("run --impl \"'" + tool + "' adapter\" --run 'wire/bom/*' --no-progress --html reports/r.html");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir_ / "reports/r.html");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page, m, std::regex("<a href=\"([^\"#]*/bom\\.yaml)#L[0-9]+\">"))) << page;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "reports" / m[1].str())) << m[1];
}

// B. `cases --check` prints progress off a terminal too: done/total, failures, time left.
TEST_F(cli_edges, cases_check_prints_progress_lines) {
  const auto r = run("cases --check --chunkings whole --progress-s 0.001");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("cases --check: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" cases, 0 failed, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" s left"), std::string::npos) << r.err;
  const auto quiet = run("cases --check --chunkings whole --progress-s 0.001 -q");
  EXPECT_EQ(quiet.err.find("cases --check: "), std::string::npos) << quiet.err;
}

// One quiet flag, spelled the same three ways, on every command that reports progress.
TEST_F(cli_edges, every_command_that_reports_progress_takes_the_same_quiet_flag) {
  for (const char* command : {"run", "cases", "check", "fuzz", "certify"}) {
    const auto help = run(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command << help.err;
    EXPECT_NE(help.out.find("-q,--quiet,--no-progress"), std::string::npos) << command << "\n" << help.out;
  }
  const auto quiet = run("run --impl \"'" + tool + "' adapter\" --run 'wire/bom/*' --progress-s 0.001 --quiet");
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("run: 1/"), std::string::npos) << quiet.err;
}

// B. Colour on a terminal (script(1) gives the tool one), none under NO_COLOR.
TEST_F(cli_edges, colour_on_a_terminal_unless_no_color) {
  if (shell("command -v script").status != 0) GTEST_SKIP() << "script(1) is not installed";
  for (const std::string cmd : {"validate --dialect agent ", "check --dialect agent --file "}) {
    const std::string on_a_terminal =
        "script -qec " + quote(quote(tool) + " " + cmd + quote(example.string())) + " /dev/null";
    const auto c = shell(on_a_terminal, dir_);
    EXPECT_NE(c.out.find("\x1b[33m"), std::string::npos) << cmd << c.out;  // SHOULD findings yellow
    const auto n = shell("NO_COLOR=1 " + on_a_terminal, dir_);
    EXPECT_NE(n.out.find("AGENT-STEPID-PRESENT"), std::string::npos) << cmd << n.out;
    EXPECT_EQ(n.out.find('\x1b'), std::string::npos) << cmd << n.out;
  }
}

// B. No colour when the output is not a terminal.
TEST_F(cli_edges, no_colour_off_a_terminal) {
  const auto r = run("validate --dialect agent '" + example.string() + "'");
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  const auto c = run("check --dialect agent --file '" + example.string() + "'");
  EXPECT_EQ(c.out.find('\x1b'), std::string::npos) << c.out;
}

// An option a command does not have is named with the nearest one it has,
// at every level (the tool, a command, a command's sub-command).
TEST_F(cli_edges, an_unknown_option_is_named_with_the_nearest_known_one) {
  const auto top = run("--versoin");
  EXPECT_EQ(top.status, 2);
  EXPECT_NE(top.err.find("sse-conform: unknown option '--versoin'; did you mean '--version'?"), std::string::npos)
      << top.err;
  const auto check = run("check --jsn out.json --dialect agent '" + example.string() + "'");
  EXPECT_EQ(check.status, 2);
  EXPECT_NE(check.err.find("sse-conform check: unknown option '--jsn'; did you mean '--json'?"), std::string::npos)
      << check.err;
  const auto diff = run("catalog diff --formt json '" + (source_dir / "spec").string() + "' '" +
                        (source_dir / "spec").string() + "'");
  EXPECT_EQ(diff.status, 2);
  EXPECT_NE(diff.err.find("sse-conform catalog diff: unknown option '--formt'; did you mean '--format'?"),
            std::string::npos)
      << diff.err;
  // A known option with a bad value keeps its own message.
  const auto value = run("catalog diff --format xml '" + (source_dir / "spec").string() + "' '" +
                         (source_dir / "spec").string() + "'");
  EXPECT_EQ(value.status, 2);
  EXPECT_EQ(value.err.find("unknown option"), std::string::npos) << value.err;
}

// `explain` takes a rule id in any case, and names the nearest one it knows.
TEST_F(cli_edges, explain_takes_a_rule_id_in_any_case) {
  const auto lower = run("explain agent-done-last");
  EXPECT_EQ(lower.status, 0) << lower.err;
  EXPECT_NE(lower.out.find("AGENT-DONE-LAST (must"), std::string::npos) << lower.out;
  const auto typo = run("explain agent-done-lst");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("no rule 'agent-done-lst'; did you mean 'AGENT-DONE-LAST'?"), std::string::npos) << typo.err;
}

// `check --dialect D FILE` reads FILE as --file FILE does, as `validate FILE` does.
TEST_F(cli_edges, check_takes_a_file_as_its_argument_as_validate_does) {
  const auto positional = run("check --dialect agent --json - '" + example.string() + "'");
  const auto named = run("check --dialect agent --json - --file '" + example.string() + "'");
  EXPECT_EQ(positional.status, 0) << positional.err;
  EXPECT_EQ(positional.out, named.out);
  const auto both = run("check --dialect agent --file '" + example.string() + "' '" + example.string() + "'");
  EXPECT_EQ(both.status, 2) << both.out;
}

}  // namespace

// Frames are counted from 1 in every text and in the JSON's frame_number; a
// finding about the end of the stream names no frame that is not there.
TEST_F(cli_edges, every_report_numbers_frames_as_the_text_does) {
  write("three.sse",
        "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
        "data: {\"type\":\"step_started\",\"runId\":\"r1\"}\n\n"
        "data: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n");
  for (const std::string command : {"validate", "check"}) {
    const auto text = run(command + " --dialect agent three.sse");
    EXPECT_EQ(text.status, 1) << command << "\n" << text.err;
    EXPECT_NE(text.out.find("three.sse: the end of the stream, after frame 3, byte 132: AGENT-DONE-LAST (must)"),
              std::string::npos)
        << command << "\n"
        << text.out;
    EXPECT_NE(text.out.find("three.sse: frame 2, byte 43: AGENT-STEP-STEPID"), std::string::npos) << command << "\n"
                                                                                                  << text.out;
    EXPECT_EQ(text.out.find("frame 4"), std::string::npos) << command << "\n" << text.out;
    // validate's --json is a switch, check's names a file.
    const auto json = run(command + " --dialect agent --json " + (command == "check" ? "- " : "") + "three.sse");
    const auto j = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << command << "\n" << json.out;
    std::size_t seen = 0;
    for (const auto& f : j["findings"]) {
      if (f["rule"] == "AGENT-DONE-LAST") {
        EXPECT_EQ(f["frame"], 3) << command;
        EXPECT_TRUE(f["frame_number"].is_null()) << command << " " << f.dump();
        ++seen;
      } else if (f["rule"] == "AGENT-STEP-STEPID") {
        EXPECT_EQ(f["frame"], 1) << command;
        EXPECT_EQ(f["frame_number"], 2) << command;
        ++seen;
      }
    }
    EXPECT_EQ(seen, 2u) << command << "\n" << json.out;
  }
}

// A check with findings prints the command that reproduces them; run, it
// reports the same findings. A URL is recorded once and replayed from the
// capture.
TEST_F(cli_edges, check_prints_a_reproduction_that_reproduces) {
  write("three.sse",
        "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
        "data: {\"type\":\"step_started\",\"runId\":\"r1\"}\n\n");
  const auto first = run("check --dialect agent three.sse");
  EXPECT_EQ(first.status, 1) << first.err;
  const auto at = first.out.find("reproduce: ");
  ASSERT_NE(at, std::string::npos) << first.out;
  const std::string line = first.out.substr(at + 11, first.out.find('\n', at) - at - 11);
  EXPECT_NE(line.find("check --dialect 'agent' --file 'three.sse'"), std::string::npos) << line;
  const auto again = shell(line, "/");
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_EQ(again.out, first.out);
  // Standard input cannot be read again: the line says how to keep it.
  const auto piped = run("check --dialect agent - < three.sse");
  EXPECT_NE(piped.out.find("reproduce: the bytes were read once (standard input or a pipe): add --record FILE"),
            std::string::npos)
      << piped.out;
  // A conforming check prints none.
  write("good.sse", "data: a\n\n");
  const auto good = run("check --dialect wire good.sse");
  EXPECT_EQ(good.status, 0) << good.out;
  EXPECT_EQ(good.out.find("reproduce:"), std::string::npos) << good.out;
}

namespace {

// Every command that reads case files says the same thing for a folder that
// is not there, naming the option that gave it, and exits 2.
TEST_F(cli_edges, every_command_that_reads_cases_names_a_missing_folder_the_same_way) {
  const struct {
    std::string command, said;
  } commands[] = {
      {"cases --cases nowhere", "sse-conform cases: nowhere: not a directory of case files (--cases)"},
      {"coverage --cases nowhere", "sse-conform coverage: nowhere: not a directory of case files (--cases)"},
      {"rules --cases nowhere", "sse-conform rules: nowhere: not a directory of case files (--cases)"},
      {"explain AGENT-DONE-LAST --cases nowhere",
       "sse-conform explain: nowhere: not a directory of case files (--cases)"},
      {"run --impl true --cases nowhere", "sse-conform run: nowhere: not a directory of case files (--cases)"},
      {"serve --port 0 --cases nowhere", "sse-conform serve: nowhere: not a directory of case files (--cases)"},
      {"serve --port 0 --client-cases nowhere",
       "sse-conform serve: nowhere: not a directory of case files (--client-cases)"},
      {"fuzz --impl true --replay nowhere", "sse-conform fuzz: nowhere: not a directory of case files (--replay)"},
  };
  for (const auto& c : commands) {
    const auto r = run(c.command);
    EXPECT_EQ(r.status, 2) << c.command << "\n" << r.err;
    EXPECT_NE(r.err.find(c.said), std::string::npos) << c.command << "\n" << r.err;
  }
}

// `bench --layer scan` is the wire layer's floor: its JSON line counts lines,
// not events, on the same file and chunks as `bench --layer wire`.
TEST_F(cli_edges, bench_layer_scan_counts_the_lines_the_wire_layer_reads) {
  const auto scan = run("bench --layer scan --chunk 0 --runs 1 " + quote(example.string()));
  ASSERT_EQ(scan.status, 0) << scan.err;
  const auto s = nlohmann::json::parse(scan.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << scan.out;
  EXPECT_EQ(s["layer"], "scan");
  EXPECT_FALSE(s.contains("events")) << scan.out;
  const auto wire =
      nlohmann::json::parse(run("bench --chunk 0 --runs 1 " + quote(example.string())).out, nullptr, false);
  ASSERT_TRUE(wire.is_object());
  // The example ends every line in LF: one line a LF, and every other byte a line's.
  const std::string bytes = read_file(example);
  const auto lines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  EXPECT_EQ(s["lines"].get<std::size_t>(), lines);
  EXPECT_EQ(s["line_bytes"].get<std::size_t>(), bytes.size() - lines);
  EXPECT_EQ(s["bytes"], wire["bytes"]);
  EXPECT_GT(wire["events"].get<std::size_t>(), 0u);
  // A misspelt layer is refused with every layer bench knows, scan among them.
  const auto typo = run("bench --layer scna --runs 1 " + quote(example.string()));
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("unknown layer `scna` (known: wire, chat, code, workflow, agent, scan)"), std::string::npos)
      << typo.err;
}

}  // namespace
