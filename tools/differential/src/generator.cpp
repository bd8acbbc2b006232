// SPDX-License-Identifier: MIT
#include "ssec/differential/generator.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <nlohmann/json.hpp>

namespace ssec::differential {

namespace conf = ssec::conformance;
using namespace std::string_view_literals;

std::vector<std::string_view> chunks_of(const sample& s) {
  std::vector<std::string_view> out;
  const std::string_view all(s.bytes);
  std::size_t at = 0;
  for (const std::size_t cut : s.cuts) {
    out.push_back(all.substr(at, cut - at));
    at = cut;
  }
  out.push_back(all.substr(at));
  return out;
}

sample sample_from_chunks(const std::vector<std::string>& chunks) {
  sample s;
  for (const auto& c : chunks) {
    if (c.empty()) continue;
    if (!s.bytes.empty()) s.cuts.push_back(s.bytes.size());
    s.bytes += c;
  }
  return s;
}

namespace {

template <std::size_t N>
std::string_view pick(rng& r, const std::array<std::string_view, N>& items) {
  return items[r.below(N)];
}

// The catalogs of the WHATWG grammar's corners.
constexpr std::array<std::string_view, 16> field_names{"data", "data",  "data",  "data",    "event", "event",
                                                       "id",   "id",    "retry", "retry",   "Data",  "DATA",
                                                       "dat",  "datas", "foo",   "x-custom"};
constexpr std::array<std::string_view, 7> separators{":", ": ", ": ", ":  ", "", ":\t", "::"};
constexpr std::array<std::string_view, 22> plain_values{"a",
                                                        "b",
                                                        "hello",
                                                        "x y",
                                                        "",
                                                        " ",
                                                        "  a",
                                                        "a ",
                                                        "{\"k\":1}",
                                                        "\xC3\xA9",
                                                        "\xE2\x82\xAC",
                                                        "\xF0\x9F\x98\x80",
                                                        "\xE2\x80\xA8",
                                                        "\xC2\x85",
                                                        "\xEF\xBB\xBF"
                                                        "a",
                                                        "a\0b"sv,
                                                        "\0"sv,
                                                        "\x0B\x0C",
                                                        "\x1C\x1D\x1E",
                                                        ":",
                                                        "data: x",
                                                        "\t"};
constexpr std::array<std::string_view, 12> bad_utf8{"\xFF",         "\xC3",     "\xE2\x82",     "\xF0\x9F\x98",
                                                    "\xED\xA0\x80", "\xC0\xAF", "\x80",         "\xF4\x90\x80\x80",
                                                    "\xFE\xFF",     "a\xC3",    "\xE2\x28\xA1", "\xF8\x88\x80\x80\x80"};
constexpr std::array<std::string_view, 20> retry_values{"0",
                                                        "1000",
                                                        "3000",
                                                        "",
                                                        " 5",
                                                        "5 ",
                                                        "-1",
                                                        "+5",
                                                        "1e3",
                                                        "3.5",
                                                        "00012",
                                                        "2147483647",
                                                        "2147483648",
                                                        "4294967296",
                                                        "9007199254740991",
                                                        "9007199254740993",
                                                        "18446744073709551615",
                                                        "18446744073709551616",
                                                        "99999999999999999999999999999999",
                                                        "\xD9\xA3"};
constexpr std::array<std::string_view, 10> id_values{"1", "42",  "",         "a\0b"sv, "\0"sv,
                                                     "x", " id", "\xC3\xA9", "7\0"sv,  "abc"};
constexpr std::array<std::string_view, 9> type_values{"message", "add",    "",   "ping",        "Message",
                                                      "update",  "x\0y"sv, " e", "\xE2\x9C\x93"};
constexpr std::array<std::string_view, 3> line_ends{"\n", "\r\n", "\r"};
constexpr std::array<std::size_t, 8> long_sizes{1023, 1024, 4095, 4096, 4097, 65535, 65536, 65537};

constexpr std::string_view bom = "\xEF\xBB\xBF";

std::string value_for(std::string_view name, rng& r) {
  if (r.chance(1, 12)) return std::string(pick(r, bad_utf8)) + (r.chance(1, 2) ? "z" : "");
  if (name == "retry") return std::string(pick(r, retry_values));
  if (name == "id") return std::string(pick(r, id_values));
  if (name == "event") return std::string(pick(r, type_values));
  if (r.chance(1, 40)) return std::string(long_sizes[r.below(long_sizes.size())], 'x');
  return std::string(pick(r, plain_values));
}

// A stream-wide line-end style: one kind, or a mix per line.
struct line_style {
  int kind = 0;  // 0..2 one of line_ends, 3 mixed
  std::string_view next(rng& r) const { return kind < 3 ? line_ends[kind] : pick(r, line_ends); }
};

}  // namespace

generator::generator(conf::layer layer, const sse::dialect::dialect_spec* dialect, std::vector<std::string> seeds,
                     std::uint64_t seed)
    : layer_(layer), dialect_(dialect), seeds_(std::move(seeds)), seed_(seed) {}

std::string generator::wire_stream(rng& r) const {
  std::string out;
  if (r.chance(1, 6)) out += bom;
  if (r.chance(1, 30)) out += bom;  // a second BOM is data
  const line_style style{static_cast<int>(r.below(4))};
  const std::size_t blocks = 1 + r.below(4);
  for (std::size_t b = 0; b < blocks; ++b) {
    if (r.chance(1, 8)) out += style.next(r);  // blank lines before the block
    const std::size_t lines = 1 + r.below(4);
    for (std::size_t l = 0; l < lines; ++l) {
      if (r.chance(1, 8)) {
        out += ":";
        out += value_for("comment", r);
      } else {
        const std::string_view name = pick(r, field_names);
        out += name;
        if (r.chance(1, 40)) out += std::string(1, '\0');  // NUL in a field name
        out += pick(r, separators);
        out += value_for(name, r);
      }
      out += style.next(r);
    }
    const std::size_t blanks = r.chance(1, 6) ? r.below(4) : 1;  // blank-line runs, or none
    for (std::size_t i = 0; i < blanks; ++i) out += style.next(r);
  }
  if (r.chance(1, 6)) out += "data: tail";  // an unterminated last line
  return out;
}

namespace {

nlohmann::json value_of_type(const sse::dialect::field_spec& f, rng& r, bool wrong) {
  using ts = sse::dialect::type_set;
  std::vector<std::uint8_t> options;
  for (const std::uint8_t bit : {ts::null, ts::boolean, ts::integer, ts::number, ts::string, ts::array, ts::object}) {
    if (((f.types.bits & bit) != 0) != wrong) options.push_back(bit);
  }
  if (options.empty()) options.push_back(ts::string);
  switch (options[r.below(options.size())]) {
    case ts::null: return nullptr;
    case ts::boolean: return r.chance(1, 2);
    case ts::integer: return static_cast<std::int64_t>(r.below(5)) - 1;
    case ts::number: return r.chance(1, 2) ? 1.5 : 0.0;
    case ts::array: return nlohmann::json::array({"a", 1});
    case ts::object: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& sub : f.fields) {
        if (sub.required || r.chance(1, 2)) o[sub.key] = value_of_type(sub, r, false);
      }
      return o;
    }
    default: {
      static constexpr std::array<std::string_view, 8> strings{"hi", "", "a\nb", "\xC3\xA9", "x\"y", "\\", " ", "t1"};
      return std::string(pick(r, strings));
    }
  }
}

}  // namespace

