// SPDX-License-Identifier: MIT
// The catalogs as a run-time contract (tools/docs/cli.md, "The contract"),
// run as a user runs the tool:
// - the load-time checks every command makes of any catalog it is given: each
//   `decision:` is a heading of the DECISIONS.md beside the catalog, each
//   `source:` line exists in the document given with --sources and each rule
//   quote is on its line, the version is semver; every error names
//   file:line:column and the command exits 2;
// - `rules` and `explain`: every rule with its severity, basis, the words or
//   the decision it rests on, and the cases that pin it (rules_format 1);
// - verdicts that claim only what the documents say:
//   streams the documents allow exit 0, with SHOULD findings where the
//   catalog's readings see something; --strict promotes those, saying so.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;  // the tool, its outcome, read_file, quote, the fixture

// A catalog of a made-up protocol: what a team writes for its own stream.
const std::string gadget_catalog = R"(format_version: 1
catalog_version: 0.1.0
document: gadget-protocol.txt
purpose: Widgets report their spin over SSE.
dialects:
  - name: gadget
    purpose: The gadget stream.
    source: gadget-protocol.txt:1
    frame_shapes:
      - {shape: structured, detection: A JSON object with a string type., handling: Dispatched., source: gadget-protocol.txt:2}
      - {shape: plain_text, detection: Anything else., handling: Kept., source: gadget-protocol.txt:3}
    events:
      - type: widget_spun
        purpose: A widget started spinning.
        source: gadget-protocol.txt:4
        fields:
          - {key: widgetId, type: string, required: true, purpose: Which widget., source: gadget-protocol.txt:4}
      - type: widget_stopped
        purpose: A widget stopped.
        source: gadget-protocol.txt:5
        fields:
          - {key: widgetId, type: string, required: true, purpose: Which widget., source: gadget-protocol.txt:5}
rules:
  - id: GADGET-WIDGET-ID
    severity: must
    basis: document
    dialects: [gadget]
    text: Every widget event names its widget.
    source: gadget-protocol.txt:4
    quote: Every widget event names its widget.
    check: {kind: field_required}
  - id: GADGET-STOP-AFTER-SPIN
    severity: should
    basis: decision
    dialects: [gadget]
    text: A widget stops only after it spun.
    source: gadget-protocol.txt:5
    quote: widget_stopped carries widgetId.
    decision: stop-after-spin
    check: {kind: pair, open: widget_spun, close: [widget_stopped], key: widgetId}
)";

const std::string gadget_document =
    "Gadget streams report widgets over SSE.\n"
    "A frame holding a JSON object with a string type is dispatched.\n"
    "Anything else is kept as text.\n"
    "widget_spun carries widgetId. Every widget event names its widget.\n"
    "widget_stopped carries widgetId.\n";

const std::string gadget_decisions =
    "# Decisions\n\n## stop-after-spin\n\nThe document names both events; pairing them is our reading.\n";

// line:column (1-based) of the first `needle` in `text`: the loader places an
// entry at its first key.
std::string position_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class contract_cli : public tool_test {
 protected:
  contract_cli() : tool_test("ssec-contract-") {}

  // The tool with `args`, run from the test's own empty directory (so no
  // default may lean on the working directory).
  outcome run(const std::string& args) const { return shell(quote(tool) + " " + args, dir_); }

  // Writes the team's folder: catalog, DECISIONS.md (unless empty), the
  // document in docs/, a conforming stream; returns the catalog's path.
  fs::path team(const std::string& catalog = gadget_catalog, const std::string& decisions = gadget_decisions,
                const std::string& document = gadget_document) const {
    fs::create_directories(dir_ / "team" / "docs");
    std::ofstream(dir_ / "team" / "gadget.yaml", std::ios::binary) << catalog;
    if (!decisions.empty()) std::ofstream(dir_ / "team" / "DECISIONS.md", std::ios::binary) << decisions;
    std::ofstream(dir_ / "team" / "docs" / "gadget-protocol.txt", std::ios::binary) << document;
    std::ofstream(dir_ / "good.sse", std::ios::binary) << "data: {\"type\":\"widget_spun\",\"widgetId\":\"w1\"}\n\n"
                                                       << "data: {\"type\":\"widget_stopped\",\"widgetId\":\"w1\"}\n\n";
    return dir_ / "team" / "gadget.yaml";
  }

  std::string validate_gadget(const fs::path& catalog, const std::string& more = "") const {
    return "validate --dialect gadget --catalog " + quote(catalog.string()) + " " + more + " good.sse";
  }
};

