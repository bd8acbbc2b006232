// SPDX-License-Identifier: MIT
// The dialect decoder. JSON is parsed with simdjson's DOM on the hot path:
// nlohmann_json's parse alone is about 4x slower than this whole decoder
// (tools/bench/dialect/README.md). nlohmann_json holds owned values and
// parses the rare numbers simdjson refuses (integers beyond 64 bits).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <unordered_map>

#include <simdjson.h>

#include "sse/dialect/decoder.hpp"
#include "sse/utf8.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sse::dialect {

namespace {

using element = simdjson::dom::element;
static_assert(sizeof(element) <= 16 && std::is_trivially_copyable_v<element>,
              "value_view stores a simdjson element in 16 bytes");

// Deepest nesting we accept as JSON (spec/DECISIONS.md, json-definition);
// simdjson's own default limit.
constexpr std::size_t max_depth = 1024;

bool integral(double d) noexcept { return std::isfinite(d) && std::floor(d) == d; }

// The scalar an element holds (its type is already known), or T{}.
template <class T>
T scalar(element e) noexcept {
  T v{};
  if (e.get(v) != simdjson::SUCCESS) return T{};
  return v;
}

// JSON whitespace, as RFC 8259 defines it.
bool json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

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

nlohmann::json convert(element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      auto out = nlohmann::json::array();
      simdjson::dom::array arr;
      if (e.get(arr) == simdjson::SUCCESS) {
        for (element child : arr) out.push_back(convert(child));
      }
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      auto out = nlohmann::json::object();
      simdjson::dom::object obj;
      if (e.get(obj) == simdjson::SUCCESS) {
        // Assignment keeps the last of repeated keys, as JSON.parse does.
        for (const auto member : obj) out[std::string(member.key)] = convert(member.value);
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: return scalar<std::int64_t>(e);
    case simdjson::dom::element_type::UINT64: return scalar<std::uint64_t>(e);
    case simdjson::dom::element_type::DOUBLE: return scalar<double>(e);
    case simdjson::dom::element_type::STRING: return std::string(scalar<std::string_view>(e));
    case simdjson::dom::element_type::BOOL: return scalar<bool>(e);
    case simdjson::dom::element_type::NULL_VALUE: return nullptr;
  }
  return nullptr;
}

}  // namespace

// Builds value_views; a friend of value_view.
struct value_access {
  static value_view of(element e) {
    value_view v;
    v.origin_ = value_view::origin::simdjson;
    std::memcpy(v.node_.data(), &e, sizeof e);
    switch (e.type()) {
      case simdjson::dom::element_type::ARRAY: v.type_ = json_type::array; break;
      case simdjson::dom::element_type::OBJECT: v.type_ = json_type::object; break;
      case simdjson::dom::element_type::INT64: {
        v.type_ = json_type::number;
        v.number_ = static_cast<double>(scalar<std::int64_t>(e));
        v.integral_ = true;
        break;
      }
      case simdjson::dom::element_type::UINT64: {
        v.type_ = json_type::number;
        v.number_ = static_cast<double>(scalar<std::uint64_t>(e));
        v.integral_ = true;
        break;
      }
      case simdjson::dom::element_type::DOUBLE: {
        v.type_ = json_type::number;
        v.number_ = scalar<double>(e);
        v.integral_ = integral(v.number_);
        break;
      }
      case simdjson::dom::element_type::STRING:
        v.type_ = json_type::string;
        v.string_ = scalar<std::string_view>(e);
        break;
      case simdjson::dom::element_type::BOOL:
        v.type_ = json_type::boolean;
        v.boolean_ = scalar<bool>(e);
        break;
      case simdjson::dom::element_type::NULL_VALUE: v.type_ = json_type::null; break;
    }
    return v;
  }

