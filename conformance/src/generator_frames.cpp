// SPDX-License-Identifier: MIT
// The case generator, part 1: frames and streams (generator_parts.hpp).
#include <algorithm>

#include "generator_parts.hpp"

namespace ssec::conformance::gen {

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
  for (const ojson& v :
       {ojson("wrong"), ojson(7), ojson(true), ojson::array({1}), ojson::object({{"x", 1}}), ojson(nullptr)}) {
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
// `_`/`-` are ignored (the key_casing and type_key_casing checks), never
// equal to it.
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

const dl::event_spec* event_of(const dl::dialect_spec& d, std::string_view type) { return d.event(type); }

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

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

// The frames a conforming stream needs around `main` (and `after`, frames
// that follow it): what the dialect's cross-frame rules ask for.
std::vector<frame> with_context(const dl::dialect_spec& d, const frame& main, const std::vector<frame>& after,
                                const context_options& opt) {
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
    if (opt.pair_open && c.kind == dl::check_kind::pair &&
        (contains(c.close, main.type) || contains(c.during, main.type))) {
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
        const bool after_has =
            std::any_of(after.begin(), after.end(), [&](const frame& f) { return contains(c.types, f.type); });
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

}  // namespace ssec::conformance::gen
