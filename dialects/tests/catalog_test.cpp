// The catalogs against the documents (every type and key field, side by side),
// their traceability, the loader's errors, and a test catalog proving that a
// new event type needs no C++ change.
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalog_test_support.hpp"
#include "sse/dialect/catalog.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/dialect/validator.hpp"

namespace {

using namespace sse::dialect;
using ::testing::HasSubstr;

using catalog_test_support::builtin;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> types_of(const dialect_spec& d) {
  std::set<std::string> out;
  for (const auto& e : d.events) out.insert(e.type);
  return out;
}

TEST(catalog, builtin_loads) {
  const auto& r = builtin_catalog();
  ASSERT_TRUE(r.ok()) << r.error_text();
  std::vector<std::string> names;
  for (const auto& d : r.value->dialects()) names.push_back(d->name);
  EXPECT_EQ(names, (std::vector<std::string>{"chat", "code", "workflow", "agent"}));
  ASSERT_EQ(r.value->files().size(), 2u);
  for (const auto& f : r.value->files()) {
    EXPECT_EQ(f.format_version, 1);
    EXPECT_EQ(f.catalog_version, "3.0.0");
  }
  EXPECT_EQ(r.value->files()[0].document, "chat-and-code-sessions.txt");
  EXPECT_EQ(r.value->files()[1].document, "agent-service.txt");
}

// The compiled-in copy is the one in spec/ (the build re-embeds on change).
TEST(catalog, builtin_matches_spec_files) {
  const std::vector<std::string> paths = {SSEC_SPEC_DIR "/chat.yaml", SSEC_SPEC_DIR "/agent.yaml"};
  const auto from_files = load_catalog_files(paths);
  ASSERT_TRUE(from_files.ok()) << from_files.error_text();
  ASSERT_EQ(from_files.value->rules().size(), builtin().rules().size());
  for (std::size_t i = 0; i < builtin().rules().size(); ++i) {
    EXPECT_EQ(from_files.value->rules()[i]->id, builtin().rules()[i]->id);
  }
}

// ---------------------------------------------------------------------------
// Side by side with the documents.

// chat:17-32, every row of the event list with its key fields.
TEST(catalog, chat_events_and_key_fields) {
  const std::map<std::string, std::vector<std::string>> document = {
      {"content", {"text"}},
      {"thinking", {"text"}},
      {"tool_call", {"id", "name", "arguments", "hidden"}},
      {"tool_result", {"id", "name", "content", "isError", "collapsed", "hidden"}},
      {"approval_request", {"id", "name", "arguments"}},
      {"question", {"toolCallId", "data"}},
      {"todo", {"data"}},
      {"plan", {"toolCallId", "data"}},
      {"usage", {"promptTokens", "completionTokens", "cachedTokens", "totalTokens", "latencyMs"}},
      {"file_change", {"path", "action"}},
      {"checkpoint", {"id", "label", "fileCount"}},
      {"subagent", {"id", "description", "stage", "tool", "steps", "message"}},
      {"search_results", {"results"}},
      {"knowledge_results", {"results"}},
      {"memory_results", {"results"}},
      {"notice", {"kind", "text"}},
      {"steering", {"text"}},
      {"debug", {"text"}},
      {"done", {}},
  };
  for (const std::string name : {"chat", "code"}) {
    const dialect_spec& d = *builtin().dialect(name);
    std::set<std::string> expected_types;
    for (const auto& [type, keys] : document) {
      expected_types.insert(type);
      const event_spec* e = d.event(type);
      ASSERT_NE(e, nullptr) << name << " " << type;
      std::vector<std::string> got;
      for (const auto& f : e->fields) got.push_back(f.key);
      EXPECT_EQ(got, keys) << name << " " << type;
      EXPECT_FALSE(e->purpose.empty());
    }
    EXPECT_EQ(types_of(d), expected_types) << name;
  }
}

// chat:36, the eight workflow events.
TEST(catalog, workflow_events) {
  EXPECT_EQ(types_of(*builtin().dialect("workflow")),
            (std::set<std::string>{"run_started", "node_started", "node_completed", "node_failed",
                                   "human_approval_required", "agent_tool_call", "run_completed", "run_failed"}));
  for (const auto& e : builtin().dialect("workflow")->events) {
    EXPECT_TRUE(e.open) << e.type;
    for (const auto& f : e.fields) EXPECT_FALSE(f.required) << e.type << "." << f.key;
  }
}

// agent:21-30 (the envelope) and agent:35-53 (the catalog with key fields).
TEST(catalog, agent_envelope_events_and_key_fields) {
  const dialect_spec& d = *builtin().dialect("agent");
  std::vector<std::string> envelope;
  for (const auto& f : d.envelope) envelope.push_back(f.key);
  EXPECT_EQ(envelope, (std::vector<std::string>{"runId", "stepId", "sequence", "content", "payload", "data", "error"}));
  EXPECT_EQ(d.envelope_field("runId")->types.to_string(), "string");
  EXPECT_EQ(d.envelope_field("sequence")->types.to_string(), "number");
  EXPECT_EQ(d.envelope_field("payload")->types.to_string(), "object");
  EXPECT_EQ(d.envelope_field("data")->types.to_string(), "any");

  const std::map<std::string, std::vector<std::string>> document = {
      {"run_started", {"runId"}},
      {"agent_plan", {"payload"}},
      {"plan_update", {"payload"}},
      {"skill_loaded", {"payload"}},
      {"subagent_started", {"payload", "data"}},
      {"subagent_completed", {"payload", "data"}},
      {"step_started", {"stepId"}},
      {"step_completed", {"stepId"}},
      {"llm_started", {"payload"}},
      {"llm_usage", {"payload"}},
      {"tool_started", {"payload", "data"}},
      {"tool_result", {"payload", "data"}},
      {"tool_completed", {"payload", "data"}},
      {"message_chunk", {"content"}},
      {"resume_patch", {"payload", "data"}},
      {"resume_update", {"data", "payload"}},
      {"resume_analysis", {"payload", "data"}},
      {"translation_result", {"data"}},
      {"interview_question", {"payload"}},
      {"critique", {"payload", "data"}},
      {"suggestion", {"payload", "data"}},
      {"run_completed", {"runId"}},
      {"run_failed", {"error"}},
      {"done", {"runId"}},
      {"error", {"error"}},
  };
  std::set<std::string> expected_types;
  for (const auto& [type, keys] : document) {
    expected_types.insert(type);
    const event_spec* e = d.event(type);
    ASSERT_NE(e, nullptr) << type;
    // Every event carries the whole envelope, in its order.
    ASSERT_GE(e->fields.size(), envelope.size()) << type;
    for (std::size_t i = 0; i < envelope.size(); ++i) EXPECT_EQ(e->fields[i].key, envelope[i]) << type;
    for (const auto& k : keys) EXPECT_NE(e->field(k), nullptr) << type << "." << k;
  }
  EXPECT_EQ(types_of(d), expected_types);
  // resume_update: `data`, `payload.resume` (agent:45).
  const field_spec* payload = d.event("resume_update")->field("payload");
  ASSERT_EQ(payload->fields.size(), 1u);
  EXPECT_EQ(payload->fields[0].key, "resume");
  EXPECT_TRUE(payload->fields[0].required);
  // Key fields of single-type rows are required (spec/DECISIONS.md, key-fields-required) ...
  EXPECT_TRUE(d.event("message_chunk")->field("content")->required);
  EXPECT_TRUE(d.event("run_failed")->field("error")->required);
  // ... of grouped rows not (grouped-rows), and stepId is waived where the examples omit it (stepid-examples).
  EXPECT_FALSE(d.event("tool_result")->field("data")->required);
  EXPECT_FALSE(d.event("run_started")->field("stepId")->required);
  EXPECT_FALSE(d.event("done")->field("stepId")->required);
  EXPECT_TRUE(d.event("message_chunk")->field("stepId")->required);
  EXPECT_TRUE(d.event("done")->field("runId")->required);
}

// chat:50: "Missing usage fields fall back to 0", except latencyMs in code sessions.
TEST(catalog, usage_defaults) {
  for (const std::string name : {"chat", "code"}) {
    const event_spec* usage = builtin().dialect(name)->event("usage");
    for (const auto& f : usage->fields) {
      EXPECT_FALSE(f.required) << f.key;
      if (name == "code" && f.key == "latencyMs") {
        EXPECT_FALSE(f.default_value) << name;
      } else {
        ASSERT_TRUE(f.default_value) << name << " " << f.key;
        EXPECT_EQ(*f.default_value, 0);
      }
    }
  }
  // No other field of any dialect has a default: the documents give none.
  for (const auto& d : builtin().dialects()) {
    for (const auto& e : d->events) {
      for (const auto& f : e.fields) {
        if (e.type != "usage") {
          EXPECT_FALSE(f.default_value) << d->name << " " << e.type << "." << f.key;
        }
      }
    }
  }
}

// chat:5-10 and chat:38-44: shapes, and the code profile as differences only.
TEST(catalog, frame_shapes_and_profiles) {
  const dialect_spec& chat = *builtin().dialect("chat");
  EXPECT_TRUE(chat.has_shape(shape::structured));
  EXPECT_TRUE(chat.has_shape(shape::plain_text));
  EXPECT_TRUE(chat.has_shape(shape::error));
  EXPECT_EQ(chat.error_prefix, "[ERROR]");
  EXPECT_EQ(chat.error_wire_event, "");
  const dialect_spec& code = *builtin().dialect("code");
  EXPECT_EQ(code.profile_of, "chat");
  EXPECT_EQ(code.error_prefix, "[ERROR]");
  EXPECT_EQ(code.error_wire_event, "error");
  EXPECT_EQ(code.differences.size(), 5u);
  EXPECT_EQ(types_of(code), types_of(chat));
  const dialect_spec& workflow = *builtin().dialect("workflow");
  EXPECT_EQ(workflow.frames_from, "chat");
  EXPECT_EQ(workflow.shapes.size(), chat.shapes.size());
  EXPECT_EQ(workflow.error_prefix, "[ERROR]");
  const dialect_spec& agent = *builtin().dialect("agent");
  EXPECT_EQ(agent.shapes.size(), 1u);
  EXPECT_TRUE(agent.error_prefix.empty());
}

// Every rule: a stable id, a severity, one sentence, a trace; rules name existing dialects.
TEST(catalog, rules_are_well_formed) {
  std::set<std::string> ids;
  for (const auto& r : builtin().rules()) {
    EXPECT_TRUE(ids.insert(r->id).second) << r->id;
    EXPECT_FALSE(r->text.empty());
    EXPECT_EQ(r->text.back(), '.') << r->id;
    EXPECT_TRUE(!r->origin.sources.empty() || !r->origin.decision.empty()) << r->id;
    for (const auto& d : r->dialects) EXPECT_NE(builtin().dialect(d), nullptr) << r->id;
  }
  // The rules the issue names are there.
  for (const std::string id :
       {"AGENT-DONE-LAST", "AGENT-DONE-ONCE", "AGENT-FRAME-ONE-LINE", "AGENT-FRAME-JSON", "AGENT-RUNID-PRESENT",
        "AGENT-RUNID-CONSTANT", "AGENT-DONE-RUNID", "AGENT-STEP-PAIR", "AGENT-TOOL-PAIR", "AGENT-SUBAGENT-PAIR",
        "CHAT-APPROVAL-ID", "CHAT-QUESTION-TOOLCALLID", "CHAT-APPROVAL-QUESTION-DISTINCT"}) {
    EXPECT_TRUE(ids.contains(id)) << id;
  }
}

// The key_casing fold (spec/FORMAT.md): casing and '_'/'-' are ignored,
// nothing else is.
TEST(catalog, key_casing_folds_case_and_separators_only) {
  EXPECT_EQ(folded_key("runId"), "runid");
  EXPECT_EQ(folded_key("run_id"), folded_key("RUN-ID"));
  EXPECT_EQ(folded_key("tool_call-ID"), "toolcallid");
  EXPECT_NE(folded_key("run.id"), folded_key("runid"));
  EXPECT_NE(folded_key("run id"), folded_key("runid"));
  EXPECT_EQ(folded_key("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // non-ASCII bytes kept as they are
  EXPECT_EQ(folded_key("_-"), "");
}

// Traceability: every decision anchor exists in spec/DECISIONS.md.
TEST(catalog, every_decision_anchor_exists) {
  const std::string decisions = read_file(SSEC_SPEC_DIR "/DECISIONS.md");
  ASSERT_FALSE(decisions.empty());
  std::set<std::string> anchors;
  std::istringstream lines(decisions);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("## ", 0) == 0) anchors.insert(line.substr(3));
  }
  ASSERT_GT(anchors.size(), 20u);
  std::vector<std::string> used;
  const auto note = [&](const trace& t) {
    if (!t.decision.empty()) used.push_back(t.decision);
  };
  // The parser cites one too.
  used.push_back("retry-empty");
  for (const auto& d : builtin().dialects()) {
    note(d->origin);
    for (const auto& s : d->shapes) note(s.origin);
    for (const auto& x : d->differences) note(x.origin);
    for (const auto& e : d->events) {
      note(e.origin);
      for (const auto& f : e.fields) {
        note(f.origin);
        for (const auto& n : f.fields) note(n.origin);
      }
    }
  }
  for (const auto& r : builtin().rules()) note(r->origin);
  for (const auto& a : used) EXPECT_TRUE(anchors.contains(a)) << "DECISIONS.md has no '## " << a << "'";
}

// The folder of the protocol documents, which are not part of this
// repository: from the environment, never a default (CI sets it).
std::string protocols_dir() {
  const char* dir = std::getenv("SSEC_PROTOCOLS_DIR");
  return dir != nullptr ? dir : "";
}

// Traceability: every `source` line exists in its document and is not blank,
// and every rule's quote is the words of the line it cites.
TEST(catalog, every_source_line_exists) {
  const std::string dir = protocols_dir();
  if (dir.empty()) GTEST_SKIP() << "SSEC_PROTOCOLS_DIR is not set: the protocol documents are not checked";
  std::map<std::string, std::vector<std::string>> documents;
  for (const std::string name : {"chat-and-code-sessions.txt", "agent-service.txt"}) {
    std::ifstream in(dir + "/" + name);
    if (!in) GTEST_SKIP() << "protocol documents not found in " << dir;
    std::string line;
    while (std::getline(in, line)) documents[name].push_back(line);
  }
  std::size_t checked = 0;
  const auto check = [&](const trace& t, const std::string& what) {
    for (const auto& s : t.sources) {
      if (s.rfind("https://", 0) == 0) continue;
      const auto colon = s.rfind(':');
      const std::string doc = s.substr(0, colon);
      const std::size_t line = std::stoul(s.substr(colon + 1));
      ASSERT_TRUE(documents.contains(doc)) << what << ": " << s;
      ASSERT_LE(line, documents[doc].size()) << what << ": " << s;
      EXPECT_FALSE(documents[doc][line - 1].empty()) << what << ": " << s << " is a blank line";
      ++checked;
    }
  };
  for (const auto& d : builtin().dialects()) {
    check(d->origin, d->name);
    for (const auto& s : d->shapes) check(s.origin, d->name + " shape");
    for (const auto& x : d->differences) check(x.origin, d->name + " " + x.aspect);
    for (const auto& f : d->envelope) check(f.origin, d->name + " envelope " + f.key);
    for (const auto& e : d->events) {
      check(e.origin, d->name + " " + e.type);
      for (const auto& f : e.fields) {
        check(f.origin, d->name + " " + e.type + "." + f.key);
        for (const auto& n : f.fields) check(n.origin, d->name + " " + e.type + "." + f.key + "." + n.key);
      }
    }
  }
  std::size_t quotes = 0;
  for (const auto& r : builtin().rules()) {
    check(r->origin, r->id);
    for (std::size_t i = 0; i < r->quotes.size(); ++i) {
      const std::string& s = r->origin.sources[i];
      if (s.rfind("https://", 0) == 0) continue;  // a WHATWG sentence: no local copy to compare with
      const auto colon = s.rfind(':');
      const std::string& line = documents[s.substr(0, colon)][std::stoul(s.substr(colon + 1)) - 1];
      EXPECT_NE(line.find(r->quotes[i]), std::string::npos)
          << r->id << ": quote \"" << r->quotes[i] << "\" is not on " << s << ": \"" << line << "\"";
      ++quotes;
    }
  }
  EXPECT_GT(checked, 150u);
  EXPECT_GT(quotes, 30u);
}

// ---------------------------------------------------------------------------
// Loading errors: file:line:column and what is wrong.

const std::string base_catalog =
    "format_version: 1\n"                                                                                     // 1
    "catalog_version: 1.0.0\n"                                                                                // 2
    "document: doc.txt\n"                                                                                     // 3
    "purpose: A test protocol.\n"                                                                             // 4
    "dialects:\n"                                                                                             // 5
    "  - name: demo\n"                                                                                        // 6
    "    purpose: Demo.\n"                                                                                    // 7
    "    source: doc.txt:1\n"                                                                                 // 8
    "    frame_shapes:\n"                                                                                     // 9
    "      - {shape: structured, detection: A JSON object., handling: Dispatched., source: doc.txt:2}\n"      // 10
    "    events:\n"                                                                                           // 11
    "      - type: ping\n"                                                                                    // 12
    "        purpose: A ping.\n"                                                                              // 13
    "        source: doc.txt:3\n"                                                                             // 14
    "        fields:\n"                                                                                       // 15
    "          - {key: n, type: integer, required: false, default: 0, purpose: Count., source: doc.txt:3}\n"  // 16
    "rules:\n"                                                                                                // 17
    "  - id: DEMO-PING-FIRST\n"                                                                               // 18
    "    severity: must\n"                                                                                    // 19
    "    dialects: [demo]\n"                                                                                  // 20
    "    text: Ping first.\n"                                                                                 // 21
    "    source: doc.txt:4\n"                                                                                 // 22
    "    check: {kind: first_frame, types: [ping]}\n"                                                         // 23
    "    quote: A ping comes first.\n";                                                                       // 24

using catalog_test_support::edited;

std::vector<std::string> errors_of(const std::string& text) {
  const catalog_source src{"demo.yaml", text};
  const auto r = load_catalogs(std::span<const catalog_source>(&src, 1));
  std::vector<std::string> out;
  if (!r.ok()) {
    for (const auto& e : r.errors) out.push_back(e.to_string());
  }
  EXPECT_EQ(r.ok(), out.empty());
  EXPECT_EQ(r.value != nullptr, r.ok());
  return out;
}

TEST(catalog_errors, base_catalog_loads) { EXPECT_TRUE(errors_of(base_catalog).empty()); }

// The loader's index of each type against the rules grows with events x
// rules: a dialect past max_indexed_type_rules pairs loads without it (a
// validator then works each frame's type out), one within it with it.
TEST(catalog, the_type_rule_index_is_bounded_by_pairs_not_built_past_them) {
  const auto with = [](std::size_t events, std::size_t rules) {
    std::string text = edited(base_catalog, "rules:\n", "");
    text = text.substr(0, text.find("  - id: DEMO-PING-FIRST"));
    std::string more_events;
    for (std::size_t i = 0; i < events; ++i) {
      more_events += "      - {type: e" + std::to_string(i) + ", purpose: An event., source: doc.txt:3, fields: []}\n";
    }
    text = edited(text, "    events:\n", "    events:\n" + more_events);
    text += "rules:\n";
    for (std::size_t i = 0; i < rules; ++i) {
      text += "  - {id: DEMO-FIRST-" + std::to_string(i) +
              ", severity: must, dialects: [demo], text: First., source: doc.txt:4, "
              "check: {kind: first_frame, types: [ping]}, quote: A ping comes first.}\n";
    }
    const catalog_source src{"demo.yaml", text};
    auto r = load_catalogs(std::span<const catalog_source>(&src, 1));
    EXPECT_TRUE(r.ok()) << r.error_text();
    return r;
  };
  const std::size_t side = 256;  // side * side == max_indexed_type_rules
  static_assert(side * side == sse::dialect::max_indexed_type_rules);
  const auto within = with(side - 1, side);  // and ping: 256 types x 256 rules
  ASSERT_TRUE(within.ok());
  const auto* d = within.value->dialect("demo");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->events.size() * d->rules.size(), sse::dialect::max_indexed_type_rules);
  EXPECT_EQ(d->rules_by_event.size(), d->events.size());
  EXPECT_NE(d->indexed_rules(d->event("ping")), nullptr);
  const auto past = with(side, side);
  ASSERT_TRUE(past.ok());
  const auto* big = past.value->dialect("demo");
  ASSERT_NE(big, nullptr);
  EXPECT_GT(big->events.size() * big->rules.size(), sse::dialect::max_indexed_type_rules);
  EXPECT_TRUE(big->rules_by_event.empty());
  EXPECT_EQ(big->indexed_rules(big->event("ping")), nullptr);
}