  static value_view of(const nlohmann::json& j) {
    value_view v;
    v.origin_ = value_view::origin::json;
    const nlohmann::json* p = &j;
    // The pointer's own bytes are what the view stores: sizeof of the pointer is meant.
    std::memcpy(v.node_.data(), &p, sizeof p);  // NOLINT(bugprone-sizeof-expression)
    switch (j.type()) {
      case nlohmann::json::value_t::array: v.type_ = json_type::array; break;
      case nlohmann::json::value_t::object: v.type_ = json_type::object; break;
      case nlohmann::json::value_t::number_integer:
      case nlohmann::json::value_t::number_unsigned:
        v.type_ = json_type::number;
        v.number_ = j.get<double>();
        v.integral_ = true;
        break;
      case nlohmann::json::value_t::number_float:
        v.type_ = json_type::number;
        v.number_ = j.get<double>();
        v.integral_ = integral(v.number_);
        break;
      case nlohmann::json::value_t::string:
        v.type_ = json_type::string;
        v.string_ = j.get_ref<const std::string&>();
        break;
      case nlohmann::json::value_t::boolean:
        v.type_ = json_type::boolean;
        v.boolean_ = j.get<bool>();
        break;
      default: v.type_ = json_type::null; break;
    }
    return v;
  }

  // A scalar read without a DOM (the flat-object path below), written into a
  // default view in place: its members are stored one by one where the view
  // lives, never into a temporary copied as a whole (a copy that reads back
  // bytes just stored one at a time stalls the store buffer, and that was a
  // quarter of the decoder's time). It has no node (origin none, as a default
  // value_view): its JSON is made from the view's own members, and an integer
  // is kept exactly in node_ (bytes 0-7: the int64 or uint64, as simdjson
  // would hold it; byte 8: 1 for uint64).
  static void set_string(value_view& v, std::string_view s) {
    v.type_ = json_type::string;
    v.string_ = s;
  }
  static void set_integer(value_view& v, std::uint64_t magnitude, bool negative) {
    v.type_ = json_type::number;
    v.integral_ = true;
    const bool is_unsigned = !negative && magnitude > static_cast<std::uint64_t>(INT64_MAX);
    if (is_unsigned) {
      v.number_ = static_cast<double>(magnitude);
      std::memcpy(v.node_.data(), &magnitude, sizeof magnitude);
      v.node_[8] = 1;
    } else {
      const std::int64_t i = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
      v.number_ = static_cast<double>(i);
      std::memcpy(v.node_.data(), &i, sizeof i);
    }
  }
  static void set_boolean(value_view& v, bool b) {
    v.type_ = json_type::boolean;
    v.boolean_ = b;
  }
  // The JSON of a view without a node: a scalar above, or a default view (null).
  static nlohmann::json scalar_json(const value_view& v) {
    switch (v.type_) {
      case json_type::string: return std::string(v.string_);
      case json_type::boolean: return v.boolean_;
      case json_type::number: {
        if (v.node_[8] == 1) {
          std::uint64_t u = 0;
          std::memcpy(&u, v.node_.data(), sizeof u);
          return u;
        }
        std::int64_t i = 0;
        std::memcpy(&i, v.node_.data(), sizeof i);
        return i;
      }
      default: return nullptr;
    }
  }

  static element simd(const value_view& v) {
    element e;
    std::memcpy(&e, v.node_.data(), sizeof e);
    return e;
  }
  static const nlohmann::json* json(const value_view& v) {
    const nlohmann::json* p = nullptr;
    std::memcpy(&p, v.node_.data(), sizeof p);  // NOLINT(bugprone-sizeof-expression): the pointer's bytes
    return p;
  }
  static bool from_simdjson(const value_view& v) { return v.origin_ == value_view::origin::simdjson; }
  static bool from_json(const value_view& v) { return v.origin_ == value_view::origin::json; }
};

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

// Most frames of a stream are flat objects: every member a string, an
// integer, true, false or null (`{"type":"message_chunk","content":"Hi",...}`).
// Such a frame is read here without a DOM, in two steps: index() checks the
// whole object in one pass and notes where each member's key and value are
// (and the type, and whether a key repeats), which is all the kind needs;
// values() reads the values from those places when the fields are asked.
// The members come out as the DOM path would give them, strings as views into
// the frame (or, when escaped, into a buffer of the reader). Anything else,
// or anything in doubt (nested values, fractions and exponents, -0, integers
// beyond 64 bits, \u escapes, escaped keys, malformed text) makes index()
// return false, and the DOM path decides: so both paths agree by
// construction, and this one only ever says yes to what simdjson reads the
// same way.
class flat_object_reader {
 public:
  struct member_at {
    std::string_view key;
    const char* value;              // the value's first byte, in the frame
    std::string_view plain_string;  // a string value without escapes: its body (values() needs no second look)
    bool is_plain_string = false;
  };
  using members_t = std::vector<std::pair<std::string_view, value_view>>;