std::string generator::dialect_stream(rng& r) const {
  std::string out;
  if (r.chance(1, 10)) out += bom;
  const line_style style{r.chance(3, 4) ? 0 : static_cast<int>(r.below(4))};
  const std::size_t frames = 1 + r.below(4);
  for (std::size_t f = 0; f < frames; ++f) {
    std::string data;
    std::string wire_type;
    const std::size_t shape = r.below(20);
    if (shape < 13 && !dialect_->events.empty()) {  // a catalog event, maybe with odd fields
      const auto& spec = dialect_->events[r.below(dialect_->events.size())];
      nlohmann::json o = nlohmann::json::object();
      o["type"] = spec.type;
      for (const auto& field : spec.fields) {
        if (field.key == "type") continue;
        if (!field.required && r.chance(1, 2)) continue;
        if (field.required && r.chance(1, 12)) continue;  // a missing required field
        std::string key = field.key;
        if (r.chance(1, 20) && !key.empty()) key[0] = static_cast<char>(key[0] ^ 0x20);  // wrong casing
        o[key] = value_of_type(field, r, r.chance(1, 10));
      }
      if (r.chance(1, 8)) o["x_extra"] = "e";
      data = o.dump();
      if (r.chance(1, 20)) data = "{\"type\":\"" + spec.type + "\"," + data.substr(1);  // duplicate keys
      if (r.chance(1, 6)) wire_type = spec.type;
    } else if (shape < 15) {  // an unknown or new event type
      nlohmann::json o{{"type", r.chance(1, 2) ? "new_type" : "future_event_v2"}, {"content", "c"}};
      data = o.dump();
    } else if (shape < 17) {  // plain text, or JSON that is no typed object
      static constexpr std::array<std::string_view, 8> texts{"hello", "[1,2]", "{\"no_type\":1}", "{\"type\":3}",
                                                             "",      "null",  "{bad json",       "\xC3\xA9"};
      data = pick(r, texts);
    } else if (!dialect_->error_prefix.empty() && shape < 19) {  // an error frame
      data = dialect_->error_prefix + (r.chance(1, 2) ? "boom" : "");
      if (!dialect_->error_wire_event.empty() && r.chance(1, 2)) wire_type = dialect_->error_wire_event;
    } else {
      data = "[DONE]";
    }
    if (r.chance(1, 15)) out += ": keep-alive" + std::string(style.next(r));
    if (r.chance(1, 10)) out += "id: " + std::to_string(f) + std::string(style.next(r));
    if (!wire_type.empty() || r.chance(1, 20))
      out += "event: " + (wire_type.empty() ? "other" : wire_type) + std::string(style.next(r));
    // The data, on one line or over several (multi-line JSON).
    std::size_t at = 0;
    const bool split = r.chance(1, 8) && data.size() > 2;
    do {
      const std::size_t n = split ? std::min(data.size() - at, 1 + r.below(data.size())) : data.size() - at;
      out += r.chance(1, 10) ? "data:" : "data: ";
      out += data.substr(at, n);
      out += style.next(r);
      at += n;
    } while (at < data.size());
    out += style.next(r);
  }
  return out;
}

