// SPDX-License-Identifier: MIT
// The decoder's fast paths read what the general ones read: flat objects without
// a DOM, fields built when first asked, and its own table of the dialect's types.
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "decoder_test_support.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/decoder.hpp"

namespace {

using decoder_test_support::builtin;
using decoder_test_support::dialect;
using nlohmann::json;
using sse::dialect::event;
using sse::dialect::event_kind;

// ---------------------------------------------------------------------------
// Flat objects (every member a string, an integer, true, false or null) are
// read without a DOM; everything else goes through simdjson. Both must give
// what a JSON parser gives: the members, their values and their number class.
// The expectations come from nlohmann_json, an independent parser, on frames
// of an undeclared type (so no defaults are added).

// The fields of `data` decoded as an unknown agent event, as JSON text, or
// "plain_text".
std::string fields_text(sse::dialect::decoder& dec, std::string_view data) {
  const event e = sse::dialect::to_event(dec.decode({data}));
  if (e.kind == event_kind::plain_text) return "plain_text";
  return e.fields.dump();
}

// What a JSON parser makes of `data`: its dump when it is an object with a
// string `type`, else "plain_text".
std::string expected_text(std::string_view data) {
  const json j = json::parse(data, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) return "plain_text";
  return j.dump();
}

TEST(decoder, flat_objects_decode_as_a_json_parser_reads_them) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::vector<std::string> frames = {
      R"({"type":"zz","a":"x"})",
      R"({"type":"zz"})",
      R"( { "type" : "zz" , "a" : 1 , "b" : -1 } )",
      "{\"type\":\"zz\",\t\"a\":\r\n\"x\"}\n",
      R"({"type":"zz","s":"tab\tquote\" slash\/ back\\ nl\n cr\r bs\b ff\f"})",
      R"({"type":"zz","s":"\"","t":"\\\\","u":""})",
      R"({"type":"zz","a":"one\\two","b":"three\"four","c":"plain"})",
      R"({"type":"zz","u":"\u00e9\ud83d\ude00","k":"x"})",
      R"({"t\u0079pe":"zz","a":1})",
      R"({"type":"zz","n":0,"m":-0,"big":9223372036854775807,"neg":-9223372036854775808})",
      R"({"type":"zz","u":9223372036854775808,"max":18446744073709551615})",
      R"({"type":"zz","over":18446744073709551616})",
      R"({"type":"zz","twenty":10000000000000000000,"nineteen":9999999999999999999})",
      R"({"type":"zz","twentyone":100000000000000000000})",
      R"({"type":"zz","neg19":-999999999999999999,"neg20":-1000000000000000000})",
      R"({"type":"zz","negbig":-10000000000000000000})",
      R"({"type":"zz","under":-9223372036854775809})",
      R"({"type":"zz","f":1.5,"e":1e3,"E":2E-2,"z":0.0})",
      R"({"type":"zz","t":true,"f":false,"n":null})",
      R"({"type":"zz","a":1,"a":"two","type":"zz2"})",
      R"({"type":"zz","nested":{"a":[1,2]}})",
      "{\"type\":\"zz\",\"utf8\":\"caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD\"}",
      "{\"type\":\"zz\",\"bad\":\"caf\xC3\"}",
      "{\"type\":\"zz\",\"bad\":\"\xED\xA0\x80\"}",
      "{\"type\":\"zz\",\"a\":1}\xC3\xA9",
      R"({"type":7})",
      R"({"a":"no type"})",
      R"({})",
      R"({"type":"zz",})",
      R"({"type":"zz" "a":1})",
      R"({"type":"zz","a":01})",
      R"({"type":"zz","a":00,"b":1})",
      R"({"type":"zz","a":0.5,"b":7e1,"c":12E1})",
      R"({"type":"zz","a":12)",
      R"({"type":"zz","a":0)",
      R"({"type":"zz","a":1234567890123456789,"b":0})",
      R"({"type":"zz","a":-})",
      R"({"type":"zz","a":1.})",
      R"({"type":"zz","a":tru})",
      R"({"type":"zz","a":nul})",
      R"({"type":"zz","a":"unterminated})",
      R"({"type":"zz","a":"bad escape \q"})",
      R"({"type":"zz","a":"short \u12"})",
      R"({"type":"zz","a":"x"} trailing)",
      R"({"type":"zz","a":"x"}})",
      R"({"type":"zz","a":"x")",
      R"({"type":"zz",)",
      R"({"type")",
      R"({)",
      "{\"type\":\"zz\",\"ctl\":\"a\x01b\"}",
      "{\"type\":\"zz\",\"nl\":\"a\nb\"}",
      "{\"type\":\"zz\",\"a\":\"x\"}\x0B",
      R"([{"type":"zz"}])",
  };
  for (const auto& f : frames) EXPECT_EQ(fields_text(dec, f), expected_text(f)) << f;
}

