// SPDX-License-Identifier: MIT
// Whole scenario runs and Last-Event-ID resumption (check.md "Resumption") against real local
// servers on 127.0.0.1: the case server, and ssec::http::server stand-ins for what serve does not do.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "agent_streams.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/http/server.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/scenario.hpp"
#include "ssec/live/serve.hpp"

namespace {

using agent_streams::agent_with_ids;
using agent_streams::frame_chunks;
using ssec::live::check_report;
using ssec::live::load_scenario_text;

// A stream without its `id:` lines.
std::string without_id_lines(const std::string& s) {
  std::string out;
  for (std::size_t at = 0; at < s.size();) {
    const auto eol = s.find('\n', at) + 1;
    if (s.compare(at, 4, "id: ") != 0) out += s.substr(at, eol - at);
    at = eol;
  }
  return out;
}

// The tool run as agent-service.txt frames it: one data: line per frame.
const std::string agent_tool_run = without_id_lines(agent_with_ids);

// A run without a tool, in agent-service.txt's own shape.
const std::string agent_without_ids =
    "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n";

// Breaks AGENT-RUNID-PRESENT (frame 2, counting from 1) and AGENT-DONE-LAST; has no tool call.
const std::string& agent_broken = agent_streams::bad_agent;

// The rules of a report's MUST findings, AGENT-FRAME-DATA-ONLY aside: a
// stream that can resume carries `id:` lines, which an agent-service frame
// does not have (spec/DECISIONS.md, agent-frame-data-only); how the run
// resumes is judged by the rest.
std::set<std::string> musts_besides_id_lines(const check_report& r) {
  std::set<std::string> out;
  for (const auto& f : r.findings) {
    if (f.severity == "must" && f.rule != "AGENT-FRAME-DATA-ONLY") out.insert(f.rule);
  }
  return out;
}

const ssec::live::check_finding* find(const check_report& r, const std::string& rule, std::size_t nth = 0) {
  for (const auto& f : r.findings) {
    if (f.rule == rule && nth-- == 0) return &f;
  }
  return nullptr;
}

// --- whole runs against local servers ----------------------------------------------

class scenario_live : public ::testing::Test {
 protected:
  void SetUp() override {
    using ssec::live::served_stream;
    auto started = ssec::live::case_server::start(
        std::vector<ssec::conformance::test_case>{},
        std::vector<served_stream>{{"ids", agent_with_ids, frame_chunks(agent_with_ids)},
                                   {"tools", agent_tool_run, frame_chunks(agent_tool_run)},
                                   {"noids", agent_without_ids, frame_chunks(agent_without_ids)},
                                   {"broken", agent_broken, frame_chunks(agent_broken)},
                                   {"whole", agent_with_ids, {}}},
        "127.0.0.1", 0, ssec::live::serve_limits{5, 64ull << 20, 2000});
    ASSERT_TRUE(started) << started.error().to_string();
    server_ = std::move(started.value());
    ::setenv("SSEC_SCENARIO_TEST_BASE", server_->base_url().c_str(), 1);
  }
  ssec::live::scenario_file load(const std::string& text) {
    auto r = load_scenario_text(text, "live.yaml", ".");
    EXPECT_TRUE(r.ok()) << r.error_text();
    return std::move(r.value);
  }
  check_report single_check(const std::string& path) {
    ssec::http::stream_request req;
    req.url = server_->base_url() + path;
    req.timeout_s = 5;
    req.idle_timeout_s = 5;
    ssec::live::check_options opt;
    opt.dialect = sse::dialect::builtin_dialect("agent");
    auto cap = ssec::live::fetch(req, 0);
    return ssec::live::analyze(cap, opt);
  }
  std::unique_ptr<ssec::live::case_server> server_;
};

TEST_F(scenario_live, reports_per_scenario_and_request_with_the_single_check_findings) {
  const auto file = load(
      "version: 1\n"
      "defaults: {dialect: agent, limits: {timeout_s: 5, idle_timeout_s: 5}}\n"
      "scenarios:\n"
      "  - name: good run\n"
      "    requests:\n"
      "      - name: tool call\n"
      "        url: ${SSEC_SCENARIO_TEST_BASE}/stream/tools\n"
      "        expect:\n"
      "          sequence: [run_started, tool_started, tool_completed, done]\n"
      "          includes: [message_chunk]\n"
      "          excludes: [error, run_failed]\n"
      "  - name: broken run\n"
      "    requests:\n"
      "      - name: plain answer\n"
      "        url: ${SSEC_SCENARIO_TEST_BASE}/stream/noids\n"
      "        expect: {includes: [message_chunk]}\n"
      "      - name: must call a tool\n"
      "        url: ${SSEC_SCENARIO_TEST_BASE}/stream/broken\n"
      "        expect:\n"
      "          sequence: [run_started, tool_started, tool_completed]\n"
      "          excludes: [message_chunk]\n");
  const auto results = ssec::live::run_scenarios(file, {});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].conforming()) << ssec::live::to_text(file, results);
  EXPECT_FALSE(results[1].conforming());
  ASSERT_EQ(results[1].requests.size(), 2u);
  EXPECT_TRUE(results[1].requests[0].report.conforming()) << ssec::live::to_text(results[1].requests[0].report);
  const auto& broken = results[1].requests[1].report;
  EXPECT_EQ(broken.source, "${SSEC_SCENARIO_TEST_BASE}/stream/broken");  // as written
  // Exactly the single check's findings, then the scenario's own.
  const auto single = single_check("/stream/broken");
  ASSERT_GT(single.findings.size(), 0u);
  ASSERT_EQ(broken.findings.size(), single.findings.size() + 3) << ssec::live::to_text(broken);
  for (std::size_t i = 0; i < single.findings.size(); ++i) {
    EXPECT_EQ(broken.findings[i].rule, single.findings[i].rule);
    EXPECT_EQ(broken.findings[i].offset, single.findings[i].offset);
  }
  const auto* runid = find(broken, "AGENT-RUNID-PRESENT");
  ASSERT_NE(runid, nullptr);
  EXPECT_EQ(runid->offset, agent_broken.find("data: {\"type\":\"message_chunk\""));
  const auto* tool_started = find(broken, "SCENARIO-REQUIRED-TYPE", 0);
  const auto* tool_completed = find(broken, "SCENARIO-REQUIRED-TYPE", 1);
  ASSERT_NE(tool_started, nullptr);
  ASSERT_NE(tool_completed, nullptr);
  EXPECT_NE(tool_started->message.find("`tool_started`"), std::string::npos);
  EXPECT_NE(tool_completed->message.find("`tool_completed`"), std::string::npos);
  const auto* forbidden = find(broken, "SCENARIO-FORBIDDEN-TYPE");
  ASSERT_NE(forbidden, nullptr);
  EXPECT_EQ(forbidden->frame, std::optional<std::size_t>(1));
  EXPECT_EQ(forbidden->offset, agent_broken.find("data: {\"type\":\"message_chunk\""));

  // The three outputs carry the same verdicts.
  const std::string text = ssec::live::to_text(file, results);
  EXPECT_NE(text.find("scenario \"good run\": 1 request, 0 NOT conforming: PASS"), std::string::npos) << text;
  EXPECT_NE(text.find("scenario \"broken run\": 2 requests, 1 NOT conforming: FAIL"), std::string::npos) << text;
  EXPECT_NE(text.find("live.yaml: 2 scenarios, 1 failed"), std::string::npos) << text;
  const auto j = ssec::live::to_json(file, results);
  EXPECT_EQ(j["summary"]["failed"], 1);
  EXPECT_EQ(j["scenarios"][1]["requests"][1]["name"], "must call a tool");
  EXPECT_EQ(j["scenarios"][1]["requests"][1]["check"]["summary"]["conforming"], false);
  EXPECT_EQ(j["scenarios"][0]["requests"][0]["types"]["message_chunk"], 1);
  const std::string x = ssec::live::to_junit(file, results);
  EXPECT_NE(x.find("<testsuite name=\"live.yaml: good run\" tests=\"4\" failures=\"0\">"), std::string::npos) << x;
  EXPECT_NE(x.find("<testsuite name=\"live.yaml: broken run\" tests=\"8\" failures=\"2\">"), std::string::npos) << x;
  EXPECT_NE(x.find("classname=\"must call a tool\" name=\"scenario\""), std::string::npos);
  EXPECT_NE(x.find("SCENARIO-FORBIDDEN-TYPE at frame 2"), std::string::npos) << x;
}

