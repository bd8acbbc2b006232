// SPDX-License-Identifier: MIT
// Client cases (conformance/clients/): the loader's part for them, and
// grade_client on observations whose true outcome is known.
#include <gtest/gtest.h>

#include <filesystem>

#include "ssec/conformance/grading.hpp"
#include "ssec/conformance/loader.hpp"

namespace {

namespace conf = ssec::conformance;

conf::tag_list client_tags() {
  conf::tag_list tags;
  tags.descriptions = {{"reconnect", "x"}, {"close", "x"}};
  return tags;
}

ssec::load_result<std::vector<conf::test_case>> load_client_cases(const std::string& text) {
  return conf::load_cases_from_text(text, "clients/t.yaml", "t", client_tags());
}

// A valid client case; tests change one thing in it.
const std::string valid_client_case =
    "- id: C2AB\n"  // line 1
    "  name: reconnects\n"
    "  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#dom-eventsource\n"
    "  tags: [reconnect]\n"
    "  verdict: must\n"  // line 5
    "  layer: client\n"
    "  responses:\n"
    "    - {body: \"retry: 200\\nid: 1\\ndata: a\\n\\n\"}\n"
    "    - {body: \"id: 2\\ndata: b\\n\\n\", end: hold}\n"
    "  requests:\n"  // line 10
    "    - {without: [last-event-id]}\n"
    "    - {headers: {Last-Event-ID: \"1\"}, after_ms: 200}\n"
    "  close_after_events: 2\n"
    "  events: |\n"
    "    event type=\"message\" data=\"a\" last_id=\"1\"\n"  // line 15
    "    event type=\"message\" data=\"b\" last_id=\"2\"\n";

std::string client_case_with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

void expect_error(const ssec::load_result<std::vector<conf::test_case>>& r, std::size_t line,
                  const std::string& words) {
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].line, line) << r.error_text();
  EXPECT_NE(r.errors[0].message.find(words), std::string::npos) << r.error_text();
  EXPECT_TRUE(r.value.empty());
}

TEST(client_loader, reads_a_client_case) {
  const auto r = load_client_cases(valid_client_case);
  ASSERT_TRUE(r.ok()) << r.error_text();
  ASSERT_EQ(r.value.size(), 1u);
  const auto& c = r.value[0];
  EXPECT_EQ(c.layer, conf::layer::client);
  EXPECT_EQ(c.path(), "client/t/C2AB");
  ASSERT_TRUE(c.client);
  ASSERT_EQ(c.client->responses.size(), 2u);
  EXPECT_EQ(c.client->responses[0].body, "retry: 200\nid: 1\ndata: a\n\n");
  EXPECT_EQ(c.client->responses[0].end, conf::response_end::close);
  EXPECT_EQ(c.client->responses[1].end, conf::response_end::hold);
  ASSERT_EQ(c.client->requests.size(), 2u);
  EXPECT_EQ(c.client->requests[0].without, std::vector<std::string>{"last-event-id"});
  ASSERT_EQ(c.client->requests[1].headers.size(), 1u);
  EXPECT_EQ(c.client->requests[1].headers[0].first, "last-event-id");  // names lower-case
  EXPECT_EQ(c.client->requests[1].after_ms, 200.0);
  EXPECT_EQ(c.client->close_after_events, 2u);
  EXPECT_EQ(c.events.size(), 2u);
}

TEST(client_loader, refuses_what_a_client_case_cannot_say) {
  expect_error(load_client_cases(valid_client_case + "  input: [\"data: a\\n\\n\"]\n"), 1,
               "a client case has no `input`");
}