  // Checks that `data` is a flat object and notes its members; false
  // otherwise. `data_is_utf8`: the caller vouches for the UTF-8 (else it is
  // checked when a string held a high byte). The views of type() live until
  // the next index().
  bool index(std::string_view data, bool data_is_utf8) {
    members_.clear();
    duplicates_ = false;
    type_is_string_ = false;
    data_ = data;
    std::uint64_t seen_keys = 0;  // one bit per key hash: most keys need no comparison
    const char* p = data.data();
    const char* const end = p + data.size();
    p = skip_space(p, end);
    if (p == end || *p != '{') return false;
    p = skip_space(p + 1, end);
    if (p != end && *p == '}') {
      p = skip_space(p + 1, end);
      return p == end && utf8_ok(data, data_is_utf8);
    }
    while (true) {
      if (p == end || *p != '"') return false;
      std::string_view key;
      p = read_string<string_mode::key>(p + 1, end, key, type_escaped_);
      if (p == nullptr) return false;
      if (end - p >= 2 && *p == ':' && static_cast<unsigned char>(p[1]) > ' ') {
        ++p;  // compact JSON: the value right after the colon
      } else {
        if ((p = after(':', p, end)) == nullptr) return false;
        p = skip_space(p, end);
        if (p == end) return false;
      }
      note_key(key, seen_keys);
      members_.push_back(member_at{key, p, {}, false});
      if (is_type_key(key)) {
        // The last `type` counts: its value is read now (unescaped apart from
        // the other values), so that the kind needs no second look.
        type_is_string_ = *p == '"';
        if (type_is_string_) {
          type_escaped_.reset();
          p = read_string<string_mode::unescape>(p + 1, end, type_text_, type_escaped_);
        } else {
          p = read_scalar<string_mode::check>(p, end, unused_value_, type_escaped_);
        }
      } else if (*p == '"') {
        std::string_view body;
        p = read_string<string_mode::check>(p + 1, end, body, type_escaped_);
        members_.back().plain_string = body;
        members_.back().is_plain_string = body.data() != nullptr;
      } else if (const char* after_digits = plain_integer_end(p, end)) {
        p = after_digits;
      } else {
        p = read_scalar<string_mode::check>(p, end, unused_value_, type_escaped_);
      }
      if (p == nullptr) return false;
      if (end - p >= 2 && *p == ',' && p[1] == '"') {
        ++p;  // compact JSON: the next key right after the comma
        continue;
      }
      if (const char* next = after(',', p, end)) {
        p = skip_space(next, end);
        continue;
      }
      p = skip_space(p, end);
      if (p == end || *p != '}') return false;
      break;
    }
    p = skip_space(p + 1, end);
    return p == end && utf8_ok(data, data_is_utf8);
  }

  // After a true index(): some key is repeated.
  bool duplicates() const noexcept { return duplicates_; }

  // After a true index(): whether the last `type` member's value is a
  // string, and that string.
  bool type_is_string() const noexcept { return type_is_string_; }
  std::string_view type_text() const noexcept { return type_text_; }

  // After a true index(): the members in document order into `out`
  // (cleared). Their views live until the next index() or values().
  void values(members_t& out) {
    out.clear();
    escaped_.reset();
    const char* const end = data_.data() + data_.size();
    for (const auto& m : members_) {
      // Stored in place: see value_access::set_string.
      out.emplace_back(m.key, value_view{});
      if (m.is_plain_string) {
        value_access::set_string(out.back().second, m.plain_string);
      } else {
        read_scalar<string_mode::unescape>(m.value, end, out.back().second, escaped_);
      }
    }
  }

 private:
  // What read_string does with a string: a key (no escapes: those are the
  // DOM's), a value only checked, or a value unescaped.
  enum class string_mode : std::uint8_t { key, check, unescape };

