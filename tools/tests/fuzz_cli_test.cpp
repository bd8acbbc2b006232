// SPDX-License-Identifier: MIT
// `sse-conform fuzz` run as a user runs it and stopped by a signal
// (tools/docs/fuzz.md, "Interruption"): the adapters' process groups end,
// the findings written stay written, the summary says it was interrupted,
// and the exit status is 128 + the signal. The rest of the command is tested
// in tools/differential/tests.
#include <nlohmann/json.hpp>

#include "interruption.hpp"
#include "tool_run.hpp"

namespace {

using namespace tool_run;
using interruption::stop_signal;

const std::string broken_adapter = BROKEN_ADAPTER;
const std::string toy_adapter = TOY_ADAPTER;

class fuzz_interrupted : public tool_test, public ::testing::WithParamInterface<stop_signal> {
 protected:
  fuzz_interrupted() : tool_test("ssec-fuzz-cli-") {}

  // Fuzzes, with seed 1, the toy parser that keeps only the first data line
  // of an event (found at sample 2) behind a broken adapter that forwards its
  // first `forwarded` parse requests and then hangs; once it hangs, stops the
  // fuzzer with `sig`. Returns the summary (JSON); the exit status in `status`.
  nlohmann::json fuzz_until_hung_then(const stop_signal& sig, int forwarded, int& status) {
    const std::string impl = interruption::recording_group(
        pids_,
        "python3 " + quote(broken_adapter) + " hang --after " + std::to_string(forwarded) + " --record " +
            quote(hung_.string()) + " -- " + quote(toy_adapter) + " --bug first-data",
        sig.adapter_ignores);
    const pid_t fuzz = interruption::start(quote(tool) + " fuzz --impl " + quote(impl) +
                                           " --budget 600 --seed 1 --timeout-ms 600000 --no-progress --out " +
                                           quote((dir_ / "found").string()) + " --json " + quote(json_.string()) +
                                           " > " + quote(text_.string()) + " 2>&1");
    EXPECT_GE(fuzz, 0);
    EXPECT_TRUE(interruption::wait_for_text(hung_, "\n")) << read_file(text_);  // the id of the request it holds
    ::kill(fuzz, sig.number);
    status = interruption::wait_exit(fuzz);
    return nlohmann::json::parse(read_file(json_));
  }

  // No process is left in the adapters' process groups.
  void expect_no_adapter_left() const {
    const auto groups = interruption::recorded_groups(pids_);
    ASSERT_FALSE(groups.empty());
    EXPECT_EQ(interruption::running_in(groups), std::vector<std::string>{});
  }

  // Each finding of the summary is in its file.
  static void expect_findings_written(const nlohmann::json& summary) {
    for (const auto& f : summary["impls"][0]["findings"]) {
      const std::string file = f["file"];
      EXPECT_NE(read_file(file).find("# fingerprint: " + f["fingerprint"].get<std::string>()), std::string::npos)
          << file << " is not the finding's case file";
    }
  }

  void SetUp() override {
    tool_test::SetUp();
    pids_ = dir_ / "pids.txt";
    hung_ = dir_ / "hung.txt";
    json_ = dir_ / "summary.json";
    text_ = dir_ / "summary.txt";
  }

  fs::path pids_, hung_, json_, text_;  // in dir_
};

// The adapter hangs at sample 177, long after the bug's finding was shrunk
// and written.
TEST_P(fuzz_interrupted, the_adapters_end_the_findings_stay_and_the_summary_says_interrupted) {
  const stop_signal& sig = GetParam();
  int status = -1;
  const auto summary = fuzz_until_hung_then(sig, 400, status);
  EXPECT_EQ(status, 128 + sig.number) << read_file(text_);
  expect_no_adapter_left();

  EXPECT_EQ(summary["interrupted"], sig.name);
  EXPECT_EQ(summary["exit"], 128 + sig.number);
  const auto& findings = summary["impls"][0]["findings"];
  ASSERT_EQ(findings.size(), 1u) << summary.dump(2);
  EXPECT_EQ(findings[0]["shrink_complete"], true) << summary.dump(2);
  expect_findings_written(summary);
  const std::string text = read_file(text_);
  EXPECT_NE(text.find("INTERRUPTED by " + sig.name + ": " + std::to_string(summary["execs"].get<std::uint64_t>()) +
                      " samples finished; the findings below are written"),
            std::string::npos)
      << text;
}

INSTANTIATE_TEST_SUITE_P(signals, fuzz_interrupted, ::testing::ValuesIn(interruption::stop_signals),
                         [](const auto& info) { return info.param.name; });

// The adapter hangs while the finding of sample 2 is being shrunk: the
// finding is written as shrunk so far.
TEST_F(fuzz_interrupted, a_finding_being_shrunk_is_written_as_shrunk_so_far) {
  const stop_signal& sig = interruption::stop_signals.back();
  int status = -1;
  const auto summary = fuzz_until_hung_then(sig, 30, status);
  EXPECT_EQ(status, 128 + sig.number) << read_file(text_);
  expect_no_adapter_left();
  EXPECT_EQ(summary["interrupted"], sig.name);
  const auto& findings = summary["impls"][0]["findings"];
  ASSERT_EQ(findings.size(), 1u) << summary.dump(2);
  EXPECT_EQ(findings[0]["shrink_complete"], false) << summary.dump(2);
  EXPECT_LE(findings[0]["bytes"].get<int>(), findings[0]["original_bytes"].get<int>());
  expect_findings_written(summary);
}

}  // namespace
