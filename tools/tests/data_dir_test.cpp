// SPDX-License-Identifier: MIT
// Where the tool finds its data (tools/docs/cli.md, "Where the data comes
// from"): every subcommand that reads the tag list, the catalogs or the cases
// works from a directory outside the repository, from the build tree, through
// $SSEC_DATA_DIR, and installed; `--version` prints the tool, the catalogs and
// the case set (tools/docs/cli.md, "Versions").
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "tool_run.hpp"

namespace {

using namespace tool_run;  // the tool, its outcome, read_file, quote, the fixture

class data_dir : public tool_test {
 protected:
  data_dir() : tool_test("ssec-data-") {}

  void SetUp() override {
    tool_test::SetUp();
    fs::create_directories(dir_ / "elsewhere");
  }

  // Runs `command` (a shell command line) in dir_/elsewhere, outside any checkout.
  outcome sh(const std::string& command) const { return shell(command, dir_ / "elsewhere"); }
};

TEST_F(data_dir, every_subcommand_finds_the_source_tree_from_any_directory) {
  const std::string t = quote(tool);
  auto r = sh(t + " cases");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("No such file"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("wire"), std::string::npos) << r.out;

  r = sh(t + " coverage");
  EXPECT_NE(r.status, 2) << r.out << r.err;
  EXPECT_EQ(r.err.find("No such file"), std::string::npos) << r.err;

  r = sh(t + " run --no-progress --impl " + quote(t + " adapter") + " --run 'wire/bom/*' --chunkings whole");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out;

  // rules and explain read the cases that pin each rule.
  r = sh(t + " rules --dialect agent");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("No such file"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("AGENT-DONE-LAST"), std::string::npos) << r.out;
  r = sh(t + " explain AGENT-DONE-LAST");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("AGENT-DONE-LAST"), std::string::npos) << r.out;

  r = sh(t + " serve --port 0 --duration-s 0.3");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" cases at http://"), std::string::npos) << r.out << r.err;
}

TEST_F(data_dir, ssec_data_dir_names_another_data_directory_and_version_reports_it) {
  // A data directory of one case file with one case.
  const fs::path data = dir_ / "data";
  fs::create_directories(data / "spec");
  fs::create_directories(data / "conformance/cases/ours");
  fs::copy_file(source_dir / "spec/tags.yaml", data / "spec/tags.yaml");
  std::ofstream(data / "conformance/cases/ours/one.yaml") << one_case_yaml;
  const std::string env = "SSEC_DATA_DIR=" + quote(data.string()) + " ";
  auto r = sh(env + quote(tool) + " run --no-progress --impl " + quote(quote(tool) + " adapter"));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED: 1 case:"), std::string::npos) << r.out;

  r = sh(env + quote(tool) + " --version");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("sse-conform ", 0), 0u) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ncatalog spec/chat\\.yaml [0-9]+\\.[0-9]+\\.[0-9]+ "
                                                  "\\(chat-and-code-sessions\\.txt, built in\\)\n")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ncatalog spec/agent\\.yaml [0-9.]+ \\(agent-service\\.txt")))
      << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\ncases 1 cases in 1 files, fingerprint ([0-9a-f]{16}) \\(")))
      << r.out;
  const std::string fingerprint = m[1];
  EXPECT_NE(r.out.find(data.string()), std::string::npos) << r.out;
  // Where the data is, and no examples or adapters line where it holds none.
  EXPECT_NE(r.out.find("\ndata " + fs::absolute(data).lexically_normal().string() + "\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nexamples "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nadapters "), std::string::npos) << r.out;

  // The fingerprint follows the bytes of the case files.
  std::ofstream(data / "conformance/cases/ours/one.yaml", std::ios::app) << "# a comment\n";
  r = sh(env + quote(tool) + " --version");
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("fingerprint ([0-9a-f]{16})"))) << r.out;
  EXPECT_NE(m[1], fingerprint);

  // The source tree's case set, by default.
  r = sh(quote(tool) + " --version");
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ncases [0-9]{3,} cases in [0-9]+ files, fingerprint"))) << r.out;
  const fs::path source = fs::absolute(source_dir).lexically_normal();
  EXPECT_NE(r.out.find("\nexamples " + (source / "tools/examples").string() + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nadapters " + (source / "tools/adapters").string() + "\n"), std::string::npos) << r.out;
}

TEST_F(data_dir, an_installed_tool_reads_share_sse_conform) {
  const fs::path prefix = dir_ / "prefix";
  auto r = sh(quote(SSEC_CMAKE) + " --install " + quote(SSEC_BUILD_DIR) + " --prefix " + quote(prefix.string()));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const fs::path share = prefix / "share/sse-conform";
  for (const char* f : {"spec/tags.yaml", "spec/chat.yaml", "spec/agent.yaml", "spec/DECISIONS.md",
                        "conformance/cases/ours/bom.yaml"}) {
    EXPECT_TRUE(fs::exists(share / f)) << f;
  }
  const std::string installed = quote((prefix / "bin/sse-conform").string());
  r = sh(installed + " --version");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(" + (share / "conformance/cases").string() + ")"), std::string::npos) << r.out;
  // The README's example streams and the JavaScript adapters are installed with the data.
  EXPECT_NE(r.out.find("\nexamples " + (share / "examples").string() + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nadapters " + (share / "adapters").string() + "\n"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(share / "examples/agent-run.sse"));
  EXPECT_TRUE(fs::exists(share / "adapters/eventsource-parser.js"));
  EXPECT_FALSE(fs::exists(share / "adapters/node_modules"));
  // The installed data, not the source tree's: a case added there is run.
  std::ofstream(share / "conformance/cases/ours/zz-installed.yaml") << R"(- id: Z2Z3
  name: only in the installed copy
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: must
  layer: wire
  input: ["data: z\n\n"]
  events: |
    event type="message" data="z" last_id=""
)";
  r = sh(installed + " run --no-progress --impl " + quote(installed + " adapter") +
         " --run 'wire/zz-installed/Z2Z3' --chunkings whole --json out.json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(read_file(dir_ / "elsewhere/out.json").find("Z2Z3"), std::string::npos);
  r = sh(installed + " cases");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// The README's "Check my endpoint" commands, as written but on a free port:
// serve the example run, check it with --url and with the example scenario.
TEST_F(data_dir, the_readme_endpoint_examples_pass) {
  const std::string t = quote(tool);
  const std::string examples = quote((source_dir / "tools/examples").string());
  const std::string script = "serve_log=$(mktemp); " + t + " serve --port 0 --duration-s 30 --stream " + examples +
                             "/agent-run.sse >\"$serve_log\" 2>&1 & pid=$!; url=; "
                             "for i in $(seq 200); do url=$(sed -n 's|.* cases at \\(http://[^ ]*\\)/ .*|\\1|p' "
                             "\"$serve_log\"); [ -n \"$url\" ] && break; sleep 0.1; done; "
                             "status=0; " +
                             t + " check --dialect agent --url \"$url/stream/agent-run.sse\" || status=$?; " +
                             "AGENT_BASE_URL=\"$url\" " + t + " check --scenario " + examples +
                             "/agent.scenario.yaml --junit check.xml || status=$((status + 10 * $?)); "
                             "kill $pid; rm -f \"$serve_log\"; exit $status";
  const auto r = sh("bash -c " + quote(script));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("agent: 2 findings (0 must, 2 should): conforming"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 scenario, 0 failed"), std::string::npos) << r.out;
  EXPECT_NE(read_file(dir_ / "elsewhere/check.xml").find("<testsuite"), std::string::npos);
}

}  // namespace
