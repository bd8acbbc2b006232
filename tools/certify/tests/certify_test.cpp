// SPDX-License-Identifier: MIT
// The parts of `certify` that need no process: consumer profiles (loader and
// static check), probe streams, and the grading of a consumer's answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "sse/dialect/decoder.hpp"
#include "ssec/certify/certify.hpp"
#include "ssec/conformance/catalog_diff.hpp"
#include "ssec/conformance/consumer_profile.hpp"
#include "ssec/conformance/probes.hpp"

namespace {

namespace conf = ssec::conformance;
namespace dl = sse::dialect;

std::string read_file(const std::string& relative) {
  std::ifstream in(std::string(SSEC_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "the catalog changed: " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::shared_ptr<const dl::catalog> load(const std::string& chat, const std::string& agent) {
  const std::vector<dl::catalog_source> sources{{"chat.yaml", chat}, {"agent.yaml", agent}};
  auto loaded = dl::load_catalogs(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return loaded.value;
}

const std::string content_text =
    "          - {key: text, type: string, required: true, purpose: Text appended to the body., source: "
    "chat-and-code-sessions.txt:17}\n";
const std::string thinking = "      - type: thinking\n";
const std::string citation =
    "      - type: citation\n        purpose: A source.\n        source: chat-and-code-sessions.txt:17\n"
    "        fields:\n          - {key: url, type: string, required: true, purpose: Where., source: "
    "chat-and-code-sessions.txt:17}\n";
const std::string annotations =
    "          - {key: annotations, type: array, required: false, purpose: Citations., source: "
    "chat-and-code-sessions.txt:17}\n";

struct contracts {
  std::shared_ptr<const dl::catalog> old_set, new_set;
};

// OLD: spec/ as it is; NEW: chat gains the type `citation` and `content.annotations`.
const contracts& added() {
  static const contracts c = [] {
    const std::string chat = read_file("spec/chat.yaml"), agent = read_file("spec/agent.yaml");
    return contracts{
        load(chat, agent),
        load(replaced(replaced(chat, content_text, content_text + annotations), thinking, citation + thinking), agent)};
  }();
  return c;
}

// OLD: spec/ as it is; NEW: chat's `content.text` renamed `content.body`.
const contracts& renamed() {
  static const contracts c = [] {
    const std::string chat = read_file("spec/chat.yaml"), agent = read_file("spec/agent.yaml");
    return contracts{load(chat, agent),
                     load(replaced(chat, content_text, replaced(content_text, "{key: text,", "{key: body,")), agent)};
  }();
  return c;
}

// ---- Profiles -------------------------------------------------------------

const char* good_profile =
    "profile_format: 1\nname: t\ndialect: chat\nunknown_types: reject\nhandles:\n"
    "  content: [/text]\n  notice: [/kind, /text]\n";

TEST(consumer_profile, loads) {
  const auto p = conf::load_profile_text(good_profile, "p.yaml");
  ASSERT_TRUE(p.ok()) << p.error_text();
  EXPECT_EQ(p.value.dialect, "chat");
  EXPECT_EQ(p.value.unknown_types, conf::unknown_policy::reject);
  ASSERT_EQ(p.value.handles.size(), 2u);
  EXPECT_EQ(p.value.handles[1].reads, (std::vector<std::string>{"/kind", "/text"}));
  EXPECT_EQ(p.value.handles[1].line, 7u);
}

TEST(consumer_profile, the_repository_profiles_load) {
  for (const char* f :
       {"tools/adapters/agent-service-consumer.profile.yaml", "tools/adapters/chat-transcript-consumer.profile.yaml"}) {
    const auto p = conf::load_profile_text(read_file(f), f);
    EXPECT_TRUE(p.ok()) << p.error_text();
    EXPECT_FALSE(p.value.handles.empty()) << f;
  }
}

struct bad_profile {
  const char* name;  // the test's name: stable across builds
  const char* text;
  const char* error;  // the whole first error, file:line:column: message
};

class consumer_profile_errors : public ::testing::TestWithParam<bad_profile> {};

TEST_P(consumer_profile_errors, are_positioned) {
  const auto p = conf::load_profile_text(GetParam().text, "p.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.errors.front().to_string(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    loader, consumer_profile_errors,
    ::testing::Values(
        bad_profile{"unknown_format",
                    "profile_format: 2\nname: t\ndialect: chat\nunknown_types: ignore\nhandles: {content: []}\n",
                    "p.yaml:1:17: profile_format 2 is not known to this build (it reads 1)"},
        bad_profile{"unknown_policy",
                    "profile_format: 1\nname: t\ndialect: chat\nunknown_types: drop\nhandles: {content: []}\n",
                    "p.yaml:4:16: `unknown_types` must be ignore, surface or reject, not `drop`"},
        bad_profile{"not_a_pointer",
                    "profile_format: 1\nname: t\ndialect: chat\nunknown_types: ignore\nhandles:\n  content: [text]\n",
                    "p.yaml:6:13: `text` is not a JSON Pointer (\"/key\", \"/key/sub\")"},
        bad_profile{"unknown_key",
                    "profile_format: 1\nname: t\ndialect: chat\nunknown_type: ignore\nhandles: {content: []}\n",
                    "p.yaml:4:1: unknown key `unknown_type` in a consumer profile (allowed: profile_format, name, "
                    "dialect, unknown_types, aborts_on, requires, handles)"},
        bad_profile{"missing_dialect", "profile_format: 1\nname: t\nunknown_types: ignore\nhandles: {content: []}\n",
                    "p.yaml:1:1: missing required key `dialect` in a consumer profile"},
        bad_profile{"duplicate_key",
                    "profile_format: 1\nname: t\ndialect: chat\nunknown_types: ignore\nhandles:\n  content: []\n  "
                    "content: [/text]\n",
                    "p.yaml:7:3: duplicate key `content` in `handles` (first at line 6)"},
        bad_profile{"no_handled_type",
                    "profile_format: 1\nname: t\ndialect: chat\nunknown_types: ignore\nhandles: {}\n",
                    "p.yaml:5:10: `handles` must name at least one event type"},
        bad_profile{"malformed_yaml", "profile_format: 1\nname: [t\n",
                    "p.yaml:3:1: malformed YAML: end of sequence flow not found"}),
    [](const auto& info) { return std::string(info.param.name); });

std::vector<std::string> rules_of(const std::vector<conf::profile_finding>& fs, conf::change_level level) {
  std::vector<std::string> out;
  for (const auto& f : fs) {
    if (f.level == level) out.push_back(f.rule + " " + f.type + f.pointer);
  }
  return out;
}

TEST(consumer_profile, static_check_against_new_and_old) {
  const std::string chat = read_file("spec/chat.yaml"), agent = read_file("spec/agent.yaml");
  // NEW: content.text removed, notice removed, file_change.action optional,
  // checkpoint.fileCount also a string, a new type.
  std::string next = replaced(chat, content_text, replaced(content_text, "{key: text,", "{key: body,"));
  next = replaced(next, "      - type: notice\n", "      - type: notice_v2\n");
  next = replaced(next, "{key: action, type: string, required: true", "{key: action, type: string, required: false");
  next = replaced(next, "{key: fileCount, type: integer", "{key: fileCount, type: [integer, string]");
  next = replaced(next, "{key: label, type: string", "{key: label, type: object");
  next = replaced(next, thinking, citation + thinking);
  const auto prev_set = load(chat, agent), next_set = load(next, agent);
  const auto p = conf::load_profile_text(
      "profile_format: 1\nname: t\ndialect: chat\nunknown_types: reject\nhandles:\n  content: [/text]\n"
      "  notice: [/kind]\n  file_change: [/action, /path]\n  checkpoint: [/fileCount, /label]\n  tool_call: "
      "[/arguments, "
      "/argumentz]\n  no_such: []\n",
      "p.yaml");
  ASSERT_TRUE(p.ok()) << p.error_text();
  const auto fs = conf::check_profile(p.value, *next_set, prev_set.get());
  EXPECT_EQ(rules_of(fs, conf::change_level::err),
            (std::vector<std::string>{"FIELD_REMOVED content/text", "TYPE_REMOVED notice",
                                      "FIELD_NOW_OPTIONAL file_change/action", "FIELD_TYPE_CHANGED checkpoint/label",
                                      "NEW_TYPE_REJECTED citation", "NEW_TYPE_REJECTED notice_v2"}));
  EXPECT_EQ(rules_of(fs, conf::change_level::warn),
            (std::vector<std::string>{"FIELD_TYPE_WIDENED checkpoint/fileCount",
                                      "FIELD_NOT_IN_CATALOG tool_call/argumentz", "TYPE_NOT_IN_CATALOG no_such"}));
  // A replaced type says what the new contract admits instead, never "also admits".
  for (const auto& f : fs) {
    if (f.rule == "FIELD_TYPE_CHANGED") {
      EXPECT_EQ(f.message, "the consumer reads `checkpoint/label` as string; the new contract admits object instead");
    }
  }
  // A removed type the consumer handles but does not require is WARN.
  auto needs = p.value;
  needs.requires_given = true;
  needs.requires_types = {"content"};
  const auto relaxed = conf::check_profile(needs, *next_set, prev_set.get());
  const auto relaxed_warn = rules_of(relaxed, conf::change_level::warn);
  EXPECT_EQ(std::count(relaxed_warn.begin(), relaxed_warn.end(), "TYPE_REMOVED notice"), 1);
  // The same profile against an unchanged contract: only what it names wrongly.
  const auto same = conf::check_profile(p.value, *prev_set, prev_set.get());
  EXPECT_TRUE(rules_of(same, conf::change_level::err).empty());
  // An ignoring consumer only hears of the new types.
  auto lenient = p.value;
  lenient.unknown_types = conf::unknown_policy::ignore;
  EXPECT_EQ(rules_of(conf::check_profile(lenient, *next_set, prev_set.get()), conf::change_level::info),
            (std::vector<std::string>{"NEW_TYPE_IGNORED citation", "NEW_TYPE_IGNORED notice_v2"}));
  // A dialect the contract lacks.
  auto other = p.value;
  other.dialect = "nope";
  EXPECT_EQ(rules_of(conf::check_profile(other, *next_set, prev_set.get()), conf::change_level::err),
            (std::vector<std::string>{"DIALECT_UNKNOWN "}));
}

// ---- Probes ---------------------------------------------------------------

const conf::probe* find(const std::vector<conf::probe>& ps, const std::string& id) {
  const auto it = std::find_if(ps.begin(), ps.end(), [&](const conf::probe& p) { return p.id == id; });
  return it == ps.end() ? nullptr : &*it;
}

TEST(probes, inject_what_the_new_contract_adds_and_the_classes_that_broke_clients) {
  const auto& c = added();
  const auto chat = conf::make_probes(*c.new_set, c.old_set.get(), "chat");
  for (const char* id :
       {"chat/new-type/citation", "chat/new-field/content.annotations", "chat/unknown-type/x_certify_probe",
        "chat/keep-alive/comment", "chat/ping-like/ping", "chat/empty-list/search_results.results",
        "chat/usage-only/usage", "chat/unknown-subtype/file_change.action"}) {
    EXPECT_NE(find(chat, id), nullptr) << id;
  }
  const auto* t = find(chat, "chat/new-type/citation");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->frames.size(), t->baseline.size() + 1);
  EXPECT_EQ(t->baseline_stream().find("citation"), std::string::npos) << "the baseline holds only OLD's types";
  EXPECT_NE(t->stream().find("data: {\"type\":\"citation\",\"url\":\"url-1\"}\n\n"), std::string::npos);
  const auto* f = find(chat, "chat/new-field/content.annotations");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->baseline_stream().find("annotations"), std::string::npos);
  EXPECT_NE(f->stream().find("\"annotations\":[\"annotations-1\"]"), std::string::npos);

  // Agent: the lifecycle and terminal classes; aborts_on keeps a type out of the baseline.
  const auto agent = conf::make_probes(*c.new_set, c.old_set.get(), "agent", {"error"});
  for (const char* id :
       {"agent/after-terminal/after-done", "agent/orphan-close/step_completed", "agent/usage-only/llm_usage"}) {
    EXPECT_NE(find(agent, id), nullptr) << id;
  }
  ASSERT_FALSE(agent.empty());
  EXPECT_EQ(agent.front().baseline_stream().find("\"type\":\"error\""), std::string::npos);
  EXPECT_EQ(agent.front().baseline_stream().rfind("data: {\"type\":\"done\""),
            agent.front().baseline_stream().size() - agent.front().baseline.back().block.size());
  // No change, no change probes.
  const auto none = conf::make_probes(*c.old_set, c.old_set.get(), "chat");
  EXPECT_EQ(find(none, "chat/new-type/citation"), nullptr);
}

TEST(probes, chunkings_cut_the_whole_stream) {
  const auto& c = added();
  const auto chat = conf::make_probes(*c.new_set, c.old_set.get(), "chat");
  const auto* p = find(chat, "chat/new-type/citation");
  ASSERT_NE(p, nullptr);
  const auto ks = conf::probe_chunkings(*p, 2);
  ASSERT_EQ(ks.size(), 4u);
  EXPECT_EQ(ks[0].name(), "whole");
  EXPECT_EQ(ks[1].name(), "bytes");
  for (const auto& k : ks) {
    std::string joined;
    for (const auto& s : conf::probe_chunks(*p, k)) joined += s;
    EXPECT_EQ(joined, p->stream()) << k.name();
  }
  EXPECT_EQ(conf::probe_chunks(*p, ks[1]).size(), p->stream().size());
}

// ---- Grading --------------------------------------------------------------

conf::answer decoded(const dl::dialect_spec& d, const std::string& stream) {
  conf::answer a;
  std::vector<nlohmann::json> events;
  for (const auto& e : dl::decode_stream(d, stream).events)
    events.push_back(nlohmann::json::parse(dl::to_json(e).dump()));
  a.dialect = std::move(events);
  return a;
}

struct graded_probe {
  const conf::probe* p = nullptr;
  const dl::dialect_spec* old_d = nullptr;
  const dl::dialect_spec* new_d = nullptr;
};

graded_probe probe_of(const std::string& id) {
  static const auto chat = conf::make_probes(*added().new_set, added().old_set.get(), "chat");
  return {find(chat, id), added().old_set->dialect("chat"), added().new_set->dialect("chat")};
}

TEST(probe_grading, a_consumer_of_old_tolerates_a_new_type_as_unknown) {
  const auto g = probe_of("chat/new-type/citation");
  ASSERT_NE(g.p, nullptr);
  const auto r =
      conf::grade_probe(*g.p, *g.new_d, decoded(*g.old_d, g.p->baseline_stream()), decoded(*g.old_d, g.p->stream()));
  EXPECT_EQ(r.grade, conf::probe_grade::tolerated) << r.reason;
  EXPECT_EQ(r.outcome, conf::outcome::pass);
}

TEST(probe_grading, a_consumer_of_new_adopts_the_new_type_and_field) {
  for (const char* id : {"chat/new-type/citation", "chat/new-field/content.annotations"}) {
    const auto g = probe_of(id);
    ASSERT_NE(g.p, nullptr);
    const auto r =
        conf::grade_probe(*g.p, *g.new_d, decoded(*g.new_d, g.p->baseline_stream()), decoded(*g.new_d, g.p->stream()));
    EXPECT_EQ(r.grade, conf::probe_grade::adopted) << id << ": " << r.reason;
  }
  // Robustness probes hold nothing new: decoding them right is tolerance.
  const auto g = probe_of("chat/unknown-type/x_certify_probe");
  const auto r =
      conf::grade_probe(*g.p, *g.new_d, decoded(*g.new_d, g.p->baseline_stream()), decoded(*g.new_d, g.p->stream()));
  EXPECT_EQ(r.grade, conf::probe_grade::tolerated) << r.reason;
}

TEST(probe_grading, ignoring_the_new_field_is_tolerated) {
  const auto g = probe_of("chat/new-field/content.annotations");
  ASSERT_NE(g.p, nullptr);
  auto probed = decoded(*g.new_d, g.p->stream());
  for (auto& e : *probed.dialect) {
    if (e.value("type", "") == "content") e["fields"].erase("annotations");
  }
  const auto r = conf::grade_probe(*g.p, *g.new_d, decoded(*g.new_d, g.p->baseline_stream()), probed);
  EXPECT_EQ(r.grade, conf::probe_grade::tolerated) << r.reason;
}

TEST(probe_grading, broke_when_a_known_event_is_lost_changed_or_the_new_one_mangled) {
  const auto g = probe_of("chat/new-type/citation");
  ASSERT_NE(g.p, nullptr);
  const auto base = decoded(*g.old_d, g.p->baseline_stream());
  const auto good = decoded(*g.old_d, g.p->stream());

  auto lost = good;
  lost.dialect->erase(lost.dialect->begin() + 1);
  auto r = conf::grade_probe(*g.p, *g.new_d, base, lost);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_EQ(r.outcome, conf::outcome::fail);
  EXPECT_NE(r.reason.find("lost a known event"), std::string::npos) << r.reason;

  auto changed = good;
  (*changed.dialect)[1]["fields"]["text"] = "something else";
  r = conf::grade_probe(*g.p, *g.new_d, base, changed);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_NE(r.reason.find("changed a known event"), std::string::npos) << r.reason;

  // The fallback that turns an unknown frame into body text.
  auto mangled = good;
  for (auto& e : *mangled.dialect) {
    if (e.value("type", "") == "citation") e = {{"kind", "plain_text"}, {"text", e["raw"]}, {"raw", e["raw"]}};
  }
  r = conf::grade_probe(*g.p, *g.new_d, base, mangled);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_NE(r.reason.find("decoded the injected frame"), std::string::npos) << r.reason;

  auto invented = good;
  invented.dialect->push_back({{"kind", "plain_text"}, {"text", "x"}, {"raw", "x"}});
  r = conf::grade_probe(*g.p, *g.new_d, base, invented);
  EXPECT_NE(r.reason.find("does not hold"), std::string::npos) << r.reason;

  conf::answer rejected;
  rejected.dialect_rejection = "Error: unknown event type citation";
  r = conf::grade_probe(*g.p, *g.new_d, base, rejected);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_EQ(r.outcome, conf::outcome::fail);
  r = conf::grade_probe(*g.p, *g.new_d, rejected, good);
  EXPECT_NE(r.reason.find("baseline"), std::string::npos) << r.reason;

  conf::answer malformed;
  malformed.malformed = "not JSON";
  r = conf::grade_probe(*g.p, *g.new_d, base, malformed);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_EQ(r.outcome, conf::outcome::error);

  auto not_event = good;
  not_event.dialect->push_back({{"kind", "nonsense"}});
  r = conf::grade_probe(*g.p, *g.new_d, base, not_event);
  EXPECT_EQ(r.outcome, conf::outcome::error) << r.reason;
}

TEST(probe_grading, a_consumer_that_drops_a_changed_frame_broke) {
  const auto g = probe_of("chat/empty-list/search_results.results");
  ASSERT_NE(g.p, nullptr);
  const auto base = decoded(*g.old_d, g.p->baseline_stream());
  auto probed = decoded(*g.old_d, g.p->stream());
  EXPECT_EQ(conf::grade_probe(*g.p, *g.new_d, base, probed).grade, conf::probe_grade::tolerated);
  probed.dialect->erase(std::remove_if(probed.dialect->begin(), probed.dialect->end(),
                                       [](const nlohmann::json& e) { return e.value("type", "") == "search_results"; }),
                        probed.dialect->end());
  const auto r = conf::grade_probe(*g.p, *g.new_d, base, probed);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_NE(r.reason.find("search_results"), std::string::npos) << r.reason;
}

}  // namespace

namespace {

TEST(probe_grading, doing_without_a_removed_field_is_tolerated_never_adopted) {
  const auto& prev = renamed().old_set;
  const auto& next = renamed().new_set;
  const auto probes = conf::make_probes(*next, prev.get(), "chat");
  const auto* p = find(probes, "chat/removed-field/content.text");
  ASSERT_NE(p, nullptr);
  EXPECT_NE(find(probes, "chat/new-field/content.body"), nullptr);
  const auto& d = *next->dialect("chat");
  // A consumer that shows `text` (the reference decoder passes every key on) loses it: broke.
  const auto shows = conf::grade_probe(*p, d, decoded(d, p->baseline_stream()), decoded(d, p->stream()));
  EXPECT_EQ(shows.grade, conf::probe_grade::broke);
  EXPECT_NE(shows.reason.find("lost `text`"), std::string::npos) << shows.reason;
  // One that never answered `text` does without it.
  const auto without_text = [](conf::answer a) {
    for (auto& e : *a.dialect) {
      if (e.contains("fields") && e["fields"].is_object()) e["fields"].erase("text");
    }
    return a;
  };
  const auto r =
      conf::grade_probe(*p, d, without_text(decoded(d, p->baseline_stream())), without_text(decoded(d, p->stream())));
  EXPECT_EQ(r.grade, conf::probe_grade::tolerated) << r.reason;
}

TEST(probe_grading, a_rendered_placeholder_is_broke_never_adopted) {
  const auto& prev = renamed().old_set;
  const auto& next = renamed().new_set;
  const auto probes = conf::make_probes(*next, prev.get(), "chat");
  const auto* p = find(probes, "chat/removed-field/content.text");
  ASSERT_NE(p, nullptr);
  const auto& d = *next->dialect("chat");
  // The consumer appends `ev.text` to the body: "undefined" where the field is gone.
  auto probed = decoded(d, p->stream());
  for (auto& e : *probed.dialect) {
    if (e.value("type", "") == "content" && !e["fields"].contains("text")) e["fields"]["text"] = "undefined";
  }
  const auto r = conf::grade_probe(*p, d, decoded(d, p->baseline_stream()), probed);
  EXPECT_EQ(r.grade, conf::probe_grade::broke);
  EXPECT_NE(r.reason.find("rendered `undefined`"), std::string::npos) << r.reason;
}

TEST(probes, a_renamed_field_is_probed_on_what_a_producer_of_old_sends) {
  const auto& prev = renamed().old_set;
  const auto& next = renamed().new_set;
  const auto probes = conf::make_probes(*next, prev.get(), "chat");
  ASSERT_FALSE(probes.empty());
  // The baseline's content frame carries OLD's key.
  EXPECT_NE(probes.front().baseline_stream().find("{\"type\":\"content\",\"text\":"), std::string::npos)
      << probes.front().baseline_stream();
}

TEST(probes, cover_a_field_made_optional_and_a_terminal_change) {
  const std::string chat = read_file("spec/chat.yaml"), agent = read_file("spec/agent.yaml");
  const auto prev = load(chat, agent);
  const auto chat_next = load(replaced(chat, "{key: name, type: string, required: true, purpose: Name of the tool.,",
                                       "{key: name, type: string, required: false, purpose: Name of the tool.,"),
                              agent);
  const auto chat_probes = conf::make_probes(*chat_next, prev.get(), "chat");
  const auto* opt = find(chat_probes, "chat/optional-field/tool_result.name");
  ASSERT_NE(opt, nullptr);
  bool omitted = false;
  for (const auto& f : opt->frames) {
    if (f.changed)
      omitted = f.data.find("\"tool_result\"") != std::string::npos && f.data.find("\"name\"") == std::string::npos;
  }
  EXPECT_TRUE(omitted) << opt->stream();
  const auto agent_next = load(chat, replaced(agent, "check: {kind: last_frame, types: [done]}",
                                              "check: {kind: last_frame, types: [done, run_completed]}"));
  const auto agent_probes = conf::make_probes(*agent_next, prev.get(), "agent", {"error"});
  const auto* term = find(agent_probes, "agent/terminal/run_completed");
  ASSERT_NE(term, nullptr);
  EXPECT_EQ(term->stream().find("\"type\":\"done\""), std::string::npos) << term->stream();
  EXPECT_NE(term->stream().rfind("\"type\":\"run_completed\""), std::string::npos);
}

TEST(probes, every_catalog_diff_rule_a_reader_meets_has_a_probe_class) {
  std::vector<std::string> without;
  for (const auto& r : conf::diff_rules()) {
    if (r.reader == conf::change_level::info) continue;
    const auto c = conf::probe_classes_for(r.id);
    for (const auto& k : c.classes) {
      EXPECT_NE(std::find(conf::probe_classes().begin(), conf::probe_classes().end(), k), conf::probe_classes().end())
          << r.id << " names the unknown probe class " << k;
    }
    if (c.classes.empty() && c.none.empty()) without.push_back(std::string(r.id));
  }
  std::string listed;
  for (const auto& w : without) listed += " " + w;
  EXPECT_TRUE(without.empty()) << "catalog diff rules without a probe class:" << listed;
}

TEST(probes, a_removed_type_is_left_out_of_what_a_producer_of_old_sends) {
  const std::string chat = read_file("spec/chat.yaml"), agent = read_file("spec/agent.yaml");
  const auto prev = load(chat, agent);
  const std::string debug =
      "      - type: debug\n        purpose: Debug output.\n        source: chat-and-code-sessions.txt:31\n        "
      "fields:\n"
      "          - {key: text, type: string, required: true, purpose: Debug text., source: "
      "chat-and-code-sessions.txt:31}\n";
  const auto next = load(replaced(chat, debug, ""), agent);
  const auto probes = conf::make_probes(*next, prev.get(), "chat");
  const auto* p = find(probes, "chat/removed-type/debug");
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p->baseline_stream().find("\"type\":\"debug\""), std::string::npos);
  EXPECT_EQ(p->stream().find("\"type\":\"debug\""), std::string::npos);
  // A rule NEW drops: what it forbade is sent.
  const auto no_rule = load(replaced(chat, "    check: {kind: forbidden_type, types: [done]}\n",
                                     "    check: {kind: forbidden_type, types: [debug]}\n"),
                            agent);
  const auto relaxed = conf::make_probes(*no_rule, prev.get(), "chat");
  const auto* r = find(relaxed, "chat/rule-relaxed/CHAT-NO-DONE-FRAME.done");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->stream().find("{\"type\":\"done\"}"), std::string::npos) << r->stream();
}

// ---- Recorded baselines ---------------------------------------------------

const char* recorded_stream =
    "data: {\"type\":\"content\",\"text\":\"Hello\"}\n\n: keep-alive\n\n"
    "data: {\"type\":\"thinking\",\ndata:  \"text\":\"two data lines\"}\n\n"
    "data: {\"type\":\"usage\",\"promptTokens\":3}\n\n";

std::vector<conf::probe_frame> recorded_frames() {
  const dl::dialect_spec& d = *added().new_set->dialect("chat");
  std::vector<conf::probe_frame> out;
  for (const auto& e : dl::decode_stream(d, recorded_stream).events) out.push_back(conf::recorded_frame("", e.raw));
  return out;
}

TEST(probes, are_built_on_a_recorded_baseline_its_frames_the_known_events) {
  const auto& c = added();
  const auto frames = recorded_frames();
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[1].block, "data: {\"type\":\"thinking\",\ndata:  \"text\":\"two data lines\"}\n\n");
  const auto probes = conf::make_probes_on(*c.new_set, c.old_set.get(), "chat", frames, "recorded-1");
  const auto* t = find(probes, "chat/new-type/citation@recorded-1");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->baseline_stream(),
            "data: {\"type\":\"content\",\"text\":\"Hello\"}\n\n"
            "data: {\"type\":\"thinking\",\ndata:  \"text\":\"two data lines\"}\n\n"
            "data: {\"type\":\"usage\",\"promptTokens\":3}\n\n");
  EXPECT_EQ(t->frames.size(), 4u);
  EXPECT_EQ(t->frames[1].baseline, -1) << "injected after the first frame, as on the generated baseline";
  EXPECT_NE(find(probes, "chat/new-field/content.annotations@recorded-1"), nullptr);
  EXPECT_NE(find(probes, "chat/keep-alive/comment@recorded-1"), nullptr);
  EXPECT_EQ(find(probes, "chat/new-type/citation"), nullptr) << "every id names its baseline";

