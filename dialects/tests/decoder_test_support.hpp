// SPDX-License-Identifier: MIT
// What the decoder's tests share: the built-in catalog, its dialects, and one
// frame decoded into an owned event.
#pragma once

#include <string_view>

#include <gtest/gtest.h>

#include "sse/dialect/decoder.hpp"

namespace decoder_test_support {

using sse::dialect::event;

inline const sse::dialect::catalog& builtin() {
  const auto& loaded = sse::dialect::builtin_catalog();
  EXPECT_TRUE(loaded.ok()) << loaded.error_text();
  return *loaded.value;
}

inline const sse::dialect::dialect_spec& dialect(std::string_view name) {
  const auto* d = builtin().dialect(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

inline event decode(std::string_view dialect_name, std::string_view data, std::string_view wire_type = "message") {
  sse::dialect::decoder dec(dialect(dialect_name));
  return dec.decode_event(sse::dialect::frame{data, wire_type, "", 0});
}

}  // namespace decoder_test_support
