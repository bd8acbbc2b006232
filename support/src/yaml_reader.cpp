// SPDX-License-Identifier: MIT
#include "ssec/yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <unordered_map>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "ssec/text.hpp"

namespace ssec::yaml {

namespace {

std::size_t one_based(int zero_based) { return zero_based < 0 ? 0 : static_cast<std::size_t>(zero_based) + 1; }

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

// Reads a text's parser events (no node is built): counts its documents and
// measures, for the first, what its aliases repeat. Each anchored node's size
// (its scalars' bytes plus node_cost per node, aliases inside it expanded) is
// known when the node ends; an alias adds its anchor's size. It stops, by
// throwing `refused`, at the alias that takes the total over the limit or
// that names a node still open (a cycle), and at the second document.
class document_scan final : public YAML::EventHandler {
 public:
  struct refused {};

  explicit document_scan(document_limits limits) : limits_(limits) {}

  std::size_t documents = 0;
  YAML::Mark second_start;
  std::optional<ssec::error> problem;  // file left empty: load_document fills it in
  std::uint64_t expansion = 0;

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents == 2) second_start = mark;
    sizes_.clear();
    names_.clear();
    open_.clear();
  }
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_name_ = name; }
  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override { leaf(anchor, limits_.node_cost); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    leaf(anchor, saturating_add(limits_.node_cost, value.size()));
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto size = sizes_.find(anchor);
    const auto name = names_.find(anchor);
    const std::string alias = name == names_.end() ? std::string("an alias") : "the alias *" + name->second;
    if (size == sizes_.end()) {
      refuse(mark, alias + " refers to a node that contains it: a cycle no loader can read");
    }
    expansion = saturating_add(expansion, size->second);
    if (expansion > limits_.max_alias_expansion) {
      refuse(mark, alias + " takes what the document's aliases repeat over " + size_text(limits_.max_alias_expansion) +
                       " (" + std::to_string(limits_.node_cost) +
                       " bytes a node plus the scalars' bytes): refused before building it (an alias bomb?)");
    }
    add(size->second);
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct collection {
    YAML::anchor_t anchor;
    std::uint64_t size;
  };

  [[noreturn]] void refuse(const YAML::Mark& at, std::string message) {
    problem = ssec::error{std::move(message), {}, one_based(at.line), one_based(at.column)};
    throw refused{};
  }
  void name(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor && !pending_name_.empty()) names_[anchor] = std::move(pending_name_);
    pending_name_.clear();
  }
  void add(std::uint64_t size) {
    if (!open_.empty()) open_.back().size = saturating_add(open_.back().size, size);
  }
  void leaf(YAML::anchor_t anchor, std::uint64_t size) {
    name(anchor);
    if (anchor != YAML::NullAnchor) sizes_[anchor] = size;
    add(size);
  }
  void open(YAML::anchor_t anchor) {
    name(anchor);
    open_.push_back(collection{anchor, limits_.node_cost});
  }
  void close() {
    if (open_.empty()) return;
    const collection done = open_.back();
    open_.pop_back();
    if (done.anchor != YAML::NullAnchor) sizes_[done.anchor] = done.size;
    add(done.size);
  }
  document_limits limits_;
  std::unordered_map<YAML::anchor_t, std::uint64_t> sizes_;  // anchors whose node has ended
  std::unordered_map<YAML::anchor_t, std::string> names_;
  std::vector<collection> open_;
  std::string pending_name_;
};

// Scans `text` (see document_scan). Reads at most two documents, because
// yaml-cpp 0.7's LoadAll can loop forever, allocating, on malformed input
// (jbeder/yaml-cpp#1319): that bound is what keeps it from looping. A syntax
// error ends the scan quietly: YAML::Load reports it.
document_scan scan(const std::string& text, document_limits limits) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  document_scan counter(limits);
  try {
    while (counter.documents < 2 && parser.HandleNextDocument(counter)) {
    }
  } catch (const document_scan::refused&) {
  } catch (const YAML::Exception&) {
  }
  return counter;
}