TEST(client_loader, names_each_mistake_at_its_line) {
  expect_error(load_client_cases(client_case_with(valid_client_case, "end: hold}", "end: linger}")), 9,
               "must be close, reset or hold");
  expect_error(load_client_cases(client_case_with(valid_client_case, "\\n\\n\", end: hold}", "\", end: hold}")), 9,
               "ends with a line end");
  expect_error(load_client_cases(client_case_with(valid_client_case, "{without: [last-event-id]}", "{after_ms: 5}")),
               11, "the first request");
  expect_error(
      load_client_cases(client_case_with(valid_client_case, "after_ms: 200}", "after_ms: 200, within_ms: 100}")), 12,
      "less than");
  expect_error(load_client_cases(
                   client_case_with(valid_client_case, "    - {body: \"retry", "    - {status: 307, body: \"retry")),
               8, "a 3xx status and `location` go together");
  expect_error(
      load_client_cases(client_case_with(valid_client_case, "  layer: client", "  layer: wire\n  input: [\"x\"]")), 8,
      "belongs to client cases");
}

TEST(client_loader, the_client_case_folder_loads) {
  std::vector<ssec::error> errors;
  const auto tags =
      conf::load_tags(std::filesystem::path(SSEC_SOURCE_DIR) / "spec/tags.yaml", "spec/tags.yaml", errors);
  ASSERT_TRUE(errors.empty());
  const auto r =
      conf::load_case_tree(std::filesystem::path(SSEC_SOURCE_DIR) / "conformance/clients", "conformance/clients", tags);
  ASSERT_TRUE(r.ok()) << r.error_text();
  EXPECT_GE(r.value.size(), 24u);
  for (const auto& c : r.value) {
    EXPECT_EQ(c.layer, conf::layer::client) << c.path();
    EXPECT_TRUE(c.client) << c.path();
  }
}

// Observations whose true outcome is known: each way to break the case is
// named, and the one that holds passes.
TEST(client_grading, grades_requests_then_events) {
  const auto loaded = load_client_cases(valid_client_case);
  ASSERT_TRUE(loaded.ok()) << loaded.error_text();
  const auto& c = loaded.value[0];
  conf::client_observation good;
  good.requests = {{0, "/x", {}}, {700, "/x", {{"last-event-id", "1"}}}};
  good.response_ended_ms = {400.0, std::nullopt};
  good.answer.events = {sse::event("message", "a", "1"), sse::event("message", "b", "2")};
  good.ended = "closed";
  EXPECT_EQ(conf::grade_client(c, good, false).outcome, conf::outcome::pass);

  const auto why = [&](const conf::client_observation& o) {
    const auto g = conf::grade_client(c, o, false);
    EXPECT_EQ(g.outcome, conf::outcome::fail);
    return g.mismatch ? g.mismatch->first_difference : std::string("(passed)");
  };
  auto o = good;
  o.requests.pop_back();
  EXPECT_NE(why(o).find("1 request where the case expects 2"), std::string::npos) << why(o);
  o = good;
  o.requests.push_back({900, "/x", {}});
  EXPECT_NE(why(o).find("request 3 is one the client should not have made"), std::string::npos) << why(o);
  o = good;
  o.requests[1].headers.clear();
  EXPECT_NE(why(o).find("request 2 has no last-event-id header"), std::string::npos) << why(o);
  o = good;
  o.requests[0].headers["last-event-id"] = "0";
  EXPECT_NE(why(o).find("request 1 has last-event-id: \"0\"; expected none"), std::string::npos) << why(o);
  o = good;
  o.requests[1].at_ms = 450;  // 50 ms after the end: the reconnection time is 200 ms
  EXPECT_NE(why(o).find("came 50 ms after response 1 ended; expected at least 200 ms"), std::string::npos) << why(o);
  o.requests[1].at_ms = 400 + 200 - conf::client_timing_tolerance_ms;  // within the allowance
  EXPECT_EQ(conf::grade_client(c, o, false).outcome, conf::outcome::pass);
  o = good;
  o.answer.events.pop_back();
  EXPECT_FALSE(why(o).empty());
  EXPECT_EQ(why(o).find("request"), std::string::npos) << "the requests held: the events differ";
}

}  // namespace