TEST_F(scenario_live, variables_reach_the_server_and_never_a_report) {
  // A stand-in endpoint that insists on the token, and echoes it into the
  // stream where reports quote it (the last event id and a finding's `seen`).
  ::setenv("SSEC_SCENARIO_TEST_TOKEN", "tok-9f8e7d6c", 1);
  std::atomic<int> authorized{0};
  auto echo_started = ssec::http::server::start(
      [&](const ssec::http::request& req, ssec::http::response& res) {
        if (req.header("authorization") != "Bearer tok-9f8e7d6c" || req.query.count("key") == 0 ||
            req.query.at("key") != "tok-9f8e7d6c" || req.body != "{\"auth\":\"tok-9f8e7d6c\"}") {
          res.send(401, "text/plain", "no\n");
          return;
        }
        ++authorized;
        res.start(200, {{"Content-Type", "text/event-stream"}});
        res.write(
            "id: tok-9f8e7d6c\ndata: {\"type\":\"run_started\",\"runId\":\"tok-9f8e7d6c\"}\n\n"
            "data: {\"type\":\"mystery\",\"runId\":\"tok-9f8e7d6c\"}\n\n");
      },
      "127.0.0.1", 0);
  ASSERT_TRUE(echo_started) << echo_started.error().to_string();
  ssec::http::server& echo = **echo_started;
  ::setenv("SSEC_SCENARIO_TEST_ECHO", echo.base_url().c_str(), 1);
  const auto file = load(
      "version: 1\n"
      "scenarios:\n"
      "  - name: secret\n"
      "    requests:\n"
      "      - name: r\n"
      "        url: ${SSEC_SCENARIO_TEST_ECHO}/run?key=${SSEC_SCENARIO_TEST_TOKEN}\n"
      "        dialect: agent\n"
      "        method: POST\n"
      "        headers: {Authorization: 'Bearer ${SSEC_SCENARIO_TEST_TOKEN}'}\n"
      "        body: '{\"auth\":\"${SSEC_SCENARIO_TEST_TOKEN}\"}'\n"
      "        limits: {timeout_s: 5, idle_timeout_s: 5}\n");
  const auto results = ssec::live::run_scenarios(file, {});
  EXPECT_EQ(authorized.load(), 1);
  ASSERT_EQ(results.size(), 1u);
  const auto& r = results[0].requests[0].report;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.last_event_id, "[redacted]");
  const std::string text = ssec::live::to_text(file, results);
  const std::string json = ssec::live::to_json(file, results).dump();
  const std::string junit = ssec::live::to_junit(file, results);
  for (const auto* out : {&text, &json, &junit}) {
    EXPECT_EQ(out->find("tok-9f8e7d6c"), std::string::npos) << *out;
  }
  EXPECT_NE(text.find("[redacted]"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(json, nullptr, false).is_discarded());  // still valid JSON
}

