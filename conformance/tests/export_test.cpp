// SPDX-License-Identifier: MIT
// The shapes of `sse-conform export` (conformance/export.hpp), on the built-in
// catalogs and on a small catalog of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/export.hpp"

namespace {

using ssec::conformance::export_format;
using ssec::conformance::export_gap;

const sse::dialect::catalog& builtin() {
  const auto& loaded = sse::dialect::builtin_catalog();
  EXPECT_TRUE(loaded.ok());
  return *loaded.value;
}

nlohmann::ordered_json schema_of(const std::string& dialect, std::vector<export_gap>* gaps_out = nullptr) {
  std::vector<export_gap> gaps;
  const auto* d = builtin().dialect(dialect);
  EXPECT_NE(d, nullptr);
  auto s = ssec::conformance::json_schema(builtin(), *d, gaps);
  if (gaps_out) *gaps_out = gaps;
  return s;
}

TEST(export_jsonschema, is_a_2020_12_schema_whose_type_selects_one_branch) {
  const auto s = schema_of("chat");
  EXPECT_EQ(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
  const auto* d = builtin().dialect("chat");
  // A frame is an object with a string `type`; one if/then per event type, so
  // a validator reports the one branch the type selects; no oneOf to report
  // every branch's errors.
  EXPECT_EQ(s["type"], "object");
  EXPECT_EQ(s["required"], nlohmann::ordered_json::array({"type"}));
  EXPECT_EQ(s["properties"]["type"]["type"], "string");
  EXPECT_FALSE(s.contains("oneOf"));
  ASSERT_EQ(s["allOf"].size(), d->events.size());
  EXPECT_EQ(s["allOf"][0]["if"]["properties"]["type"]["const"], "content");
  EXPECT_EQ(s["allOf"][0]["if"]["required"], nlohmann::ordered_json::array({"type"}));
  EXPECT_EQ(s["allOf"][0]["then"]["$ref"], "#/$defs/ChatContentEvent");
  EXPECT_EQ(s["$defs"]["ChatUnknownEvent"]["x-sse-conform-unknown-type"], true);
  for (const auto& e : d->events) {
    std::string name = "Chat";
    bool up = true;
    for (char c : e.type) {
      if (c == '_') up = true;
      else name += up ? static_cast<char>(std::toupper(c)) : c, up = false;
    }
    name += "Event";
    ASSERT_TRUE(s["$defs"].contains(name)) << name;
    EXPECT_EQ(s["$defs"][name]["properties"]["type"]["const"], e.type);
  }
}

TEST(export_jsonschema, required_types_defaults_and_descriptions_come_from_the_catalog) {
  const auto s = schema_of("chat");
  const auto& call = s["$defs"]["ChatToolCallEvent"];
  EXPECT_EQ(call["description"], "A tool call starts.");
  EXPECT_EQ(call["required"], nlohmann::ordered_json({"type", "id", "name", "arguments"}));  // hidden is optional
  EXPECT_EQ(call["properties"]["arguments"]["type"], nlohmann::ordered_json({"string", "object"}));
  EXPECT_EQ(call["properties"]["hidden"]["type"], "boolean");
  EXPECT_EQ(call["properties"]["name"]["description"], "Name of the tool called.");
  EXPECT_FALSE(call["properties"]["arguments"].contains("default"));
  const auto& usage = s["$defs"]["ChatUsageEvent"];
  EXPECT_EQ(usage["properties"]["promptTokens"]["type"], "integer");
  EXPECT_EQ(usage["properties"]["promptTokens"]["default"], 0);
  EXPECT_EQ(usage["properties"]["latencyMs"]["default"], 0);
  // `any` has no type keyword; the code profile removes latencyMs's default.
  EXPECT_FALSE(s["$defs"]["ChatTodoEvent"]["properties"]["data"].contains("type"));
  EXPECT_FALSE(schema_of("code")["$defs"]["CodeUsageEvent"]["properties"]["latencyMs"].contains("default"));
  // The agent envelope, refined per event: runId required, stepId not on run_started.
  const auto a = schema_of("agent");
  const auto& started = a["$defs"]["AgentRunStartedEvent"]["required"];
  EXPECT_NE(std::find(started.begin(), started.end(), "runId"), started.end());
  EXPECT_EQ(std::find(started.begin(), started.end(), "stepId"), started.end());
}

TEST(export_jsonschema, unknown_types_have_a_branch_of_their_own) {
  const auto s = schema_of("chat");
  const auto& u = s["$defs"]["ChatUnknownEvent"];
  EXPECT_EQ(u["required"], nlohmann::ordered_json({"type"}));
  EXPECT_EQ(u["properties"]["type"]["type"], "string");
  const auto& known = u["properties"]["type"]["not"]["enum"];
  EXPECT_EQ(known.size(), builtin().dialect("chat")->events.size());
  EXPECT_NE(std::find(known.begin(), known.end(), "tool_call"), known.end());
  EXPECT_TRUE(s.contains("x-sse-conform-unknown-types"));
}

TEST(export_jsonschema, rules_and_provenance_are_annotations_and_gaps_are_listed) {
  std::vector<export_gap> gaps;
  const auto s = schema_of("chat", &gaps);
  EXPECT_EQ(s["x-sse-conform-catalog"]["dialect"], "chat");
  EXPECT_EQ(s["x-sse-conform-catalog"]["catalog_version"], builtin().files().front().catalog_version);
  const auto& rules = s["x-sse-conform-rules"];
  ASSERT_EQ(rules.size(), builtin().dialect("chat")->rules.size());
  const auto rule = [&](const std::string& id) {
    return *std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r["id"] == id; });
  };
  EXPECT_EQ(rule("CHAT-FIELD-TYPE")["expressed_by"], "type");
  EXPECT_EQ(rule("CHAT-FIELD-REQUIRED")["decision"], "DECISIONS.md#chat-field-required");
  EXPECT_TRUE(rule("CHAT-UTF8")["not_expressible"].get<bool>());
  EXPECT_FALSE(rule("CHAT-UTF8")["quotes"].empty());
  // Every rule not expressed is a gap, by id; none that is expressed.
  const auto gap = [&](const std::string& what) {
    return std::any_of(gaps.begin(), gaps.end(), [&](const export_gap& g) { return g.what == what; });
  };
  EXPECT_TRUE(gap("CHAT-UTF8"));
  EXPECT_TRUE(gap("CHAT-TYPE-KNOWN"));
  EXPECT_TRUE(gap("frame shape plain_text"));
  EXPECT_FALSE(gap("CHAT-FIELD-TYPE"));
  // Rules on an event, and a forbidden field as a property that admits nothing.
  const auto& approval = s["$defs"]["ChatApprovalRequestEvent"];
  const auto& ids = approval["x-sse-conform-rules"];
  EXPECT_NE(std::find(ids.begin(), ids.end(), "CHAT-APPROVAL-ID"), ids.end());
  EXPECT_EQ(approval["properties"]["toolCallId"]["not"], nlohmann::ordered_json::object());
  EXPECT_TRUE(approval["properties"]["id"]["x-sse-conform-origin"].contains("sources"));
}