struct error_case {
  std::string name;
  std::string text;
  std::string expected;  // one error starts with this "demo.yaml:L:C: message" prefix
};

void PrintTo(const error_case& c, std::ostream* os) { *os << c.name; }

std::vector<error_case> error_cases() {
  const std::string& b = base_catalog;
  return {
      {"unknown_key_in_field", edited(b, "required: false, default: 0", "reqired: false, default: 0"),
       "demo.yaml:16:37: unknown key `reqired` in field (allowed: key, type, required,"},
      {"missing_required_key", edited(b, "required: false, default: 0", "reqired: false, default: 0"),
       "demo.yaml:16:13: missing required key `required` in field `n` of event `ping`"},
      {"wrong_type_boolean", edited(b, "required: false", "required: yes"),
       "demo.yaml:16:47: `required` of field `n` of event `ping` must be true or false"},
      {"wrong_type_list", edited(b, "        fields:\n          - {key: n", "        fields: {key: n"),
       "demo.yaml:15:17: `fields` of event `ping` must be a list"},
      {"wrong_type_format_version", edited(b, "format_version: 1", "format_version: one"),
       "demo.yaml:1:17: `format_version` of catalog must be an integer (unquoted)"},
      {"unsupported_format_version", edited(b, "format_version: 1", "format_version: 2"),
       "demo.yaml:1:17: format_version 2 is not supported"},
      {"must_rule_on_a_decision",
       edited(b, "    source: doc.txt:4\n", "    source: doc.txt:4\n    decision: demo-reading\n"),
       "demo.yaml:19:15: a must rule rests on the document's words: rule `DEMO-PING-FIRST` has basis decision"},
      {"must_rule_without_quote", edited(b, "    quote: A ping comes first.\n", ""),
       "demo.yaml:19:15: a must rule quotes the words it rests on: rule `DEMO-PING-FIRST` has no `quote`"},
      {"one_quote_per_source", edited(b, "    source: doc.txt:4\n", "    source: [doc.txt:4, doc.txt:5]\n"),
       "demo.yaml:24:12: quote of rule `DEMO-PING-FIRST` needs one entry per source (2), got 1"},
      {"unknown_basis", edited(b, "    severity: must\n", "    severity: must\n    basis: hunch\n"),
       "demo.yaml:20:12: basis of rule `DEMO-PING-FIRST` must be document, decision or authored, got `hunch`"},
      {"decision_basis_names_a_decision",
       edited(edited(b, "    severity: must\n", "    severity: should\n    basis: decision\n"),
              "    quote: A ping comes first.\n", ""),
       "demo.yaml:20:12: rule `DEMO-PING-FIRST` rests on a decision but names none"},
      {"bad_semver", edited(b, "catalog_version: 1.0.0", "catalog_version: 1.0"),
       "demo.yaml:2:18: catalog_version `1.0` must be a semantic version"},
      {"duplicate_event_type",
       edited(b, "rules:\n", "      - {type: ping, purpose: Again., source: doc.txt:3, fields: []}\nrules:\n"),
       "demo.yaml:17:9: duplicate event type `ping` in dialect `demo` (first at line 12)"},
      {"duplicate_field",
       edited(b, "rules:\n",
              "          - {key: n, type: string, required: true, purpose: Again., source: doc.txt:3}\nrules:\n"),
       "demo.yaml:17:13: duplicate field `n` in event `ping` (first at line 16)"},
      {"duplicate_yaml_key", edited(b, "    source: doc.txt:1\n", "    source: doc.txt:1\n    purpose: Twice.\n"),
       "demo.yaml:9:5: duplicate key `purpose` in dialect (first at line 7)"},
      {"yaml_syntax", edited(b, "types: [ping]}", "types: [ping]"), "demo.yaml:24:5: malformed YAML: "},
      {"unknown_top_level_key", b + "extra: 1\n", "demo.yaml:25:1: unknown key `extra` in catalog"},
      // A second document would otherwise be ignored without a word (a YAML reader stops after the first).
      {"second_document", b + "---\nextra: 1\n",
       "demo.yaml:25:1: a second YAML document starts here; a file holds one"},
      {"unknown_json_type", edited(b, "type: integer", "type: integr"),
       "demo.yaml:16:28: unknown type `integr` of field `n` of event `ping`"},
      {"field_named_type", edited(b, "{key: n,", "{key: type,"),
       "demo.yaml:16:13: field `type` of event `ping` is the event discriminator"},
      {"default_on_required", edited(b, "required: false", "required: true"),
       "demo.yaml:16:62: field `n` of event `ping` is required, so it cannot have a default"},
      {"default_of_wrong_type", edited(b, "default: 0", "default: 'zero'"),
       "demo.yaml:16:63: default of field `n` of event `ping` is not of its type integer"},
      {"bad_source", edited(b, "    source: doc.txt:1\n", "    source: other.txt:1\n"),
       "demo.yaml:8:13: source `other.txt:1` of dialect `demo` must be doc.txt:<line> or an https:// URL"},
      {"bad_source_line", edited(b, "    source: doc.txt:1\n", "    source: doc.txt:0\n"),
       "demo.yaml:8:13: source `doc.txt:0`"},
      {"no_trace", edited(b, "        source: doc.txt:3\n        fields:", "        fields:"),
       "demo.yaml:12:9: event `ping` needs a `source` (document line) or a `decision`"},
      {"bad_decision", edited(b, "    source: doc.txt:1\n", "    decision: Not_An_Anchor\n"),
       "demo.yaml:8:15: decision `Not_An_Anchor` must be a DECISIONS.md anchor"},
      {"bad_severity", edited(b, "severity: must", "severity: may"),
       "demo.yaml:19:15: severity of rule `DEMO-PING-FIRST` must be must or should, got `may`"},
      {"bad_rule_id", edited(b, "DEMO-PING-FIRST", "demo-ping"), "demo.yaml:18:9: rule id `demo-ping` must look like"},
      {"unknown_check_kind", edited(b, "kind: first_frame", "kind: sometimes"),
       "demo.yaml:23:19: unknown check kind `sometimes`"},
      {"unknown_check_parameter", edited(b, "types: [ping]}", "types: [ping], after: [ping]}"),
       "demo.yaml:23:47: unknown key `after` in check of rule `DEMO-PING-FIRST` (first_frame) (allowed: kind, types)"},
      {"missing_check_parameter", edited(b, "{kind: first_frame, types: [ping]}", "{kind: first_frame}"),
       "demo.yaml:23:12: missing required key `types` in check of rule `DEMO-PING-FIRST` (first_frame)"},
      {"unknown_dialect_in_rule", edited(b, "dialects: [demo]", "dialects: [demo, nope]"),
       "demo.yaml:18:5: rule `DEMO-PING-FIRST` names unknown dialect `nope`"},
      {"unknown_type_in_check", edited(b, "types: [ping]", "types: [pong]"),
       "demo.yaml:18:5: rule `DEMO-PING-FIRST` names event type `pong` unknown in dialect `demo`"},
      {"undeclared_field_in_check",
       edited(b, "{kind: first_frame, types: [ping]}", "{kind: field_required, fields: [ping.m]}"),
       "demo.yaml:18:5: rule `DEMO-PING-FIRST` names field `ping.m` not declared in dialect `demo`"},
      {"profile_of_unknown",
       edited(b, "rules:\n", "  - {name: p, purpose: P., source: doc.txt:1, profile_of: nope}\nrules:\n"),
       "demo.yaml:17:5: dialect `p`: profile_of names unknown dialect `nope`"},
      {"profile_with_events",
       edited(b, "rules:\n", "  - {name: p, purpose: P., source: doc.txt:1, profile_of: demo, events: []}\nrules:\n"),
       "demo.yaml:17:65: dialect `p` is a profile: `events` comes from its base"},
      {"no_default_without_default",
       edited(b, "rules:\n",
              "  - name: p\n    purpose: P.\n    source: doc.txt:1\n    profile_of: demo\n    differences:\n"
              "      - {aspect: a, base: b, profile: c, source: doc.txt:1, no_default: [ping.x]}\nrules:\n"),
       "demo.yaml:22:9: no_default `ping.x` must name a field of `demo` that has a default"},
      {"error_shape_without_prefix",
       edited(b, "    events:\n",
              "      - {shape: error, detection: d., handling: h., source: doc.txt:2}\n    events:\n"),
       "demo.yaml:11:9: missing required key `prefix` in the error shape"},
      {"empty_file", "", "demo.yaml:1:1: empty catalog"},
      {"not_a_mapping", "- a\n- b\n", "demo.yaml:1:1: catalog must be a mapping"},
  };
}

