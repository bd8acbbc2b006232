// SPDX-License-Identifier: MIT
// `sse-conform export` (tools/docs/export.md), run as a user runs it: the
// formats and their files, the "not expressible" list on stderr, the
// contract options, and the usage errors (exit 2).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tool_run.hpp"

namespace {

using namespace tool_run;  // the tool, its outcome, read_file, quote, the fixture

class export_cli : public tool_test {
 protected:
  export_cli() : tool_test("ssec-export-cli-") {}

  outcome run(const std::string& args) const { return shell(quote(tool) + " export " + args, dir_); }
};

TEST_F(export_cli, jsonschema_writes_one_schema_per_dialect_and_lists_what_it_cannot_express) {
  const auto r = run("--to jsonschema -o schemas");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  for (const char* d : {"chat", "code", "workflow", "agent"}) {
    const auto j =
        nlohmann::json::parse(read_file(dir_ / "schemas" / (std::string(d) + ".schema.json")), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << d;
    EXPECT_EQ(j["$schema"], "https://json-schema.org/draft/2020-12/schema") << d;
    EXPECT_EQ(j["x-sse-conform-catalog"]["dialect"], d);
  }
  EXPECT_NE(r.err.find("sse-conform export: not expressible in jsonschema ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", kept in x-sse-conform-* keys):\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  chat: CHAT-UTF8: utf8 (must); kept in x-sse-conform-rules\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  agent: AGENT-DONE-LAST: last_frame (must); kept in x-sse-conform-rules\n"),
            std::string::npos)
      << r.err;
  // Expressed rules are not listed.
  EXPECT_EQ(r.err.find("CHAT-FIELD-TYPE"), std::string::npos) << r.err;
}

TEST_F(export_cli, typescript_to_stdout_for_one_dialect_says_where_tsdoc_keeps_the_rest) {
  const auto r = run("--to typescript --dialect agent");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("export type AgentSseEvent =\n"), std::string::npos);
  EXPECT_EQ(r.out.find("ChatSseEvent"), std::string::npos);
  EXPECT_NE(r.err.find("not expressible in typescript ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", kept in TSDoc @remarks lines):\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  agent: AGENT-DONE-LAST: last_frame (must); kept as a @remarks line of AgentSseEvent\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("x-sse-conform"), std::string::npos) << r.err;
}

TEST_F(export_cli, openapi_from_a_catalog_file_holds_that_catalog_only) {
  const auto r = run("--to openapi --catalog " + quote((source_dir / "spec/agent.yaml").string()) + " -o api.json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir_ / "api.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["openapi"], "3.2.0");
  EXPECT_TRUE(j["paths"].contains("/example/agent/stream"));
  EXPECT_FALSE(j["paths"].contains("/example/chat/stream"));
  EXPECT_NE(r.err.find("not expressible in openapi ("), std::string::npos) << r.err;
}

TEST_F(export_cli, usage_errors_exit_2_and_say_what_is_wrong) {
  const auto format = run("--to yaml");
  EXPECT_EQ(format.status, 2);
  EXPECT_NE(format.err.find("unknown format 'yaml' (known: jsonschema, openapi, typescript)"), std::string::npos)
      << format.err;
  const auto dialect = run("--to openapi --dialect nope");
  EXPECT_EQ(dialect.status, 2);
  EXPECT_NE(dialect.err.find("unknown dialect 'nope' (known: chat, code, workflow, agent)"), std::string::npos)
      << dialect.err;
  // Several schemas on standard output are one document, each dialect's
  // schema embedded with its $id.
  const auto files = run("--to jsonschema");
  EXPECT_EQ(files.status, 0) << files.err;
  const auto bundle = nlohmann::json::parse(files.out, nullptr, false);
  ASSERT_FALSE(bundle.is_discarded()) << files.out.substr(0, 200);
  EXPECT_EQ(bundle["$id"], "urn:sse-conform:schemas");
  for (const char* d : {"chat", "code", "workflow", "agent"}) {
    EXPECT_EQ(bundle["$defs"][d]["$id"], std::string("urn:sse-conform:schema:") + d);
    EXPECT_FALSE(bundle["$defs"][d].contains("$schema")) << d;
  }
  const auto spec = run("--to typescript --spec " + quote((dir_ / "no-such-spec").string()));
  EXPECT_EQ(spec.status, 2) << spec.err;
  const auto unwritable = run("--to typescript -o " + quote((dir_ / "no-such-dir" / "x.d.ts").string()));
  EXPECT_EQ(unwritable.status, 2);
  EXPECT_NE(unwritable.err.find("cannot write"), std::string::npos) << unwritable.err;
}

}  // namespace