TEST(export_openapi, is_3_2_with_an_event_stream_item_schema_per_dialect) {
  std::vector<export_gap> gaps;
  std::vector<const sse::dialect::dialect_spec*> ds{builtin().dialect("chat"), builtin().dialect("agent")};
  const auto doc = ssec::conformance::openapi_document(builtin(), ds, gaps);
  EXPECT_EQ(doc["openapi"], "3.2.0");
  const auto& media = doc["paths"]["/example/chat/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"];
  EXPECT_EQ(media["itemSchema"]["$ref"], "#/components/schemas/ChatSseItem");
  const auto& schemas = doc["components"]["schemas"];
  // chat: structured, plain text and [ERROR] frames.
  const auto& shapes = schemas["ChatSseItem"]["anyOf"];
  ASSERT_EQ(shapes.size(), 3u);
  const auto shape = [&](const std::string& name) {
    return *std::find_if(shapes.begin(), shapes.end(),
                         [&](const auto& s) { return s["x-sse-conform-frame-shape"] == name; });
  };
  EXPECT_EQ(shape("structured")["properties"]["data"]["contentMediaType"], "application/json");
  EXPECT_EQ(shape("structured")["properties"]["data"]["contentSchema"]["$ref"], "#/components/schemas/ChatSseEvent");
  EXPECT_EQ(shape("error")["properties"]["data"]["pattern"], "^\\[ERROR\\]");
  EXPECT_EQ(shape("plain_text")["properties"]["data"]["contentMediaType"], "text/plain");
  // Each branch says `data` is a string, so strict validators (ajv's strictTypes) take `pattern`.
  for (const char* name : {"structured", "error", "plain_text"}) {
    EXPECT_EQ(shape(name)["properties"]["data"]["type"], "string") << name;
  }
  // agent: one shape, data is JSON.
  const auto& agent = schemas["AgentSseItem"];
  EXPECT_EQ(agent["properties"]["data"]["contentSchema"]["$ref"], "#/components/schemas/AgentSseEvent");
  EXPECT_EQ(agent["properties"]["retry"]["type"], "integer");
  EXPECT_TRUE(schemas.contains("AgentRunStartedEvent"));
  EXPECT_EQ(schemas["ChatSseEvent"]["oneOf"][0]["$ref"], "#/components/schemas/ChatContentEvent");
  // The discriminator names the branch; an unlisted type maps to the unknown event.
  const auto& discriminator = schemas["ChatSseEvent"]["discriminator"];
  EXPECT_EQ(discriminator["propertyName"], "type");
  EXPECT_EQ(discriminator["mapping"]["tool_call"], "#/components/schemas/ChatToolCallEvent");
  EXPECT_EQ(discriminator["defaultMapping"], "#/components/schemas/ChatUnknownEvent");
  // content_type is expressed by the media type: not a gap here, a gap in JSON Schema.
  EXPECT_TRUE(std::none_of(gaps.begin(), gaps.end(), [](const auto& g) { return g.what == "CHAT-CONTENT-TYPE"; }));
  EXPECT_TRUE(std::any_of(gaps.begin(), gaps.end(), [](const auto& g) { return g.what == "AGENT-DONE-LAST"; }));
}

