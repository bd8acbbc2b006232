// SPDX-License-Identifier: MIT
#include "ssec/support/yaml_reader.hpp"

#include <gtest/gtest.h>

namespace {

using ssec::yaml::entry;
using ssec::yaml::list_rules;
using ssec::yaml::load_document;
using ssec::yaml::reader;

// The entry `key` of the one-document mapping `text`.
entry entry_of(const std::string& text, const std::string& key) {
  const auto root = load_document(text, "f.yaml");
  EXPECT_TRUE(root.ok()) << root.error().to_string();
  for (const auto& [k, v] : root->pairs()) {
    if (k.scalar() == key) return entry{key, k, v};
  }
  ADD_FAILURE() << "no key " << key;
  return {};
}

TEST(yaml_document, one_document_loads) {
  const auto root = load_document("a: 1\nb: [x, y]\n", "f.yaml");
  ASSERT_TRUE(root.ok()) << root.error().to_string();
  EXPECT_EQ((*root)["a"].scalar(), "1");
  EXPECT_EQ((*root)["b"].size(), 2u);
  // An explicit start and end marker still make one document; empty text is a null one.
  EXPECT_TRUE(load_document("---\na: 1\n...\n", "f.yaml").ok());
  const auto empty = load_document("", "f.yaml");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->is_null());
}

TEST(yaml_document, a_second_document_is_an_error_at_its_start) {
  const auto r = load_document("a: 1\nb: 2\n---\nc: 3\n", "f.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "f.yaml:3:1: a second YAML document starts here; a file holds one");
}

// A second document behind directives yaml-cpp refuses: before the reader
// built its own tree, the parse that looked for a second document stopped
// quietly there, and the file loaded as its first document alone.
TEST(yaml_document, malformed_text_after_the_first_document_is_an_error) {
  const auto r = load_document("a: 1\n...\n%YAML 1.2\n%YAML 1.2\n---\nb: 2\n", "f.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "f.yaml:4:1: malformed YAML: repeated YAML directive");
}

TEST(yaml_document, a_syntax_error_names_line_and_column) {
  const auto r = load_document("a: 1\nb: [x, y\n", "f.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "f.yaml");
  EXPECT_EQ(r.error().message.rfind("malformed YAML: ", 0), 0u) << r.error().message;
  EXPECT_GE(r.error().line, 2u);
  EXPECT_GT(r.error().column, 0u);
}

// Every string a loader reads goes on to JSON and report writers that need
// UTF-8, so the reader refuses the bytes that are not, wherever they came from.
TEST(yaml_document, a_scalar_or_tag_that_is_not_utf8_is_refused_where_it_starts) {
  const auto raw = load_document("a: 1\nb: \"x\xFFy\"\n", "f.yaml");
  ASSERT_FALSE(raw.ok());
  EXPECT_EQ(raw.error().line, 2u);
  EXPECT_NE(raw.error().message.find("is not UTF-8 (its byte 1 is 0xFF)"), std::string::npos) << raw.error().message;
  // yaml-cpp writes these escapes as single raw bytes; the lone surrogate as CESU.
  for (const char* escape : {"\\N", "\\_", "\\uD800"}) {
    const auto r = load_document(std::string("a: \"") + escape + "\"\n", "f.yaml");
    EXPECT_FALSE(r.ok()) << escape;
  }
  EXPECT_FALSE(load_document("a: !t\xC3 x\n", "f.yaml").ok());
  EXPECT_FALSE(load_document("a: !t\xC3 [x]\n", "f.yaml").ok());
  const auto fine = load_document("a: \"\\u00E9\\U0001F600 caf\xC3\xA9\"\n", "f.yaml");
  ASSERT_TRUE(fine.ok()) << fine.error().to_string();
  EXPECT_EQ((*fine)["a"].scalar(), "\xC3\xA9\xF0\x9F\x98\x80 caf\xC3\xA9");
}

TEST(yaml_mapping, duplicate_keys_are_errors_naming_the_first) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  const auto root = load_document("a: 1\nb: 2\na: 3\n", "f.yaml");
  const auto m = r.read_mapping(*root, "the file", {"a", "b"});
  ASSERT_TRUE(m.has_value());
  EXPECT_FALSE(m->complete);
  EXPECT_EQ(m->entries.size(), 2u);
  EXPECT_EQ(m->find("a")->value.scalar(), "1");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "f.yaml:3:1: duplicate key `a` in the file (first at line 1)");
}

TEST(yaml_mapping, unknown_keys_list_the_allowed_ones) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  const auto root = load_document("a: 1\nzz: 2\n", "f.yaml");
  const auto m = r.read_mapping(*root, "", {"a", "b"});
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "f.yaml:2:1: unknown key `zz` (allowed: a, b)");
  // Any key when none are listed; missing keys are named at the mapping.
  const auto any = r.read_mapping(*root, "x", {});
  EXPECT_TRUE(any->complete);
  EXPECT_FALSE(r.require(*any, "x", {"a", "c"}));
  EXPECT_EQ(errors.back().to_string(), "f.yaml:1:1: missing required key `c` in x");
  EXPECT_EQ(r.count(), 2u);
  // Not a mapping at all.
  EXPECT_FALSE(r.read_mapping(*load_document("[1]", "f.yaml"), "`limits`", {}).has_value());
  EXPECT_EQ(errors.back().message, "`limits` must be a mapping (key: value lines)");
}

