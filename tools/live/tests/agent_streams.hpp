// SPDX-License-Identifier: MIT
// The agent-service streams the live tests share: a conforming run, one that
// breaks two rules, and a tool run whose frames carry ids, as a server that can resume sends it;
// and how `serve` writes them a frame at a time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace agent_streams {

// The agent-service document's own example frames (agent-service.txt, "Wire
// format"), with a step so stepId-bearing events appear.
inline const std::string good_agent =
    "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"step_started\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    ": heartbeat\n\n"
    "data: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"done\",\"runId\":\"r1\"}\n\n";

// Broken twice: a message_chunk without runId ("present on every emitted
// event", agent-service.txt) and no terminal done ("The terminal frame is
// always {"type":"done", ...}").
inline const std::string bad_agent =
    "data: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
    "data: {\"type\":\"message_chunk\",\"content\":\"Hi\",\"stepId\":\"s1\"}\n\n"
    "data: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n";

// An agent run with a tool call, every frame with an id, as a server that can
// resume sends it (the ids break AGENT-FRAME-DATA-ONLY, a must:
// agent-service.txt:8 makes a frame one data: line).
inline const std::string agent_with_ids =
    "id: 1\ndata: {\"type\":\"run_started\",\"runId\":\"r1\"}\n\n"
    "id: 2\ndata: {\"type\":\"step_started\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "id: 3\ndata: {\"type\":\"tool_started\",\"runId\":\"r1\",\"stepId\":\"s1\",\"payload\":{\"tool\":\"weather\"}}\n\n"
    "id: 4\ndata: "
    "{\"type\":\"tool_completed\",\"runId\":\"r1\",\"stepId\":\"s1\",\"payload\":{\"tool\":\"weather\"},\"data\":{"
    "\"c\":21}}\n\n"
    "id: 5\ndata: {\"type\":\"message_chunk\",\"content\":\"21 C\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "id: 6\ndata: {\"type\":\"step_completed\",\"runId\":\"r1\",\"stepId\":\"s1\"}\n\n"
    "id: 7\ndata: {\"type\":\"run_completed\",\"runId\":\"r1\"}\n\n"
    "id: 8\ndata: {\"type\":\"done\",\"runId\":\"r1\"}\n\n";

// The sizes of `s`'s frames (each up to and with its blank line; an
// unterminated tail last): a served_stream's writes, one frame each.
inline std::vector<std::size_t> frame_chunks(const std::string& s) {
  std::vector<std::size_t> sizes;
  std::size_t start = 0;
  for (auto at = s.find("\n\n"); at != std::string::npos; at = s.find("\n\n", start)) {
    sizes.push_back(at + 2 - start);
    start = at + 2;
  }
  if (start < s.size()) sizes.push_back(s.size() - start);
  return sizes;
}

}  // namespace agent_streams
