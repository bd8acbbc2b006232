// SPDX-License-Identifier: MIT
// Property checks for the fuzz targets: a broken property prints what broke
// and aborts, so libFuzzer saves the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "sse/recording.hpp"

namespace ssec::fuzz {

[[noreturn]] inline void property_failed(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "PROPERTY FAILED: %s\n%s\n", what, detail.c_str());
  std::abort();
}

#define SSEC_FUZZ_CHECK(cond, ...)                                                    \
  do {                                                                                \
    if (!(cond)) ::ssec::fuzz::property_failed(#cond __VA_OPT__(, ) __VA_ARGS__);     \
  } while (0)

/// A readable account of a recording, for property-failure messages.
std::string describe(const sse::recording& r);

/// The first difference between two recordings, or empty when they are equal.
std::string first_difference(const sse::recording& expected, const sse::recording& got);

}  // namespace ssec::fuzz
