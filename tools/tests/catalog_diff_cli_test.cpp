// SPDX-License-Identifier: MIT
// `sse-conform catalog diff` and `catalog rules` (tools/docs/catalog-diff.md),
// run as a user runs them, on copies of spec/ changed in the test: exit
// statuses per role and level, the ignore file, --against a git revision, and
// every report format read back (JSON with nlohmann, JUnit with an XML parser).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

const std::string tool = SSE_CONFORM_BIN;
const fs::path source_dir = SSEC_SOURCE_DIR;

struct outcome {
  int status = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// An added event type and optional field (a MINOR change), and a removed
// required nested field (a MAJOR one), as edits of spec/agent.yaml.
const std::string chunk_line =
    "          - {key: content, required: true, purpose: The text delta; deltas append in order., source: "
    "agent-service.txt:43}\n";
const std::string addition = chunk_line +
                             "          - {key: role, type: string, required: false, purpose: Who speaks., source: "
                             "agent-service.txt:43}\n"
                             "      - type: ping\n        purpose: Keep-alive.\n        source: agent-service.txt:43\n"
                             "        fields: []\n";
const std::string resume_block =
    "            fields:\n              - {key: resume, type: any, required: true, purpose: The revised resume., "
    "source: "
    "agent-service.txt:45}\n";

class catalog_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ssec-catalog-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A copy of spec/ (catalogs and DECISIONS.md) under `name`, with `edits`
  // applied to agent.yaml (each must match once).
  fs::path spec_copy(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits) const {
    fs::path d = dir_ / name;
    fs::create_directories(d);
    for (const char* f : {"chat.yaml", "agent.yaml", "DECISIONS.md"}) fs::copy_file(source_dir / "spec" / f, d / f);
    std::string text = read_file(d / "agent.yaml");
    for (const auto& [from, to] : edits) {
      const auto at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    std::ofstream(d / "agent.yaml", std::ios::binary) << text;
    return d;
  }

  fs::path minor() const {
    return spec_copy("minor", {{chunk_line, addition}, {"catalog_version: 3.0.0", "catalog_version: 3.1.0"}});
  }
  fs::path major_unbumped() const { return spec_copy("major", {{resume_block, ""}}); }

  outcome run(const std::string& args) const {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = "'" + tool + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  }

  int shell(const std::string& command) const {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string spec() const { return "'" + (source_dir / "spec").string() + "'"; }

  fs::path dir_;
};

TEST_F(catalog_cli, rules_lists_every_rule_with_levels_and_json_parses) {
  const auto text = run("catalog rules");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("EVENT_ADDED                 WARN   INFO"), std::string::npos) << text.out;
  const auto json = run("catalog rules --json");
  ASSERT_EQ(json.status, 0);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["catalog_diff_format"], 1);
  ASSERT_GE(j["rules"].size(), 30u);
  for (const auto& r : j["rules"]) {
    EXPECT_TRUE(r["reader"] == "ERR" || r["reader"] == "WARN" || r["reader"] == "INFO");
    EXPECT_FALSE(r["meaning"].get<std::string>().empty());
    EXPECT_NE(text.out.find(r["id"].get<std::string>()), std::string::npos);
  }
}

TEST_F(catalog_cli, the_same_spec_has_no_changes_and_exits_zero) {
  const auto r = run("catalog diff " + spec() + " " + spec());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0 changes"), std::string::npos) << r.out;
}

TEST_F(catalog_cli, an_addition_fails_only_at_warn_for_readers) {
  const auto m = minor().string();
  EXPECT_EQ(run("catalog diff " + spec() + " " + m).status, 0);
  EXPECT_EQ(run("catalog diff " + spec() + " " + m + " --fail-on WARN").status, 1);
  EXPECT_EQ(run("catalog diff " + spec() + " " + m + " --fail-on WARN --role reader").status, 1);
  EXPECT_EQ(run("catalog diff " + spec() + " " + m + " --fail-on WARN --role writer").status, 0);
  EXPECT_EQ(run("catalog diff " + spec() + " " + m + " --fail-on INFO --role writer").status, 1);
}

