// SPDX-License-Identifier: MIT
// A deliberately simple Server-Sent Events parser behind the adapter
// protocol (tools/docs/adapter-protocol.md), written for the fuzzer's tests:
// it joins the chunks, decodes the whole stream (one leading BOM dropped,
// ill-formed UTF-8 repaired), splits it into lines and applies the WHATWG
// field rules. With `--bug NAME` (repeatable, or NAME,NAME) it has those bugs:
//   cr           a lone CR is not a line end
//   nul-id       an id holding NUL is accepted
//   first-data   only the first data line of an event is kept
//   space-twice  up to two leading spaces are removed from a value
//   crash        exits when the stream holds "retry" (the fuzzer must restart it)
//   hang         never answers a stream holding a NUL byte
//   garbage      answers a stream holding "event" with a line that is not JSON
//   retry-plus-one  reports the reconnection time one more than the stream set
//   dataless     dispatches a block that has field lines but no data line
//   tail         dispatches the unterminated block at the end of the stream
//   bom-lines    strips a U+FEFF at the start of every line, not only the stream's
//   colon-cut    ends a data line's value at its first colon (splits the line on every colon)
// With `--omit CAP` (repeatable) its hello lists every capability of
// adapter-protocol.md but those: `--omit retry` says it cannot report retry.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/utf8.hpp"
#include "ssec/support/base64.hpp"

namespace {

using nlohmann::json;

std::vector<std::string> bugs;
bool has(std::string_view name) { return std::find(bugs.begin(), bugs.end(), name) != bugs.end(); }

json parse_stream(const std::string& raw) {
  std::string_view in = raw;
  if (in.starts_with("\xEF\xBB\xBF")) in.remove_prefix(3);
  std::string text;
  sse::utf8::append_repaired(text, in);

  // Lines: CRLF, LF, CR (unless the bug); an unterminated last line is dropped.
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n' || (ch == '\r' && !has("cr"))) {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      lines.push_back(line);
      line.clear();
    } else if (ch == '\r' && has("cr") && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      lines.push_back(line);
      line.clear();
    } else {
      line += ch;
    }
  }
  if (has("tail")) {  // the stream's end taken as a blank line
    if (!line.empty()) lines.push_back(line);
    lines.emplace_back();
  }

  json events = json::array();
  json retry = nullptr;
  std::string data, type, last_id;
  bool has_data = false, data_seen = false, fields = false;
  for (auto l : lines) {
    if (has("bom-lines") && l.starts_with("\xEF\xBB\xBF")) l.erase(0, 3);
    if (l.empty()) {
      if (has_data || (has("dataless") && fields)) {
        events.push_back({{"type", type.empty() ? "message" : type}, {"data", data}, {"lastEventId", last_id}});
      }
      data.clear();
      type.clear();
      has_data = data_seen = fields = false;
      continue;
    }
    if (l[0] == ':') continue;
    fields = true;
    const std::size_t colon = l.find(':');
    const std::string name = l.substr(0, colon);
    std::string value = colon == std::string::npos ? "" : l.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    if (has("space-twice") && !value.empty() && value[0] == ' ') value.erase(0, 1);
    if (name == "data") {
      if (has("first-data") && data_seen) continue;
      if (has("colon-cut") && value.find(':') != std::string::npos) value.erase(value.find(':'));
      if (has_data) data += '\n';
      data += value;
      has_data = data_seen = true;
    } else if (name == "event") {
      type = value;
    } else if (name == "id") {
      if (value.find('\0') == std::string::npos || has("nul-id")) last_id = value;
    } else if (name == "retry") {
      std::uint64_t ms = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
      const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
      if (digits && ec == std::errc() && end == value.data() + value.size())
        retry = has("retry-plus-one") ? ms + 1 : ms;
    }
  }
  return {{"events", events}, {"retry", retry}};
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& b : v) out += (out.empty() ? "" : "+") + b;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> omit;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--bug") {
      std::string_view list = argv[i + 1];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        if (comma > at) bugs.emplace_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    }
    if (std::string(argv[i]) == "--omit") omit.emplace_back(argv[i + 1]);
  }
  std::string request;
  while (std::getline(std::cin, request)) {
    const json j = json::parse(request, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      std::cout << json{{"error", "not JSON"}}.dump() << std::endl;
      continue;
    }
    const std::string op = j.value("op", "");
    if (op == "bye") return 0;
    if (op == "hello") {
      json hello{{"op", "hello"},
                 {"protocol", 1},
                 {"name", bugs.empty() ? "toy" : "toy-" + join(bugs)},
                 {"version", "1.0"},
                 {"layers", {"wire"}}};
      if (!omit.empty()) {
        hello["capabilities"] = json::array();
        for (const char* cap : {"bom", "cr", "utf8-repair", "nul", "retry", "last-event-id"}) {
          if (std::find(omit.begin(), omit.end(), cap) == omit.end()) hello["capabilities"].push_back(cap);
        }
      }
      std::cout << hello.dump() << std::endl;
      continue;
    }
    std::string stream;
    for (const auto& chunk : j.value("chunks", json::array()))
      stream += ssec::base64_decode(chunk.get<std::string>()).value_or("");
    if (has("crash") && stream.find("retry") != std::string::npos) return 3;
    if (has("hang") && stream.find('\0') != std::string::npos) {
      for (;;) ::pause();
    }
    if (has("garbage") && stream.find("event") != std::string::npos) {
      std::cout << "this is not JSON" << std::endl;
      continue;
    }
    json answer = parse_stream(stream);
    answer["id"] = j.value("id", "");
    std::cout << answer.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  }
  return 0;
}
