// SPDX-License-Identifier: MIT
// The reader builds its own tree from yaml-cpp's parser events, in one pass.
// These tests hold it to yaml-cpp's own tree (YAML::Load) node for node, on
// every YAML text the repository has (catalogs, case files, scenarios, the
// loaders' fuzz seeds, malformed ones among them) and on texts written for
// the corners: kinds, tags, positions, key order, repeated keys, aliases;
// and so is the tree compile_document() writes and load_compiled() reads.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ssec/support/yaml_reader.hpp"

namespace {

using ssec::yaml::compile_document;
using ssec::yaml::load_compiled;
using ssec::yaml::load_document;
using ssec::yaml::node;
using ssec::yaml::node_kind;

node_kind kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return node_kind::null;
    case YAML::NodeType::Scalar: return node_kind::scalar;
    case YAML::NodeType::Sequence: return node_kind::sequence;
    case YAML::NodeType::Map: return node_kind::map;
    default: return node_kind::undefined;
  }
}

// Walks both trees together; the first difference fails the test with the path to it.
::testing::AssertionResult same_tree(const node& ours, const YAML::Node& theirs, const std::string& path) {
  if (ours.kind() != kind_of(theirs)) return ::testing::AssertionFailure() << path << ": a different kind";
  if (ours.tag() != theirs.Tag()) {
    return ::testing::AssertionFailure() << path << ": tag `" << ours.tag() << "` against `" << theirs.Tag() << "`";
  }
  const auto m = ours.mark();
  const auto t = theirs.Mark();
  if (m.pos != t.pos || m.line != t.line || m.column != t.column) {
    return ::testing::AssertionFailure() << path << ": at " << m.line << ":" << m.column << " (byte " << m.pos
                                         << ") against " << t.line << ":" << t.column << " (byte " << t.pos << ")";
  }
  if (ours.size() != theirs.size()) return ::testing::AssertionFailure() << path << ": a different size";
  switch (ours.kind()) {
    case node_kind::scalar:
      if (ours.scalar() != theirs.Scalar()) return ::testing::AssertionFailure() << path << ": a different scalar";
      break;
    case node_kind::sequence: {
      std::size_t k = 0;
      for (const node& item : ours.items()) {
        auto r = same_tree(item, theirs[k], path + "[" + std::to_string(k) + "]");
        if (!r) return r;
        ++k;
      }
      break;
    }
    case node_kind::map: {
      auto it = theirs.begin();
      std::size_t k = 0;
      for (const auto& [key, value] : ours.pairs()) {
        const std::string at = path + "{" + std::to_string(k++) + "}";
        if (auto r = same_tree(key, it->first, at + " key"); !r) return r;
        if (auto r = same_tree(value, it->second, at + " value"); !r) return r;
        ++it;
      }
      break;
    }
    default: break;
  }
  return ::testing::AssertionSuccess();
}

// Loads `text` both ways; true when ours loaded it (and then it must be yaml-cpp's tree).
bool compare(const std::string& text, const std::string& name) {
  const auto ours = load_document(text, name);
  if (!ours) return false;
  YAML::Node theirs;
  try {
    theirs = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    ADD_FAILURE() << name << ": ours loaded what yaml-cpp refuses: " << e.what();
    return false;
  }
  EXPECT_TRUE(same_tree(*ours, theirs, name)) << name;
  // The compiled form gives the same tree back, without parsing.
  const auto compiled = load_compiled(compile_document(*ours), name);
  if (!compiled) {
    ADD_FAILURE() << name << ": " << compiled.error().to_string();
    return false;
  }
  EXPECT_TRUE(same_tree(*compiled, theirs, name + " (compiled)")) << name;
  return true;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(yaml_tree, is_yaml_cpps_tree_on_every_yaml_text_of_the_repository) {
  const std::filesystem::path root = SSEC_SOURCE_DIR;
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"spec", "conformance", "tools/examples", "corpus/sse_catalog_loader_fuzzer",
                          "corpus/sse_case_loader_fuzzer", "corpus/sse_scenario_loader_fuzzer"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file()) continue;
      const bool seed = std::string_view(dir).starts_with("corpus/");
      if (seed || e.path().extension() == ".yaml") files.push_back(e.path());
    }
  }
  std::size_t loaded = 0;
  for (const auto& f : files) loaded += compare(read(f), f.lexically_relative(root).string()) ? 1 : 0;
  // Catalogs, case files and most seeds load: a walk that compared nothing proves nothing.
  EXPECT_GT(files.size(), 300u);
  EXPECT_GT(loaded, 250u);
}