// The worked example of tools/docs/scenario-format.md, taken from the
// document itself, against a stand-in agent backend.
TEST_F(scenario_live, the_documented_example_runs) {
  std::ifstream doc(SSEC_SOURCE_DIR "/tools/docs/scenario-format.md");
  ASSERT_TRUE(doc) << "tools/docs/scenario-format.md";
  const std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  const auto start = text.find("```yaml\n");
  ASSERT_NE(start, std::string::npos);
  const auto end = text.find("```\n", start + 8);
  ASSERT_NE(end, std::string::npos);
  const std::string example = text.substr(start + 8, end - start - 8);

  const auto dir = std::filesystem::temp_directory_path() / ("ssec-scenario-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "prompts");
  std::ofstream(dir / "prompts" / "long-essay.json") << "{\"prompt\": \"Write a long essay\"}";

  std::mutex mutex;
  std::vector<std::string> bodies;
  auto backend_started = ssec::http::server::start(
      [&](const ssec::http::request& req, ssec::http::response& res) {
        if (req.method != "POST" || req.path != "/v1/runs" || req.header("authorization") != "Bearer doc-token-5150" ||
            req.header("content-type") != "application/json") {
          return void(res.send(401, "text/plain", "no\n"));
        }
        {
          std::lock_guard lock(mutex);
          bodies.push_back(req.body);
        }
        std::string stream = req.body.find("weather") != std::string::npos ? agent_tool_run
                             : req.body.find("essay") != std::string::npos ? agent_with_ids
                                                                           : agent_without_ids;
        if (const std::string id = req.header("last-event-id"); !id.empty()) {
          stream = stream.substr(stream.find("id: " + std::to_string(std::stoi(id) + 1) + "\n"));
        }
        res.start(200, {{"Content-Type", "text/event-stream"}});
        for (const auto size : frame_chunks(stream)) {
          if (!res.write(stream.substr(0, size))) return;
          stream.erase(0, size);
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      },
      "127.0.0.1", 0);
  ASSERT_TRUE(backend_started) << backend_started.error().to_string();
  ssec::http::server& backend = **backend_started;
  ::setenv("AGENT_BASE_URL", backend.base_url().c_str(), 1);
  ::setenv("AGENT_TOKEN", "doc-token-5150", 1);
  const auto loaded = load_scenario_text(example, "agent.scenario.yaml", dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error_text() << example;
  const auto results = ssec::live::run_scenarios(loaded.value, {});
  std::filesystem::remove_all(dir);
  const std::string report = ssec::live::to_text(loaded.value, results);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].conforming()) << report;
  EXPECT_TRUE(results[1].conforming()) << report;
  ASSERT_EQ(results[0].requests.size(), 2u);
  const auto& resumed = results[0].requests[1].report;
  ASSERT_TRUE(resumed.resume.has_value());
  EXPECT_EQ(resumed.resume->verdict, "resumed") << report;
  EXPECT_EQ(resumed.resume->last_event_id, "5");
  EXPECT_EQ(bodies.size(), 4u);  // three requests, one reconnection
  EXPECT_EQ(report.find("doc-token-5150"), std::string::npos);
  EXPECT_NE(report.find("agent.scenario.yaml: 2 scenarios, 0 failed"), std::string::npos) << report;
}

TEST_F(scenario_live, a_refused_connection_is_a_setup_error) {
  const auto file = load(
      "version: 1\nscenarios:\n  - name: s\n    requests:\n"
      "      - {name: r, url: 'http://127.0.0.1:1/x', dialect: wire, limits: {timeout_s: 2}, expect: {includes: "
      "[message]}}\n");
  const auto results = ssec::live::run_scenarios(file, {});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].requests[0].setup_error());
  EXPECT_FALSE(results[0].conforming());
  // No connection, no body: the missing body is not judged as an empty
  // stream (no AGENT-DONE-LAST "an empty stream"), only the connection is.
  ssec::live::capture refused;
  refused.source = "http://127.0.0.1:1/x";
  refused.end = "connect_error";
  refused.error = "Couldn't connect to server";
  ssec::live::check_options opt;
  opt.dialect = sse::dialect::builtin_dialect("agent");
  const auto r = ssec::live::analyze(refused, opt);
  ASSERT_EQ(r.findings.size(), 1u) << ssec::live::to_text(r);
  EXPECT_EQ(r.findings[0].rule, "STREAM-CONNECT");
  // Printed as what it is: a setup error, no verdict on the endpoint.
  const std::string text = ssec::live::to_text(r);
  EXPECT_EQ(text,
            "http://127.0.0.1:1/x: setup error: could not connect: Couldn't connect to server; nothing was checked\n");
  const std::string summary = ssec::live::to_text(file, results);
  EXPECT_NE(summary.find("1 request, 0 NOT conforming, 1 not checked (no connection): NOT CHECKED"), std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("NOT conforming:"), std::string::npos) << summary;
}

