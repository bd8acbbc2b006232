// SPDX-License-Identifier: MIT
// The case generator (see generator.hpp). Three parts:
//   1. frames and streams: JSON objects built from the catalog, the context
//      frames a stream needs around them, and their wire rendering;
//   2. the generator's own model of what the reference must answer: the
//      dialect event of a frame (spec/FORMAT.md section 2) and the findings of
//      a stream (the check kinds of spec/FORMAT.md section 1);
//   3. the cases and their YAML.
#include "ssec/conformance/generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/text.hpp"

namespace ssec::conformance {
namespace {

namespace dl = sse::dialect;
using ojson = nlohmann::ordered_json;
using json = nlohmann::json;
using ts = dl::type_set;

// ---------------------------------------------------------------------------
// 1. Frames and streams

bool admits(const dl::type_set& t, const ojson& v) {
  if (v.is_null()) return (t.bits & ts::null) != 0;
  if (v.is_boolean()) return (t.bits & ts::boolean) != 0;
  if (v.is_number()) {
    if ((t.bits & ts::number) != 0) return true;
    const double d = v.get<double>();
    return (t.bits & ts::integer) != 0 && std::floor(d) == d;
  }
  if (v.is_string()) return (t.bits & ts::string) != 0;
  if (v.is_array()) return (t.bits & ts::array) != 0;
  return (t.bits & ts::object) != 0;
}

// A value of the field's type: strings name their key, so a reader sees
// which field a value belongs to; equal keys get equal values across frames,
// which is what the id-linking rules (refers, pair, constant_field) expect.
ojson sample_value(const dl::field_spec& f, bool full) {
  const auto b = f.types.bits;
  if (b == ts::any || (b & ts::string) != 0) return f.key + "-1";
  if ((b & ts::integer) != 0) return 7;
  if ((b & ts::number) != 0) return 2.5;
  if ((b & ts::boolean) != 0) return true;
  if ((b & ts::object) != 0) {
    ojson o = ojson::object();
    for (const auto& n : f.fields) {
      if (full || n.required) o[n.key] = sample_value(n, full);
    }
    if (f.fields.empty()) o["note"] = f.key + "-1";
    return o;
  }
  if ((b & ts::array) != 0) return ojson::array({f.key + "-1"});
  return nullptr;
}

// A value the field does not admit; nullopt for `any`.
std::optional<ojson> wrong_value(const dl::field_spec& f) {
  for (const ojson& v : {ojson("wrong"), ojson(7), ojson(true), ojson::array({1}), ojson::object({{"x", 1}}), ojson(nullptr)}) {
    if (!admits(f.types, v)) return v;
  }
  return std::nullopt;
}

ojson make_object(const dl::event_spec& e, bool full) {
  ojson o = ojson::object();
  o["type"] = e.type;
  for (const auto& f : e.fields) {
    if (full || f.required) o[f.key] = sample_value(f, full);
  }
  return o;
}

// The key spelled with other letter cases: equal to the key when case and
// `_`/`-` are ignored (the key_casing check), never equal to it.
std::string miscased(const std::string& key) {
  std::string out = key;
  const bool has_upper = std::any_of(key.begin(), key.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  if (has_upper) {
    for (auto& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
  } else if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') {
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
  }
  return out;
}

struct frame {
  std::string data;          // the data's bytes on the wire (a 0xFF byte marks invalid UTF-8)
  std::string event_line;    // the value of an `event:` line before the data, or empty
  bool no_space = false;     // `data:` without the space
  bool duplicate_keys = false;
  std::string type;          // the object's type (context logic), or empty
  ojson object;              // the object the data was made from (context logic), or null
};

frame from_object(const ojson& o) {
  frame f;
  f.object = o;
  f.data = o.dump();
  if (o.is_object() && o.contains("type") && o["type"].is_string()) f.type = o["type"].get<std::string>();
  return f;
}

frame from_text(std::string text) {
  frame f;
  f.data = std::move(text);
  return f;
}

enum class variant { lf, crlf, cr, multiline, extras, bom };
constexpr variant all_variants[] = {variant::lf, variant::crlf, variant::cr, variant::multiline, variant::extras, variant::bom};

std::string_view variant_name(variant v) {
  switch (v) {
    case variant::lf: return "LF";
    case variant::crlf: return "CRLF";
    case variant::cr: return "CR";
    case variant::multiline: return "data over two lines";
    case variant::extras: return "comment, id, event and retry lines";
    case variant::bom: return "BOM";
  }
  return "";
}

std::vector<std::string> variant_tags(variant v) {
  switch (v) {
    case variant::lf: return {};
    case variant::crlf: return {"line-endings"};
    case variant::cr: return {"line-endings", "lone-cr"};
    case variant::multiline: return {"data"};
    case variant::extras: return {"comments", "event-type", "id", "retry"};
    case variant::bom: return {"bom"};
  }
  return {};
}

struct stream {
  std::vector<frame> frames;
  variant how = variant::lf;
  std::string tail;  // data of a last `data:` line with no blank line after it, or empty
};

const dl::event_spec* event_of(const dl::dialect_spec& d, std::string_view type) { return d.event(type); }

bool contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

frame minimal_frame(const dl::dialect_spec& d, std::string_view type) {
  const auto* e = event_of(d, type);
  return e != nullptr ? from_object(make_object(*e, false)) : from_object(ojson{{"type", std::string(type)}});
}

// A copy of `f` with `key` set to `value` (or removed when value is nullopt).
frame with_key(const frame& f, const std::string& key, const std::optional<ojson>& value) {
  ojson o = f.object;
  if (value) o[key] = *value;
  else o.erase(key);
  frame out = from_object(o);
  out.event_line = f.event_line;
  return out;
}

std::optional<ojson> key_value(const frame& f, const std::string& key) {
  if (!f.object.is_object() || !f.object.contains(key)) return std::nullopt;
  return f.object[key];
}

struct context_options {
  bool first = true;      // a first frame the first_frame rules want
  bool refers = true;     // the earlier frames the refers rules want
  bool pair_open = true;  // the open frame a pair rule wants before a close or during frame
  bool pair_close = true; // the close frames the pair_closed rules want for what is open
  bool last = true;       // the last frame the last_frame rules want
};

// The frames a conforming stream needs around `main` (and `after`, frames
// that follow it): what the dialect's cross-frame rules ask for.
std::vector<frame> with_context(const dl::dialect_spec& d, const frame& main, const std::vector<frame>& after,
                                const context_options& opt = {}) {
  std::vector<frame> prefix;
  for (const auto* r : d.rules) {
    const auto& c = r->check;
    if (opt.first && c.kind == dl::check_kind::first_frame && !contains(c.types, main.type) && !c.types.empty()) {
      prefix.push_back(minimal_frame(d, c.types.front()));
    }
  }
  for (const auto* r : d.rules) {
    const auto& c = r->check;
    if (opt.refers && c.kind == dl::check_kind::refers) {
      for (const auto& from : c.fields) {
        if (from.type != main.type || from.keys.size() != 1 || c.to.keys.size() != 1) continue;
        if (const auto v = key_value(main, from.keys.front())) {
          prefix.push_back(with_key(minimal_frame(d, c.to.type), c.to.keys.front(), *v));
          break;
        }
      }
    }
    if (opt.pair_open && c.kind == dl::check_kind::pair && (contains(c.close, main.type) || contains(c.during, main.type))) {
      frame open = minimal_frame(d, c.open);
      if (!c.key.empty()) open = with_key(open, c.key, key_value(main, c.key));
      prefix.push_back(open);
    }
  }
  std::vector<frame> suffix;
  if (opt.pair_close) {
    for (const auto* r : d.rules) {
      const auto& c = r->check;
      if (c.kind != dl::check_kind::pair_closed || c.close.empty()) continue;
      std::vector<const frame*> open;
      for (const auto& f : prefix) {
        if (f.type == c.open) open.push_back(&f);
      }
      if (main.type == c.open) open.push_back(&main);
      if (contains(c.close, main.type) && !open.empty()) open.erase(open.begin());
      for (const frame* f : open) {
        frame close = minimal_frame(d, c.close.front());
        if (!c.key.empty()) close = with_key(close, c.key, key_value(*f, c.key));
        suffix.push_back(close);
      }
    }
  }
  if (opt.last) {
    for (const auto* r : d.rules) {
      const auto& c = r->check;
      if (c.kind == dl::check_kind::last_frame && !c.types.empty() && !contains(c.types, main.type)) {
        const bool after_has = std::any_of(after.begin(), after.end(), [&](const frame& f) { return contains(c.types, f.type); });
        if (!after_has) suffix.push_back(minimal_frame(d, c.types.front()));
      }
    }
  }
  std::vector<frame> out = prefix;
  out.push_back(main);
  out.insert(out.end(), after.begin(), after.end());
  out.insert(out.end(), suffix.begin(), suffix.end());
  return out;
}

// ---------------------------------------------------------------------------
// 2. The model: what the reference must answer

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
  json event;       // expected_event()
  json object;      // the parsed data (null when not JSON)
  bool duplicate_keys = false;
  bool cr = false;          // a line of its block ends in CR or CRLF
  bool other_line = false;  // its block holds a line that is not a data line
  bool no_space = false;
};

std::string folded(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '_' || c == '-') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string value_key(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The findings spec/FORMAT.md's check kinds give for a stream: the rule ids.
class findings_model {
 public:
  explicit findings_model(const dl::dialect_spec& d) : d_(d) {}

  std::set<std::string> run(const std::vector<seen_frame>& frames, bool invalid_utf8, bool cut_tail) {
    out_.clear();
    state_.clear();
    for (std::size_t i = 0; i < frames.size(); ++i) frame_checks(frames[i], i);
    if (invalid_utf8) each(dl::check_kind::utf8);
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
      // Named copies, not a structured binding: clang 14 (the fuzz and
      // OSS-Fuzz compiler) cannot capture bindings in the lambdas below.
      const std::string key = member.key();
      const auto& value = member.value();
      const auto spec = std::find_if(declared.begin(), declared.end(), [&](const dl::field_spec& f) { return f.key == key; });
      path.push_back(key);
      if (spec != declared.end()) {
        if (!spec->types.admits(value)) each(dl::check_kind::field_type);
        else if (!spec->fields.empty() && value.is_object()) check_object(value, spec->fields, type, path, false, false);
      } else if (!(top && key == "type")) {
        const auto twin = std::find_if(declared.begin(), declared.end(), [&](const dl::field_spec& f) { return folded(f.key) == folded(key); });
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
      if (kind == "plain_text" && f.object.is_object()) each(dl::check_kind::object_has_type);
    } else {
      if (kind == "unknown") each(dl::check_kind::known_type);
      if (f.duplicate_keys) each(dl::check_kind::unique_keys);
      const auto* spec = d_.event(type);
      std::vector<std::string> path;
      check_object(f.object, spec != nullptr ? spec->fields : d_.envelope, type, path, true, spec != nullptr && !spec->open);
      for (const auto* r : d_.rules) {
        if (r->check.kind != dl::check_kind::forbidden_field) continue;
        for (const auto& p : r->check.fields) {
          if (p.type == type && lookup(f.object, p.keys)) out_.insert(r->id);
        }
      }
    }
    for (const auto* r : d_.rules) cross_frame(*r, state_[r->id], f, type, index);
  }

  void cross_frame(const dl::rule_spec& r, rule_state& s, const seen_frame& f, const std::string& type, std::size_t index) {
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

// A stream rendered: the chunks (one per frame), the expected wire log, the
// expected dialect events and findings.
struct rendered {
  std::vector<std::string> chunks;
  std::vector<std::string> log;
  std::vector<json> events;
  std::set<std::string> findings;
};

rendered render(const dl::dialect_spec& d, const stream& s) {
  rendered out;
  const std::string eol = s.how == variant::crlf ? "\r\n" : s.how == variant::cr ? "\r" : "\n";
  std::uint64_t offset = 0;
  std::string last_id;
  bool invalid_utf8 = false;
  std::vector<seen_frame> seen;
  for (std::size_t i = 0; i < s.frames.size(); ++i) {
    const frame& f = s.frames[i];
    std::string chunk = (i == 0 && s.how == variant::bom) ? "\xEF\xBB\xBF" : "";
    std::uint64_t line_offset = offset + chunk.size();
    const auto add_line = [&](const std::string& line) {
      chunk += line + eol;
      line_offset = offset + chunk.size();
    };
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
  out.findings = findings_model(d).run(seen, invalid_utf8, !s.tail.empty());
  return out;
}

// ---------------------------------------------------------------------------
// 3. Cases and their YAML

struct gen_case {
  std::string key;  // identity: what the id is derived from
  std::string name;
  std::vector<std::string> from;
  std::vector<std::string> tags;
  std::string verdict = "must";
  std::string file;  // "events" or "rules"
  stream s;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A 4-character id from the identity's hash, rehashed until it is well formed
// and unused.
std::string make_id(std::string_view key, std::set<std::string>& used) {
  static constexpr std::string_view alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  std::uint64_t h = fnv1a(key);
  for (;;) {
    h = mix(h);
    std::string id;
    for (int i = 0; i < 4; ++i) id += alphabet[(h >> (5 * i)) & 31];
    if (is_valid_case_id(id) && used.insert(id).second) return id;
  }
}

std::string yaml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// One chunk in the case format's byte-exact notation (conformance/README.md):
// double-quoted with escapes, and each 0xFF byte as a {hex: "FF"} chunk.
std::vector<std::string> yaml_chunks(std::string_view bytes) {
  std::vector<std::string> out;
  std::string cur;
  const auto flush = [&] {
    if (!cur.empty()) out.push_back("\"" + cur + "\"");
    cur.clear();
  };
  for (std::size_t i = 0; i < bytes.size();) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (b == 0xFF) {
      flush();
      out.push_back("{hex: \"FF\"}");
      ++i;
      continue;
    }
    if (b < 0x80) {
      switch (b) {
        case '\n': cur += "\\n"; break;
        case '\r': cur += "\\r"; break;
        case '\t': cur += "\\t"; break;
        case '"': cur += "\\\""; break;
        case '\\': cur += "\\\\"; break;
        default:
          if (b < 0x20 || b == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", b);
            cur += buf;
          } else {
            cur += static_cast<char>(b);
          }
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence (the generator writes only well-formed ones besides 0xFF).
    const int len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    std::uint32_t cp = b & (len == 4 ? 0x07 : len == 3 ? 0x0F : 0x1F);
    for (int k = 1; k < len && i + k < bytes.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(bytes[i + k]) & 0x3F);
    char buf[16];
    if (cp > 0xFFFF) std::snprintf(buf, sizeof buf, "\\U%08X", cp);
    else std::snprintf(buf, sizeof buf, "\\u%04X", cp);
    cur += buf;
    i += static_cast<std::size_t>(len);
  }
  flush();
  return out;
}

std::vector<std::string> trace_refs(const dl::trace& t) {
  std::vector<std::string> out;
  for (const auto& s : t.sources) out.push_back(s.starts_with("https://") ? s : "protocols/" + s);
  if (!t.decision.empty()) out.push_back("spec/DECISIONS.md#" + t.decision);
  return out;
}

std::string spec_file(const dl::location& where) { return "spec/" + std::filesystem::path(where.file).filename().string(); }

void add_unique(std::vector<std::string>& v, const std::vector<std::string>& more) {
  for (const auto& m : more) {
    if (!contains(v, m)) v.push_back(m);
  }
}

class case_builder {
 public:
  case_builder(const dl::dialect_spec& d) : d_(d) {}

  std::vector<gen_case> cases;

  void event_cases() {
    for (const auto& e : d_.events) {
      std::vector<std::string> from = trace_refs(e.origin);
      from.insert(from.begin(), spec_file(e.where) + "#" + d_.name + "." + e.type);
      const std::string base = d_.name + "/" + e.type;
      const std::vector<std::string> type_tags = e.type == "done" ? std::vector<std::string>{"terminal-frame"} : std::vector<std::string>{};
      const frame full = from_object(make_object(e, true));
      for (const variant v : all_variants) {
        add("events", base + "/full/" + std::string(variant_name(v)), e.type + ": full frame, " + std::string(variant_name(v)), from,
            merge({"full-frame"}, type_tags), v, with_context(d_, full, {}));
      }
      const frame minimal = from_object(make_object(e, false));
      add("events", base + "/minimal", e.type + ": minimal frame, defaults applied", from, merge({"minimal-frame"}, type_tags),
          pick(base + "/minimal"), with_context(d_, minimal, {}));
      for (const auto& f : e.fields) {
        const auto wrong = wrong_value(f);
        if (!wrong) continue;
        std::vector<std::string> ffrom = from;
        add_unique(ffrom, trace_refs(f.origin));
        const frame bad = with_key(full, f.key, *wrong);
        add("events", base + "/wrong-type/" + f.key, e.type + ": " + f.key + " with a " + std::string(json_type_name(*wrong)) + " value",
            ffrom, {"wrong-type"}, pick(base + "/wrong-type/" + f.key), with_context(d_, bad, {}));
      }
      {
        frame extra = with_key(full, "unlistedField", ojson("extra-1"));
        add("events", base + "/extra", e.type + ": an extra field the catalog does not declare", from, {"extra-field"},
            pick(base + "/extra"), with_context(d_, extra, {}));
      }
      if (!e.fields.empty()) {
        const auto& f = e.fields.front();
        frame cased = with_key(with_key(full, f.key, std::nullopt), miscased(f.key), sample_value(f, true));
        std::vector<std::string> ffrom = from;
        add_unique(ffrom, trace_refs(f.origin));
        add("events", base + "/casing/" + f.key, e.type + ": key " + miscased(f.key) + " instead of " + f.key, ffrom, {"key-casing"},
            pick(base + "/casing"), with_context(d_, cased, {}));
      }
    }
  }

  void shape_cases() {
    const std::vector<std::string> from{spec_file(d_.where) + "#" + d_.name};
    std::vector<std::string> shape_from = from;
    for (const auto& s : d_.shapes) add_unique(shape_from, trace_refs(s.origin));
    ojson unknown = ojson::object();
    unknown["type"] = "unlisted_type";
    for (const auto& f : d_.envelope) {
      if (f.required) unknown[f.key] = sample_value(f, false);
    }
    add("events", d_.name + "/unknown-type", "a type the catalog does not list is kept as unknown", shape_from, {"unknown-type"},
        pick(d_.name + "/unknown-type"), with_context(d_, from_object(unknown), {}));
    add("events", d_.name + "/shape/plain", "plain text is kept whole", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text("Hello world"), {}));
    add("events", d_.name + "/shape/no-type", "a JSON object without a type", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text(R"({"text":"no type here"})"), {}));
    add("events", d_.name + "/shape/array", "JSON that is not an object", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text("[1]"), {}));
    add("events", d_.name + "/shape/number-type", "a JSON object whose type is not a string", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text(R"({"type":7})"), {}));
    if (!d_.error_prefix.empty()) {
      add("events", d_.name + "/shape/error", "an error frame: the prefix and one space removed", shape_from, {"frame-shape"},
          variant::lf, with_context(d_, from_text(d_.error_prefix + " Rate limited"), {}));
      add("events", d_.name + "/shape/error-nospace", "an error frame without a space after the prefix", shape_from, {"frame-shape"},
          variant::lf, with_context(d_, from_text(d_.error_prefix + "Rate limited"), {}));
    }
    if (!d_.error_wire_event.empty()) {
      frame f = from_text("Rate limited");
      f.event_line = d_.error_wire_event;
      std::vector<std::string> dfrom = shape_from;
      for (const auto& diff : d_.differences) {
        if (!diff.error_wire_event.empty()) add_unique(dfrom, trace_refs(diff.origin));
      }
      add("events", d_.name + "/shape/error-event", "an error frame sent as event: " + d_.error_wire_event, dfrom, {"frame-shape", "event-type"},
          variant::lf, with_context(d_, f, {}));
    }
  }

  void rule_cases() {
    for (const auto* r : d_.rules) {
      if (r->check.kind == dl::check_kind::content_type) continue;  // needs an HTTP response, not a stream
      std::vector<std::string> from{spec_file(r->where) + "#" + r->id};
      add_unique(from, trace_refs(r->origin));
      const std::string verdict(dl::to_string(r->level));
      const std::string base = d_.name + "/rule/" + r->id;
      // Keeps: the context stream around a candidate, with the fewest findings (none, where possible).
      std::optional<std::pair<stream, std::size_t>> keep;
      for (const auto& t : candidates(*r)) {
        stream s{with_context(d_, minimal_frame(d_, t), {}), variant::lf, {}};
        const auto f = render(d_, s).findings;
        if (f.contains(r->id)) continue;
        if (!keep || f.size() < keep->second) keep = {s, f.size()};
      }
      if (keep) add_stream("rules", base + "/keeps", r->id + " kept", from, {"producer-rule"}, verdict, keep->first);
      std::optional<std::pair<stream, std::size_t>> brk;
      for (const auto& t : candidates(*r)) {
        for (const auto& s : breaking(*r, t)) {
          const auto f = render(d_, s).findings;
          if (!f.contains(r->id)) continue;
          if (!brk || f.size() < brk->second) brk = {s, f.size()};
        }
      }
      std::vector<std::string> tags{"producer-rule"};
      if (r->check.kind == dl::check_kind::utf8) tags.push_back("invalid-utf8");
      if (r->check.kind == dl::check_kind::frame_terminated) tags.push_back("eof");
      if (brk) add_stream("rules", base + "/breaks", r->id + " broken", from, tags, verdict, brk->first);
    }
  }

 private:
  static std::string_view json_type_name(const ojson& v) {
    if (v.is_string()) return "string";
    if (v.is_number()) return "number";
    if (v.is_boolean()) return "boolean";
    if (v.is_array()) return "array";
    if (v.is_object()) return "object";
    return "null";
  }

  static std::vector<std::string> merge(std::vector<std::string> a, const std::vector<std::string>& b) {
    add_unique(a, b);
    return a;
  }

  // A deterministic wire variant for a case that is not run in all of them.
  static variant pick(std::string_view key) { return all_variants[fnv1a(key) % std::size(all_variants)]; }

  void add(const std::string& file, const std::string& key, const std::string& name, const std::vector<std::string>& from,
           const std::vector<std::string>& tags, variant v, std::vector<frame> frames) {
    stream s{std::move(frames), v, {}};
    add_stream(file, key, name, from, merge(tags, variant_tags(v)), "must", s);
  }

  void add_stream(const std::string& file, const std::string& key, const std::string& name, const std::vector<std::string>& from,
                  const std::vector<std::string>& tags, const std::string& verdict, const stream& s) {
    gen_case c;
    c.key = key;
    c.name = d_.name + " " + name;
    c.from = from;
    c.tags = merge({"generated", "json-payload"}, tags);
    c.verdict = verdict;
    c.file = file;
    c.s = s;
    cases.push_back(std::move(c));
  }

  // Event types a rule is about first, then every type of the dialect.
  std::vector<std::string> candidates(const dl::rule_spec& r) const {
    const auto& c = r.check;
    std::vector<std::string> out;
    for (const auto& p : c.fields) {
      if (p.type != "*") out.push_back(p.type);
    }
    add_unique(out, c.types);
    add_unique(out, c.close);
    add_unique(out, c.during);
    if (!c.open.empty()) add_unique(out, {c.open});
    for (const auto& e : d_.events) add_unique(out, {e.type});
    return out;
  }

  const dl::event_spec& spec(const std::string& type) const { return *d_.event(type); }

  std::string first_type_not_in(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
    for (const auto& e : d_.events) {
      if (!contains(a, e.type) && !contains(b, e.type)) return e.type;
    }
    return "unlisted_type";
  }

  // Streams around a frame of type `t` that may break the rule (the caller
  // keeps one that does, by the model); none when that type cannot.
  std::vector<stream> breaking(const dl::rule_spec& r, const std::string& t) const {
    if (auto one = breaking_one(r, t)) return {*one};
    if (r.check.kind != dl::check_kind::field_required) return {};
    // Each required field the rule may claim, one stream apiece: which rule
    // reports a missing field depends on the more specific rules.
    std::vector<stream> out;
    const auto& e = spec(t);
    const frame minimal = from_object(make_object(e, false));
    for (const auto& f : e.fields) {
      if (f.required) out.push_back(stream{with_context(d_, with_key(minimal, f.key, std::nullopt), {}), variant::lf, {}});
    }
    return out;
  }

  // The one stream that breaks the rule around a frame of type `t`, or
  // nullopt (field_required: see breaking()).
  std::optional<stream> breaking_one(const dl::rule_spec& r, const std::string& t) const {
    const auto& c = r.check;
    const auto& e = spec(t);
    const frame minimal = from_object(make_object(e, false));
    const frame full = from_object(make_object(e, true));
    const auto ctx = [&](const frame& main, std::vector<frame> after = {}, context_options o = {}) {
      return stream{with_context(d_, main, after, o), variant::lf, {}};
    };
    switch (c.kind) {
      case dl::check_kind::utf8: {
        for (const auto& f : e.fields) {
          if (!full.object[f.key].is_string()) continue;
          frame bad = with_key(full, f.key, ojson(f.key + "-@@1"));
          bad.data.replace(bad.data.find("@@"), 2, "\xFF");
          return ctx(bad);
        }
        return std::nullopt;
      }
      case dl::check_kind::frame_terminated: {
        auto s = ctx(minimal);
        s.tail = minimal.data;
        return s;
      }
      case dl::check_kind::lf_line_ends: {
        auto s = ctx(minimal);
        s.how = variant::crlf;
        return s;
      }
      case dl::check_kind::single_data_line: {
        if (full.data.find(',') == std::string::npos) return std::nullopt;
        auto s = ctx(full);
        s.how = variant::multiline;
        return s;
      }
      case dl::check_kind::data_only: {
        auto s = ctx(minimal);
        s.how = variant::extras;
        return s;
      }
      case dl::check_kind::data_space: {
        frame f = minimal;
        f.no_space = true;
        return ctx(f);
      }
      case dl::check_kind::json_object: return ctx(minimal, {from_text("plain text frame")});
      case dl::check_kind::object_has_type: return ctx(minimal, {from_text(R"({"text":"no type here"})")});
      case dl::check_kind::known_type: {
        ojson unknown = ojson::object();
        unknown["type"] = "unlisted_type";
        for (const auto& f : d_.envelope) {
          if (f.required) unknown[f.key] = sample_value(f, false);
        }
        return ctx(minimal, {from_object(unknown)});
      }
      case dl::check_kind::field_required: return std::nullopt;
      case dl::check_kind::field_type:
        for (const auto& f : e.fields) {
          if (const auto w = wrong_value(f)) return ctx(with_key(minimal, f.key, *w));
        }
        return std::nullopt;
      case dl::check_kind::key_casing:
        if (e.fields.empty()) return std::nullopt;
        return ctx(with_key(with_key(full, e.fields.front().key, std::nullopt), miscased(e.fields.front().key),
                            sample_value(e.fields.front(), true)));
      case dl::check_kind::undeclared_field: return ctx(with_key(minimal, "unlistedField", ojson("extra-1")));
      case dl::check_kind::unique_keys: {
        frame f = full;
        std::string key = "type";
        for (const auto& [k, v] : full.object.items()) {
          if (k != "type") {
            key = k;
            break;
          }
        }
        f.data = "{" + ojson(key).dump() + ":" + ojson(key == "type" ? ojson(t) : ojson("first-1")).dump() + "," + f.data.substr(1);
        f.duplicate_keys = true;
        return ctx(f);
      }
      case dl::check_kind::forbidden_field:
        for (const auto& p : c.fields) {
          if (p.type == t && p.keys.size() == 1) return ctx(with_key(minimal, p.keys.front(), ojson(p.keys.front() + "-1")));
        }
        return std::nullopt;
      case dl::check_kind::forbidden_type:
        if (!contains(c.types, t)) return std::nullopt;
        return ctx(minimal);
      case dl::check_kind::refers: return ctx(minimal, {}, {.refers = false});
      case dl::check_kind::unique_value:
      case dl::check_kind::at_most_once: return ctx(minimal, {minimal});
      case dl::check_kind::constant_field:
      case dl::check_kind::increasing: {
        const auto* f = e.field(c.field);
        if (f == nullptr) return std::nullopt;
        const bool incr = c.kind == dl::check_kind::increasing;
        const ojson first = incr ? ojson(2) : sample_value(*f, false);
        const ojson second = incr ? ojson(1) : ojson(first.is_string() ? first.get<std::string>() + "-other" : "other");
        return ctx(with_key(minimal, c.field, first), {with_key(minimal, c.field, second)});
      }
      case dl::check_kind::pair: return ctx(minimal, {}, {.pair_open = false});
      case dl::check_kind::pair_closed: return ctx(minimal, {}, {.pair_close = false});
      case dl::check_kind::first_frame: return ctx(minimal, {}, {.first = false});
      case dl::check_kind::last_frame: return ctx(minimal, {}, {.last = false});
      case dl::check_kind::followed_only_by: {
        if (!contains(c.types, t)) return std::nullopt;
        return ctx(minimal, {minimal_frame(d_, first_type_not_in(c.allow, c.types))});
      }
      default: return std::nullopt;
    }
  }

  const dl::dialect_spec& d_;
};

std::string render_case(const dl::dialect_spec& d, const gen_case& c, const std::string& id) {
  const rendered r = render(d, c.s);
  std::ostringstream out;
  out << "- id: " << id << "\n";
  out << "  name: " << yaml_string(c.name) << "\n";
  out << "  from:\n";
  for (const auto& f : c.from) out << "    - " << f << "\n";
  out << "  tags: [";
  for (std::size_t i = 0; i < c.tags.size(); ++i) out << (i ? ", " : "") << c.tags[i];
  out << "]\n";
  out << "  verdict: " << c.verdict << "\n";
  out << "  layer: " << d.name << "\n";
  out << "  input:\n";
  for (const auto& chunk : r.chunks) {
    for (const auto& piece : yaml_chunks(chunk)) out << "    - " << piece << "\n";
  }
  out << "  events: |\n";
  for (const auto& line : r.log) out << "    " << line << "\n";
  out << "  dialect_events: |\n";
  for (const auto& e : r.events) {
    // Members in the order of spec/FORMAT.md section 2, for the reader.
    ojson ordered = ojson::object();
    for (const char* key : {"kind", "type", "text", "fields", "raw"}) {
      if (e.contains(key)) ordered[key] = e[key];
    }
    out << "    " << ordered.dump(-1, ' ', true) << "\n";
  }
  if (r.findings.empty()) {
    out << "  conforming: true\n";
  } else {
    out << "  findings: [";
    std::size_t i = 0;
    for (const auto& f : r.findings) out << (i++ ? ", " : "") << f;
    out << "]\n";
  }
  return out.str();
}

}  // namespace

std::vector<generated_file> generate_cases(const sse::dialect::catalog& cat, const std::set<std::string>& reserved_ids) {
  std::set<std::string> used = reserved_ids;
  std::map<std::string, std::string> files;
  for (const auto& dp : cat.dialects()) {
    const auto& d = *dp;
    case_builder b(d);
    b.event_cases();
    b.shape_cases();
    b.rule_cases();
    for (const auto& c : b.cases) {
      const std::string name = d.name + "-" + c.file + ".yaml";
      auto& text = files[name];
      if (text.empty()) {
        text = "# GENERATED by `sse-conform generate-cases` from the catalogs (spec/*.yaml): do not edit.\n"
               "# Regenerate: sse-conform generate-cases --spec spec --out conformance/cases/generated\n"
               "# Layer " + d.name + ": " + (c.file == "events" ? "event types, fields and frame shapes" : "producer rules, kept and broken") + ".\n";
      }
      text += render_case(d, c, make_id(c.key, used));
    }
  }
  std::vector<generated_file> out;
  for (auto& [name, text] : files) out.push_back({name, std::move(text)});
  return out;
}

}  // namespace ssec::conformance