// The decoder's own table of types finds what the catalog's index finds:
// every type, and strings one byte off (longer, shorter, the last byte
// changed, of every length up to the longest type), in every dialect.
TEST(decoder, type_lookup_agrees_with_the_catalog) {
  for (const auto& d : builtin().dialects()) {
    sse::dialect::decoder dec(*d);
    std::vector<std::string> types;
    std::size_t longest = 0;
    for (const auto& e : d->events) {
      types.push_back(e.type);
      types.push_back(e.type + "x");
      types.push_back(e.type.substr(0, e.type.size() - 1));
      types.push_back(e.type.substr(0, e.type.size() - 1) + "#");
      longest = std::max(longest, e.type.size());
    }
    for (std::size_t n = 0; n <= longest + 1; ++n) types.emplace_back(n, 'a');
    for (const auto& t : types) {
      const std::string data = json{{"type", t}}.dump();
      const auto& v = dec.decode({data});
      EXPECT_EQ(v.spec, d->event(t)) << d->name << " " << t;
      EXPECT_EQ(v.kind, d->event(t) != nullptr ? event_kind::structured : event_kind::unknown) << d->name << " " << t;
    }
  }
}

TEST(decoder, flat_strings_longer_than_a_vector_step) {
  sse::dialect::decoder dec(dialect("agent"));
  // Quotes, escapes and control characters at every position of 16- and 32-byte blocks.
  for (std::size_t at = 0; at < 40; ++at) {
    for (const std::string_view special : {"\\\"", "\\n", "\\\\", "\x01", "\"", "\xC3\xA9"}) {
      std::string value(40, 'a');
      value.insert(at, special);
      const std::string data = R"({"type":"zz","pad":")" + std::string(at % 7, 'p') + R"(","v":")" + value + "\"}";
      EXPECT_EQ(fields_text(dec, data), expected_text(data)) << data;
    }
  }
}

TEST(decoder, flat_views_of_escaped_strings_stay_valid_together) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode({R"({"type":"zz","a":"1\n2","b":"3\t4","c":"5\"6"})"});
  ASSERT_EQ(v.kind, event_kind::unknown);
  EXPECT_EQ(v.find("a")->value.as_string(), "1\n2");
  EXPECT_EQ(v.find("b")->value.as_string(), "3\t4");
  EXPECT_EQ(v.find("c")->value.as_string(), "5\"6");
  EXPECT_EQ(v.find("a")->value.to_json(), json("1\n2"));
  // A longer frame after a shorter one: the escape buffer grows without
  // breaking the new frame's views.
  const std::string long_value(300, 'x');
  const std::string longer = R"({"type":"zz","a":"\n)" + long_value + R"(","b":"\t"})";
  const auto& w = dec.decode({longer});
  EXPECT_EQ(w.find("a")->value.as_string(), "\n" + long_value);
  EXPECT_EQ(w.find("b")->value.as_string(), "\t");
}

TEST(decoder, flat_invalid_utf8_is_plain_text) {
  sse::dialect::decoder dec(dialect("agent"));
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\"}"}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xED\xA0\x80\"}"}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\xA9\"}"}).kind, event_kind::unknown);
}