class catalog_error : public ::testing::TestWithParam<error_case> {};

TEST_P(catalog_error, names_file_line_and_problem) {
  const auto errors = errors_of(GetParam().text);
  ASSERT_FALSE(errors.empty());
  const bool found = std::any_of(errors.begin(), errors.end(),
                                 [&](const std::string& e) { return e.rfind(GetParam().expected, 0) == 0; });
  std::string all;
  for (const auto& e : errors) all += "  " + e + "\n";
  EXPECT_TRUE(found) << "expected an error starting with\n  " << GetParam().expected << "\ngot\n" << all;
}

INSTANTIATE_TEST_SUITE_P(catalog, catalog_error, ::testing::ValuesIn(error_cases()),
                         [](const ::testing::TestParamInfo<error_case>& info) { return info.param.name; });

TEST(catalog_errors, duplicates_across_files) {
  const std::string second = edited(base_catalog, "name: demo", "name: demo2");
  const catalog_source sources[] = {{"a.yaml", base_catalog}, {"b.yaml", second}};
  const auto r = load_catalogs(sources);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error_text(), HasSubstr("b.yaml:18:5: duplicate rule id `DEMO-PING-FIRST` (first at a.yaml:18:5)"));
  const catalog_source twice[] = {{"a.yaml", base_catalog},
                                  {"c.yaml", edited(base_catalog, "DEMO-PING-FIRST", "DEMO-OTHER")}};
  EXPECT_THAT(load_catalogs(twice).error_text(),
              HasSubstr("c.yaml:6:5: duplicate dialect `demo` (first at a.yaml:6:5)"));
}

