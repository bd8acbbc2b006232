// SPDX-License-Identifier: MIT
// Property checks for the fuzz targets: a broken property prints what broke
// and aborts, so libFuzzer saves the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sse/recording.hpp"

namespace ssec::fuzz {

[[noreturn]] inline void property_failed(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "PROPERTY FAILED: %s\n%s\n", what, detail.c_str());
  std::abort();
}

#define SSEC_FUZZ_CHECK(cond, ...)                                                \
  do {                                                                            \
    if (!(cond)) ::ssec::fuzz::property_failed(#cond __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)

/// A recording in the case log syntax (conformance/README.md, "The event
/// log"), one line per observable, for property-failure messages.
std::string describe(const sse::recording& r);

/// Where two recordings first differ, in the case log syntax, with both
/// logs; empty when they are equal.
std::string first_difference(const sse::recording& expected, const sse::recording& got);

/// A conformance case to paste into conformance/cases: the chunks as `input`
/// items (ssec::conformance::input_items) and `expected` as its `events` log,
/// `from: fuzz/<sha256 of the input>`. Every crash is meant to become one.
std::string as_case(const std::vector<std::string_view>& chunks, const sse::recording& expected);

}  // namespace ssec::fuzz