// --- resumption ---------------------------------------------------------------

class resume_live : public scenario_live {
 protected:
  // check --resume --max-events N on serve's /stream/<path>.
  check_report check_resumed(const std::string& path, std::size_t max_events, ssec::live::capture* second = nullptr) {
    ssec::http::stream_request req;
    req.url = server_->base_url() + path;
    req.timeout_s = 5;
    req.idle_timeout_s = 5;
    ssec::live::check_options opt;
    opt.dialect = sse::dialect::builtin_dialect("agent");
    opt.max_events = max_events;
    const auto first = ssec::live::fetch(req, max_events);
    auto report = ssec::live::analyze(first, opt);
    ssec::live::check_resumption(req, 0, first, opt, report, second);
    return report;
  }
};

TEST_F(resume_live, serve_honours_last_event_id_only_when_asked) {
  const auto get = [&](const std::string& path, const std::string& id) {
    ssec::http::stream_request req;
    req.url = server_->base_url() + path;
    req.timeout_s = 5;
    if (!id.empty()) req.headers.push_back("Last-Event-ID: " + id);
    std::string body;
    ssec::http::stream(req, [&](std::string_view b, double) {
      body.append(b);
      return true;
    });
    return body;
  };
  const std::string after_3 = agent_with_ids.substr(agent_with_ids.find("id: 4"));
  EXPECT_EQ(get("/stream/ids?resume=1", "3"), after_3);
  EXPECT_EQ(get("/stream/ids?resume=1", ""), agent_with_ids);
  EXPECT_EQ(get("/stream/ids?resume=1", "no-such-id"), agent_with_ids);  // unknown: from the start
  EXPECT_EQ(get("/stream/ids", "3"), agent_with_ids);                    // ignored
}