TEST(export_typescript, declares_a_discriminated_union_per_dialect) {
  std::vector<export_gap> gaps;
  std::vector<const sse::dialect::dialect_spec*> ds;
  for (const auto& d : builtin().dialects()) ds.push_back(d.get());
  const auto ts = ssec::conformance::typescript_declarations(builtin(), ds, gaps);
  const auto has = [&](const std::string& s) { return ts.find(s) != std::string::npos; };
  for (const char* u : {"export type ChatSseEvent =", "export type CodeSseEvent =", "export type WorkflowSseEvent =",
                        "export type AgentSseEvent ="}) {
    EXPECT_TRUE(has(u)) << u;
  }
  EXPECT_TRUE(has("  | ChatToolCallEvent\n"));
  EXPECT_TRUE(has("export interface ChatToolCallEvent {\n"));
  EXPECT_TRUE(has("  readonly type: \"tool_call\";\n"));
  EXPECT_TRUE(has("  readonly name: string;\n"));      // required
  EXPECT_TRUE(has("  readonly hidden?: boolean;\n"));  // optional
  EXPECT_TRUE(has("  readonly arguments: string | { readonly [key: string]: unknown };\n"));
  EXPECT_TRUE(has(" * Name of the tool called.\n"));  // TSDoc from purpose
  EXPECT_TRUE(has(" * @defaultValue `0`\n"));
  EXPECT_TRUE(has("  readonly toolCallId?: never;\n"));  // CHAT-APPROVAL-QUESTION-DISTINCT
  EXPECT_TRUE(has("export interface AgentUnknownEvent {\n"));
  EXPECT_TRUE(has("  readonly raw: { readonly type: string; readonly [key: string]: unknown };\n"));
  EXPECT_FALSE(gaps.empty());
}

TEST(export_jsonschema, rules_carry_their_check_parameters_and_the_file_its_purpose) {
  const auto rule = [](const nlohmann::ordered_json& s, const std::string& id) {
    const auto& rules = s["x-sse-conform-rules"];
    return *std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r["id"] == id; });
  };
  const auto chat = schema_of("chat");
  EXPECT_EQ(rule(chat, "CHAT-TOOLCALLID-REFERS")["check_params"],
            nlohmann::ordered_json::parse(
                R"({"from": "question.toolCallId", "to": "tool_call.id", "also_from": ["plan.toolCallId"]})"));
  EXPECT_EQ(rule(chat, "CHAT-TOOL-CALL-ID-UNIQUE")["check_params"],
            nlohmann::ordered_json::parse(R"({"field": "tool_call.id"})"));
  EXPECT_FALSE(rule(chat, "CHAT-UTF8").contains("check_params"));  // a kind without parameters
  const auto agent = schema_of("agent");
  EXPECT_EQ(rule(agent, "AGENT-DONE-LAST")["check_params"], nlohmann::ordered_json::parse(R"({"types": ["done"]})"));
  EXPECT_EQ(rule(agent, "AGENT-STEP-PAIR")["check_params"]["open"], "step_started");
  EXPECT_EQ(rule(agent, "AGENT-STEP-PAIR")["check_params"]["key"], "stepId");
  EXPECT_EQ(rule(agent, "AGENT-CONTENT-TYPE")["check_params"]["value"], "text/event-stream");
  EXPECT_EQ(agent["x-sse-conform-catalog"]["purpose"], builtin().files().back().purpose);
  // Where each thing is written in the catalog: the dialect, its shapes, a profile's differences.
  EXPECT_EQ(agent["x-sse-conform-catalog"]["where"], builtin().dialect("agent")->where.to_string());
  EXPECT_EQ(chat["x-sse-conform-frame-shapes"][0]["where"], builtin().dialect("chat")->shapes[0].where.to_string());
  EXPECT_EQ(schema_of("code")["x-sse-conform-differences"][0]["where"],
            builtin().dialect("code")->differences[0].where.to_string());
}

