// SPDX-License-Identifier: MIT
// The decoder's reader of flat JSON objects (every member a string, an integer, true, false or null) without a DOM.
// Part of decoder.cpp's unit, included there only: its unnamed namespace lets the hot path inline as one unit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sse/dialect/decoder.hpp"
#include "sse/utf8.hpp"
#include "value_access.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sse::dialect {

namespace {

// JSON whitespace, as RFC 8259 defines it.
bool json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

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

}  // namespace

}  // namespace sse::dialect
