// SPDX-License-Identifier: MIT
// The one way fallible code above the parser reports failure: a value or an
// `ssec::error` (`result<T>`), and, for loaders that keep going to report
// every problem of a file, a value with the list of errors (`load_result<T>`).
// The wire parser keeps its own `sse::errc` (no allocation, no exceptions).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ssec {

/// One problem, ready to print. `file` is empty when the problem concerns no
/// file (a command line, a socket); `line` and `column` are 1-based, 0 when
/// unknown.
struct error {
  std::string message{};
  std::string file{};
  std::size_t line = 0;
  std::size_t column = 0;

  /// "file:line:column: message", dropping the parts that are unknown
  /// ("file: message", "message").
  std::string to_string() const;
};

/// Every error on its own line (each ended by a line feed), in order.
std::string to_string(const std::vector<error>& errors);

/// A value of T, or the error that prevented it. Never both, never neither.
template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  result(ssec::error failure)
      : state_(std::in_place_index<1>, std::move(failure)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  /// The value; only when ok().
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error; only when !ok().
  const ssec::error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, ssec::error> state_;
};

/// Success, or the error.
template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(ssec::error failure) : failure_(std::move(failure)), ok_(false) {}  // NOLINT(google-explicit-constructor)

  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  /// The error; only when !ok().
  const ssec::error& error() const { return failure_; }

 private:
  ssec::error failure_;
  bool ok_ = true;
};

/// What a loader built and every problem it found on the way. Any error means
/// the load failed; `value` then holds what could still be read (the cases
/// without errors, for instance) or nothing, as the loader documents.
template <class T>
struct load_result {
  T value{};
  std::vector<error> errors;

  bool ok() const noexcept { return errors.empty(); }
  /// Every error on its own line.
  std::string error_text() const { return to_string(errors); }
};

}  // namespace ssec