TEST(yaml_scalars, booleans_are_true_or_false_only) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  EXPECT_EQ(r.boolean(entry_of("x: true\n", "x"), "a thing"), std::optional<bool>(true));
  EXPECT_EQ(r.boolean(entry_of("x: false\n", "x"), ""), std::optional<bool>(false));
  EXPECT_EQ(errors.size(), 0u);
  for (const char* wrong : {"x: yes\n", "x: on\n", "x: 'true'\n", "x: True\n", "x: [true]\n"}) {
    EXPECT_FALSE(r.boolean(entry_of(wrong, "x"), "a thing").has_value()) << wrong;
  }
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0].to_string(), "f.yaml:1:4: `x` of a thing must be true or false");
}

TEST(yaml_scalars, integers_are_unquoted_and_in_range) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  EXPECT_EQ(r.integer(entry_of("n: -3\n", "n"), ""), std::optional<std::int64_t>(-3));
  EXPECT_EQ(r.integer(entry_of("n: 7\n", "n"), "", 1, 7), std::optional<std::int64_t>(7));
  EXPECT_EQ(r.unsigned_integer(entry_of("n: 18446744073709551615\n", "n"), ""),
            std::optional<std::uint64_t>(18446744073709551615ull));
  EXPECT_TRUE(errors.empty());
  EXPECT_FALSE(r.integer(entry_of("n: 8\n", "n"), "", 1, 7));
  EXPECT_FALSE(r.integer(entry_of("n: \"5\"\n", "n"), ""));
  EXPECT_FALSE(r.integer(entry_of("n: 5x\n", "n"), ""));
  EXPECT_FALSE(r.unsigned_integer(entry_of("n: 0\n", "n"), "", 1));
  EXPECT_FALSE(r.unsigned_integer(entry_of("n: -1\n", "n"), ""));
  EXPECT_FALSE(r.unsigned_integer(entry_of("n: 18446744073709551616\n", "n"), ""));
  ASSERT_EQ(errors.size(), 6u);
  EXPECT_EQ(errors[0].message, "`n` must be an integer from 1 to 7 (unquoted)");
  EXPECT_EQ(errors[1].message, "`n` must be an integer (unquoted)");
  EXPECT_EQ(errors[3].message, "`n` must be a positive integer (unquoted)");
  EXPECT_EQ(errors[4].message, "`n` must be an integer, 0 or more (unquoted)");
}