  // A consumer of OLD tolerates the new type on it; one that loses the
  // recorded two-line frame broke.
  const dl::dialect_spec& old_d = *c.old_set->dialect("chat");
  const dl::dialect_spec& new_d = *c.new_set->dialect("chat");
  const auto base = decoded(old_d, t->baseline_stream());
  const auto ok = conf::grade_probe(*t, new_d, base, decoded(old_d, t->stream()));
  EXPECT_EQ(ok.grade, conf::probe_grade::tolerated) << ok.reason;
  auto lossy = decoded(old_d, t->stream());
  lossy.dialect->erase(lossy.dialect->begin() + 2);
  const auto lost = conf::grade_probe(*t, new_d, base, lossy);
  EXPECT_EQ(lost.grade, conf::probe_grade::broke);
  EXPECT_NE(lost.reason.find("lost a known event"), std::string::npos) << lost.reason;

  // aborts_on keeps its frames out of the recorded baseline too.
  const auto kept = conf::make_probes_on(*c.new_set, c.old_set.get(), "chat", frames, "recorded-1", {"usage"});
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.front().baseline.size(), 2u);
  EXPECT_EQ(kept.front().baseline_stream().find("usage"), std::string::npos);
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  std::string path = testing::TempDir() + "certify_baseline_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(recorded_baseline, loads_a_stream_or_a_capture) {
  const auto& c = added();
  auto b = ssec::certify::load_baseline(temp_file("ok.sse", recorded_stream), "chat", *c.new_set, "recorded-1");
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->name, "recorded-1");
  ASSERT_EQ(b->frames.size(), 3u);
  EXPECT_EQ(b->frames[1].data, "{\"type\":\"thinking\",\n \"text\":\"two data lines\"}");
  // Two reads of one frame: the frame is split across them.
  const std::string capture =
      "{\"format\":\"sse-conform-capture\",\"version\":1,\"source\":\"http://x/\",\"status\":200,"
      "\"headers\":{\"content-type\":\"text/event-stream\"},\"timed\":true}\n"
      "{\"t\":0.1,\"b64\":\"ZGF0YTogeyJ0eXBlIjoiY29udGVudCIs\"}\n{\"t\":0.2,\"b64\":\"InRleHQiOiJhIn0KCg==\"}\n"
      "{\"end\":\"complete\",\"t\":0.3}\n";
  auto cap = ssec::certify::load_baseline(temp_file("ok.capture", capture), "chat", *c.new_set, "recorded-2");
  ASSERT_TRUE(cap) << cap.error().message;
  ASSERT_EQ(cap->frames.size(), 1u);
  EXPECT_EQ(cap->frames[0].data, "{\"type\":\"content\",\"text\":\"a\"}");
}

