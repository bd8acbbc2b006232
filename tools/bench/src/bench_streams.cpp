// SPDX-License-Identifier: MIT
#include "ssec/bench/streams.hpp"

#include <array>
#include <iterator>

#include "sse/chunking.hpp"

namespace ssec::bench {
namespace {

// Only sse::chunking::splitmix64 draws numbers here: std:: distributions differ
// between standard libraries, and these files must not.
class rng {
 public:
  explicit rng(std::uint64_t seed) : gen_(seed) {}
  std::uint64_t next() { return gen_.next(); }
  /// Uniform enough in [lo, hi] for test data (modulo bias is irrelevant here).
  std::size_t between(std::size_t lo, std::size_t hi) { return lo + static_cast<std::size_t>(next() % (hi - lo + 1)); }
  /// True with probability 1/n.
  bool one_in(std::uint64_t n) { return next() % n == 0; }

 private:
  sse::chunking::splitmix64 gen_;
};

constexpr std::string_view base64_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void append_base64_noise(std::string& out, std::size_t count, rng& r) {
  while (count > 0) {
    std::uint64_t bits = r.next();
    for (int i = 0; i < 10 && count > 0; ++i, --count, bits >>= 6) out.push_back(base64_alphabet[bits & 63]);
  }
}

std::string make_id(std::string_view prefix, rng& r) {
  constexpr std::string_view base36 = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string id(prefix);
  for (int i = 0; i < 20; ++i) id.push_back(base36[r.next() % base36.size()]);
  return id;
}

// Words as they appear inside a JSON string: already escaped. About one in
// twelve is not ASCII, as in real model output (accents, CJK, symbols, emoji).
constexpr std::string_view words[] = {
    "the",
    "model",
    "stream",
    "token",
    "a",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "with",
    "as",
    "on",
    "this",
    "be",
    "are",
    "we",
    "can",
    "will",
    "you",
    "your",
    "data",
    "event",
    "server",
    "client",
    "response",
    "request",
    "function",
    "value",
    "result",
    "error",
    "handle",
    "parse",
    "buffer",
    "chunk",
    "line",
    "field",
    "message",
    "type",
    "content",
    "agent",
    "tool",
    "step",
    "plan",
    "resume",
    "analysis",
    "summary",
    "first",
    "second",
    "then",
    "next",
    "finally",
    "however,",
    "because",
    "therefore",
    "example:",
    "note:",
    "`parse()`",
    "`feed()`",
    "JSON",
    "HTTP/1.1",
    "200",
    "3.14",
    "42",
    "(see",
    "above)",
    "etc.",
    "i.e.",
    "e.g.,",
    "\\\"quoted\\\"",
    "path\\\\to",
    "\\n",
    "\\n\\n",
    "- item",
    "**bold**",
    "#",
    "...",
    "caf\xC3\xA9",
    "na\xC3\xAFve",
    "\xC3\xBC"
    "ber",
    "r\xC3\xA9sum\xC3\xA9",
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
    "\xE2\x80\x94",
    "\xE2\x86\x92",
    "\xE2\x9C\x93",
    "\xF0\x9F\x99\x82",
    "\xC2\xB5s",
    "Stra\xC3\x9F"
    "e",
    "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82",
    "\xE4\xBD\xA0\xE5\xA5\xBD",
};

void append_words(std::string& out, std::size_t count, rng& r) {
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(' ');
    out.append(words[r.next() % std::size(words)]);
  }
}

// Frames of the agent-service dialect (agent-service.txt): one `data:` line of
// one JSON object, then a blank line.
class agent_writer {
 public:
  agent_writer(std::string& out, rng& r) : out_(out), rng_(r), run_id_(make_id("run_", r)) {}

  void begin(std::string_view type) {
    out_.append("data: {\"type\":\"").append(type).append("\",\"runId\":\"").append(run_id_).push_back('"');
    if (!step_id_.empty()) out_.append(",\"stepId\":\"").append(step_id_).push_back('"');
    out_.append(",\"sequence\":").append(std::to_string(sequence_++));
  }
  void end() { out_.append("}\n\n"); }

  void run_started() {
    begin("run_started");
    end();
  }
  void step_started() {
    step_id_ = make_id("stp_", rng_);
    begin("step_started");
    end();
    begin("llm_started");
    out_.append(",\"payload\":{\"model\":\"gpt-bench-1\",\"temperature\":0.7}");
    end();
  }
  void message_chunk() {
    out_.append("data: {\"type\":\"message_chunk\",\"content\":\"");
    append_words(out_, rng_.between(1, 12), rng_);
    out_.append("\",\"runId\":\"").append(run_id_).append("\",\"stepId\":\"").append(step_id_);
    out_.append("\",\"sequence\":").append(std::to_string(sequence_++));
    end();
  }
  void tool_call() {
    const std::string call_id = make_id("call_", rng_);
    const std::string tool = rng_.one_in(2) ? "web_search" : "read_file";
    const std::string tool_payload = ",\"payload\":{\"toolCallId\":\"" + call_id + "\",\"name\":\"" + tool + "\"";
    begin("tool_started");
    out_.append(tool_payload).append(",\"arguments\":{\"query\":\"");
    append_words(out_, rng_.between(2, 8), rng_);
    out_.append("\",\"limit\":").append(std::to_string(rng_.between(1, 20))).append("}}");
    end();
    begin("tool_result");
    out_.append(tool_payload).append("},\"data\":{\"results\":[");
    const std::size_t hits = rng_.between(1, 6);
    for (std::size_t i = 0; i < hits; ++i) {
      if (i > 0) out_.push_back(',');
      out_.append("{\"title\":\"");
      append_words(out_, rng_.between(3, 10), rng_);
      out_.append("\",\"url\":\"https://example.com/").append(make_id("doc_", rng_)).append("\",\"snippet\":\"");
      append_words(out_, rng_.between(20, 60), rng_);
      out_.append("\",\"score\":0.").append(std::to_string(rng_.between(100, 999))).push_back('}');
    }
    out_.append("]}");
    end();
    begin("tool_completed");
    out_.append(tool_payload).append(",\"durationMs\":").append(std::to_string(rng_.between(20, 4000))).append("}");
    end();
  }
  void step_completed() {
    const std::size_t prompt = rng_.between(500, 20000);
    const std::size_t completion = rng_.between(50, 2000);
    const std::size_t cached = rng_.between(0, prompt);
    begin("llm_usage");
    out_.append(",\"payload\":{\"promptTokens\":").append(std::to_string(prompt));
    out_.append(",\"completionTokens\":").append(std::to_string(completion));
    out_.append(",\"cachedTokens\":").append(std::to_string(cached));
    out_.append(",\"totalTokens\":").append(std::to_string(prompt + completion));
    out_.append(",\"latencyMs\":").append(std::to_string(rng_.between(200, 30000))).append("}");
    end();
    begin("step_completed");
    end();
  }
  void finish() {
    step_id_.clear();
    begin("run_completed");
    end();
    begin("done");
    end();
  }