TEST(yaml_scalars, strings_and_lists_of_strings) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  EXPECT_EQ(r.text(entry_of("s: hi\n", "s"), ""), std::optional<std::string>("hi"));
  EXPECT_FALSE(r.text(entry_of("s: ''\n", "s"), "").has_value());
  EXPECT_EQ(r.text(entry_of("s: ''\n", "s"), "", true), std::optional<std::string>(""));
  EXPECT_EQ(r.strings(entry_of("l: [a, b]\n", "l"), ""), (std::optional<std::vector<std::string>>({"a", "b"})));
  EXPECT_EQ(r.strings(entry_of("l: a\n", "l"), "", list_rules{.single_ok = true}),
            (std::optional<std::vector<std::string>>({"a"})));
  EXPECT_EQ(r.strings(entry_of("l: []\n", "l"), "", list_rules{.empty_list_ok = true}),
            (std::optional<std::vector<std::string>>(std::vector<std::string>{})));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "`s` must not be empty");
  EXPECT_FALSE(r.strings(entry_of("l: a\n", "l"), "x").has_value());
  EXPECT_FALSE(r.strings(entry_of("l: []\n", "l"), "x").has_value());
  EXPECT_FALSE(r.strings(entry_of("l: [a, [b]]\n", "l"), "x").has_value());
  EXPECT_FALSE(r.strings(entry_of("l: [a, '']\n", "l"), "x").has_value());
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[1].to_string(), "f.yaml:1:4: `l` of x must be a list of strings");
  EXPECT_EQ(errors[2].message, "`l` of x must not be empty");
  EXPECT_EQ(errors[3].to_string(), "f.yaml:1:8: `l` of x must hold non-empty strings");
  // Each item keeps its node for positions.
  const auto items = r.string_items(entry_of("l: [a, b]\n", "l"), "");
  ASSERT_TRUE(items.has_value());
  EXPECT_EQ(reader::line((*items)[1].node), 1u);
  EXPECT_EQ((*items)[1].node.mark().column, 7);
}

TEST(yaml_errors, an_empty_value_is_reported_at_its_key) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors);
  EXPECT_FALSE(r.text(entry_of("a: 1\ns:\n", "s"), "").has_value());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "f.yaml:2:1: `s` must be a string");
}

}  // namespace

// --- Bounds ---------------------------------------------------------------

// `levels` levels of anchors, each a list of ten aliases to the one below:
// 10^levels copies of "lol" from a few hundred bytes (billion laughs).
std::string alias_bomb(int levels) {
  std::string text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= levels; ++i) {
    const std::string below = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k > 0 ? ", " : "") + below;
    text += "]\n";
  }
  return text;
}

TEST(yaml_document, an_alias_bomb_is_refused_at_the_alias_that_crosses_the_limit) {
  const auto r = load_document(alias_bomb(7), "bomb.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "bomb.yaml");
  EXPECT_GE(r.error().line, 2u);  // an alias line, not the first (which has none)
  EXPECT_GT(r.error().column, 0u);
  EXPECT_NE(r.error().message.find("the alias *a"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("over 4 MiB"), std::string::npos) << r.error().message;
}

TEST(yaml_document, aliases_within_the_limit_load_and_the_limit_is_a_parameter) {
  // Three levels: 1000 copies, 1000 * (16 + 3) bytes and the lists: far below 4 MiB.
  const auto small = load_document(alias_bomb(3), "f.yaml");
  ASSERT_TRUE(small.ok()) << small.error().to_string();
  EXPECT_EQ((*small)["a3"].size(), 10u);
  // Two aliases of a 10-scalar list: 2 * (16 + 10 * (16 + 3)) = 412 bytes repeated.
  const std::string two = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: [*a, *a]\n";
  EXPECT_TRUE(load_document(two, "f.yaml", {.max_alias_expansion = 412}).ok());
  const auto over = load_document(two, "f.yaml", {.max_alias_expansion = 411});
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().line, 2u);
  EXPECT_EQ(over.error().column, 9u);  // the second *a
}

TEST(yaml_document, an_alias_inside_its_own_anchor_is_refused_as_a_cycle) {
  const auto r = load_document("a: &x [1, *x]\n", "f.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(),
            "f.yaml:1:11: the alias *x refers to a node that contains it: a cycle no loader can read");
}

TEST(yaml_reader, charge_books_against_the_file_budget_before_building) {
  std::vector<ssec::error> errors;
  reader r("f.yaml", errors, 100);
  const auto root = load_document("a: 1\nb: 2\n", "f.yaml");
  EXPECT_TRUE(r.charge((*root)["a"], 60, "this repeat"));
  EXPECT_EQ(r.remaining(), 40u);
  EXPECT_FALSE(r.charge((*root)["b"], 41, "this repeat"));
  EXPECT_EQ(r.built(), 60u);  // nothing booked for the refused one
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(),
            "f.yaml:2:4: this repeat would build 41 bytes, more than the 40 bytes left of this file's budget of 100 "
            "bytes (repeats multiplied, aliases expanded)");
}
