// SPDX-License-Identifier: MIT
// The dialect decoder. JSON is parsed with simdjson's DOM (nlohmann_json's parse alone is about 4x slower than this
// whole decoder, tools/bench/dialect/README.md); nlohmann_json holds owned values and parses integers beyond 64 bits.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include <simdjson.h>

#include "flat_object_reader.hpp"
#include "sse/dialect/decoder.hpp"
#include "value_access.hpp"

namespace sse::dialect {

namespace {

// Deepest nesting we accept as JSON (spec/DECISIONS.md, json-definition);
// simdjson's own default limit.
constexpr std::size_t max_depth = 1024;

// Depth of brackets outside strings; only for the rare fallback path, to keep
// nlohmann_json away from pathological nesting.
std::size_t nesting(std::string_view s) noexcept {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

std::optional<value_view> value_view::member(std::string_view key) const {
  if (type_ != json_type::object) return std::nullopt;
  std::optional<value_view> found;
  if (value_access::from_simdjson(*this)) {
    simdjson::dom::object obj;
    if (value_access::simd(*this).get(obj) != simdjson::SUCCESS) return std::nullopt;
    for (const auto m : obj) {
      if (m.key == key) found = value_access::of(m.value);
    }
  } else if (value_access::from_json(*this)) {
    const nlohmann::json& j = *value_access::json(*this);
    if (const auto it = j.find(key); it != j.end()) found = value_access::of(*it);
  }
  return found;
}

std::vector<std::pair<std::string_view, value_view>> value_view::members() const {
  std::vector<std::pair<std::string_view, value_view>> out;
  if (type_ != json_type::object) return out;
  if (value_access::from_simdjson(*this)) {
    simdjson::dom::object obj;
    if (value_access::simd(*this).get(obj) != simdjson::SUCCESS) return out;
    for (const auto m : obj) out.emplace_back(m.key, value_access::of(m.value));
  } else if (value_access::from_json(*this)) {
    for (const auto& [k, v] : value_access::json(*this)->items()) out.emplace_back(k, value_access::of(v));
  }
  return out;
}

nlohmann::json value_view::to_json() const {
  if (value_access::from_simdjson(*this)) return convert(value_access::simd(*this));
  if (value_access::from_json(*this)) return *value_access::json(*this);
  return value_access::scalar_json(*this);
}

std::string_view to_string(event_kind k) noexcept {
  switch (k) {
    case event_kind::structured: return "structured";
    case event_kind::unknown: return "unknown";
    case event_kind::plain_text: return "plain_text";
    case event_kind::error: return "error";
  }
  return "unknown_kind";
}

const field_view* event_view::find(std::string_view key) const noexcept {
  for (const auto& f : fields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

namespace {
// The dialect's event types by name, for the one lookup every typed frame
// makes: open addressing in a power-of-two table, a hash of the length and at
// most 16 bytes from the ends, so no division and no pointer chase. The
// catalog's own index (dialect_spec::event, a std::unordered_map) hashes every
// byte and divides by a prime: about a tenth of the agent decode's
// instructions. Finds what dialect_spec::event finds (the first of repeated
// types, as its emplace keeps).
class type_table {
 public:
  explicit type_table(const dialect_spec& d) {
    std::size_t size = 8;
    while (size < 2 * d.events.size()) size *= 2;
    slots_.resize(size);
    mask_ = size - 1;
    for (const auto& e : d.events) {
      std::size_t at = hash(e.type) & mask_;
      while (slots_[at].spec != nullptr && slots_[at].type != e.type) at = (at + 1) & mask_;
      if (slots_[at].spec == nullptr) slots_[at] = slot{e.type, &e};
    }
  }

  // The event type, or nullptr.
  const event_spec* find(std::string_view type) const noexcept {
    for (std::size_t at = hash(type) & mask_;; at = (at + 1) & mask_) {
      const slot& s = slots_[at];
      if (s.spec == nullptr) return nullptr;
      if (s.type.size() == type.size() && same_bytes(s.type.data(), type.data(), type.size())) return s.spec;
    }
  }

 private:
  struct slot {
    std::string_view type;  // into the catalog's event_spec
    const event_spec* spec = nullptr;
  };

  template <class T>
  static std::uint64_t load(const char* p) noexcept {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

  // Equal bytes; up to 16 bytes (most types) without a call: two words from
  // each end, which overlap when n < 16.
  static bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
    if (n < 8 || n > 16) return std::memcmp(a, b, n) == 0;
    return ((load<std::uint64_t>(a) ^ load<std::uint64_t>(b)) |
            (load<std::uint64_t>(a + n - 8) ^ load<std::uint64_t>(b + n - 8))) == 0;
  }

  static std::size_t hash(std::string_view s) noexcept {
    const char* const p = s.data();
    const std::size_t n = s.size();
    std::uint64_t word = 0;
    if (n >= 8) {
      const std::uint64_t tail = load<std::uint64_t>(p + n - 8);
      word = load<std::uint64_t>(p) ^ (tail << 31 | tail >> 33);
    } else if (n >= 4) {
      word = load<std::uint32_t>(p) | load<std::uint32_t>(p + n - 4) << 32;
    } else if (n > 0) {
      word = static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[n / 2]) << 8 |
             static_cast<unsigned char>(p[n - 1]) << 16;
    }
    const std::uint64_t mixed = (word ^ n) * 0x9E3779B97F4A7C15u;  // Fibonacci hashing
    return static_cast<std::size_t>(mixed ^ mixed >> 32);
  }

  std::vector<slot> slots_;
  std::size_t mask_ = 0;
};

}  // namespace

struct decoder::impl final : detail::field_source {
  explicit impl(const dialect_spec& d) : dialect(&d), types(d) {}

  const dialect_spec* dialect;
  type_table types;  // dialect->event(), faster
  simdjson::dom::parser parser;
  std::string padded;       // the frame copied with simdjson's padding
  nlohmann::json fallback;  // the frame, when only nlohmann_json can read it
  flat_object_reader flat;  // most frames: no DOM at all
  std::vector<std::pair<std::string_view, value_view>> members;
  std::unordered_map<std::string_view, std::size_t> member_index;  // large objects only
  std::vector<field_view> fields;
  event_view view;
  // The typed flat frame decoded last, until its fields are built: its spec.
  bool fields_pending = false;
  const event_spec* pending_spec = nullptr;

  // The message of an error frame: after the prefix, one space removed.
  std::string_view message_after(std::string_view data) const {
    std::string_view rest = data.substr(dialect->error_prefix.size());
    if (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    return rest;
  }

  // Reads f.data when it is a JSON object; false otherwise. A flat object is
  // only indexed (`flat`), anything else parsed into `members`.
  bool parse_object(const frame& f, bool& indexed) {
    members.clear();
    indexed = false;
    const std::string_view data = f.data;
    // Only an object can be structured, so anything else is not parsed at all.
    std::size_t first = 0;
    while (first < data.size() && json_space(data[first])) ++first;
    if (first == data.size() || data[first] != '{') return false;
    if (flat.index(data, f.data_is_utf8)) {
      indexed = true;
      return true;
    }

    padded.assign(data);
    padded.resize(data.size() + simdjson::SIMDJSON_PADDING);
    element root;
    const auto err = parser.parse(padded.data(), data.size(), false).get(root);
    if (err == simdjson::SUCCESS) {
      simdjson::dom::object obj;
      if (root.get(obj) != simdjson::SUCCESS) return false;
      for (const auto m : obj) members.emplace_back(m.key, value_access::of(m.value));
      return true;
    }
    if (err != simdjson::NUMBER_ERROR) return false;
    // A number simdjson will not hold (more than 64 bits): JSON all the same.
    if (nesting(data) > max_depth) return false;
    fallback = nlohmann::json::parse(data, nullptr, false);
    if (fallback.is_discarded() || !fallback.is_object()) return false;
    // nlohmann_json keeps the last of repeated keys, so duplicates are invisible here.
    for (const auto& [k, v] : fallback.items()) members.emplace_back(k, value_access::of(v));
    return true;
  }

  // Keys are short and differ early: the first byte settles most comparisons
  // without a call to memcmp.
  static bool same_key(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && (a.empty() || (a.front() == b.front() && a == b));
  }

  const field_spec* declared(const event_spec* spec, std::string_view key) const {
    for (const auto& f : spec != nullptr ? spec->fields : dialect->envelope) {
      if (same_key(f.key, key)) return &f;
    }
    return nullptr;
  }

  // members -> fields: one entry per key (first position, last value), then
  // defaults. `keys_unique`: the caller knows no key repeats (the flat index
  // noted it), so none is looked for.
  void fields_from_members(const event_spec* spec, bool keys_unique = false) {
    fields.clear();
    fields.reserve(members.size());
    bool duplicates = false;
    const bool indexed = !keys_unique && members.size() > 32;  // avoid quadratic work on huge objects
    if (indexed) member_index.clear();
    for (const auto& [key, value] : members) {
      std::size_t at = fields.size();
      if (keys_unique) {
        // a new key: at stays at the end
      } else if (indexed) {
        const auto [it, inserted] = member_index.emplace(key, fields.size());
        if (!inserted) at = it->second;
      } else {
        for (std::size_t i = 0; i < fields.size(); ++i) {
          if (same_key(fields[i].key, key)) {
            at = i;
            break;
          }
        }
      }
      if (at == fields.size()) {
        field_view& f = fields.emplace_back();
        f.key = key;
        f.value = value;
        f.spec = declared(spec, key);
      } else {
        fields[at].value = value;
        duplicates = true;
      }
    }
    view.duplicate_keys = duplicates;
    if (spec == nullptr) return;
    for (const auto& f : spec->fields) {
      if (!f.default_value) continue;
      const bool present =
          std::any_of(fields.begin(), fields.end(), [&](const field_view& v) { return same_key(v.key, f.key); });
      if (!present) fields.push_back(field_view{f.key, value_access::of(*f.default_value), true, &f});
    }
  }

  // The fields of a flat frame decode() left pending (event_view::fields).
  std::span<const field_view> build_fields() override {
    if (fields_pending) {
      fields_pending = false;
      flat.values(members);
      fields_from_members(pending_spec, !flat.duplicates());
    }
    return fields;
  }

  const event_view& decode(const frame& f) {
    // The frame's views word by word: callers build a frame member by member,
    // and a 16-byte load of a view stored as two 8-byte words waits until both
    // stores are done (store forwarding fails; with the std::optional below,
    // most of this function's samples).
    const std::string_view data(f.data.data(), f.data.size());
    const std::string_view event_type(f.event_type.data(), f.event_type.size());
    fields_pending = false;
    // Member by member: a whole new event_view is written with `rep stos`, and
    // reading it back at once stalls (a few percent of the decode).
    view.kind = event_kind::plain_text;
    view.type = {};
    view.text = {};
    view.fields = field_list();
    view.spec = nullptr;
    view.json_object = false;
    view.duplicate_keys = false;
    view.raw = data;
    view.wire_type = event_type;
    view.offset = f.offset;
    fields.clear();

    const std::string& prefix = dialect->error_prefix;
    // spec/DECISIONS.md, code-error-prefix: the wire event type marks an error
    // frame; re-applying the prefix to data that has it changes nothing.
    if (!dialect->error_wire_event.empty() && event_type == dialect->error_wire_event) {
      view.kind = event_kind::error;
      view.text = data.starts_with(prefix) ? message_after(data) : data;
      return view;
    }
    // spec/DECISIONS.md, error-prefix: the exact bytes at the very start.
    if (!prefix.empty() && data.starts_with(prefix)) {
      view.kind = event_kind::error;
      view.text = message_after(data);
      return view;
    }
    bool indexed = false;
    if (parse_object(f, indexed)) {
      view.json_object = true;
      // The last `type` member counts, as with every repeated key. A view and
      // a flag, not a std::optional: the optional's flag, stored as a byte and
      // read back at once with its neighbours, stalled the store buffer (about
      // a third of this function's samples).
      bool typed = false;
      std::string_view type;
      if (indexed) {
        typed = flat.type_is_string();
        type = flat.type_text();
      } else {
        for (const auto& [key, value] : members) {
          if (key == "type") {
            typed = value.type() == json_type::string;
            type = value.as_string();
          }
        }
      }
      if (typed) {
        view.type = type;
        view.spec = types.find(view.type);
        view.kind = view.spec != nullptr ? event_kind::structured : event_kind::unknown;
        if (indexed) {
          // Built when first asked: a caller that reads the kind only never pays for them.
          view.duplicate_keys = flat.duplicates();
          fields_pending = true;
          pending_spec = view.spec;
          view.fields = field_list(*this);
        } else {
          fields_from_members(view.spec);
          view.fields = field_list(fields);
        }
        return view;
      }
    }
    // spec/DECISIONS.md, json-without-type: everything else is plain text, whole.
    view.kind = event_kind::plain_text;
    view.text = data;
    return view;
  }
};

decoder::decoder(const dialect_spec& d) : impl_(std::make_unique<impl>(d)) {}
decoder::~decoder() = default;
decoder::decoder(decoder&&) noexcept = default;
decoder& decoder::operator=(decoder&&) noexcept = default;

const event_view& decoder::decode(const frame& f) { return impl_->decode(f); }

const dialect_spec& decoder::dialect() const noexcept { return *impl_->dialect; }

event to_event(const event_view& v) {
  event e;
  e.kind = v.kind;
  e.raw = std::string(v.raw);
  if (v.kind == event_kind::structured || v.kind == event_kind::unknown) {
    e.type = std::string(v.type);
    e.fields = nlohmann::json::object();
    for (const auto& f : v.fields) {
      e.fields[std::string(f.key)] = f.value.to_json();
      if (f.defaulted) e.defaulted.emplace_back(f.key);
    }
  } else {
    e.text = std::string(v.text);
  }
  return e;
}

bool operator==(const event& a, const event& b) {
  return a.kind == b.kind && a.type == b.type && a.text == b.text && a.raw == b.raw && a.fields == b.fields;
}

nlohmann::ordered_json to_json(const event& e) {
  nlohmann::ordered_json j;
  j["kind"] = to_string(e.kind);
  if (e.kind == event_kind::structured || e.kind == event_kind::unknown) {
    j["type"] = e.type;
    j["fields"] = e.fields;
  } else {
    j["text"] = e.text;
  }
  j["raw"] = e.raw;
  return j;
}

ssec::result<event> event_from_json(const nlohmann::json& j) {
  const auto fail = [](std::string why) -> ssec::result<event> { return ssec::error{std::move(why)}; };
  if (!j.is_object()) return fail("a dialect event must be a JSON object");
  event e;
  const auto kind = j.find("kind");
  if (kind == j.end() || !kind->is_string()) return fail("missing string 'kind'");
  const std::string& k = kind->get_ref<const std::string&>();
  if (k == "structured") e.kind = event_kind::structured;
  else if (k == "unknown") e.kind = event_kind::unknown;
  else if (k == "plain_text") e.kind = event_kind::plain_text;
  else if (k == "error") e.kind = event_kind::error;
  else return fail("unknown kind '" + k + "' (expected structured, unknown, plain_text or error)");
  const bool typed = e.kind == event_kind::structured || e.kind == event_kind::unknown;
  for (const auto& [key, value] : j.items()) {
    if (key == "kind") continue;
    if (key == "raw") {
      if (!value.is_string()) return fail("'raw' must be a string");
      e.raw = value.get<std::string>();
    } else if (typed && key == "type") {
      if (!value.is_string()) return fail("'type' must be a string");
      e.type = value.get<std::string>();
    } else if (typed && key == "fields") {
      if (!value.is_object()) return fail("'fields' must be an object");
      e.fields = value;
    } else if (!typed && key == "text") {
      if (!value.is_string()) return fail("'text' must be a string");
      e.text = value.get<std::string>();
    } else {
      return fail("unexpected key '" + key + "' for kind " + k);
    }
  }
  if (!j.contains("raw")) return fail("missing 'raw'");
  if (typed && (!j.contains("type") || !j.contains("fields"))) return fail("kind " + k + " needs 'type' and 'fields'");
  if (!typed && !j.contains("text")) return fail("kind " + k + " needs 'text'");
  return e;
}

namespace {
struct collect {
  std::vector<event>* out;
  action operator()(const event_view& ev, const sse::event_view&) {
    out->push_back(to_event(ev));
    return action::proceed;
  }
};
}  // namespace

decoded_stream decode_stream(const dialect_spec& d, std::span<const std::string_view> chunks, limits lim) {
  decoded_stream out;
  stream_decoder<collect> visitor(d, collect{&out.events});
  parser<stream_decoder<collect>> p(visitor, lim);
  for (const auto chunk : chunks) {
    if (is_fatal(p.feed(chunk).status)) break;
  }
  out.status = p.error() != errc::ok ? p.error() : p.finish();
  out.error_offset = p.error_offset();
  return out;
}

decoded_stream decode_stream(const dialect_spec& d, std::string_view bytes, limits lim) {
  const std::string_view one[] = {bytes};
  return decode_stream(d, std::span<const std::string_view>(one), lim);
}

}  // namespace sse::dialect
