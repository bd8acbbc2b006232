// SPDX-License-Identifier: MIT
#include "ssec/support/yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <streambuf>
#include <unordered_map>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "ssec/support/text.hpp"

namespace ssec::yaml {

namespace {

std::size_t one_based(int zero_based) { return zero_based < 0 ? 0 : static_cast<std::size_t>(zero_based) + 1; }

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

}  // namespace

namespace detail {

// The nodes of one document, in the order their events came (the root
// first). A collection's children are a run of `children`: items, or keys
// and values alternately; an alias's entry there is the index of the node it
// names.
struct tree {
  struct record {
    node_kind kind = node_kind::null;
    yaml::mark at;
    std::string scalar;
    std::string tag;
    std::uint32_t first = 0;  // into children
    std::uint32_t count = 0;  // entries in children (2 per pair)
  };
  std::vector<record> records;
  std::vector<std::uint32_t> children;

  static node root(std::shared_ptr<const tree> t) { return node(std::move(t), 0); }
  static node at(const std::shared_ptr<const tree>& t, std::uint32_t index) { return node(t, index); }
  static const tree* of(const node& n) { return n.tree_.get(); }
};

}  // namespace detail

namespace {

const std::string& no_text() {
  static const std::string empty;
  return empty;
}

yaml::mark mark_of(const YAML::Mark& m) { return yaml::mark{m.pos, m.line, m.column}; }

// Builds the first document's tree from the parser's events, measuring as it
// goes what its aliases repeat: each anchored node's size (its scalars' bytes
// plus node_cost per node, aliases inside it expanded) is known when the node
// ends, and an alias adds its anchor's size. It stops, by throwing `refused`,
// at the alias that takes the total over the limit or that names a node
// still open (a cycle), and at the start of a second document.
class document_builder final : public YAML::EventHandler {
 public:
  struct refused {};

  explicit document_builder(document_limits limits) : limits_(limits), tree_(std::make_shared<detail::tree>()) {}

  std::size_t documents = 0;
  YAML::Mark second_start;
  std::optional<ssec::error> problem;  // file left empty: load_document fills it in

  std::shared_ptr<detail::tree> take() { return std::move(tree_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents == 2) {
      second_start = mark;
      throw refused{};  // nothing of it is read: its start is the error
    }
  }
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_name_ = name; }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    leaf(anchor, add_record(node_kind::null, mark, no_text(), no_text()), limits_.node_cost);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    require_utf8(mark, tag, "tag");
    require_utf8(mark, value, "scalar");
    leaf(anchor, add_record(node_kind::scalar, mark, tag, value), saturating_add(limits_.node_cost, value.size()));
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto named = anchors_.find(anchor);
    const auto name = names_.find(anchor);
    const std::string alias = name == names_.end() ? std::string("an alias") : "the alias *" + name->second;
    if (named == anchors_.end() || !named->second.closed) {
      refuse(mark, alias + " refers to a node that contains it: a cycle no loader can read");
    }
    expansion_ = saturating_add(expansion_, named->second.size);
    if (expansion_ > limits_.max_alias_expansion) {
      refuse(mark, alias + " takes what the document's aliases repeat over " + size_text(limits_.max_alias_expansion) +
                       " (" + std::to_string(limits_.node_cost) +
                       " bytes a node plus the scalars' bytes): refused before building it (an alias bomb?)");
    }
    attach(named->second.index);
    add(named->second.size);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    require_utf8(mark, tag, "tag");
    open(anchor, add_record(node_kind::sequence, mark, tag, no_text()));
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    require_utf8(mark, tag, "tag");
    open(anchor, add_record(node_kind::map, mark, tag, no_text()));
  }
  void OnMapEnd() override { close(); }

 private:
  struct anchored {
    std::uint32_t index;
    std::uint64_t size = 0;
    bool closed = false;
  };
  struct collection {
    std::uint32_t index;
    YAML::anchor_t anchor;
    std::uint64_t size;
    std::size_t children_from;  // where its children start in pending_
  };

