// SPDX-License-Identifier: MIT
// The shape every TypeScript export has: exported interfaces and type
// aliases between comments, and per dialect a constant list of string
// literals and the one type guard over it, nothing else. typescript_declarations() holds
// catalog text in comments and string literals only; this check, run on every
// export and by the export fuzzer, proves that no catalog text became code.
#include <cctype>

#include "export_parts.hpp"

namespace ssec::conformance {
namespace {

// A lexer for the subset of TypeScript the export writes, with ECMAScript's
// line terminators: LF, CR, U+2028 and U+2029 each end a `//` comment.
class shape_reader {
 public:
  explicit shape_reader(std::string_view ts) : ts_(ts) {}

  std::optional<std::string> violation() {
    for (std::size_t i = 0; i < ts_.size(); ++i) {
      if (ts_[i] == '\r' || ts_.substr(i, 3) == "\xE2\x80\xA8" || ts_.substr(i, 3) == "\xE2\x80\xA9") {
        return at(i, "a line terminator other than LF");
      }
    }
    while (true) {
      skip_blanks_and_comments();
      if (!error_.empty()) return error_;
      if (pos_ >= ts_.size()) return std::nullopt;
      if (!statement()) return error_;
    }
  }

 private:
  std::string at(std::size_t where, std::string_view what) const {
    return "byte " + std::to_string(where) + ": " + std::string(what);
  }

  void skip_blanks_and_comments() {
    while (pos_ < ts_.size()) {
      const char c = ts_[pos_];
      if (c == ' ' || c == '\n' || c == '\t') {
        ++pos_;
      } else if (ts_.substr(pos_, 2) == "//") {
        const auto end = ts_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? ts_.size() : end + 1;
      } else if (ts_.substr(pos_, 2) == "/*") {
        const auto end = ts_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          error_ = at(pos_, "a comment that never ends");
          return;
        }
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  std::string_view word() {
    const std::size_t start = pos_;
    while (pos_ < ts_.size() &&
           (std::isalnum(static_cast<unsigned char>(ts_[pos_])) != 0 || ts_[pos_] == '_' || ts_[pos_] == '$')) {
      ++pos_;
    }
    return ts_.substr(start, pos_ - start);
  }

  bool expect_word(std::string_view a, std::string_view b = {}) {
    skip_blanks_and_comments();
    const std::size_t start = pos_;
    const auto w = word();
    if (w == a || (!b.empty() && w == b)) return true;
    error_ = at(start, "expected `" + std::string(a) + (b.empty() ? "" : "` or `" + std::string(b)) +
                           "`, found a statement the export does not write");
    return false;
  }

  // `export type N = ...;`, `export interface N { ... }`, or the run-time
  // list of a dialect's types and its guard (runtime_list(), guard()).
  bool statement() {
    const std::size_t start = pos_;
    if (!expect_word("export")) return false;
    skip_blanks_and_comments();
    const std::size_t kind_at = pos_;
    const auto kind = word();
    if (kind == "const") return runtime_list();
    if (kind == "function") return guard(start);
    if (kind != "type" && kind != "interface") {
      error_ = at(kind_at, "an export that is neither a type nor an interface");
      return false;
    }
    skip_blanks_and_comments();
    if (word().empty()) {
      error_ = at(pos_, "a declaration without a name");
      return false;
    }
    return body(kind == "type");
  }

  // Up to the `;` (a type) or the `}` (an interface) that ends the
  // declaration at depth 0, through strings and comments.
  bool body(bool alias) {
    int depth = 0;
    while (true) {
      skip_blanks_and_comments();
      if (!error_.empty()) return false;
      if (pos_ >= ts_.size()) {
        error_ = at(pos_, "a declaration that never ends");
        return false;
      }
      const char c = ts_[pos_];
      if (c == '"') {
        if (!string_literal()) return false;
        continue;
      }
      if (c == '\'' || c == '`') {
        error_ = at(pos_, "a quote the export never writes");
        return false;
      }
      ++pos_;
      if (c == '{' || c == '(' || c == '[') ++depth;
      if (c == '}' || c == ')' || c == ']') {
        if (--depth < 0) {
          error_ = at(pos_ - 1, "a closing bracket without its opening one");
          return false;
        }
        if (!alias && depth == 0 && c == '}') return true;
      }
      if (alias && depth == 0 && c == ';') return true;
    }
  }

  bool expect_char(char c) {
    skip_blanks_and_comments();
    if (pos_ < ts_.size() && ts_[pos_] == c) {
      ++pos_;
      return true;
    }
    error_ = at(pos_, std::string("expected `") + c + "` in the run-time list of types");
    return false;
  }
  // `const xEventTypes: readonly XEventType[] = ["a", "b"];`: string literals only.
  bool runtime_list() {
    skip_blanks_and_comments();
    const auto name = word();
    if (!name.ends_with("EventTypes")) {
      error_ = at(pos_, "a constant the export does not write");
      return false;
    }
    if (!expect_char(':') || !expect_word("readonly")) return false;
    skip_blanks_and_comments();
    if (!word().ends_with("EventType") || !expect_char('[') || !expect_char(']') || !expect_char('=') ||
        !expect_char('[')) {
      return false;
    }
    skip_blanks_and_comments();
    if (pos_ < ts_.size() && ts_[pos_] == ']') return expect_char(']') && expect_char(';');
    while (true) {
      skip_blanks_and_comments();
      if (pos_ >= ts_.size() || ts_[pos_] != '"') {
        error_ = at(pos_, "a member of the run-time list of types that is not a string literal");
        return false;
      }
      if (!string_literal()) return false;
      skip_blanks_and_comments();
      if (pos_ < ts_.size() && ts_[pos_] == ']') return expect_char(']') && expect_char(';');
      if (!expect_char(',')) return false;
    }
  }
  // `function isKnownXType(...) {...}`: exactly the text known_type_guard()
  // writes for the X its name gives.
  bool guard(std::size_t start) {
    skip_blanks_and_comments();
    const auto name = word();
    constexpr std::string_view prefix = "isKnown", suffix = "Type";
    if (name.size() > prefix.size() + suffix.size() && name.starts_with(prefix) && name.ends_with(suffix)) {
      const auto pascal = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      const std::string expected = detail::known_type_guard(pascal);
      if (ts_.substr(start, expected.size()) == expected) {
        pos_ = start + expected.size();
        return true;
      }
    }
    error_ = at(start, "a function the export does not write");
    return false;
  }
  bool string_literal() {
    const std::size_t start = pos_++;
    while (pos_ < ts_.size() && ts_[pos_] != '"') {
      if (ts_[pos_] == '\n') break;
      pos_ += ts_[pos_] == '\\' ? 2 : 1;
    }
    if (pos_ >= ts_.size() || ts_[pos_] != '"') {
      error_ = at(start, "a string literal that does not end on its line");
      return false;
    }
    ++pos_;
    return true;
  }

  std::string_view ts_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::optional<std::string> typescript_shape_violation(std::string_view ts) { return shape_reader(ts).violation(); }

}  // namespace ssec::conformance
