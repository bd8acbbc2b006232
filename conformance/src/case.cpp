// SPDX-License-Identifier: MIT
#include "ssec/conformance/case.hpp"

#include <algorithm>
#include <array>

#include "sse/utf8.hpp"
#include "ssec/support/escape.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {
namespace {

constexpr std::array<std::pair<layer, std::string_view>, 6> layer_names{{
    {layer::wire, "wire"},
    {layer::chat, "chat"},
    {layer::code, "code"},
    {layer::agent, "agent"},
    {layer::workflow, "workflow"},
    {layer::client, "client"},
}};

constexpr std::array<std::pair<verdict, std::string_view>, 3> verdict_names{{
    {verdict::must, "must"},
    {verdict::should, "should"},
    {verdict::impl, "impl"},
}};

}  // namespace

std::string_view to_string(layer l) noexcept {
  for (const auto& [value, name] : layer_names) {
    if (value == l) return name;
  }
  return "unknown";
}

std::string_view to_string(verdict v) noexcept {
  for (const auto& [value, name] : verdict_names) {
    if (value == v) return name;
  }
  return "unknown";
}

std::optional<layer> layer_from_string(std::string_view s) noexcept {
  for (const auto& [value, name] : layer_names) {
    if (name == s) return value;
  }
  return std::nullopt;
}

std::optional<verdict> verdict_from_string(std::string_view s) noexcept {
  for (const auto& [value, name] : verdict_names) {
    if (name == s) return value;
  }
  return std::nullopt;
}

const std::vector<layer>& all_layers() {
  static const std::vector<layer> layers{layer::wire, layer::chat, layer::code, layer::agent, layer::workflow};
  return layers;
}

std::string test_case::path() const { return std::string(to_string(layer)) + "/" + topic + "/" + id; }

std::string test_case::test_name() const {
  std::string out = topic + "_" + id;
  for (char& ch : out) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    if (!keep) ch = '_';
  }
  return out;
}

std::vector<std::string> input_items(std::string_view bytes) {
  std::vector<std::string> out;
  std::size_t run_start = 0;
  const auto flush_run = [&](std::size_t end) {
    if (end > run_start) out.push_back("\"" + ssec::escape(bytes.substr(run_start, end - run_start)) + "\"");
  };
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = ssec::utf8_sequence_length(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    // YAML's "\xFF" is U+00FF (two bytes), never the byte: a byte that is
    // not UTF-8 can only be a hex item.
    flush_run(i);
    static constexpr char hex[] = "0123456789ABCDEF";
    const auto b = static_cast<unsigned char>(bytes[i]);
    out.push_back(std::string("{hex: \"") + hex[b >> 4] + hex[b & 0xF] + "\"}");
    run_start = ++i;
  }
  flush_run(bytes.size());
  return out;
}

const std::vector<std::string>& known_capabilities() {
  static const std::vector<std::string> names{
      "bom",            // strips one leading U+FEFF
      "cr",             // a lone CR ends a line
      "retry",          // reports the reconnection time
      "utf8-repair",    // replaces invalid UTF-8 with U+FFFD
      "last-event-id",  // reports lastEventId on events
      "nul",            // passes U+0000 through in data
  };
  return names;
}

bool excusable_capability(std::string_view capability) noexcept {
  return capability == "retry" || capability == "last-event-id";
}

std::vector<std::string> required_capabilities(const test_case& c) {
  std::vector<std::string> out = c.needs;
  const std::string_view in = c.input;
  if (in.starts_with("\xEF\xBB\xBF")) out.emplace_back("bom");
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '\r' && (i + 1 == in.size() || in[i + 1] != '\n')) {
      out.emplace_back("cr");
      break;
    }
  }
  if (in.find('\0') != std::string_view::npos) out.emplace_back("nul");
  if (!sse::utf8::is_valid(in)) out.emplace_back("utf8-repair");
  // Only what an adapter reports counts: events and the final retry.
  for (const auto& line : c.events) {
    if (std::holds_alternative<log_retry>(line)) out.emplace_back("retry");
    if (const auto* e = std::get_if<log_event>(&line); e && !e->event.last_event_id.empty()) {
      out.emplace_back("last-event-id");
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace ssec::conformance