// Each gap says where the format keeps the thing; that place must hold it.
TEST(export_gaps, every_gap_is_kept_where_it_says) {
  for (const auto& d : builtin().dialects()) {
    // The schemas: a rule in x-sse-conform-rules marked not_expressible, a
    // shape in x-sse-conform-frame-shapes, a difference in x-sse-conform-differences.
    std::vector<export_gap> gaps;
    const auto s = ssec::conformance::json_schema(builtin(), *d, gaps);
    ASSERT_FALSE(gaps.empty()) << d->name;
    for (const auto& g : gaps) {
      const auto in = [&](const char* key, const char* member, const std::string& value) {
        const auto& a = s[key];
        return std::any_of(a.begin(), a.end(), [&](const auto& x) { return x[member] == value; });
      };
      if (g.what.rfind("frame shape ", 0) == 0) {
        EXPECT_TRUE(in("x-sse-conform-frame-shapes", "shape", g.what.substr(12))) << g.to_string();
        EXPECT_NE(g.why.find("x-sse-conform-frame-shapes"), std::string::npos) << g.to_string();
      } else if (g.what.rfind("difference ", 0) == 0) {
        EXPECT_TRUE(in("x-sse-conform-differences", "aspect", g.what.substr(11))) << g.to_string();
      } else {
        const auto& rules = s["x-sse-conform-rules"];
        const auto r = std::find_if(rules.begin(), rules.end(), [&](const auto& x) { return x["id"] == g.what; });
        ASSERT_NE(r, rules.end()) << g.to_string();
        EXPECT_TRUE((*r)["not_expressible"].get<bool>()) << g.to_string();
      }
    }
    // TypeScript: each on a @remarks line of the union's TSDoc, nothing in x- keys it does not have.
    gaps.clear();
    const std::vector<const sse::dialect::dialect_spec*> one{d.get()};
    const auto ts = ssec::conformance::typescript_declarations(builtin(), one, gaps);
    for (const auto& g : gaps) {
      EXPECT_EQ(g.why.find("x-sse-conform"), std::string::npos) << g.to_string();
      if (g.what == "integer fields") continue;
      std::string line = " * @remarks ";
      if (g.what.rfind("frame shape ", 0) == 0) line += g.what;
      else if (g.what.rfind("difference ", 0) == 0)
        line += "difference from " + d->profile_of + ", " + g.what.substr(11);
      else line += "rule " + g.what + " (";
      EXPECT_NE(ts.find(line), std::string::npos) << g.to_string() << "\nno line starting " << line;
      EXPECT_NE(g.why.find("kept as a @remarks line of "), std::string::npos) << g.to_string();
    }
  }
}

TEST(export_typescript, lists_integer_fields_and_keeps_shapes_and_differences_in_tsdoc) {
  std::vector<export_gap> gaps;
  const std::vector<const sse::dialect::dialect_spec*> ds{builtin().dialect("code")};
  const auto ts = ssec::conformance::typescript_declarations(builtin(), ds, gaps);
  const auto ints = std::find_if(gaps.begin(), gaps.end(), [](const auto& g) { return g.what == "integer fields"; });
  ASSERT_NE(ints, gaps.end());
  EXPECT_NE(ints->why.find("usage.promptTokens"), std::string::npos);
  EXPECT_NE(ts.find(" * @remarks frame shape error (prefix \"[ERROR]\"): "), std::string::npos);
  EXPECT_NE(ts.find(" * @remarks error frames are also marked by the SSE event type \"error\""), std::string::npos);
  EXPECT_NE(ts.find(" * @remarks difference from chat, latencyMs: "), std::string::npos);
  EXPECT_NE(ts.find("check refers {\"from\":\"tool_result.id\",\"to\":\"tool_call.id\"}"), std::string::npos);
}