  [[noreturn]] void refuse(const YAML::Mark& at, std::string message) {
    problem = ssec::error{std::move(message), {}, one_based(at.line), one_based(at.column)};
    throw refused{};
  }
  // YAML text is Unicode, and every loader hands its strings on to JSON and
  // report writers that need UTF-8; raw bytes in the file and yaml-cpp's
  // escapes that write single raw bytes (`\N`, `\_`, a lone surrogate) stop here.
  void require_utf8(const YAML::Mark& at, std::string_view text, std::string_view what) {
    if (sse::utf8::is_valid(text)) return;
    std::size_t bad = 0;
    while (bad < text.size() && utf8_sequence_length(text, bad) != 0) bad += utf8_sequence_length(text, bad);
    static constexpr char hex[] = "0123456789ABCDEF";
    const auto byte = bad < text.size() ? static_cast<unsigned char>(text[bad]) : 0U;
    refuse(at, "this " + std::string(what) + " is not UTF-8 (its byte " + std::to_string(bad) + " is 0x" +
                   hex[byte >> 4] + hex[byte & 0xF] +
                   "): YAML text is Unicode; yaml-cpp writes `\\N` and `\\_` as single raw bytes, so write "
                   "\\u0085 and \\u00A0, and write raw bytes where a format offers {hex: ...}");
  }
  // A new node, made a child of the collection open around it.
  std::uint32_t add_record(node_kind kind, const YAML::Mark& mark, const std::string& tag, const std::string& scalar) {
    const auto index = static_cast<std::uint32_t>(tree_->records.size());
    tree_->records.push_back(detail::tree::record{kind, mark_of(mark), scalar, tag, 0, 0});
    attach(index);
    return index;
  }
  void attach(std::uint32_t index) {
    if (!open_.empty()) pending_.push_back(index);
  }
  void name(YAML::anchor_t anchor, std::uint32_t index) {
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor] = anchored{index};
      if (!pending_name_.empty()) names_[anchor] = std::move(pending_name_);
    }
    pending_name_.clear();
  }
  void add(std::uint64_t size) {
    if (!open_.empty()) open_.back().size = saturating_add(open_.back().size, size);
  }
  void leaf(YAML::anchor_t anchor, std::uint32_t index, std::uint64_t size) {
    name(anchor, index);
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor].size = size;
      anchors_[anchor].closed = true;
    }
    add(size);
  }
  void open(YAML::anchor_t anchor, std::uint32_t index) {
    name(anchor, index);
    open_.push_back(collection{index, anchor, limits_.node_cost, pending_.size()});
  }
  // The collection's children move from the pending stack into the tree, in one run.
  void close() {
    if (open_.empty()) return;
    const collection done = open_.back();
    open_.pop_back();
    auto& record = tree_->records[done.index];
    record.first = static_cast<std::uint32_t>(tree_->children.size());
    record.count = static_cast<std::uint32_t>(pending_.size() - done.children_from);
    tree_->children.insert(tree_->children.end(), pending_.begin() + static_cast<std::ptrdiff_t>(done.children_from),
                           pending_.end());
    pending_.resize(done.children_from);
    if (done.anchor != YAML::NullAnchor) {
      anchors_[done.anchor].size = done.size;
      anchors_[done.anchor].closed = true;
    }
    add(done.size);
  }

  document_limits limits_;
  std::shared_ptr<detail::tree> tree_;
  std::uint64_t expansion_ = 0;
  std::unordered_map<YAML::anchor_t, anchored> anchors_;
  std::unordered_map<YAML::anchor_t, std::string> names_;
  std::vector<collection> open_;
  std::vector<std::uint32_t> pending_;  // children of the open collections, innermost last
  std::string pending_name_;
};

// The text as a stream yaml-cpp reads, without copying it.
class view_buffer final : public std::streambuf {
 public:
  explicit view_buffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // NOLINT(cppcoreguidelines-pro-type-const-cast): only read
    setg(begin, begin, begin + text.size());
  }
};