TEST(recorded_baseline, refuses_what_cannot_be_a_baseline_saying_where) {
  const auto& c = added();
  const auto error_of = [&c](const std::string& name, const std::string& bytes) {
    auto b = ssec::certify::load_baseline(temp_file(name, bytes), "chat", *c.new_set, "recorded-1");
    return b ? std::string("loaded") : b.error().message;
  };
  EXPECT_NE(error_of("cut.sse", "data: {\"type\":\"content\",\"text\":\"a\"}\n\ndata: {")
                .find("does not decode: an unterminated frame at the end (no blank line) at byte offset 37"),
            std::string::npos);
  EXPECT_NE(error_of("utf8.sse", "data: {\"type\":\"content\",\"text\":\"\xff\"}\n\n").find("not UTF-8 at byte offset"),
            std::string::npos);
  EXPECT_NE(error_of("must.sse", "data: {\"type\":\"approval_request\",\"name\":\"x\",\"arguments\":{}}\n\n")
                .find("frame 1 (byte offset 0) breaks the new contract's MUST rule CHAT-APPROVAL-ID"),
            std::string::npos);
  EXPECT_NE(error_of("empty.sse", ": only a comment\n\n").find("holds no event"), std::string::npos);
  EXPECT_NE(error_of("bad.capture", "{\"format\":\"sse-conform-capture\",\"version\":1,\"source\":\"x\"}\nnot json\n")
                .find("bad.capture"),
            std::string::npos);
  std::string frames;
  for (int i = 0; i < 1001; ++i) frames += "data: {\"type\":\"content\",\"text\":\"a\"}\n\n";
  EXPECT_NE(error_of("many.sse", frames).find("1001 frames, over the limit of 1000"), std::string::npos);
  const std::string big(ssec::certify::max_baseline_bytes + 1, 'x');
  EXPECT_NE(error_of("big.sse", big).find("1048577 bytes, over the limit of 1048576 bytes"), std::string::npos);
  auto none = ssec::certify::load_baseline(temp_file("ok2.sse", recorded_stream), "nope", *c.new_set, "r");
  EXPECT_FALSE(none);
}

}  // namespace

// The HTML report shows what the text shows: an unchecked dialect as a
// failing row of its own, and a consumer's failures that OLD had too.
TEST(certify_html, shows_unchecked_dialects_and_what_already_failed_under_old) {
  ssec::certify::report r;
  r.dialects = {{"agent", {}, ""}, {"chat", {"consumer ui"}, ""}};
  ssec::certify::consumer_report c;
  c.name = "ui <b>";
  c.existing = 2;
  c.case_existing = 1;
  r.consumers.push_back(c);
  const std::string html = ssec::certify::to_html(r);
  EXPECT_NE(html.find("<tr><td>dialect agent</td><td class=\"broke\">unchecked</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<td>dialect chat</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("3 already failing under OLD (not counted against NEW; --fail-on-existing counts them)"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("consumer ui &lt;b&gt;"), std::string::npos) << html;
  r.allow_unchecked = true;
  EXPECT_NE(ssec::certify::to_html(r).find("<td class=\"certified\">unchecked</td><td>changed, and no producer"),
            std::string::npos);
}