TEST(catalog_errors, unreadable_file) {
  const std::vector<std::string> paths = {"/nonexistent/catalog.yaml"};
  const auto r = load_catalog_files(paths);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error_text(), ::testing::StartsWith("/nonexistent/catalog.yaml: "));
}

// Several problems are reported together, not one per run.
TEST(catalog_errors, reports_every_problem) {
  std::string text = edited(base_catalog, "severity: must", "severity: may");
  text = edited(text, "purpose: A ping.", "purpse: A ping.");
  EXPECT_GE(errors_of(text).size(), 3u);
}

// ---------------------------------------------------------------------------
// A new event type is a YAML change only: `widget_spun` exists only in the
// test catalog, and the decoder and validator handle it, defaults, pairing,
// termination and all.

ssec::load_result<std::shared_ptr<const catalog>> gadget() {
  const std::vector<std::string> paths = {SSEC_DIALECT_TEST_DATA "/gadget.yaml"};
  return load_catalog_files(paths);
}

TEST(extension, new_event_type_needs_no_code) {
  const auto loaded = gadget();
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  const dialect_spec& d = *loaded.value->dialect("gadget");
  for (const auto& known : builtin().dialects()) EXPECT_EQ(known->event("widget_spun"), nullptr);

  // Decoding: the catalog's default applies, the type is structured.
  decoder dec(d);
  const event e = dec.decode_event(frame{R"({"type":"widget_spun","widgetId":"w1"})"});
  EXPECT_EQ(e.kind, event_kind::structured);
  EXPECT_EQ(e.fields, nlohmann::json::parse(R"({"type":"widget_spun","widgetId":"w1","rpm":1200})"));
  EXPECT_EQ(dec.decode_event(frame{"[OOPS] jammed"}).kind, event_kind::error);
  EXPECT_EQ(dec.decode_event(frame{"[OOPS] jammed"}).text, "jammed");

  // Validating: the test catalog's own rules run on its own types.
  const std::string ok =
      "data: {\"type\":\"widget_spun\",\"widgetId\":\"w1\"}\n\n"
      "data: {\"type\":\"widget_stopped\",\"widgetId\":\"w1\"}\n\n";
  EXPECT_TRUE(validate_stream(d, ok).findings.empty());
  const auto bad = validate_stream(d,
                                   "data: {\"type\":\"widget_stopped\",\"widgetId\":\"w9\"}\n\n"
                                   "data: {\"type\":\"widget_spun\",\"rpm\":\"fast\"}\n\n");
  std::multiset<std::string> ids;
  for (const auto& fnd : bad.findings) ids.insert(fnd.rule->id);
  EXPECT_EQ(ids, (std::multiset<std::string>{"GADGET-STOP-AFTER-SPIN", "GADGET-FIELD-REQUIRED", "GADGET-FIELD-TYPE",
                                             "GADGET-ENDS-STOPPED", "GADGET-SPIN-CLOSED"}));
}

}  // namespace
