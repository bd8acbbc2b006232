// SPDX-License-Identifier: MIT
// The case generator, part 2: its own model of what the reference must answer
// for a stream (generator_parts.hpp).
#include <algorithm>
#include <map>

#include "generator_parts.hpp"
#include "ssec/conformance/log.hpp"

namespace ssec::conformance::gen {
namespace {

// The data the wire layer delivers: each 0xFF byte (the only ill-formed
// UTF-8 the generator writes) replaced by U+FFFD.
std::string repaired(std::string_view bytes) {
  std::string out;
  for (const char c : bytes) {
    if (static_cast<unsigned char>(c) == 0xFF) out += "\xEF\xBF\xBD";
    else out += c;
  }
  return out;
}

// The dialect event of one frame, by spec/FORMAT.md: error (wire event or
// prefix), then structured / unknown (a JSON object with a string type, the
// catalog's defaults applied), else plain text.
json expected_event(const dl::dialect_spec& d, const std::string& raw, const std::string& wire_type) {
  if (!d.error_wire_event.empty() && wire_type == d.error_wire_event) {
    return json{{"kind", "error"}, {"text", raw}, {"raw", raw}};
  }
  if (!d.error_prefix.empty() && raw.starts_with(d.error_prefix)) {
    std::string text = raw.substr(d.error_prefix.size());
    if (text.starts_with(' ')) text.erase(0, 1);
    return json{{"kind", "error"}, {"text", text}, {"raw", raw}};
  }
  json j = json::parse(raw, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("type") && j["type"].is_string()) {
    const std::string type = j["type"].get<std::string>();
    const auto* spec = d.event(type);
    if (spec != nullptr) {
      for (const auto& f : spec->fields) {
        if (!j.contains(f.key) && f.default_value) j[f.key] = *f.default_value;
      }
    }
    return json{{"kind", spec != nullptr ? "structured" : "unknown"}, {"type", type}, {"fields", j}, {"raw", raw}};
  }
  return json{{"kind", "plain_text"}, {"text", raw}, {"raw", raw}};
}

// One frame as the validator sees it.
struct seen_frame {
  json event;   // expected_event()
  json object;  // the parsed data (null when not JSON)
  bool duplicate_keys = false;
  bool cr = false;          // a line of its block ends in CR or CRLF
  bool other_line = false;  // its block holds a line that is not a data line
  bool no_space = false;
};

std::string value_key(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The findings spec/FORMAT.md's check kinds give for a stream: the rule ids.
class findings_model {
 public:
  explicit findings_model(const dl::dialect_spec& d) : d_(d) {}

  std::set<std::string> run(const std::vector<seen_frame>& frames, bool invalid_utf8, bool unknown_field,
                            bool cut_tail) {
    out_.clear();
    state_.clear();
    for (std::size_t i = 0; i < frames.size(); ++i) frame_checks(frames[i], i);
    if (invalid_utf8) each(dl::check_kind::utf8);
    if (unknown_field) each(dl::check_kind::known_field);
    if (cut_tail) each(dl::check_kind::frame_terminated);
    for (const auto* r : d_.rules) {
      auto& s = state_[r->id];
      if (r->check.kind == dl::check_kind::last_frame && !s.triggered) out_.insert(r->id);
      if (r->check.kind == dl::check_kind::pair_closed) {
        for (const auto& [key, count] : s.open) {
          if (count > 0) out_.insert(r->id);
        }
      }
    }
    return out_;
  }

 private:
  struct rule_state {
    std::set<std::string> values;
    std::optional<std::string> first_value;
    std::optional<double> last_number;
    std::map<std::string, int> open;
    bool triggered = false;
    int count = 0;
  };

  void each(dl::check_kind k) {
    for (const auto* r : d_.rules) {
      if (r->check.kind == k) out_.insert(r->id);
    }
  }

  bool has(dl::check_kind k) const {
    return std::any_of(d_.rules.begin(), d_.rules.end(), [&](const auto* r) { return r->check.kind == k; });
  }

  // The most specific field_required rule for a missing field: type.field,
  // then *.field, then a rule without fields.
  const dl::rule_spec* required_rule(std::string_view type, const std::vector<std::string>& path) const {
    const dl::rule_spec *exact = nullptr, *any_type = nullptr, *fallback = nullptr;
    for (const auto* r : d_.rules) {
      if (r->check.kind != dl::check_kind::field_required) continue;
      if (r->check.fields.empty() && fallback == nullptr) fallback = r;
      for (const auto& p : r->check.fields) {
        if (p.keys != path) continue;
        if (p.type == type && exact == nullptr) exact = r;
        if (p.type == "*" && any_type == nullptr) any_type = r;
      }
    }
    return exact != nullptr ? exact : any_type != nullptr ? any_type : fallback;
  }

  bool forbidden(std::string_view type, std::string_view key) const {
    for (const auto* r : d_.rules) {
      if (r->check.kind != dl::check_kind::forbidden_field) continue;
      for (const auto& p : r->check.fields) {
        if (p.type == type && p.keys.size() == 1 && p.keys.front() == key) return true;
      }
    }
    return false;
  }

  void check_object(const json& members, const std::vector<dl::field_spec>& declared, std::string_view type,
                    std::vector<std::string>& path, bool top, bool report_undeclared) {
    for (const auto& f : declared) {
      if (!f.required || members.contains(f.key)) continue;
      path.push_back(f.key);
      if (const auto* r = required_rule(type, path)) out_.insert(r->id);
      path.pop_back();
    }
    for (const auto& member : members.items()) {
      // Named references, not a structured binding: clang 14 (the fuzz and
      // OSS-Fuzz compiler) cannot capture bindings in the lambdas below.
      const std::string& key = member.key();
      const auto& value = member.value();
      const auto spec =
          std::find_if(declared.begin(), declared.end(), [&](const dl::field_spec& f) { return f.key == key; });
      path.push_back(key);
      if (spec != declared.end()) {
        if (!spec->types.admits(value)) each(dl::check_kind::field_type);
        else if (!spec->fields.empty() && value.is_object())
          check_object(value, spec->fields, type, path, false, false);
      } else if (!(top && key == "type")) {
        const auto twin = std::find_if(declared.begin(), declared.end(), [&](const dl::field_spec& f) {
          return dl::folded_key(f.key) == dl::folded_key(key);
        });
        if (twin != declared.end()) each(dl::check_kind::key_casing);
        else if (report_undeclared && !forbidden(type, key)) each(dl::check_kind::undeclared_field);
      }
      path.pop_back();
    }
  }

  static std::optional<json> lookup(const json& object, const std::vector<std::string>& keys) {
    const json* at = &object;
    for (const auto& k : keys) {
      if (!at->is_object() || !at->contains(k)) return std::nullopt;
      at = &(*at)[k];
    }
    return *at;
  }

  void frame_checks(const seen_frame& f, std::size_t index) {
    const std::string kind = f.event["kind"];
    const bool typed = kind == "structured" || kind == "unknown";
    const std::string type = typed ? f.event["type"].get<std::string>() : std::string();
    const std::string raw = f.event["raw"];
    if (f.cr) each(dl::check_kind::lf_line_ends);
    if (f.other_line) each(dl::check_kind::data_only);
    if (f.no_space) each(dl::check_kind::data_space);
    if (raw.find('\n') != std::string::npos) each(dl::check_kind::single_data_line);
    if (!typed) {
      each(dl::check_kind::json_object);
      if (kind == "plain_text" && f.object.is_object()) {
        // No `type` key, and one that is `type` up to case and `_`/`-`: the
        // type_key_casing finding instead, where the dialect has such a rule.
        bool variant = false;
        if (!f.object.contains("type") && has(dl::check_kind::type_key_casing)) {
          for (const auto& member : f.object.items()) variant = variant || dl::folded_key(member.key()) == "type";
        }
        each(variant ? dl::check_kind::type_key_casing : dl::check_kind::object_has_type);
      }
    } else {
      if (kind == "unknown") each(dl::check_kind::known_type);
      if (f.duplicate_keys) each(dl::check_kind::unique_keys);
      const auto* spec = d_.event(type);
      std::vector<std::string> path;
      check_object(f.object, spec != nullptr ? spec->fields : d_.envelope, type, path, true,
                   spec != nullptr && !spec->open);
      for (const auto* r : d_.rules) {
        if (r->check.kind != dl::check_kind::forbidden_field) continue;
        for (const auto& p : r->check.fields) {
          if (p.type == type && lookup(f.object, p.keys)) out_.insert(r->id);
        }
      }
    }
    for (const auto* r : d_.rules) cross_frame(*r, state_[r->id], f, type, index);
  }

  void cross_frame(const dl::rule_spec& r, rule_state& s, const seen_frame& f, const std::string& type,
                   std::size_t index) {
    const auto& c = r.check;
    const auto hit = [&] { out_.insert(r.id); };
    switch (c.kind) {
      case dl::check_kind::forbidden_type:
        if (contains(c.types, type)) hit();
        break;
      case dl::check_kind::refers:
        for (const auto& from : c.fields) {
          if (from.type != type) continue;
          if (const auto v = lookup(f.object, from.keys); v && !s.values.contains(value_key(*v))) hit();
        }
        if (c.to.type == type) {
          if (const auto v = lookup(f.object, c.to.keys)) s.values.insert(value_key(*v));
        }
        break;
      case dl::check_kind::unique_value: {
        const auto& p = c.fields.front();
        if (p.type != type) break;
        if (const auto v = lookup(f.object, p.keys); v && !s.values.insert(value_key(*v)).second) hit();
        break;
      }
      case dl::check_kind::constant_field: {
        if (type.empty()) break;
        const auto v = lookup(f.object, {c.field});
        if (!v) break;
        if (!s.first_value) s.first_value = value_key(*v);
        else if (*s.first_value != value_key(*v)) hit();
        break;
      }
      case dl::check_kind::increasing: {
        if (type.empty()) break;
        const auto v = lookup(f.object, {c.field});
        if (!v || !v->is_number()) break;
        const double n = v->get<double>();
        if (s.last_number && !(n > *s.last_number)) hit();
        s.last_number = n;
        break;
      }
      case dl::check_kind::pair:
      case dl::check_kind::pair_closed: {
        std::string key;
        if (!c.key.empty()) {
          if (const auto v = lookup(f.object, {c.key})) key = value_key(*v);
        }
        if (type == c.open) {
          ++s.open[key];
          break;
        }
        const bool closes = contains(c.close, type);
        if (!closes && !contains(c.during, type)) break;
        if (s.open[key] == 0) {
          if (c.kind == dl::check_kind::pair) hit();
          break;
        }
        if (closes) --s.open[key];
        break;
      }
      case dl::check_kind::first_frame:
        if (index == 0 && !contains(c.types, type)) hit();
        break;
      case dl::check_kind::last_frame:
        if (s.triggered) hit();
        else if (contains(c.types, type)) s.triggered = true;
        break;
      case dl::check_kind::at_most_once:
        if (contains(c.types, type) && ++s.count > 1) hit();
        break;
      case dl::check_kind::followed_only_by:
        if (s.triggered && !contains(c.allow, type)) hit();
        if (!s.triggered && contains(c.types, type)) s.triggered = true;
        break;
      default: break;
    }
  }

  const dl::dialect_spec& d_;
  std::set<std::string> out_;
  std::map<std::string, rule_state> state_;
};

}  // namespace

rendered render(const dl::dialect_spec& d, const stream& s) {
  rendered out;
  const std::string eol = s.how == variant::crlf ? "\r\n" : s.how == variant::cr ? "\r" : "\n";
  std::uint64_t offset = 0;
  std::string last_id;
  bool invalid_utf8 = false;
  bool unknown_field = false;
  std::vector<seen_frame> seen;
  for (std::size_t i = 0; i < s.frames.size(); ++i) {
    const frame& f = s.frames[i];
    std::string chunk = (i == 0 && s.how == variant::bom) ? "\xEF\xBB\xBF" : "";
    std::uint64_t line_offset = offset + chunk.size();
    const auto add_line = [&](const std::string& line) {
      chunk += line + eol;
      line_offset = offset + chunk.size();
    };
    if (f.field != "data") {
      // Its one line names a field no reader knows: ignored, nothing dispatched.
      out.log.push_back("diag unknown_field off=" + std::to_string(line_offset));
      add_line(f.field + ": " + f.data);
      chunk += eol;
      unknown_field = true;
      offset += chunk.size();
      out.chunks.push_back(std::move(chunk));
      continue;
    }
    std::vector<std::string> parts{f.data};
    if (s.how == variant::multiline) {
      const auto comma = f.data.find(',');
      if (comma != std::string::npos) parts = {f.data.substr(0, comma + 1), f.data.substr(comma + 1)};
    }
    if (!f.event_line.empty()) add_line("event: " + f.event_line);
    std::string joined;
    for (const auto& part : parts) {
      if (part.find('\xFF') != std::string::npos) {
        invalid_utf8 = true;
        out.log.push_back("diag invalid_utf8 off=" + std::to_string(line_offset));
      }
      add_line((f.no_space ? "data:" : "data: ") + part);
      joined += (joined.empty() && &part == &parts.front() ? "" : "\n") + repaired(part);
    }
    std::string wire_type = f.event_line.empty() ? "message" : f.event_line;
    if (s.how == variant::extras) {
      add_line(": note");
      out.log.push_back("comment " + quote(" note"));
      last_id = std::to_string(i + 1);
      add_line("id: " + last_id);
      if (f.event_line.empty()) {
        add_line("event: update");
        wire_type = "update";
      }
      add_line("retry: 1500");
      out.log.push_back("retry 1500");
    }
    chunk += eol;
    out.log.push_back("event type=" + quote(wire_type) + " data=" + quote(joined) + " last_id=" + quote(last_id));
    seen_frame sf;
    sf.event = expected_event(d, joined, wire_type);
    sf.object = json::parse(joined, nullptr, false);
    if (sf.object.is_discarded()) sf.object = nullptr;
    sf.duplicate_keys = f.duplicate_keys;
    sf.cr = s.how == variant::crlf || s.how == variant::cr;
    sf.other_line = s.how == variant::extras || !f.event_line.empty();
    sf.no_space = f.no_space;
    out.events.push_back(sf.event);
    seen.push_back(std::move(sf));
    offset += chunk.size();
    out.chunks.push_back(std::move(chunk));
  }
  if (!s.tail.empty()) {
    out.log.push_back("diag discarded_at_eof off=" + std::to_string(offset));
    out.chunks.push_back("data: " + s.tail + eol);
  }
  out.findings = findings_model(d).run(seen, invalid_utf8, unknown_field, !s.tail.empty());
  return out;
}

}  // namespace ssec::conformance::gen