// --- load-time checks ----------------------------------------------------------

TEST_F(contract_cli, a_team_catalog_with_its_decisions_and_sources_loads) {
  const fs::path cat = team();
  const auto r = run(validate_gadget(cat, "--sources " + quote((dir_ / "team/docs").string())));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("gadget: 2 frames, 0 findings"), std::string::npos) << r.out;
}

TEST_F(contract_cli, a_decision_that_is_no_heading_of_the_decisions_beside_the_catalog_is_refused_with_its_position) {
  const fs::path cat = team(gadget_catalog, "# Decisions\n\n## something-else\n");
  const std::string where = cat.string() + ":" + position_of(gadget_catalog, "id: GADGET-STOP-AFTER-SPIN");
  for (const std::string& args : {validate_gadget(cat), "rules --catalog " + quote(cat.string()),
                                  "parse --layer gadget --catalog " + quote(cat.string()) + " good.sse",
                                  "check --dialect gadget --catalog " + quote(cat.string()) + " --file good.sse"}) {
    const auto r = run(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(where + ": decision `stop-after-spin`"), std::string::npos) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("DECISIONS.md"), std::string::npos) << r.err;
  }
}

TEST_F(contract_cli, a_catalog_with_decisions_and_no_decisions_file_beside_it_is_refused) {
  const fs::path cat = team(gadget_catalog, "");
  const auto r = run(validate_gadget(cat));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("DECISIONS.md (missing)"), std::string::npos) << r.err;
}

// A copied spec folder without DECISIONS.md: one error saying the file is
// missing and how many decisions the catalogs cite, not one per citation.
TEST_F(contract_cli, a_spec_folder_without_decisions_md_gets_one_error_naming_the_file) {
  fs::copy(source_dir / "spec", dir_ / "nodecisions");
  fs::remove(dir_ / "nodecisions/DECISIONS.md");
  const auto r = run("validate --spec " + quote((dir_ / "nodecisions").string()) + " --dialect agent " +
                     quote((source_dir / "tools/examples/agent-run.sse").string()));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("DECISIONS.md (missing): the catalogs beside it cite "), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;  // the heading line and the one error
}

// generate-cases and coverage take the contract of their spec folder through
// the same checks as every command, not only loading its catalogs.
TEST_F(contract_cli, generate_cases_and_coverage_check_the_decisions_of_their_spec_folder) {
  team(gadget_catalog, "# Decisions\n\n## something-else\n");
  fs::copy_file(source_dir / "spec/tags.yaml", dir_ / "team/tags.yaml");
  fs::create_directories(dir_ / "cases/ours");
  const std::string where = "gadget.yaml:" + position_of(gadget_catalog, "id: GADGET-STOP-AFTER-SPIN");
  const auto generate = run("generate-cases --spec team --out cases/generated --cases cases");
  EXPECT_EQ(generate.status, 2) << generate.out << generate.err;
  EXPECT_NE(generate.err.find(where + ": decision `stop-after-spin`"), std::string::npos) << generate.err;
  EXPECT_FALSE(fs::exists(dir_ / "cases/generated")) << "cases were written from a contract that does not load";
  const auto coverage = run("coverage --spec team --cases cases");
  EXPECT_EQ(coverage.status, 2) << coverage.out << coverage.err;
  EXPECT_NE(coverage.err.find(where + ": decision `stop-after-spin`"), std::string::npos) << coverage.err;
}