// A nested forbidden key: the schemas say so inside the object field;
// TypeScript cannot (only top-level keys are `?: never`) and lists it.
TEST(export_catalog, a_nested_forbidden_key_is_expressed_by_the_schemas_and_listed_by_typescript) {
  const std::string yaml =
      "format_version: 1\n"
      "catalog_version: 1.0.0\n"
      "document: doc.txt\n"
      "purpose: A test protocol.\n"
      "dialects:\n"
      "  - name: demo\n"
      "    purpose: Demo.\n"
      "    source: doc.txt:1\n"
      "    frame_shapes:\n"
      "      - {shape: structured, detection: A JSON object., handling: Dispatched., source: doc.txt:2}\n"
      "    events:\n"
      "      - type: ping\n"
      "        purpose: A ping.\n"
      "        source: doc.txt:3\n"
      "        fields:\n"
      "          - key: meta\n"
      "            type: object\n"
      "            required: false\n"
      "            purpose: Details.\n"
      "            source: doc.txt:3\n"
      "            fields:\n"
      "              - {key: n, type: integer, required: true, purpose: Count., source: doc.txt:3}\n"
      "rules:\n"
      "  - id: DEMO-NO-SECRET\n"
      "    severity: must\n"
      "    dialects: [demo]\n"
      "    text: A ping's meta has no secret.\n"
      "    source: doc.txt:4\n"
      "    quote: No secret.\n"
      "    check: {kind: forbidden_field, fields: [ping.meta.secret, ping.token]}\n";
  const sse::dialect::catalog_source src{"demo.yaml", yaml};
  const auto loaded = sse::dialect::load_catalogs(std::span<const sse::dialect::catalog_source>(&src, 1));
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  const auto& cat = *loaded.value;
  const auto* d = cat.dialect("demo");
  std::vector<export_gap> gaps;
  const auto s = ssec::conformance::json_schema(cat, *d, gaps);
  const auto& meta = s["$defs"]["DemoPingEvent"]["properties"]["meta"];
  EXPECT_EQ(meta["properties"]["secret"]["not"], nlohmann::ordered_json::object());
  EXPECT_EQ(meta["required"], nlohmann::ordered_json({"n"}));
  EXPECT_EQ(s["$defs"]["DemoPingEvent"]["properties"]["token"]["not"], nlohmann::ordered_json::object());
  EXPECT_TRUE(std::none_of(gaps.begin(), gaps.end(), [](const auto& g) { return g.what == "DEMO-NO-SECRET"; }));

  gaps.clear();
  const std::vector<const sse::dialect::dialect_spec*> ds{d};
  const auto ts = ssec::conformance::typescript_declarations(cat, ds, gaps);
  EXPECT_NE(ts.find("  readonly token?: never;\n"), std::string::npos);
  EXPECT_EQ(ts.find("secret?: never"), std::string::npos);
  const auto g = std::find_if(gaps.begin(), gaps.end(), [](const auto& x) { return x.what == "DEMO-NO-SECRET"; });
  ASSERT_NE(g, gaps.end());
  EXPECT_NE(g->why.find("ping.meta.secret"), std::string::npos);
  // The nested field keeps its TSDoc (purpose, integer, trace).
  EXPECT_NE(ts.find("     * Count.\n     * An integer (the catalog's `integer`).\n     * @see doc.txt:3\n"),
            std::string::npos)
      << ts;
}

TEST(export_format_names, round_trip) {
  for (auto f : {export_format::jsonschema, export_format::openapi, export_format::typescript}) {
    EXPECT_EQ(ssec::conformance::parse_export_format(ssec::conformance::to_string(f)), f);
  }
  EXPECT_FALSE(ssec::conformance::parse_export_format("yaml"));
}

TEST(export_catalog, writes_one_schema_per_dialect_and_one_file_otherwise) {
  const auto js = ssec::conformance::export_catalog(builtin(), export_format::jsonschema);
  ASSERT_EQ(js.files.size(), builtin().dialects().size());
  EXPECT_EQ(js.files[0].name, "chat.schema.json");
  EXPECT_EQ(nlohmann::json::parse(js.files[0].text)["$id"], "urn:sse-conform:schema:chat");
  EXPECT_EQ(ssec::conformance::export_catalog(builtin(), export_format::openapi).files.size(), 1u);
  EXPECT_EQ(ssec::conformance::export_catalog(builtin(), export_format::typescript).files.size(), 1u);
}

}  // namespace
