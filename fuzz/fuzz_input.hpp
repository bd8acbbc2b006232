// SPDX-License-Identifier: MIT
// Splits a fuzzer's input into typed pieces: a small, dependency-free cousin
// of libFuzzer's FuzzedDataProvider, so the targets also build with gcc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssec::fuzz {

class fuzz_input {
 public:
  fuzz_input(const std::uint8_t* data, std::size_t size) noexcept : rest_(reinterpret_cast<const char*>(data), size) {}

  bool empty() const noexcept { return rest_.empty(); }
  std::size_t remaining() const noexcept { return rest_.size(); }

  /// One byte from the front (0 once the input is exhausted).
  std::uint8_t byte() noexcept {
    if (rest_.empty()) return 0;
    const auto b = static_cast<std::uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return b;
  }

  /// A value in [0, bound) from two bytes; 0 when bound is 0.
  std::size_t below(std::size_t bound) noexcept {
    const std::size_t v = (std::size_t{byte()} << 8) | byte();
    return bound == 0 ? 0 : v % bound;
  }

  /// A string of up to `max` bytes, its length taken from the input first.
  std::string_view bytes(std::size_t max) noexcept {
    const std::size_t n = below(max + 1);
    const std::string_view out = rest_.substr(0, n);
    rest_.remove_prefix(out.size());
    return out;
  }

  /// Everything left.
  std::string_view rest() noexcept {
    const std::string_view out = rest_;
    rest_ = {};
    return out;
  }

 private:
  std::string_view rest_;
};

}  // namespace ssec::fuzz
