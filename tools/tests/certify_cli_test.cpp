// SPDX-License-Identifier: MIT
// `sse-conform certify` run as a user runs it and stopped by a signal
// (tools/docs/certify.md, "Interruption"): the consumers' process groups
// end, every report asked for is written with what finished and marked
// interrupted, and the exit status is 128 + the signal. The rest of the
// command is tested end to end by tools/certify/tests/certify_e2e.sh.
#include <nlohmann/json.hpp>

#include "interruption.hpp"
#include "tool_run.hpp"

namespace {

using namespace tool_run;
using interruption::stop_signal;

const std::string broken_adapter = BROKEN_ADAPTER;

class certify_interrupted : public tool_test, public ::testing::WithParamInterface<stop_signal> {
 protected:
  certify_interrupted() : tool_test("ssec-certify-cli-") {}
};

// The contract, then the producer (a capture) finish; the consumer hangs on
// its first probe. The signal ends the consumer's process group, and the
// reports hold the contract and the producer, naming the consumer unfinished.
TEST_P(certify_interrupted, the_consumers_end_and_the_reports_say_interrupted) {
  const stop_signal& sig = GetParam();
  const fs::path pids = dir_ / "pids.txt", hung = dir_ / "hung.txt";
  const std::string consumer =
      interruption::recording_group(pids,
                                    "python3 " + quote(broken_adapter) + " hang --on probe/ --record " +
                                        quote(hung.string()) + " -- " + quote(tool) + " adapter",
                                    sig.adapter_ignores);
  const std::string spec = quote((source_dir / "spec").string());
  const std::string out = (dir_ / "report").string();
  const pid_t certify = interruption::start(
      quote(tool) + " certify --old " + spec + " --new " + spec + " --capture " +
      quote((source_dir / "tools/examples/agent-run.sse").string()) + " --dialect agent --consumer " + quote(consumer) +
      " --timeout-ms 600000 --case-chunkings whole --quiet --json " + out + ".json --junit " + out + ".xml --html " +
      out + ".html --markdown " + out + ".md > " + out + ".txt 2>&1");
  ASSERT_GE(certify, 0);
  EXPECT_TRUE(interruption::wait_for_text(hung, "probe/")) << read_file(out + ".txt");
  ::kill(certify, sig.number);
  EXPECT_EQ(interruption::wait_exit(certify), 128 + sig.number) << read_file(out + ".txt");

  const auto groups = interruption::recorded_groups(pids);
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(interruption::running_in(groups), std::vector<std::string>{});

  const auto report = nlohmann::json::parse(read_file(out + ".json"));
  EXPECT_EQ(report["interrupted"], sig.name);
  EXPECT_EQ(report["certified"], false);
  EXPECT_EQ(report["unfinished"], nlohmann::json::array({"consumer " + consumer})) << report.dump(2);
  EXPECT_GT(report["reference"]["cases"].get<int>(), 0);
  ASSERT_EQ(report["producers"].size(), 1u);
  EXPECT_EQ(report["producers"][0]["verdict"], "certified-with-warnings");
  EXPECT_TRUE(report["consumers"].empty()) << report.dump(2);

  const std::string text = read_file(out + ".txt");
  EXPECT_NE(text.find("INTERRUPTED by " + sig.name + ": not finished: consumer "), std::string::npos) << text;
  EXPECT_NE(text.find("NOT CERTIFIED: interrupted by " + sig.name), std::string::npos) << text;
  EXPECT_NE(read_file(out + ".xml").find("interrupted=\"" + sig.name + "\""), std::string::npos);
  EXPECT_NE(read_file(out + ".md").find("**INTERRUPTED** by " + sig.name + ": not finished: consumer "),
            std::string::npos)
      << read_file(out + ".md");
  EXPECT_NE(read_file(out + ".html").find("<p class=\"interrupted\"><b>INTERRUPTED</b> by " + sig.name),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(signals, certify_interrupted, ::testing::ValuesIn(interruption::stop_signals),
                         [](const auto& info) { return info.param.name; });

}  // namespace