 private:
  std::string& out_;
  rng& rng_;
  std::string run_id_;
  std::string step_id_;
  std::uint64_t sequence_ = 0;
};

}  // namespace

std::string llm_stream(std::size_t min_bytes, std::uint64_t seed) {
  rng r(seed);
  std::string out;
  out.reserve(min_bytes + (64 << 10));
  agent_writer w(out, r);
  w.run_started();
  while (out.size() < min_bytes) {
    w.step_started();
    const std::size_t chunks = r.between(50, 400);
    for (std::size_t i = 0; i < chunks && out.size() < min_bytes; ++i) {
      w.message_chunk();
      if (r.one_in(150)) w.tool_call();
    }
    w.step_completed();
  }
  w.finish();
  return out;
}

std::string big_frames_stream(std::size_t frame_count, std::size_t frame_bytes, std::uint64_t seed) {
  rng r(seed);
  std::string out;
  out.reserve(frame_count * (frame_bytes + 256));
  const std::string run_id = make_id("run_", r);
  for (std::size_t i = 0; i < frame_count; ++i) {
    const std::size_t frame_start = out.size();
    out.append("data: {\"type\":\"tool_result\",\"runId\":\"").append(run_id);
    out.append("\",\"sequence\":").append(std::to_string(i));
    out.append(",\"payload\":{\"toolCallId\":\"").append(make_id("call_", r)).append("\",\"name\":\"read_file\"}");
    out.append(",\"data\":{\"encoding\":\"base64\",\"content\":\"");
    constexpr std::size_t tail = 5;  // "}} then LF LF
    const std::size_t used = out.size() - frame_start + tail;
    append_base64_noise(out, frame_bytes > used ? frame_bytes - used : 0, r);
    out.append("\"}}\n\n");
  }
  return out;
}

std::string crlf_multiline_stream(std::size_t min_bytes, std::uint64_t seed) {
  rng r(seed);
  std::string out;
  out.reserve(min_bytes + (16 << 10));
  constexpr std::array<std::string_view, 6> types = {"content", "thinking", "tool_result", "notice", "update", "delta"};
  std::uint64_t id = 0;
  while (out.size() < min_bytes) {
    if (r.one_in(4)) out.append(": keep-alive\r\n");
    if (r.one_in(50)) out.append("retry: ").append(std::to_string(r.between(1000, 10000))).append("\r\n");
    out.append("id: ").append(std::to_string(++id)).append("\r\n");
    out.append("event: ").append(types[r.next() % types.size()]).append("\r\n");
    const std::size_t lines = r.between(5, 20);
    for (std::size_t i = 0; i < lines; ++i) {
      if (r.one_in(16)) out.append(": comment inside the event\r\n");
      // Every spelling a data line can have: "data: x", "data:x", "data:" and "data".
      const std::uint64_t form = r.next() % 16;
      if (form == 0) {
        out.append("data\r\n");
        continue;
      }
      if (form == 1) {
        out.append("data:\r\n");
        continue;
      }
      out.append(form == 2 ? "data:" : "data: ");
      const std::size_t start = out.size();
      append_words(out, r.between(1, 16), r);
      out.erase(start, 1);  // the leading space append_words wrote
      out.append("\r\n");
    }
    out.append("\r\n");
  }
  return out;
}

std::string long_line_stream(std::size_t value_bytes, std::uint64_t seed) {
  rng r(seed);
  std::string out;
  out.reserve(value_bytes + 8);
  out.append("data: ");
  append_base64_noise(out, value_bytes, r);
  out.append("\n\n");
  return out;
}

const std::vector<named_stream>& named_streams() {
  static const std::vector<named_stream> streams = {
      {"llm.sse", "64 MiB agent-service stream: message_chunk deltas, tool and llm_usage frames, done",
       [] { return llm_stream(std::size_t{64} << 20); }},
      {"big-frames.sse", "32 tool_result frames of 1 MiB, one data line each",
       [] { return big_frames_stream(32, std::size_t{1} << 20); }},
      {"crlf-multiline.sse", "32 MiB of CRLF events: 5-20 data lines, comments, id, event, retry",
       [] { return crlf_multiline_stream(std::size_t{32} << 20); }},
      {"line-4mb.sse", "one data line with a 4 MiB value", [] { return long_line_stream(std::size_t{4} << 20); }},
      {"line-16mb.sse", "one data line with a 16 MiB value", [] { return long_line_stream(std::size_t{16} << 20); }},
  };
  return streams;
}

}  // namespace ssec::bench