TEST(yaml_tree, is_yaml_cpps_tree_on_the_corners) {
  const std::vector<std::string> texts = {
      "",
      "---\n",
      "~\n",
      "plain\n",
      "'single'\n",
      "\"double \\x41\"\n",
      "a: 1\nb:\nc: ~\nd: null\ne: !!str 5\nf: !custom x\n",
      "a: 1\nb: 2\na: 3\n",                        // a repeated key: both pairs, in order
      "? [x, y]\n: complex key\n? {k: v}\n: 2\n",  // keys that are not scalars
      "- a\n- - b\n  - c\n- {d: e, f: [g]}\n- []\n- {}\n",
      "a: &x [1, 2]\nb: *x\nc: &y {k: *x}\nd: [*y, *y]\n",  // aliases: the anchor's node, its position
      "a: |\n  line one\n  line two\nb: >-\n  folded\n  text\n",
      "--- !!map\na: !!seq [1]\n...\n",
      "%YAML 1.2\n---\nkey: value\n",
      "[a, b] # a flow root\n",
      "\"\\u00e9t\\u00e9\": \"\\t\"\n",
  };
  for (std::size_t k = 0; k < texts.size(); ++k) {
    EXPECT_TRUE(compare(texts[k], "corner " + std::to_string(k))) << texts[k];
  }
}

TEST(yaml_tree, lookups_and_ranges_of_nodes_that_are_not_collections_are_empty) {
  const auto root = load_document("a: 1\nb: [x]\nb: y\n", "f.yaml");
  ASSERT_TRUE(root.ok()) << root.error().to_string();
  EXPECT_EQ((*root)["b"].size(), 1u);  // the first of a repeated key
  EXPECT_FALSE((*root)["zz"]);
  EXPECT_EQ((*root)["zz"].kind(), node_kind::undefined);
  EXPECT_EQ((*root)["zz"].mark().line, -1);
  EXPECT_FALSE((*root)["a"]["x"]);  // a scalar has no keys (yaml-cpp would throw)
  EXPECT_EQ((*root)["a"].items().size(), 0u);
  EXPECT_EQ((*root)["b"].pairs().size(), 0u);
  EXPECT_EQ(root->pairs().size(), 3u);
  // A node keeps its document alive.
  node kept = (*load_document("k: [v]\n", "g.yaml"))["k"];
  for (const node& item : kept.items()) EXPECT_EQ(item.scalar(), "v");
}

}  // namespace

// The compiled form's layout (yaml_reader.cpp): this tag, the node count,
// the link count, the nodes, the links; numbers as 4 little-endian bytes.
constexpr std::string_view compiled_tag = "ssec-yaml-tree-1";

// What load_compiled() refuses instead of building: every cut of a real
// document, a changed tag, counts past the bytes, a link past the nodes, a
// node inside itself. Each is an error naming the file, never a crash (the
// ASan build runs these).
TEST(yaml_compiled, a_cut_or_forged_tree_is_an_error_naming_the_file) {
  const auto document = load_document("a: &x [1, {b: 2}]\nc: *x\nd: 'quoted'\n", "t.yaml");
  ASSERT_TRUE(document);
  const std::string bytes = compile_document(*document);
  ASSERT_TRUE(load_compiled(bytes, "t.tree"));
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const auto cut = load_compiled(std::string_view(bytes).substr(0, size), "t.tree");
    ASSERT_FALSE(cut) << "cut at " << size;
    EXPECT_EQ(cut.error().file, "t.tree");
    EXPECT_TRUE(cut.error().message.starts_with("not a compiled YAML document: ")) << cut.error().message;
  }
  EXPECT_FALSE(load_compiled(bytes + "x", "t.tree"));

  std::string other_tag = bytes;
  other_tag[0] = 'S';
  EXPECT_FALSE(load_compiled(other_tag, "t.tree"));

  // The counts follow the tag: the node count, then the link count.
  ASSERT_TRUE(bytes.starts_with(compiled_tag));
  const std::size_t counts = compiled_tag.size();
  std::string huge = bytes;
  huge.replace(counts, 4, "\xff\xff\xff\x7f");
  const auto refused = load_compiled(huge, "t.tree");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("cannot fit in"), std::string::npos) << refused.error().message;
}

// A forged tree: one sequence (the root) whose single item is itself, then
// one whose item is a node that does not exist. Written by hand in the
// documented layout, since compile_document() only writes real documents.
TEST(yaml_compiled, a_node_inside_itself_or_a_link_to_nothing_is_refused) {
  const auto u32 = [](std::uint32_t v) {
    std::string out;
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
    return out;
  };
  const auto forged = [&](std::uint32_t child) {
    std::string out = std::string(compiled_tag) + u32(1) + u32(1);
    out.push_back(static_cast<char>(node_kind::sequence));
    out += u32(0) + u32(0) + u32(0);  // mark
    out += u32(0) + u32(1) + "?";     // no scalar, tag "?"
    out += u32(0) + u32(1);           // first link 0, one link
    return out + u32(child);
  };
  const auto itself = load_compiled(forged(0), "loop.tree");
  ASSERT_FALSE(itself);
  EXPECT_EQ(itself.error().message, "not a compiled YAML document: a node inside itself");
  const auto nowhere = load_compiled(forged(1), "nowhere.tree");
  ASSERT_FALSE(nowhere);
  EXPECT_EQ(nowhere.error().message, "not a compiled YAML document: a link to a node that does not exist");
}