TEST_F(resume_live, serve_can_write_a_whole_stream_frame_by_frame) {
  ssec::http::stream_request req;
  req.url = server_->base_url() + "/stream/whole?split=frames&delay_ms=30";
  req.timeout_s = 5;
  const auto c = ssec::live::fetch(req, 0);
  ASSERT_EQ(c.bytes(), agent_with_ids);
  ASSERT_EQ(c.pieces.size(), 8u);  // 30 ms apart: one read per frame
  EXPECT_EQ(c.pieces[0].bytes, agent_with_ids.substr(0, agent_with_ids.find("id: 2")));
  req.url = server_->base_url() + "/stream/whole";
  EXPECT_EQ(ssec::live::fetch(req, 0).pieces.size(), 1u);  // by default: one write
}

TEST_F(resume_live, a_resumable_server_resumes_after_the_last_id) {
  ssec::live::capture second;
  const auto r = check_resumed("/stream/ids?resume=1&delay_ms=30", 3, &second);
  ASSERT_TRUE(r.resume.has_value());
  EXPECT_EQ(r.resume->verdict, "resumed") << ssec::live::to_text(r);
  EXPECT_EQ(r.resume->last_event_id, "3");
  EXPECT_EQ(r.resume->first_id, "4");
  EXPECT_EQ(r.resume->replayed, 0u);
  EXPECT_EQ(r.resume->events, 5u);
  EXPECT_EQ(second.bytes(), agent_with_ids.substr(agent_with_ids.find("id: 4")));
  EXPECT_EQ(find(r, "RESUME-IGNORED"), nullptr);
  // Across the reconnection the run is whole: the first stream, cut after
  // three events, is not blamed for a missing done, and the tool call that
  // began before the cut is closed after it.
  EXPECT_EQ(find(r, "AGENT-DONE-LAST"), nullptr) << ssec::live::to_text(r);
  EXPECT_EQ(find(r, "AGENT-TOOL-PAIR"), nullptr);
  EXPECT_TRUE(musts_besides_id_lines(r).empty()) << ssec::live::to_text(r);
  // The same dialect checks ran on the second stream: its frames carry ids
  // (AGENT-FRAME-DATA-ONLY, must), attributed to it with its own offsets.
  bool second_stream_checked = false;
  for (const auto& f : r.findings) {
    if (f.rule == "AGENT-FRAME-DATA-ONLY" && f.stream == 1) {
      second_stream_checked = true;
      EXPECT_LT(f.offset, second.size());
      EXPECT_EQ(second.bytes().substr(f.offset, 4), "id: ");
    }
  }
  EXPECT_TRUE(second_stream_checked) << ssec::live::to_text(r);
  const auto j = ssec::live::to_json(r);
  EXPECT_EQ(j["resume"]["verdict"], "resumed");
}