TEST_F(catalog_cli, a_breaking_change_fails_and_json_reports_it) {
  const auto r = run("catalog diff " + spec() + " " + major_unbumped().string() + " --format json");
  ASSERT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["catalog_diff_format"], 1);
  EXPECT_EQ(j["old"]["files"].size(), 2u);
  EXPECT_EQ(j["summary"]["result"], "fail");
  bool removed = false, version = false;
  for (const auto& c : j["changes"]) {
    if (c["rule"] == "FIELD_REMOVED" && c["event"] == "resume_update" && c["field"] == "payload.resume") {
      removed = true;
      EXPECT_EQ(c["level"]["reader"], "ERR");
      EXPECT_EQ(c["level"]["writer"], "WARN");
      EXPECT_EQ(c["fingerprint"].get<std::string>().size(), 16u);
      EXPECT_EQ(c["old_where"]["line"].get<int>() > 0, true);
      EXPECT_TRUE(c["new_where"].is_null());
      EXPECT_NE(c["counterexample"]["input"].get<std::string>().find("resume_update"), std::string::npos);
      EXPECT_EQ(c["ignored"], false);
    }
    version = version || c["rule"] == "VERSION_NOT_BUMPED";
  }
  EXPECT_TRUE(removed);
  EXPECT_TRUE(version);
}