  // Unescaped strings of one frame: sized once per frame to the frame (a
  // string never grows by unescaping), so earlier views into it stay valid.
  struct escape_buffer {
    std::string bytes;
    std::size_t used = 0;
    bool ready = false;
    void reset() noexcept {
      used = 0;
      ready = false;
    }
  };

  // Every JSON space is at most ' ', so one comparison passes most bytes.
  static const char* skip_space(const char* p, const char* end) noexcept {
    while (p != end && static_cast<unsigned char>(*p) <= ' ' && json_space(*p)) ++p;
    return p;
  }

  // The position after `c` at p, JSON space before it skipped, or nullptr.
  // Compact JSON has no space there: one comparison.
  static const char* after(char c, const char* p, const char* end) noexcept {
    if (p != end && *p == c) return p + 1;
    p = skip_space(p, end);
    return p != end && *p == c ? p + 1 : nullptr;
  }

  static bool is_type_key(std::string_view key) noexcept {
    return key.size() == 4 && std::memcmp(key.data(), "type", 4) == 0;
  }

  // A repeated key sets duplicates_; a key is compared with the earlier ones
  // only when its hash bit was set already.
  void note_key(std::string_view key, std::uint64_t& seen) noexcept {
    const std::size_t hash = key.empty() ? 0
                                         : key.size() * 7 + static_cast<unsigned char>(key.front()) +
                                               3u * static_cast<unsigned char>(key.back());
    const std::uint64_t bit = std::uint64_t{1} << (hash & 63);
    if ((seen & bit) != 0 && !duplicates_) {
      duplicates_ = std::any_of(members_.begin(), members_.end(), [&](const member_at& m) { return m.key == key; });
    }
    seen |= bit;
  }

  // The UTF-8 the DOM path validates: frames from the wire parser are valid
  // already; other callers' bytes are checked once, whole (its ASCII fast
  // path costs less than noting high bytes in every string of every frame).
  static bool utf8_ok(std::string_view data, bool data_is_utf8) noexcept {
    return data_is_utf8 || sse::utf8::is_valid(data);
  }

  // The first '"', '\\' or control character (< 0x20) in [p, end), or end.
  static const char* string_stop(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control_max = _mm_set1_epi8(0x1F);
    while (end - p >= 16) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, control_max), control_max);
      const auto stop = static_cast<unsigned>(_mm_movemask_epi8(
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)), control)));
      if (stop != 0) return p + __builtin_ctz(stop);
      p += 16;
    }