// `--out work/cases-gen` beside `work/spec`, without --cases: the parent of
// --out is scanned for hand-written cases, but not the spec folder in it.
TEST_F(contract_cli, generate_cases_does_not_read_the_spec_folder_beside_out_as_cases) {
  fs::create_directories(dir_ / "work");
  fs::copy(source_dir / "spec", dir_ / "work/spec", fs::copy_options::recursive);
  const auto r = run("generate-cases --spec work/spec --out work/cases-gen");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("reserved: those of the case files under work (work/cases-gen and work/spec left out)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "work/cases-gen/chat-events.yaml")) << r.out << r.err;
  // A YAML file there that is not a case still stops it, saying what was scanned.
  std::ofstream(dir_ / "work/compose.yaml") << "services: {}\n";
  const auto bad = run("generate-cases --spec work/spec --out work/cases-gen");
  EXPECT_EQ(bad.status, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("every *.yaml under work but work/cases-gen and work/spec is read as a case file"),
            std::string::npos)
      << bad.err;
}

TEST_F(contract_cli, a_source_line_that_does_not_exist_is_refused_with_its_position) {
  const std::string catalog = replaced(gadget_catalog, "source: gadget-protocol.txt:5\n    quote: widget_stopped",
                                       "source: gadget-protocol.txt:9\n    quote: widget_stopped");
  const fs::path cat = team(catalog);
  const auto without = run(validate_gadget(cat));
  EXPECT_EQ(without.status, 0) << "without --sources the documents are not read\n" << without.err;
  const auto r = run(validate_gadget(cat, "--sources team/docs"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(cat.string() + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gadget-protocol.txt:9"), std::string::npos) << r.err;
}

TEST_F(contract_cli, a_quote_that_is_not_on_its_line_is_refused) {
  const std::string document = replaced(gadget_document, "Every widget event names its widget.", "Widgets spin.");
  const fs::path cat = team(gadget_catalog, gadget_decisions, document);
  const auto r = run(validate_gadget(cat, "--sources team/docs"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(cat.string() + ":" + position_of(gadget_catalog, "id: GADGET-WIDGET-ID") +
                       ": quote of rule `GADGET-WIDGET-ID` is not on gadget-protocol.txt:4"),
            std::string::npos)
      << r.err;
}

TEST_F(contract_cli, sources_without_the_cited_document_are_refused) {
  const fs::path cat = team();
  fs::create_directories(dir_ / "empty");
  const auto r = run(validate_gadget(cat, "--sources empty"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("the document gadget-protocol.txt is not in --sources"), std::string::npos) << r.err;
}

TEST_F(contract_cli, a_version_that_is_not_semver_is_refused_with_its_position) {
  const std::string catalog = replaced(gadget_catalog, "catalog_version: 0.1.0", "catalog_version: \"1.0\"");
  const fs::path cat = team(catalog);
  const auto r = run(validate_gadget(cat));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(cat.string() + ":2:18: catalog_version `1.0` must be a semantic version"), std::string::npos)
      << r.err;
}

// The built-in contract against the real documents, when they are at hand
// (they are not part of this repository; CI gives their folder).
TEST_F(contract_cli, the_built_in_contract_passes_its_own_sources_check) {
  const char* dir = std::getenv("SSEC_PROTOCOLS_DIR");
  if (dir == nullptr || *dir == '\0')
    GTEST_SKIP() << "SSEC_PROTOCOLS_DIR is not set: the protocol documents are not checked";
  const auto r = run("rules --sources " + quote(dir));
  EXPECT_EQ(r.status, 0) << r.err;
}

// --- rules and explain ---------------------------------------------------------

TEST_F(contract_cli, rules_lists_each_rule_with_severity_basis_and_grounds_from_any_directory) {
  const auto r = run("rules --dialect agent");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto line_of = [&](const std::string& id) {
    const std::size_t at = r.out.find(id + " ");
    EXPECT_NE(at, std::string::npos) << id << "\n" << r.out;
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
  };
  const std::string done = line_of("AGENT-DONE-LAST");
  EXPECT_NE(done.find(" must "), std::string::npos) << done;
  EXPECT_NE(done.find(" document "), std::string::npos) << done;
  EXPECT_NE(done.find("agent-service.txt:9 \"The terminal frame is always"), std::string::npos) << done;
  const std::string pair = line_of("AGENT-STEP-PAIR");
  EXPECT_NE(pair.find(" should "), std::string::npos) << pair;
  EXPECT_NE(pair.find("decision, spec/DECISIONS.md#agent-step-pair"), std::string::npos) << pair;
  EXPECT_EQ(r.out.find("CHAT-"), std::string::npos) << "--dialect agent lists chat rules\n" << r.out;
}

TEST_F(contract_cli, rules_json_is_versioned_and_every_must_rests_on_quoted_words) {
  const auto r = run("rules --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("rules_format"), 1);
  ASSERT_EQ(j.at("catalogs").size(), 2u) << r.out;
  std::set<std::string> ids;
  for (const auto& rule : j.at("rules")) {
    const std::string id = rule.at("id");
    ids.insert(id);
    for (const char* key : {"severity", "basis", "dialects", "text", "sources", "quotes", "decision", "decisions_file",
                            "grounds", "check", "where", "broken_by", "kept_by"}) {
      EXPECT_TRUE(rule.contains(key)) << id << " lacks " << key;
    }
    if (rule.at("severity") == "must") {
      EXPECT_EQ(rule.at("basis"), "document") << id;
      EXPECT_FALSE(rule.at("quotes").empty()) << id;
      EXPECT_EQ(rule.at("quotes").size(), rule.at("sources").size()) << id;
    } else if (rule.at("basis") == "decision") {
      EXPECT_FALSE(rule.at("decision").get<std::string>().empty()) << id;
      EXPECT_EQ(rule.at("decisions_file"), "spec/DECISIONS.md") << id;
    }
  }
  EXPECT_EQ(ids.size(), j.at("rules").size()) << "a rule listed twice";
  EXPECT_TRUE(ids.contains("AGENT-FRAME-DATA-SPACE") && ids.contains("CHAT-KEY-CASING")) << r.out;
}

TEST_F(contract_cli, explain_prints_one_rule_with_its_decision_and_the_cases_that_pin_it) {
  const auto r = run("explain AGENT-STEP-PAIR");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("AGENT-STEP-PAIR (should, basis: decision)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("decision: spec/DECISIONS.md#agent-step-pair"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"`step_started` / `step_completed`"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cases that break it (1): agent/agent-rules/"), std::string::npos) << r.out;

  const auto must = run("explain AGENT-FRAME-DATA-SPACE --json");
  ASSERT_EQ(must.status, 0) << must.err;
  const auto j = nlohmann::json::parse(must.out);
  EXPECT_EQ(j.at("id"), "AGENT-FRAME-DATA-SPACE");
  EXPECT_EQ(j.at("severity"), "must");
  EXPECT_EQ(j.at("basis"), "document");
  EXPECT_FALSE(j.at("broken_by").empty()) << must.out;

  const auto unknown = run("explain NO-SUCH-RULE");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("no rule 'NO-SUCH-RULE'"), std::string::npos) << unknown.err;
}

// A decision of a team's catalog is explained as the DECISIONS.md beside
// that catalog, not the project's.
TEST_F(contract_cli, explain_names_the_decisions_file_beside_the_catalog) {
  const fs::path cat = team();
  const auto r = run("explain GADGET-STOP-AFTER-SPIN --catalog " + quote(cat.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("decision: " + (dir_ / "team/DECISIONS.md").string() + "#stop-after-spin"), std::string::npos)
      << r.out;
  const auto v = run("validate --dialect gadget --catalog " + quote(cat.string()) + " " +
                     quote(write("stop.sse", "data: {\"type\":\"widget_stopped\",\"widgetId\":\"w9\"}\n\n").string()));
  EXPECT_EQ(v.status, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("basis:    decision, " + (dir_ / "team/DECISIONS.md").string() + "#stop-after-spin"),
            std::string::npos)
      << v.out;
}

// --- verdicts that claim only what the documents say (part 1) -----------------

struct legal_stream {
  const char* name;
  const char* dialect;
  std::string bytes;
  std::set<std::string> should;  // the SHOULD findings the catalog's readings report
};

std::string frames(std::initializer_list<const char*> data) {
  std::string out;
  for (const char* d : data) out += std::string("data: ") + d + "\n\n";
  return out;
}

// Streams the documents allow, written by hand from them: exit 0 whatever the
// catalog's readings see, and --strict (which promotes those readings) exit 1.
TEST_F(contract_cli, streams_the_documents_allow_are_conforming) {
  const std::vector<legal_stream> streams = {
      // chat:36 names the workflow events and no key: run_id and a numeric node id break no sentence.
      {"workflow keys the document never names",
       "workflow",
       frames({R"({"type":"run_started","run_id":"w1"})", R"({"type":"node_started","runId":"w1","nodeId":7})",
               R"({"type":"node_completed","run_id":"w1","nodeId":7})", R"({"type":"run_completed","runId":"w1"})"}),
       {"CHAT-FIELD-TYPE"}},
      // agent:55 "Not every run emits every type": an end without its begin.
      {"lifecycle ends without their begins",
       "agent",
       frames({R"({"type":"run_started","runId":"r1"})",
               R"({"type":"tool_result","runId":"r1","stepId":"s1","payload":{},"data":1})",
               R"({"type":"step_completed","runId":"r1","stepId":"s1"})",
               R"({"type":"subagent_completed","runId":"r1","stepId":"s1","payload":{}})",
               R"({"type":"done","runId":"r1"})"}),
       {"AGENT-TOOL-PAIR", "AGENT-STEP-PAIR", "AGENT-SUBAGENT-PAIR"}},
      // agent:23 says runId is present on every event, not that it never changes.
      {"a runId that changes",
       "agent",
       frames({R"({"type":"run_started","runId":"r1"})",
               R"({"type":"message_chunk","runId":"r2","stepId":"s1","content":"x"})",
               R"({"type":"done","runId":"r2"})"}),
       {"AGENT-RUNID-CONSTANT"}},
      // chat:49 "never interchange them": the id is there; the extra toolCallId interchanges nothing.
      {"an approval_request with its id and a toolCallId",
       "chat",
       frames({R"({"type":"tool_call","id":"t1","name":"rm","arguments":{}})",
               R"({"type":"approval_request","id":"t1","name":"rm","arguments":{},"toolCallId":"t1"})"}),
       {"CHAT-APPROVAL-QUESTION-DISTINCT"}},
      // chat:48: the exact key is written; a variant beside it is an extra field.
      {"a key variant beside the mapped key",
       "chat",
       frames({R"({"type":"content","text":"a","Text":"a"})"}),
       {"CHAT-FIELD-UNDECLARED"}},
  };
  for (const auto& s : streams) {
    const fs::path file = write("legal.sse", s.bytes);
    const auto r = run("validate --json --dialect " + std::string(s.dialect) + " " + quote(file.string()));
    EXPECT_EQ(r.status, 0) << s.name << "\n" << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> seen;
    for (const auto& f : j.at("findings")) {
      seen.insert(f.at("rule").get<std::string>());
      EXPECT_EQ(f.at("severity"), "should") << s.name << ": " << f.dump();
      EXPECT_EQ(f.at("basis"), "decision") << s.name << ": " << f.dump();
      EXPECT_NE(f.at("grounds").get<std::string>().find("spec/DECISIONS.md#"), std::string::npos) << f.dump();
    }
    EXPECT_EQ(seen, s.should) << s.name;
    const auto strict = run("validate --strict --dialect " + std::string(s.dialect) + " " + quote(file.string()));
    EXPECT_EQ(strict.status, 1) << s.name << "\n" << strict.out;
    EXPECT_NE(strict.out.find("decision-based promoted by --strict): NOT conforming"), std::string::npos) << strict.out;
  }
}

// The opposite miss: `data:{...}` is legal SSE, but the agent document's own
// parser keeps only lines starting with "data: ", so the frame (here done) is
// lost: a MUST, on the document's words.
TEST_F(contract_cli, an_agent_frame_without_the_space_is_a_must_finding) {
  const fs::path file = write("nospace.sse",
                              "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
                              "data:{\"type\":\"done\",\"runId\":\"r1\"}\n\n");
  const auto r = run("validate --dialect agent " + quote(file.string()));
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("frame 2, byte 43: AGENT-FRAME-DATA-SPACE (must)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("basis:    document, agent-service.txt:3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NOT conforming"), std::string::npos) << r.out;
}

}  // namespace
