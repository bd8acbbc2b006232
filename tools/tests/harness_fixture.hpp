// SPDX-License-Identifier: MIT
// What the tests of the harness behind `sse-conform run` share
// (harness_test.cpp: the engine against broken adapters; harness_cli_test.cpp:
// the command line, the test-service and browser paths, the reports): the
// built tool, the broken adapter (tools/tests/broken-adapters/broken_adapter.py,
// which forwards to the reference adapter and breaks in one chosen way), small
// case files, and the `harness` fixture that loads them once per test suite.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "sse/recording.hpp"
#include "ssec/adapter/protocol.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/harness/baseline.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/harness/reports.hpp"
#include "ssec/harness/service.hpp"
#include "ssec/http/client.hpp"
#include "ssec/http/server.hpp"

namespace harness_test {

namespace conf = ssec::conformance;
namespace h = ssec::harness;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

inline const std::string tool = SSE_CONFORM_BIN;
inline const std::string broken_script = BROKEN_ADAPTER;
inline const fs::path source_dir = SSEC_SOURCE_DIR;
inline const std::string reference = h::shell_quote(tool) + " adapter";

inline std::string broken(const std::string& mode, const std::string& extra = "") {
  return "python3 " + h::shell_quote(broken_script) + " " + mode + " " + extra + " -- " + reference;
}

// Four small cases whose expectations are the WHATWG rules: one per verdict,
// and one that needs the `cr` capability (a lone CR ends a line).
inline constexpr const char* basics_yaml = R"(- id: A2B3
  name: one event
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: must
  layer: wire
  input: ["data: a\n\n"]
  events: |
    event type="message" data="a" last_id=""
- id: C4D5
  name: one event, graded should
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [dispatch]
  verdict: should
  layer: wire
  input: ["data: b\n\n"]
  events: |
    event type="message" data="b" last_id=""
- id: E6F7
  name: one event, graded impl
  from: [spec/DECISIONS.md#limits]
  tags: [dispatch]
  verdict: impl
  layer: wire
  input: ["data: c\n\n"]
  events: |
    event type="message" data="c" last_id=""
- id: G7H8
  name: lone CR ends lines
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
  tags: [line-endings]
  verdict: must
  layer: wire
  input: ["data: d\r\r"]
  events: |
    event type="message" data="d" last_id=""
)";

// A second case tree: a stream big enough for the time budget to matter,
// and retry values a JavaScript number cannot hold exactly (WHATWG: the
// reconnection time is "that integer", unbounded).
inline constexpr const char* big_yaml = R"(- id: B8G2
  name: a 3000-byte data line
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [large]
  verdict: must
  layer: wire
  input: ["data: ", {repeat: "x", times: 3000}, "\n\n"]
  events: |
    event type="message" data="x"*3000 last_id=""
)";
inline constexpr const char* utf8_yaml = R"(- id: U8F8
  name: a lone FF byte becomes U+FFFD
  from: https://encoding.spec.whatwg.org/#utf-8-decoder
  tags: [utf8]
  verdict: must
  layer: wire
  input: ["data: ", {hex: "FF"}, "\n\n"]
  events: |
    event type="message" data="\uFFFD" last_id=""
)";
inline constexpr const char* retry_yaml = R"(- id: R2T3
  name: the largest unsigned 64-bit retry
  from: [spec/DECISIONS.md#retry-large]
  tags: [retry]
  verdict: impl
  layer: wire
  input: ["retry: 18446744073709551615\n\n"]
  events: |
    retry 18446744073709551615
- id: R4T5
  name: a retry one above 2^53
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [retry]
  verdict: must
  layer: wire
  input: ["retry: 9007199254740993\n\n"]
  events: |
    retry 9007199254740993
- id: R6T7
  name: a small retry, then an event
  from: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
  tags: [retry]
  verdict: must
  layer: wire
  input: ["retry: 3000\ndata: a\n\n"]
  events: |
    retry 3000
    event type="message" data="a" last_id=""
)";

class harness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("ssec_harness_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "cases");
    std::ofstream(dir_ / "cases" / "basics.yaml") << basics_yaml;
    std::vector<ssec::error> errors;
    const auto tags = conf::load_tags(source_dir / "spec/tags.yaml", "spec/tags.yaml", errors);
    ASSERT_TRUE(errors.empty());
    loaded_ = new ssec::load_result<std::vector<conf::test_case>>(conf::load_case_tree(dir_ / "cases", "cases", tags));
    ASSERT_TRUE(loaded_->ok()) << loaded_->error_text();
    ASSERT_EQ(loaded_->value.size(), 4u);
    fs::create_directories(dir_ / "extra");
    std::ofstream(dir_ / "extra" / "big.yaml") << big_yaml;
    std::ofstream(dir_ / "extra" / "retry.yaml") << retry_yaml;
    std::ofstream(dir_ / "extra" / "utf8.yaml") << utf8_yaml;
    extra_ = new ssec::load_result<std::vector<conf::test_case>>(conf::load_case_tree(dir_ / "extra", "extra", tags));
    ASSERT_TRUE(extra_->ok()) << extra_->error_text();
    ASSERT_EQ(extra_->value.size(), 5u);
  }
  static void TearDownTestSuite() {
    delete loaded_;
    delete extra_;
    fs::remove_all(dir_);
  }

  // The broken adapters are Python scripts: under CI load (and a pyenv shim)
  // a start takes seconds, and every restart after an error says hello again.
  // No test here is about the hello's deadline except the one that sets its own.
  static constexpr std::chrono::seconds slow_start_hello{60};

  static h::run_result run(const std::string& impl, h::run_options o = {}) {
    o.impl = impl;
    o.plan = *conf::parse_chunking_plan("whole,bytes,random:2");
    o.hello_timeout = slow_start_hello;
    return h::run_cases(h::select_cases(loaded_->value, {}), o);
  }
  static h::run_result run_extra(const std::string& impl, const std::string& chunkings, h::run_options o = {}) {
    o.impl = impl;
    o.plan = *conf::parse_chunking_plan(chunkings);
    o.hello_timeout = slow_start_hello;
    return h::run_cases(h::select_cases(extra_->value, {}), o);
  }
  static const h::case_result& find(const h::run_result& r, const std::string& id) {
    for (const auto& c : r.cases) {
      if (c.c->id == id) return c;
    }
    throw std::runtime_error("no case " + id);
  }

  static inline fs::path dir_;
  static inline ssec::load_result<std::vector<conf::test_case>>* loaded_ = nullptr;
  static inline ssec::load_result<std::vector<conf::test_case>>* extra_ = nullptr;
};

}  // namespace harness_test