#endif
    for (; p != end; ++p) {
      const auto c = static_cast<unsigned char>(*p);
      if (c == '"' || c == '\\' || c < 0x20) return p;
    }
    return p;
  }

  // The end of the usual number, a non-negative integer of at most 19 digits
  // (one that always fits), at `p`; nullptr for anything else, which
  // read_scalar then judges. Inline: a call per number was a tenth of the
  // index's instructions.
  static const char* plain_integer_end(const char* p, const char* end) noexcept {
    if (*p < '0' || *p > '9') return nullptr;
    const char* q = p + 1;
    if (*p != '0') {
      while (q != end && *q >= '0' && *q <= '9') ++q;  // a leading zero stands alone
    }
    if (q - p > 19 || (q != end && (*q == '.' || *q == 'e' || *q == 'E'))) return nullptr;
    return q;
  }

  // The character an escape (the letter after '\\') stands for, or 0 if it is
  // \u (surrogates are the DOM's business) or not an escape.
  static char unescaped(char letter) noexcept {
    switch (letter) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      default: return 0;
    }
  }

  // A string's body from `p` (just past its opening quote): the position
  // after its closing quote, or nullptr. `out` is set to the body; in mode
  // check, only when it holds no escape (else it is left as it was).
  template <string_mode mode>
  const char* read_string(const char* p, const char* end, std::string_view& out, escape_buffer& buffer) {
    const char* const start = p;
    p = string_stop(p, end);
    if (p == end) return nullptr;
    if (*p == '"') {
      out = std::string_view(start, static_cast<std::size_t>(p - start));
      return p + 1;
    }
    if constexpr (mode == string_mode::key) {
      return nullptr;
    } else if constexpr (mode == string_mode::check) {
      while (true) {
        if (*p != '\\' || end - p < 2 || unescaped(p[1]) == 0) return nullptr;
        p = string_stop(p + 2, end);
        if (p == end) return nullptr;
        if (*p == '"') return p + 1;
      }
    } else {
      if (!buffer.ready) {
        if (buffer.bytes.size() < static_cast<std::size_t>(end - start))
          buffer.bytes.resize(static_cast<std::size_t>(end - start));
        buffer.ready = true;
      }
      char* const first = buffer.bytes.data() + buffer.used;
      char* w = first;
      const char* segment = start;
      while (true) {
        std::memcpy(w, segment, static_cast<std::size_t>(p - segment));
        w += p - segment;
        if (*p == '"') break;
        const char c = *p == '\\' && end - p >= 2 ? unescaped(p[1]) : 0;
        if (c == 0) return nullptr;
        *w++ = c;
        segment = p + 2;
        p = string_stop(segment, end);
        if (p == end) return nullptr;
      }
      out = std::string_view(first, static_cast<std::size_t>(w - first));
      buffer.used += static_cast<std::size_t>(w - first);
      return p + 1;
    }
  }

  // A string, an integer, true, false or null at `p`: the position after it,
  // or nullptr. `out` is set unless mode is check (the index: nothing stored).
  template <string_mode mode>
  const char* read_scalar(const char* p, const char* end, value_view& out, escape_buffer& buffer) {
    const auto literal = [&](std::string_view word) {
      return static_cast<std::size_t>(end - p) >= word.size() && std::string_view(p, word.size()) == word;
    };
    switch (*p) {
      case '"': {
        std::string_view s;
        p = read_string<mode>(p + 1, end, s, buffer);
        if constexpr (mode != string_mode::check) value_access::set_string(out, s);
        return p;
      }
      case 't':
        if (!literal("true")) return nullptr;
        if constexpr (mode != string_mode::check) value_access::set_boolean(out, true);
        return p + 4;
      case 'f':
        if (!literal("false")) return nullptr;
        if constexpr (mode != string_mode::check) value_access::set_boolean(out, false);
        return p + 5;
      case 'n':
        if (!literal("null")) return nullptr;
        return p + 4;
      default: break;
    }
    const bool negative = *p == '-';
    if (negative) ++p;
    if (p == end || *p < '0' || *p > '9') return nullptr;
    const char* const digits = p;
    if (*p == '0') {
      ++p;  // a leading zero stands alone
    } else {
      while (p != end && *p >= '0' && *p <= '9') ++p;
    }
    if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return nullptr;  // a fraction or exponent
    // 19 digits always fit in 64 bits and 21 never do (beyond 64 bits: the DOM
    // path's fallback). So the index reads the value only when it may not
    // fit: a 20th digit, or a sign.
    constexpr std::ptrdiff_t always_fit = 19;
    const std::ptrdiff_t count = p - digits;
    if (count > always_fit + 1) return nullptr;
    if constexpr (mode == string_mode::check) {
      if (!negative && count <= always_fit) return p;
    }
    std::uint64_t magnitude = 0;
    const char* const unchecked_end = digits + std::min(count, always_fit);
    for (const char* d = digits; d != unchecked_end; ++d)
      magnitude = magnitude * 10 + static_cast<std::uint64_t>(*d - '0');
    if (unchecked_end != p) {
      const auto d = static_cast<std::uint64_t>(*unchecked_end - '0');
      if (magnitude > (UINT64_MAX - d) / 10) return nullptr;
      magnitude = magnitude * 10 + d;
    }
    if (negative && (magnitude == 0 || magnitude > static_cast<std::uint64_t>(INT64_MAX) + 1)) return nullptr;
    if constexpr (mode != string_mode::check) value_access::set_integer(out, magnitude, negative);
    return p;
  }

  std::string_view data_;
  std::vector<member_at> members_;
  std::string_view type_text_;  // the last `type` member's value, when a string
  bool type_is_string_ = false;
  bool duplicates_ = false;
  escape_buffer escaped_;       // values()
  escape_buffer type_escaped_;  // type(), kept apart so that values() leaves it valid
  value_view unused_value_;     // what index() does not store
};

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
