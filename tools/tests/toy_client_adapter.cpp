// SPDX-License-Identifier: MIT
// A client for the client cases with one deliberate bug per --quirk (the
// reference EventSource client with live::client_quirks set), speaking the
// adapter protocol's hello and connect. client_cases_test.cpp shows that
// each bug fails the case that names it, and that without a quirk every
// case passes.
//   toy_client_adapter [--quirk no-last-event-id|ignore-retry|reconnect-on-failure|no-redirects]...
#include <iostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/event_source.hpp"

int main(int argc, char** argv) {
  ssec::live::client_quirks quirks;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view option = argv[i], name = argv[i + 1];
    if (option != "--quirk") return 2;
    if (name == "no-last-event-id") quirks.no_last_event_id = true;
    else if (name == "ignore-retry") quirks.ignore_retry = true;
    else if (name == "reconnect-on-failure") quirks.reconnect_on_failure = true;
    else if (name == "no-redirects") quirks.no_redirects = true;
    else return 2;
  }
  using nlohmann::json;
  std::string line;
  while (std::getline(std::cin, line)) {
    const json request = json::parse(line, nullptr, false);
    const std::string op = request.is_object() ? request.value("op", std::string()) : std::string();
    if (op == "bye") return 0;
    nlohmann::ordered_json answer;
    if (op == "hello") {
      answer = {{"op", "hello"},
                {"protocol", 1},
                {"name", "toy client"},
                {"version", "1"},
                {"layers", nlohmann::ordered_json::array({"client"})}};
    } else if (op == "connect") {
      ssec::live::event_source_options o;
      o.url = request.value("url", std::string());
      o.close_after_events = request.value("close_after_events", std::size_t{0});
      o.limit_ms = request.value("limit_ms", 3000.0);
      o.quirks = quirks;
      const auto run = ssec::live::run_event_source(o);
      nlohmann::ordered_json events = nlohmann::ordered_json::array();
      for (const auto& e : run.events) events.push_back(ssec::to_json(e));
      answer = {{"id", request.value("id", std::string())}, {"events", events}, {"ended", run.ended}};
    } else {
      answer = {{"error", "unknown op"}};
    }
    std::cout << answer.dump() << '\n' << std::flush;
  }
  return 0;
}