TEST_F(catalog_cli, ignored_changes_pass_and_stay_listed) {
  const auto m = major_unbumped().string();
  const auto j = nlohmann::json::parse(run("catalog diff " + spec() + " " + m + " --format json").out);
  std::string ignore = "# accepted for the test\n";
  for (const auto& c : j["changes"])
    if (c["level"]["reader"] == "ERR" || c["level"]["writer"] == "ERR")
      ignore += c["fingerprint"].get<std::string>() + " the test accepts it\n";
  ignore += "0000000000000000 a stale entry\n";
  std::ofstream(dir_ / "ignore.txt") << ignore;
  const auto r =
      run("catalog diff " + spec() + " " + m + " --format json --ignore '" + (dir_ / "ignore.txt").string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ignore.txt:"), std::string::npos);
  EXPECT_NE(r.err.find("fingerprint 0000000000000000 matches no change"), std::string::npos) << r.err;
  const auto after = nlohmann::json::parse(r.out);
  EXPECT_EQ(after["changes"].size(), j["changes"].size());
  std::size_t ignored = 0;
  for (const auto& c : after["changes"])
    if (c["ignored"] == true) {
      ++ignored;
      EXPECT_EQ(c["ignore_reason"], "the test accepts it");
    }
  EXPECT_GT(ignored, 0u);
  EXPECT_EQ(after["summary"]["ignored"], ignored);

  std::ofstream(dir_ / "bad.txt") << j["changes"][0]["fingerprint"].get<std::string>() << "\n";
  const auto bad = run("catalog diff " + spec() + " " + m + " --ignore '" + (dir_ / "bad.txt").string() + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.txt:1:1:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("has no reason"), std::string::npos);
}

TEST_F(catalog_cli, every_format_reads_back) {
  const std::string args = "catalog diff " + spec() + " " + major_unbumped().string();
  const auto text = run(args);
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("FIELD_REMOVED  agent resume_update payload.resume"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("FAIL: "), std::string::npos);

  const fs::path xml = dir_ / "diff.xml";
  EXPECT_EQ(run(args + " --format junit --out '" + xml.string() + "'").status, 1);
  // Well-formed, read by a real XML parser; one testcase per change, the ERRs failed.
  const std::string check =
      "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
      "s = r.find('testsuite'); cases = s.findall('testcase'); "
      "assert len(cases) == int(s.get('tests')) > 0; "
      "assert len([c for c in cases if c.find('failure') is not None]) == int(s.get('failures')) > 0\" '" +
      xml.string() + "'";
  EXPECT_EQ(shell(check), 0) << read_file(xml);

  const auto gh = run(args + " --format github-actions");
  EXPECT_EQ(gh.status, 1);
  std::istringstream lines(gh.out);
  std::string line;
  std::size_t errors = 0;
  while (std::getline(lines, line)) {
    ASSERT_TRUE(line.starts_with("::error ") || line.starts_with("::warning") || line.starts_with("::notice") ||
                line.starts_with("::error::"))
        << line;
    if (line.starts_with("::error file=")) {
      ++errors;
      // A file-level annotation for the version, a line for everything else.
      if (line.find("VERSION_NOT_BUMPED") == std::string::npos) {
        EXPECT_NE(line.find("agent.yaml,line="), std::string::npos) << line;
      }
      EXPECT_NE(line.find(",title="), std::string::npos);
    }
  }
  EXPECT_GT(errors, 0u);

  const auto md = run(args + " --format markdown");
  EXPECT_EQ(md.status, 1);
  EXPECT_NE(md.out.find("### Catalog diff"), std::string::npos);
  EXPECT_NE(md.out.find("| level | rule | where | change | reader | writer | fingerprint |"), std::string::npos);
  EXPECT_NE(md.out.find("| ERR | `FIELD_REMOVED` |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("```yaml\ninput: ["), std::string::npos);
}

TEST_F(catalog_cli, a_contract_that_does_not_load_exits_two_naming_file_line_column) {
  const auto broken =
      spec_copy("broken", {{"purpose: Incremental assistant text.", "purpos: Incremental assistant text."}});
  const auto r = run("catalog diff " + spec() + " '" + broken.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("agent.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown key `purpos`"), std::string::npos) << r.err;
}

TEST_F(catalog_cli, usage_errors_exit_two) {
  EXPECT_EQ(run("catalog diff " + spec()).status, 2);
  EXPECT_EQ(run("catalog diff " + spec() + " " + spec() + " --format yaml").status, 2);
  EXPECT_EQ(run("catalog diff " + spec() + " " + spec() + " --role everyone").status, 2);
  EXPECT_EQ(run("catalog diff " + spec() + " " + spec() + " --fail-on NEVER").status, 2);
  EXPECT_EQ(run("catalog diff " + spec() + " '" + (dir_ / "missing").string() + "'").status, 2);
  EXPECT_EQ(run("catalog").status, 2);
}

TEST_F(catalog_cli, against_a_git_revision_reads_old_from_git) {
  const fs::path repo = dir_ / "repo";
  fs::create_directories(repo);
  const auto copy = spec_copy("repo/spec", {});
  const std::string git = "git -C '" + repo.string() + "' -c user.name=t -c user.email=t@example.invalid ";
  ASSERT_EQ(shell(git + "init -q && " + git + "add . && " + git + "commit -q -m base"), 0);
  EXPECT_EQ(run("catalog diff --against HEAD '" + copy.string() + "'").status, 0);
  // Change the working tree: an unbumped removal.
  std::string text = read_file(copy / "agent.yaml");
  text.replace(text.find(resume_block), resume_block.size(), "");
  std::ofstream(copy / "agent.yaml", std::ios::binary) << text;
  const auto r = run("catalog diff --against HEAD '" + copy.string() + "' --format json");
  ASSERT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& c : j["changes"])
    if (c["rule"] == "FIELD_REMOVED") {
      found = true;
      // OLD's location names the same path (not the temporary copy), at OLD's line.
      EXPECT_EQ(c["old_where"]["file"], (copy / "agent.yaml").generic_string());
    }
  EXPECT_TRUE(found);
  // Also the single file.
  EXPECT_EQ(run("catalog diff --against HEAD '" + (copy / "agent.yaml").string() + "'").status, 1);

  const auto bad_rev = run("catalog diff --against no-such-rev '" + copy.string() + "'");
  EXPECT_EQ(bad_rev.status, 2);
  EXPECT_NE(bad_rev.err.find("unknown git revision `no-such-rev`"), std::string::npos) << bad_rev.err;
  const auto outside = run("catalog diff --against HEAD '" + major_unbumped().string() + "'");
  EXPECT_EQ(outside.status, 2);
  EXPECT_NE(outside.err.find("not in a git work tree"), std::string::npos) << outside.err;
  EXPECT_EQ(run("catalog diff --against HEAD " + spec() + " " + spec()).status, 2);  // one path with --against
}

}  // namespace
