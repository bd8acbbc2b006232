// SPDX-License-Identifier: MIT
// The validator and JSON: a finding as JSON, and two looks into a frame's
// JSON without building it (SAX): where it stops parsing, a misspelt `type` key.
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "sse/dialect/validator.hpp"
#include "validator_parts.hpp"

namespace sse::dialect::detail {
namespace {

// A SAX handler that takes every value and goes on; the two below override
// only the events they look at.
struct accept_values : nlohmann::json_sax<nlohmann::json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
};

}  // namespace

std::optional<std::size_t> json_error_at(std::string_view data) {
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || (data[first] != '{' && data[first] != '[')) return std::nullopt;
  struct sax : accept_values {
    std::optional<std::size_t> at;
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception&) override {
      at = position;
      return false;
    }
  } s;
  nlohmann::json::sax_parse(data.begin(), data.end(), &s);
  // nlohmann counts the byte it stopped at from 1.
  if (s.at) return *s.at > 0 ? *s.at - 1 : 0;
  return std::nullopt;
}

// The key the frontend dispatches on, misspelt: the first top-level key of
// a JSON object that equals `type` when case and `_`/`-` are ignored (`Type`,
// `TYPE`), when the object has no `type` key itself. nullopt otherwise.
std::optional<std::string> type_key_variant(std::string_view data) {
  struct sax : accept_values {
    std::size_t depth = 0;
    bool exact = false;
    std::optional<std::string> variant;
    bool start_object(std::size_t) override {
      ++depth;
      return true;
    }
    bool key(string_t& k) override {
      if (depth != 1) return true;
      if (k == "type") {
        exact = true;
        return false;  // the key itself is there: nothing more to learn
      }
      if (!variant && folded_key(k) == "type") variant = k;
      return true;
    }
    bool end_object() override {
      --depth;
      return true;
    }
    bool start_array(std::size_t) override {
      ++depth;
      return true;
    }
    bool end_array() override {
      --depth;
      return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override { return false; }
  } s;
  nlohmann::json::sax_parse(data.begin(), data.end(), &s);
  if (s.exact) return std::nullopt;
  return std::move(s.variant);
}

}  // namespace sse::dialect::detail

namespace sse::dialect {

std::string frame_text(std::size_t frame, bool at_end) {
  if (!at_end) return "frame " + std::to_string(frame + 1);
  return frame == 0 ? "the end of an empty stream" : "the end of the stream, after frame " + std::to_string(frame);
}

nlohmann::ordered_json frame_number(std::size_t frame, bool at_end) {
  return at_end ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(frame + 1);
}

nlohmann::ordered_json to_json(const finding& f) {
  // Room for the ten members up front: an ordered_json object is a vector
  // of (const key, value) pairs, which grows by copying every member.
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j.get_ref<nlohmann::ordered_json::object_t&>().reserve(10);
  j["rule"] = f.rule != nullptr ? f.rule->id : "";
  j["severity"] = f.rule != nullptr ? to_string(f.rule->level) : "";
  j["basis"] = f.rule != nullptr ? to_string(f.rule->basis) : "";
  j["grounds"] = f.rule != nullptr ? basis_text(*f.rule) : "";
  j["frame"] = f.frame;
  j["frame_number"] = frame_number(f.frame, f.at_end);
  j["offset"] = f.offset;
  j["expected"] = f.expected;
  j["seen"] = f.seen;
  j["text"] = f.rule != nullptr ? f.rule->text : "";
  return j;
}

}  // namespace sse::dialect