std::string generator::mutate(rng& r) const {
  std::string s = seeds_[r.below(seeds_.size())];
  static constexpr std::array<std::string_view, 16> tokens{
      "\r",  "\n",     "\r\n",   "\0"sv, "\xEF\xBB\xBF", ":",        " ",    "data:",
      "id:", "retry:", "event:", "\xFF", "\xC3",         "\xE2\x82", "\n\n", "\xC3\xA9"};
  const std::size_t steps = 1 + r.below(4);
  for (std::size_t i = 0; i < steps; ++i) {
    const std::size_t at = r.below(s.size() + 1);
    switch (r.below(7)) {
      case 0:  // insert a token
        s.insert(at, pick(r, tokens));
        break;
      case 1:  // delete a range
        if (!s.empty()) s.erase(std::min(at, s.size() - 1), 1 + r.below(8));
        break;
      case 2:  // replace one byte
        if (!s.empty()) s[std::min(at, s.size() - 1)] = static_cast<char>(r.below(256));
        break;
      case 3:  // duplicate a range
        if (!s.empty()) s.insert(at, s.substr(r.below(s.size()), 1 + r.below(16)));
        break;
      case 4: {  // one line-end style for the whole stream
        const std::string_view to = pick(r, line_ends);
        std::string t;
        for (std::size_t k = 0; k < s.size(); ++k) {
          if (s[k] == '\r' && k + 1 < s.size() && s[k + 1] == '\n') ++k;
          if (s[k] == '\r' || s[k] == '\n') t += to;
          else t += s[k];
        }
        s = std::move(t);
        break;
      }
      case 5:  // splice another seed in
        s.insert(at, seeds_[r.below(seeds_.size())].substr(0, 256));
        break;
      default:  // a field line
        s.insert(at, std::string(pick(r, field_names)) + ":" + value_for("data", r) + "\n");
        break;
    }
  }
  if (s.size() > 8192) s.resize(8192);
  return s;
}

std::vector<std::size_t> choose_cuts(std::string_view bytes, rng& r) {
  std::vector<std::size_t> cuts;
  if (bytes.size() < 2) return cuts;
  const std::size_t how = r.below(20);
  if (how < 2) return cuts;               // whole
  if (how < 5 && bytes.size() <= 4096) {  // one byte per chunk
    for (std::size_t i = 1; i < bytes.size(); ++i) cuts.push_back(i);
    return cuts;
  }
  std::set<std::size_t> chosen;
  if (how < 13) {  // where parsers go wrong
    std::vector<std::size_t> interesting;
    for (std::size_t i = 1; i < bytes.size(); ++i) {
      const auto prev = static_cast<unsigned char>(bytes[i - 1]);
      const auto here = static_cast<unsigned char>(bytes[i]);
      if (prev == '\r' || (here & 0xC0) == 0x80 || prev == ':' || here == ':' || (i <= 3 && prev == 0xEF) ||
          here == '\n' || here == 0) {
        interesting.push_back(i);
      }
    }
    const std::size_t n = interesting.empty() ? 0 : 1 + r.below(std::min<std::size_t>(interesting.size(), 12));
    for (std::size_t i = 0; i < n; ++i) chosen.insert(interesting[r.below(interesting.size())]);
  }
  // Random cuts (alone, or on top of the interesting ones): mostly short chunks.
  std::size_t at = 0;
  const bool random_cuts = how >= 13 || r.chance(1, 3);
  while (random_cuts) {
    const std::size_t span = r.chance(1, 2) ? 4 : r.chance(3, 4) ? 64 : 4096;
    at += 1 + r.below(span);
    if (at >= bytes.size()) break;
    chosen.insert(at);
  }
  cuts.assign(chosen.begin(), chosen.end());
  return cuts;
}

sample generator::make(std::uint64_t index) const {
  rng r(seed_ ^ (index * 0xD6E8FEB86659FD93ULL) ^ 0x5EED);
  r.next();
  sample s;
  const bool mutation = !seeds_.empty() && r.chance(1, 3);
  if (mutation) {
    s.bytes = mutate(r);
    s.origin = "mutation";
  } else if (layer_ != conf::layer::wire && dialect_ != nullptr) {
    s.bytes = dialect_stream(r);
    s.origin = "dialect";
  } else {
    s.bytes = wire_stream(r);
    s.origin = "grammar";
  }
  s.cuts = choose_cuts(s.bytes, r);
  return s;
}

}  // namespace ssec::differential
