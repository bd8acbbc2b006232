// SPDX-License-Identifier: MIT
// What the decoder's tests share: the built-in catalog, its dialects, and one
// frame decoded into an owned event.
#pragma once

#include <string_view>

#include <gtest/gtest.h>

#include "catalog_test_support.hpp"
#include "sse/dialect/decoder.hpp"

namespace decoder_test_support {

using sse::dialect::event;

using catalog_test_support::builtin;
using catalog_test_support::dialect;

inline event decode(std::string_view dialect_name, std::string_view data, std::string_view wire_type = "message") {
  sse::dialect::decoder dec(dialect(dialect_name));
  return dec.decode_event(sse::dialect::frame{data, wire_type, "", 0});
}

}  // namespace decoder_test_support