// A plain (unquoted) scalar: how numbers and booleans must be written.
bool plain(const YAML::Node& n) { return n.IsScalar() && n.Tag() == "?"; }

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
std::optional<Int> parse_integer(const YAML::Node& n, Int min, Int max) {
  if (!plain(n)) return std::nullopt;
  const std::string& s = n.Scalar();
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

result<YAML::Node> load_document(const std::string& text, const std::string& file, document_limits limits) {
  // The parser events first: a document refused here is never built.
  const document_scan seen = scan(text, limits);
  if (seen.problem) {
    error refused = *seen.problem;
    refused.file = file;
    return refused;
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return error{"malformed YAML: " + e.msg, file, one_based(e.mark.line), one_based(e.mark.column)};
  }
  if (seen.documents >= 2) {
    return error{"a second YAML document starts here; a file holds one", file, one_based(seen.second_start.line),
                 one_based(seen.second_start.column)};
  }
  return root;
}

std::string in_backticks(std::string_view s) { return "`" + std::string(s) + "`"; }

const entry* mapping::find(std::string_view key) const {
  for (const auto& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

std::size_t reader::line(const YAML::Node& n) { return n ? one_based(n.Mark().line) : 0; }

bool reader::charge(const YAML::Node& at, std::uint64_t bytes, std::string_view what) {
  if (bytes <= remaining()) {
    built_ += bytes;
    return true;
  }
  error(at, std::string(what) + " would build " + size_text(bytes) + ", more than the " + size_text(remaining()) +
                " left of this file's budget of " + size_text(budget_) + " (repeats multiplied, aliases expanded)");
  return false;
}

void reader::error(std::size_t line, std::size_t column, std::string message) {
  errors_->push_back(ssec::error{std::move(message), file_, line, line == 0 ? 0 : column});
  ++count_;
}

void reader::error(const YAML::Mark& at, std::string message) {
  error(one_based(at.line), one_based(at.column), std::move(message));
}

void reader::error(const YAML::Node& at, std::string message) {
  if (!at) {
    error(0, 0, std::move(message));
    return;
  }
  error(at.Mark(), std::move(message));
}

void reader::error(const entry& at, std::string message) {
  const bool empty_value = !at.value || at.value.IsNull();
  if (at.key_node && (empty_value || at.value.Mark().line < 0)) {
    error(at.key_node, std::move(message));
  } else {
    error(at.value, std::move(message));
  }
}

std::optional<mapping> reader::read_mapping(const YAML::Node& n, std::string_view what,
                                            const std::vector<std::string_view>& allowed) {
  if (!n.IsMap()) {
    error(n, (what.empty() ? std::string("it") : std::string(what)) + " must be a mapping (key: value lines)");
    return std::nullopt;
  }
  mapping out{n, {}, true};
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!it->first.IsScalar()) {
      error(it->first, "keys" + (what.empty() ? std::string() : " of " + std::string(what)) + " must be plain names");
      out.complete = false;
      continue;
    }
    std::string key = it->first.Scalar();
    if (const entry* first = out.find(key)) {
      error(it->first, "duplicate key " + in_backticks(key) + in_what(what) + " (first at line " +
                           std::to_string(line(first->key_node)) + ")");
      out.complete = false;
      continue;
    }
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      error(it->first, "unknown key " + in_backticks(key) + in_what(what) + " (allowed: " + join(allowed) + ")");
      out.complete = false;
      continue;
    }
    out.entries.push_back(entry{std::move(key), it->first, it->second});
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
  if (!e.value.IsScalar()) {
    error(e, name + " must be a string");
    return std::nullopt;
  }
  if (!may_be_empty && e.value.Scalar().empty()) {
    error(e, name + " must not be empty");
    return std::nullopt;
  }
  return e.value.Scalar();
}

std::optional<std::string> reader::text(const entry& e, std::string_view what, bool may_be_empty) {
  return text_at(e, name_of(e, what), may_be_empty);
}

std::optional<std::string> reader::text(const YAML::Node& n, std::string_view name, bool may_be_empty) {
  return text_at(entry{{}, {}, n}, std::string(name), may_be_empty);
}

std::optional<bool> reader::boolean(const entry& e, std::string_view what) {
  if (plain(e.value)) {
    if (e.value.Scalar() == "true") return true;
    if (e.value.Scalar() == "false") return false;
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
  if (rules.single_ok && e.value.IsScalar() && (rules.empty_items_ok || !e.value.Scalar().empty())) {
    out.push_back(list_item{e.value.Scalar(), e.value});
    return out;
  }
  if (!e.value.IsSequence()) {
    error(e, name + " must be " + (rules.single_ok ? "a string or " : "") + "a list of strings");
    return std::nullopt;
  }
  bool ok = true;
  for (const auto& item : e.value) {
    if (!item.IsScalar() || (!rules.empty_items_ok && item.Scalar().empty())) {
      error(item, name + " must hold " + (rules.empty_items_ok ? "strings" : "non-empty strings"));
      ok = false;
      continue;
    }
    out.push_back(list_item{item.Scalar(), item});
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

std::optional<std::vector<list_item>> reader::string_items(const YAML::Node& n, std::string_view name,
                                                           list_rules rules) {
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