TEST_F(resume_live, without_resumption_the_cut_stream_is_judged_alone) {
  // The control for the test above: the same cut, no reconnection.
  ssec::http::stream_request req;
  req.url = server_->base_url() + "/stream/ids?resume=1&delay_ms=30";
  req.timeout_s = 5;
  ssec::live::check_options opt;
  opt.dialect = sse::dialect::builtin_dialect("agent");
  const auto r = ssec::live::analyze(ssec::live::fetch(req, 3), opt);
  // A sample: the end it never read is not graded (no AGENT-DONE-LAST).
  EXPECT_TRUE(r.sampled);
  EXPECT_EQ(find(r, "AGENT-DONE-LAST"), nullptr) << ssec::live::to_text(r);
  EXPECT_FALSE(r.resume.has_value());
}

TEST_F(resume_live, a_server_that_ignores_last_event_id_gets_a_should_finding) {
  const auto r = check_resumed("/stream/ids?delay_ms=30", 3);
  ASSERT_TRUE(r.resume.has_value());
  EXPECT_EQ(r.resume->verdict, "ignored") << ssec::live::to_text(r);
  EXPECT_EQ(r.resume->replayed, 3u);  // ids 1..3, all the first stream had delivered
  const auto* f = find(r, "RESUME-IGNORED");
  ASSERT_NE(f, nullptr) << ssec::live::to_text(r);
  EXPECT_EQ(f->severity, "should");
  EXPECT_EQ(f->stream, 1u);
  EXPECT_EQ(f->offset, 0u);
  EXPECT_EQ(f->frame, std::optional<std::size_t>(0));
  // The replay is that finding's business alone: past the replayed events
  // the run continues whole, so the producer rules find nothing more
  // (no second run_started, no tool started twice, done at the end).
  for (const auto* rule : {"AGENT-TOOL-PAIR", "AGENT-STEP-PAIR", "AGENT-DONE-LAST", "AGENT-RUN-STARTED-FIRST"}) {
    EXPECT_EQ(find(r, rule), nullptr) << rule << "\n" << ssec::live::to_text(r);
  }
  EXPECT_TRUE(musts_besides_id_lines(r).empty()) << ssec::live::to_text(r);
  EXPECT_EQ(r.resume->new_from, agent_with_ids.find("id: 4"));
  EXPECT_NE(ssec::live::to_text(r).find("resume: Last-Event-ID \"3\" -> HTTP 200, 8 events, 3 replayed"),
            std::string::npos)
      << ssec::live::to_text(r);
}

TEST_F(resume_live, a_stream_without_ids_is_not_applicable) {
  const auto r = check_resumed("/stream/noids?resume=1", 2);
  ASSERT_TRUE(r.resume.has_value());
  EXPECT_EQ(r.resume->verdict, "not_applicable");
  EXPECT_NE(r.resume->reason.find("no event id"), std::string::npos);
  EXPECT_EQ(r.resume->last_event_id, "");
  EXPECT_NE(ssec::live::to_text(r).find("resume: not applicable: the stream carried no event id"), std::string::npos)
      << ssec::live::to_text(r);
}