// The flat path checks UTF-8 with simdjson's validator: valid and invalid
// sequences (overlong, surrogate, above U+10FFFF, cut short, a stray
// continuation byte) at every position of a 64-byte vector block, decoded as a
// JSON parser reads them.
TEST(decoder, flat_utf8_is_checked_as_a_json_parser_checks_it) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::string_view sequences[] = {"\xC3\xA9",
                                        "\xE2\x80\x94",
                                        "\xF0\x9F\x99\x82",
                                        "\xF4\x8F\xBF\xBF",
                                        "\xC0\xAF",
                                        "\xE0\x80\xAF",
                                        "\xED\xA0\x80",
                                        "\xF4\x90\x80\x80",
                                        "\xF5\x80\x80\x80",
                                        "\xC3",
                                        "\xE2\x80",
                                        "\xF0\x9F\x99",
                                        "\x80",
                                        "\xBF\xBF",
                                        "\xFF"};
  for (std::size_t at = 0; at < 70; ++at) {
    for (const std::string_view seq : sequences) {
      std::string value(80, 'a');
      value.insert(at, seq);
      const std::string data = R"({"type":"zz","v":")" + value + "\"}";
      EXPECT_EQ(fields_text(dec, data), expected_text(data)) << at << " " << testing::PrintToString(std::string(seq));
    }
  }
}

TEST(decoder, flat_numbers_keep_their_class) {
  sse::dialect::decoder dec(dialect("agent"));
  const event e = sse::dialect::to_event(
      dec.decode({R"({"type":"zz","i":-3,"p":3,"u":18446744073709551615,"m":9223372036854775807})"}));
  EXPECT_TRUE(e.fields["i"].is_number_integer());
  EXPECT_EQ(e.fields["i"].get<std::int64_t>(), -3);
  EXPECT_TRUE(e.fields["p"].is_number_integer());
  EXPECT_EQ(e.fields["u"].get<std::uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(e.fields["m"].get<std::int64_t>(), 9223372036854775807LL);
  const auto& v = dec.decode({R"({"type":"zz","i":-3})"});
  EXPECT_TRUE(v.find("i")->value.is_integral());
  EXPECT_EQ(v.find("i")->value.as_number(), -3);
}

// ---------------------------------------------------------------------------
// Fields built when first asked (flat frames): the same as a JSON parser's
// reading, whenever they are asked, on many seeded frames.

// A frame of JSON members from `rng`: mostly flat (strings with and without
// escapes and high bytes, integers, literals), sometimes with what only the
// DOM path reads (\u escapes, fractions, nested values), repeated keys, a
// `type` that is a string, a number or missing. `repeated`: a key repeats.
std::string seeded_frame(std::mt19937_64& rng, bool& repeated) {
  const auto pick = [&](auto const& list) { return list[rng() % std::size(list)]; };
  static const std::string_view keys[] = {"type", "content", "runId", "a", "b", "sequence", "ab", "ba", ""};
  static const std::string_view pieces[] = {"hi",           " ",     "\\n",     "\\\"",
                                            "\\\\",         "\\/",   "\\t",     "caf\xC3\xA9",
                                            "\xE4\xBD\xA0", "x y z", "\\u00e9", "0123456789abcdef"};
  static const std::string_view types[] = {"\"zz\"", "\"message_chunk\"", "\"run_started\"", "\"z\\tz\"", "7", "null"};
  static const std::string_view others[] = {
      "true", "false",       "null", "0", "-1", "42", "18446744073709551615", "-9223372036854775808",
      "1.5",  "{\"n\":[1]}", "[]",   "-0"};
  std::string out = rng() % 4 == 0 ? " {" : "{";
  std::set<std::string_view> used;
  repeated = false;
  const std::size_t members = rng() % 8;
  for (std::size_t i = 0; i < members; ++i) {
    const std::string_view key = pick(keys);
    repeated |= !used.insert(key).second;
    if (i > 0) out += rng() % 5 == 0 ? " , " : ",";
    out.append("\"").append(key).append(rng() % 6 == 0 ? "\" : " : "\":");
    if (key == "type") {
      out += pick(types);
    } else if (rng() % 3 == 0) {
      out += pick(others);
    } else {
      out += '"';
      for (std::size_t n = rng() % 6; n > 0; --n) out += pick(pieces);
      out += '"';
    }
  }
  out += rng() % 4 == 0 ? "}\n" : "}";
  return out;
}

TEST(decoder, fields_asked_late_equal_a_json_parsers_reading) {
  sse::dialect::decoder dec(dialect("agent"));
  std::mt19937_64 rng(17);
  for (int i = 0; i < 20000; ++i) {
    bool repeated = false;
    const std::string data = seeded_frame(rng, repeated);
    for (const bool vouched : {false, true}) {
      sse::dialect::frame f{data};
      f.data_is_utf8 = vouched;
      const auto& v = dec.decode(f);
      // What a caller reading the kind only sees, before any field is asked.
      const event_kind kind = v.kind;
      const std::string type(v.type);
      const bool duplicates = v.duplicate_keys;
      const json j = json::parse(data, nullptr, false);
      const bool typed = !j.is_discarded() && j.is_object() && j.contains("type") && j["type"].is_string();
      ASSERT_EQ(kind == event_kind::structured || kind == event_kind::unknown, typed) << data;
      if (!typed) continue;
      EXPECT_EQ(type, j["type"].get<std::string>()) << data;
      EXPECT_EQ(duplicates, repeated) << data;
      // Asked late, twice, and through a copy of the view: the same fields.
      const sse::dialect::event_view copy = v;
      const event e = sse::dialect::to_event(copy);
      json present = e.fields;
      for (const auto& key : e.defaulted) present.erase(key);
      EXPECT_EQ(present, j) << data;
      EXPECT_EQ(sse::dialect::to_event(v).fields, e.fields) << data;
      EXPECT_EQ(v.fields.size(), copy.fields.size()) << data;
      EXPECT_EQ(v.duplicate_keys, duplicates) << data;
      EXPECT_EQ(v.type, type) << data;  // the type's view outlives the fields' unescaping
    }
  }
}

TEST(decoder, fields_of_a_flat_frame_are_built_once_and_stay_valid) {
  sse::dialect::decoder dec(dialect("agent"));
  const auto& v = dec.decode({R"({"type":"z\tz","a":"1\n2","b":7,"a":"3\"4"})"});
  ASSERT_EQ(v.kind, event_kind::unknown);
  EXPECT_EQ(v.type, "z\tz");
  EXPECT_TRUE(v.duplicate_keys);
  const auto* a = v.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value.as_string(), "3\"4");
  const std::span<const sse::dialect::field_view> fields = v.fields;
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(&fields[1], a);  // not rebuilt: the same storage
  EXPECT_EQ(fields[0].key, "type");
  EXPECT_EQ(fields[2].value.as_number(), 7);
  EXPECT_EQ(v.type, "z\tz");
}