// A plain (unquoted) scalar: how numbers and booleans must be written.
bool plain(const node& n) { return n.is_scalar() && n.tag() == "?"; }

std::string name_of(const entry& e, std::string_view what) {
  return in_backticks(e.key) + (what.empty() ? std::string() : " of " + std::string(what));
}

std::string in_what(std::string_view what) { return what.empty() ? std::string() : " in " + std::string(what); }

template <class Int>
std::string range_phrase(Int min, Int max) {
  constexpr Int lowest = std::numeric_limits<Int>::min();
  constexpr Int highest = std::numeric_limits<Int>::max();
  if (max == highest) {
    if (min == 0) return "an integer, 0 or more";  // before `lowest`: for unsigned types they are one
    if (min == lowest) return "an integer";
    if (min == 1) return "a positive integer";
  }
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

template <class Int>
std::optional<Int> parse_integer(const node& n, Int min, Int max) {
  if (!plain(n)) return std::nullopt;
  const std::string& s = n.scalar();
  Int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < min || v > max) return std::nullopt;
  return v;
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
  constexpr std::uint64_t kib = 1024;
  if (bytes >= kib * kib && bytes % (kib * kib) == 0) return std::to_string(bytes / (kib * kib)) + " MiB";
  if (bytes >= kib && bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return counted(bytes, "byte");
}

node_kind node::kind() const noexcept { return tree_ ? tree_->records[index_].kind : node_kind::undefined; }

const std::string& node::scalar() const noexcept { return tree_ ? tree_->records[index_].scalar : no_text(); }

const std::string& node::tag() const noexcept { return tree_ ? tree_->records[index_].tag : no_text(); }

yaml::mark node::mark() const noexcept { return tree_ ? tree_->records[index_].at : yaml::mark{}; }

std::size_t node::size() const noexcept {
  switch (kind()) {
    case node_kind::sequence: return tree_->records[index_].count;
    case node_kind::map: return tree_->records[index_].count / 2;
    default: return 0;
  }
}

node node::child(std::size_t k) const {
  return detail::tree::at(tree_, tree_->children[tree_->records[index_].first + k]);
}

node node::operator[](std::string_view key) const {
  for (const auto& [k, v] : pairs()) {
    if (k.is_scalar() && k.scalar() == key) return v;
  }
  return {};
}

result<node> load_document(std::string_view text, const std::string& file, document_limits limits) {
  view_buffer buffer(text);
  std::istream in(&buffer);
  YAML::Parser parser(in);
  document_builder builder(limits);
  try {
    parser.HandleNextDocument(builder);
    // Is there more? Only a second document's start is read (so yaml-cpp
    // 0.7's LoadAll loop on malformed input, jbeder/yaml-cpp#1319, cannot
    // happen here), and malformed text after the first document is an
    // error like any other.
    parser.HandleNextDocument(builder);
  } catch (const document_builder::refused&) {
    if (builder.problem) {
      error refused = *builder.problem;
      refused.file = file;
      return refused;
    }
  } catch (const YAML::Exception& e) {
    return error{"malformed YAML: " + e.msg, file, one_based(e.mark.line), one_based(e.mark.column)};
  }
  if (builder.documents >= 2) {
    return error{"a second YAML document starts here; a file holds one", file, one_based(builder.second_start.line),
                 one_based(builder.second_start.column)};
  }
  auto tree = builder.take();
  if (tree->records.empty()) tree->records.emplace_back();  // an empty document: one null node
  return detail::tree::root(std::move(tree));
}

namespace {

// The compiled form: this tag, then the counts of records and of children,
// then each record (kind, mark, scalar, tag, first child, child count), then
// the children; numbers as 4 little-endian bytes, strings as a length then
// their bytes. The root is record 0, as in every tree.
constexpr std::string_view compiled_tag = "ssec-yaml-tree-1";
// A record's bytes besides its strings' own: kind, three mark numbers, two
// lengths, first and count.
constexpr std::size_t record_fixed_bytes = 1 + 4 * 7;

void put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

void put_text(std::string& out, const std::string& text) {
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  out += text;
}

class compiled_reader {
 public:
  explicit compiled_reader(std::string_view bytes) : rest_(bytes) {}

  std::size_t left() const noexcept { return rest_.size(); }

  bool take_tag() {
    if (!rest_.starts_with(compiled_tag)) return false;
    rest_.remove_prefix(compiled_tag.size());
    return true;
  }

  bool take_byte(std::uint8_t& v) {
    if (rest_.empty()) return false;
    v = static_cast<unsigned char>(rest_.front());
    rest_.remove_prefix(1);
    return true;
  }

  bool take_u32(std::uint32_t& v) {
    if (rest_.size() < 4) return false;
    v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(rest_[static_cast<std::size_t>(k)]);
    rest_.remove_prefix(4);
    return true;
  }

  bool take_int(int& v) {
    std::uint32_t u = 0;
    if (!take_u32(u)) return false;
    v = static_cast<int>(static_cast<std::int32_t>(u));
    return true;
  }

  bool take_text(std::string& text) {
    std::uint32_t size = 0;
    if (!take_u32(size) || size > rest_.size()) return false;
    text.assign(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return true;
  }

 private:
  std::string_view rest_;
};

// True when following children from the root never comes back to a node on
// the way (an alias inside its own anchor): every walk of the tree ends.
bool acyclic(const detail::tree& t) {
  enum class state : std::uint8_t { unseen, open, done };
  std::vector<state> states(t.records.size(), state::unseen);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path;  // node, next child
  path.emplace_back(0, 0);
  states[0] = state::open;
  while (!path.empty()) {
    auto& [index, next] = path.back();
    const auto& r = t.records[index];
    if (next == r.count) {
      states[index] = state::done;
      path.pop_back();
      continue;
    }
    const std::uint32_t child = t.children[r.first + next];
    ++next;
    if (states[child] == state::open) return false;
    if (states[child] == state::unseen) {
      states[child] = state::open;
      path.emplace_back(child, 0);
    }
  }
  return true;
}

}  // namespace

std::string compile_document(const node& document) {
  const detail::tree* t = detail::tree::of(document);
  std::string out(compiled_tag);
  if (t == nullptr) return out;
  put_u32(out, static_cast<std::uint32_t>(t->records.size()));
  put_u32(out, static_cast<std::uint32_t>(t->children.size()));
  for (const auto& r : t->records) {
    out.push_back(static_cast<char>(r.kind));
    put_u32(out, static_cast<std::uint32_t>(r.at.pos));
    put_u32(out, static_cast<std::uint32_t>(r.at.line));
    put_u32(out, static_cast<std::uint32_t>(r.at.column));
    put_text(out, r.scalar);
    put_text(out, r.tag);
    put_u32(out, r.first);
    put_u32(out, r.count);
  }
  for (const std::uint32_t child : t->children) put_u32(out, child);
  return out;
}

result<node> load_compiled(std::string_view bytes, const std::string& file) {
  const auto refused = [&](std::string why) { return error{"not a compiled YAML document: " + std::move(why), file}; };
  compiled_reader in(bytes);
  if (!in.take_tag()) return refused("it does not start with `" + std::string(compiled_tag) + "`");
  std::uint32_t records = 0;
  std::uint32_t children = 0;
  if (!in.take_u32(records) || !in.take_u32(children)) return refused("it ends inside its counts");
  // Counts are checked against the bytes left before anything is reserved.
  if (records == 0 || records > in.left() / record_fixed_bytes || children > in.left() / 4) {
    return refused(counted(records, "node") + " and " + counted(children, "link") + " cannot fit in " +
                   size_text(in.left()));
  }
  auto t = std::make_shared<detail::tree>();
  t->records.resize(records);
  for (auto& r : t->records) {
    std::uint8_t kind = 0;
    if (!in.take_byte(kind) || !in.take_int(r.at.pos) || !in.take_int(r.at.line) || !in.take_int(r.at.column) ||
        !in.take_text(r.scalar) || !in.take_text(r.tag) || !in.take_u32(r.first) || !in.take_u32(r.count)) {
      return refused("it ends inside a node");
    }
    if (kind == static_cast<std::uint8_t>(node_kind::undefined) || kind > static_cast<std::uint8_t>(node_kind::map)) {
      return refused("a node of unknown kind " + std::to_string(kind));
    }
    r.kind = static_cast<node_kind>(kind);
    const bool has_children = r.kind == node_kind::sequence || r.kind == node_kind::map;
    if ((!has_children && r.count != 0) || (r.kind == node_kind::map && r.count % 2 != 0) || r.first > children ||
        r.count > children - r.first) {
      return refused("a node's links lie outside the " + counted(children, "link"));
    }
  }
  if (in.left() != std::size_t{children} * 4) return refused("its links take " + size_text(in.left()));
  t->children.resize(children);
  for (auto& child : t->children) {
    if (!in.take_u32(child) || child >= records) return refused("a link to a node that does not exist");
  }
  if (!acyclic(*t)) return refused("a node inside itself");
  return detail::tree::root(std::move(t));
}

std::string in_backticks(std::string_view s) { return "`" + std::string(s) + "`"; }

const entry* mapping::find(std::string_view key) const {
  for (const auto& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

std::size_t reader::line(const node& n) { return n ? one_based(n.mark().line) : 0; }

bool reader::charge(const node& at, std::uint64_t bytes, std::string_view what) {
  if (bytes <= remaining()) {
    built_ += bytes;
    return true;
  }
  error(at, std::string(what) + " would build " + size_text(bytes) + ", more than the " + size_text(remaining()) +
                " left of " + (budget_name_.empty() ? "this file's budget of " + size_text(budget_) : budget_name_) +
                " (repeats multiplied, aliases expanded)");
  return false;
}

void reader::error(std::size_t line, std::size_t column, std::string message) {
  errors_->push_back(ssec::error{std::move(message), file_, line, line == 0 ? 0 : column});
  ++count_;
}

void reader::error(const yaml::mark& at, std::string message) {
  error(one_based(at.line), one_based(at.column), std::move(message));
}

void reader::error(const node& at, std::string message) {
  if (!at) {
    error(0, 0, std::move(message));
    return;
  }
  error(at.mark(), std::move(message));
}

void reader::error(const entry& at, std::string message) {
  const bool empty_value = !at.value || at.value.is_null();
  if (at.key_node && (empty_value || at.value.mark().line < 0)) {
    error(at.key_node, std::move(message));
  } else {
    error(at.value, std::move(message));
  }
}

std::optional<mapping> reader::read_mapping(const node& n, std::string_view what,
                                            const std::vector<std::string_view>& allowed) {
  if (!n.is_map()) {
    error(n, (what.empty() ? std::string("it") : std::string(what)) + " must be a mapping (key: value lines)");
    return std::nullopt;
  }
  mapping out{n, {}, true};
  for (const auto& [key_node, value] : n.pairs()) {
    if (!key_node.is_scalar()) {
      error(key_node, "keys" + (what.empty() ? std::string() : " of " + std::string(what)) + " must be plain names");
      out.complete = false;
      continue;
    }
    std::string key = key_node.scalar();
    if (const entry* first = out.find(key)) {
      error(key_node, "duplicate key " + in_backticks(key) + in_what(what) + " (first at line " +
                          std::to_string(line(first->key_node)) + ")");
      out.complete = false;
      continue;
    }
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      error(key_node, "unknown key " + in_backticks(key) + in_what(what) + " (allowed: " + join(allowed) + ")");
      out.complete = false;
      continue;
    }
    out.entries.push_back(entry{std::move(key), key_node, value});
  }
  return out;
}

bool reader::require(const mapping& m, std::string_view what, const std::vector<std::string_view>& keys) {
  bool ok = true;
  for (const auto key : keys) {
    if (m.has(key)) continue;
    error(m.node, "missing required key " + in_backticks(key) + in_what(what));
    ok = false;
  }
  return ok;
}

const entry* reader::field(const mapping& m, std::string_view key, std::string_view what, bool required) {
  const entry* e = m.find(key);
  if (e == nullptr && required) require(m, what, {key});
  return e;
}

std::optional<std::string> reader::text_at(const entry& e, const std::string& name, bool may_be_empty) {
  if (!e.value.is_scalar()) {
    error(e, name + " must be a string");
    return std::nullopt;
  }
  if (!may_be_empty && e.value.scalar().empty()) {
    error(e, name + " must not be empty");
    return std::nullopt;
  }
  return e.value.scalar();
}

std::optional<std::string> reader::text(const entry& e, std::string_view what, bool may_be_empty) {
  return text_at(e, name_of(e, what), may_be_empty);
}

std::optional<std::string> reader::text(const node& n, std::string_view name, bool may_be_empty) {
  return text_at(entry{{}, {}, n}, std::string(name), may_be_empty);
}

std::optional<bool> reader::boolean(const entry& e, std::string_view what) {
  if (plain(e.value)) {
    if (e.value.scalar() == "true") return true;
    if (e.value.scalar() == "false") return false;
  }
  error(e, name_of(e, what) + " must be true or false");
  return std::nullopt;
}

std::optional<std::int64_t> reader::integer(const entry& e, std::string_view what, std::int64_t min, std::int64_t max) {
  if (auto v = parse_integer(e.value, min, max)) return v;
  error(e, name_of(e, what) + " must be " + range_phrase(min, max) + " (unquoted)");
  return std::nullopt;
}

std::optional<std::uint64_t> reader::unsigned_integer(const entry& e, std::string_view what, std::uint64_t min,
                                                      std::uint64_t max) {
  if (auto v = parse_integer(e.value, min, max)) return v;
  error(e, name_of(e, what) + " must be " + range_phrase(min, max) + " (unquoted)");
  return std::nullopt;
}

std::optional<std::vector<list_item>> reader::items_at(const entry& e, const std::string& name, list_rules rules) {
  std::vector<list_item> out;
  if (rules.single_ok && e.value.is_scalar() && (rules.empty_items_ok || !e.value.scalar().empty())) {
    out.push_back(list_item{e.value.scalar(), e.value});
    return out;
  }
  if (!e.value.is_sequence()) {
    error(e, name + " must be " + (rules.single_ok ? "a string or " : "") + "a list of strings");
    return std::nullopt;
  }
  bool ok = true;
  for (const node& item : e.value.items()) {
    if (!item.is_scalar() || (!rules.empty_items_ok && item.scalar().empty())) {
      error(item, name + " must hold " + (rules.empty_items_ok ? "strings" : "non-empty strings"));
      ok = false;
      continue;
    }
    out.push_back(list_item{item.scalar(), item});
  }
  if (!ok) return std::nullopt;
  if (out.empty() && !rules.empty_list_ok) {
    error(e, name + " must not be empty");
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<list_item>> reader::string_items(const entry& e, std::string_view what, list_rules rules) {
  return items_at(e, name_of(e, what), rules);
}

std::optional<std::vector<list_item>> reader::string_items(const node& n, std::string_view name, list_rules rules) {
  return items_at(entry{{}, {}, n}, std::string(name), rules);
}

std::optional<std::vector<std::string>> reader::strings(const entry& e, std::string_view what, list_rules rules) {
  auto items = string_items(e, what, rules);
  if (!items) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(items->size());
  for (auto& item : *items) out.push_back(std::move(item.text));
  return out;
}

}  // namespace ssec::yaml