TEST_F(resume_live, replays_declines_and_failures_are_told_apart) {
  // A stand-in with the behaviours serve does not have: replaying the event
  // named by Last-Event-ID, 204, and 404 on reconnection.
  const std::string stream = "id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: c\ndata: 3\n\n";
  auto stand_in_started = ssec::http::server::start(
      [&](const ssec::http::request& req, ssec::http::response& res) {
        const std::string id = req.header("last-event-id");
        if (!id.empty() && req.path == "/declines") return void(res.send(204, "text/plain", ""));
        if (!id.empty() && req.path == "/fails") return void(res.send(404, "text/plain", "gone\n"));
        res.start(200, {{"Content-Type", "text/event-stream"}});
        // One event per write, apart, so a cut after two events falls between reads.
        std::string_view rest(stream);
        if (id == "b" && req.path == "/inclusive") rest.remove_prefix(stream.find("id: b"));
        while (!rest.empty()) {
          const auto end = rest.find("\n\n") + 2;
          if (!res.write(rest.substr(0, end))) return;
          rest.remove_prefix(end);
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
        }
      },
      "127.0.0.1", 0);
  ASSERT_TRUE(stand_in_started) << stand_in_started.error().to_string();
  ssec::http::server& stand_in = **stand_in_started;
  const auto run = [&](const std::string& path) {
    ssec::http::stream_request req;
    req.url = stand_in.base_url() + path;
    req.timeout_s = 5;
    ssec::live::check_options opt;  // wire only
    const auto first = ssec::live::fetch(req, 2);
    auto report = ssec::live::analyze(first, opt);
    ssec::live::check_resumption(req, 0, first, opt, report);
    return report;
  };
  const auto inclusive = run("/inclusive");
  ASSERT_TRUE(inclusive.resume.has_value());
  EXPECT_EQ(inclusive.resume->verdict, "replayed") << ssec::live::to_text(inclusive);
  EXPECT_EQ(inclusive.resume->replayed, 1u);
  ASSERT_NE(find(inclusive, "RESUME-REPLAY"), nullptr);
  EXPECT_EQ(find(inclusive, "RESUME-REPLAY")->seen, "id \"b\" again");
  const auto declines = run("/declines");
  EXPECT_EQ(declines.resume->verdict, "declined");
  EXPECT_TRUE(declines.conforming());
  const auto fails = run("/fails");
  EXPECT_EQ(fails.resume->verdict, "failed");
  const auto* status = find(fails, "HTTP-STATUS");
  ASSERT_NE(status, nullptr) << ssec::live::to_text(fails);
  EXPECT_EQ(status->stream, 1u);
  EXPECT_FALSE(fails.conforming());
}

TEST_F(resume_live, a_scenario_can_ask_for_resumption) {
  const auto file = load(
      "version: 1\n"
      "defaults: {dialect: agent, limits: {timeout_s: 5, idle_timeout_s: 5, max_events: 3}}\n"
      "scenarios:\n"
      "  - name: resumable\n"
      "    requests:\n"
      "      - name: cut and resumed\n"
      "        url: ${SSEC_SCENARIO_TEST_BASE}/stream/ids?resume=1&delay_ms=30\n"
      "        resume: true\n"
      "        expect: {sequence: [run_started, tool_started, tool_completed, done]}\n"
      "      - name: ignored\n"
      "        url: ${SSEC_SCENARIO_TEST_BASE}/stream/ids?delay_ms=30\n"
      "        resume: true\n");
  const auto results = ssec::live::run_scenarios(file, {});
  ASSERT_EQ(results.size(), 1u);
  const auto& resumed = results[0].requests[0].report;
  ASSERT_TRUE(resumed.resume.has_value());
  EXPECT_EQ(resumed.resume->verdict, "resumed");
  // tool_completed and done only arrived on the resumed stream: the sequence holds across it.
  EXPECT_EQ(find(resumed, "SCENARIO-REQUIRED-TYPE"), nullptr) << ssec::live::to_text(resumed);
  EXPECT_TRUE(musts_besides_id_lines(resumed).empty()) << ssec::live::to_text(resumed);
  const auto& ignored = results[0].requests[1].report;
  ASSERT_TRUE(ignored.resume.has_value());
  EXPECT_EQ(ignored.resume->verdict, "ignored");
  const std::string x = ssec::live::to_junit(file, results);
  EXPECT_NE(x.find("classname=\"ignored\" name=\"resume\""), std::string::npos) << x;
}

}  // namespace