// A caller that does not vouch for the data's UTF-8 still has it checked; the
// wire parser's events (vouched for) are repaired UTF-8, and decode the same as
// their repaired data checked again.
TEST(decoder, utf8_is_checked_unless_the_caller_vouches) {
  sse::dialect::decoder dec(dialect("agent"));
  const std::string invalid = "{\"type\":\"zz\",\"a\":\"\xC3\"}";
  EXPECT_EQ(dec.decode({invalid}).kind, event_kind::plain_text);
  EXPECT_EQ(dec.decode({"{\"type\":\"zz\",\"a\":\"\xC3\xA9\"}"}).kind, event_kind::unknown);
  const sse::event_view wire{"message", "{\"type\":\"zz\"}", "", 0};
  EXPECT_TRUE(sse::dialect::frame{wire}.data_is_utf8);
  EXPECT_FALSE(sse::dialect::frame{invalid}.data_is_utf8);

  std::mt19937_64 rng(71);
  static const std::string_view bad[] = {"\xC3", "\xED\xA0\x80", "\xFF", "\xF0\x9F\x99", "\x80"};
  std::string stream;
  for (int i = 0; i < 300; ++i) {
    bool repeated = false;
    std::string data = seeded_frame(rng, repeated);
    if (rng() % 3 == 0) data.insert(data.size() / 2, bad[rng() % std::size(bad)]);
    std::erase(data, '\n');
    stream.append("data: ").append(data).append("\n\n");
  }
  const auto whole = sse::dialect::decode_stream(dialect("agent"), stream);
  ASSERT_EQ(whole.events.size(), 300u);
  sse::dialect::decoder checking(dialect("agent"));
  for (const auto& e : whole.events) {
    EXPECT_EQ(checking.decode_event(sse::dialect::frame{e.raw}), e) << e.raw;
  }
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto pieces = sse::chunking::random(stream, seed);
    EXPECT_EQ(sse::dialect::decode_stream(dialect("agent"), std::span<const std::string_view>(pieces)).events,
              whole.events)
        << "seed " << seed;
  }
  const auto by_bytes = sse::chunking::bytes(stream);
  EXPECT_EQ(sse::dialect::decode_stream(dialect("agent"), std::span<const std::string_view>(by_bytes)).events,
            whole.events);
}

}  // namespace
