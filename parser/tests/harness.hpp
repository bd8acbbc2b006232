// SPDX-License-Identifier: MIT
// Test harness for the wire parser: runs one input under every chunking we
// care about (whole, byte by byte, seeded random splits, every two-chunk and,
// for short inputs, every three-chunk split), feeding each chunk from an
// exactly sized heap copy so that AddressSanitizer catches any overread, and
// compares everything the parser makes observable with one expected outcome.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sse/chunking.hpp"
#include "sse/errc.hpp"
#include "sse/parser.hpp"
#include "sse/utf8.hpp"
#include "ssec/support/escape.hpp"

namespace sse {
/// GoogleTest prints codes by name ("line_too_long") instead of as bytes.
inline void PrintTo(errc code, std::ostream* os) { *os << to_string(code); }
inline void PrintTo(diag code, std::ostream* os) { *os << to_string(code); }
}  // namespace sse

namespace sse_test {

/// `s` escaped in the case log syntax (ssec::escape, without the quotes), so
/// CR, NUL and broken UTF-8 are visible in failure messages and paste into a
/// case; cut after `max_bytes` bytes on a character boundary.
inline std::string escape(std::string_view s, std::size_t max_bytes = 400) {
  if (s.size() <= max_bytes) return ssec::escape(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return ssec::escape(s.substr(0, cut)) + "...(" + std::to_string(s.size()) + " bytes)";
}

/// A dispatched event as the tests expect it; offset = event_view::offset.
struct event_record {
  std::string type{};
  std::string data{};
  std::string id{};
  std::uint64_t offset = 0;
  friend bool operator==(const event_record&, const event_record&) = default;
};

struct comment_record {
  std::string text{};
  std::uint64_t offset = 0;
  friend bool operator==(const comment_record&, const comment_record&) = default;
};

struct diag_record {
  sse::diag code{};
  std::uint64_t offset = 0;
  std::string detail{};
  friend bool operator==(const diag_record&, const diag_record&) = default;
};

inline void PrintTo(const event_record& e, std::ostream* os);
inline void PrintTo(const comment_record& c, std::ostream* os);
inline void PrintTo(const diag_record& d, std::ostream* os);

/// Everything observable about one parse. Tests fill one in as the
/// expectation; the harness fills one per chunking and compares.
struct outcome {
  // Every member has an initializer so designated initializers may omit any.
  std::vector<event_record> events{};
  std::vector<std::uint64_t> retries{};  ///< Every on_retry, in order (the final retry() must be the last).
  std::vector<comment_record> comments{};
  std::vector<diag_record> diagnostics{};
  std::string last_event_id{};            ///< parser::last_event_id() at the end.
  sse::errc status = sse::errc::ok;       ///< The fatal code, or ok after a clean finish().
  std::uint64_t error_offset = 0;         ///< parser::error_offset() when status is fatal.
  std::vector<std::uint64_t> pauses{};    ///< Stream offsets at which feed() returned errc::paused.
  std::vector<std::string> violations{};  ///< API contract breaches the harness saw; always expected empty.
};

/// How the harness drives the parser.
struct run_options {
  sse::limits lim{};
  bool pause_each_event = false;              ///< The visitor returns action::pause for every event.
  std::optional<std::size_t> abort_at_event;  ///< The visitor returns action::abort for this event (0-based).
  std::size_t split_points_up_to = 1024;      ///< Every two-chunk split for inputs at most this long.
  std::size_t three_way_splits_up_to = 40;    ///< Every three-chunk split for inputs at most this long.
  std::uint64_t random_seeds = 16;            ///< Seeds 1..N of sse::chunking::random.
};

/// One way of cutting the input, with a name that reproduces it.
struct chunking_plan {
  std::string name;
  std::vector<std::string_view> chunks;
};

inline std::vector<chunking_plan> all_chunkings(std::string_view input, const run_options& opt) {
  namespace ch = sse::chunking;
  std::vector<chunking_plan> plans;
  plans.push_back({"whole", ch::whole(input)});
  plans.push_back({"bytes", ch::bytes(input)});
  for (std::uint64_t seed = 1; seed <= opt.random_seeds; ++seed) {
    plans.push_back({"random seed=" + std::to_string(seed), ch::random(input, seed)});
  }
  if (input.size() <= opt.split_points_up_to) {
    for (std::size_t at = 0; at <= input.size(); ++at) {
      plans.push_back({"split_at(" + std::to_string(at) + ")", ch::split_at(input, at)});
    }
  }
  if (input.size() <= opt.three_way_splits_up_to) {
    for (std::size_t i = 1; i < input.size(); ++i) {
      for (std::size_t j = i + 1; j < input.size(); ++j) {
        plans.push_back({"three chunks cut at " + std::to_string(i) + "," + std::to_string(j),
                         {input.substr(0, i), input.substr(i, j - i), input.substr(j)}});
      }
    }
  }
  return plans;
}

/// An exactly sized heap copy of `bytes`: reading one byte past its end is a
/// heap-buffer-overflow under ASan.
class exact_copy {
 public:
  explicit exact_copy(std::string_view bytes) : size_(bytes.size()), bytes_(new char[bytes.size()]) {
    if (size_ != 0) std::memcpy(bytes_.get(), bytes.data(), size_);
  }
  std::string_view view() const noexcept { return {bytes_.get(), size_}; }

 private:
  std::size_t size_;
  std::unique_ptr<char[]> bytes_;
};

/// Feeds `chunk` to `p` from an exact-size copy.
template <class Parser>
sse::feed_result feed_exact(Parser& p, std::string_view chunk) {
  const exact_copy copy(chunk);
  return p.feed(copy.view());
}

/// EXPECT_TRUE(fed(p.feed(...), consumed, status)) with a readable failure.
inline testing::AssertionResult fed(sse::feed_result r, std::size_t consumed, sse::errc status) {
  if (r.consumed == consumed && r.status == status) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "feed returned {consumed " << r.consumed << ", " << sse::to_string(r.status)
                                     << "}, expected {consumed " << consumed << ", " << sse::to_string(status) << "}";
}

/// The visitor the harness drives the parser with: records every callback and
/// checks the callback contracts (views valid UTF-8, type never empty).
class recording_visitor {
 public:
  recording_visitor(outcome& out, const run_options& opt) : out_(&out), opt_(&opt) {}

  sse::action on_event(const sse::event_view& e) {
    if (e.type.empty()) out_->violations.push_back("event with an empty type");
    if (!sse::utf8::is_valid(e.type) || !sse::utf8::is_valid(e.data) || !sse::utf8::is_valid(e.last_event_id)) {
      out_->violations.push_back("event view holds invalid UTF-8");
    }
    const std::size_t index = out_->events.size();
    out_->events.push_back({std::string(e.type), std::string(e.data), std::string(e.last_event_id), e.offset});
    if (opt_->abort_at_event == index) return sse::action::abort;
    if (opt_->pause_each_event) return sse::action::pause;
    return sse::action::proceed;
  }
  void on_retry(std::uint64_t ms) { out_->retries.push_back(ms); }
  void on_comment(std::string_view text, std::uint64_t offset) {
    if (!sse::utf8::is_valid(text)) out_->violations.push_back("comment holds invalid UTF-8");
    out_->comments.push_back({std::string(text), offset});
  }
  void on_diagnostic(const sse::diagnostic& d) {
    out_->diagnostics.push_back({d.code, d.offset, std::string(d.detail)});
  }

 private:
  outcome* out_;
  const run_options* opt_;
};

/// Parses `chunks` (which concatenate to `input`) with a fresh parser, then
/// finishes, and returns what was observed. Also checks the feed() contract:
/// ok consumes the whole chunk, paused resumes from `consumed`, a fatal code
/// is sticky (consumes nothing, repeated by feed() and finish()), offset()
/// counts consumed bytes, and feed() after finish() gives errc::finished.
inline outcome observe(std::string_view input, const std::vector<std::string_view>& chunks, const run_options& opt) {
  outcome out;
  recording_visitor visitor(out, opt);
  sse::parser<recording_visitor> p(visitor, opt.lim);
  auto violation = [&](std::string what) { out.violations.push_back(std::move(what)); };

  std::uint64_t consumed_total = 0;
  sse::errc status = sse::errc::ok;
  for (const std::string_view chunk : chunks) {
    std::string_view rest = chunk;
    for (;;) {
      const exact_copy copy(rest);
      const sse::feed_result r = p.feed(copy.view());
      if (r.consumed > rest.size()) {
        violation("feed consumed " + std::to_string(r.consumed) + " of a " + std::to_string(rest.size()) +
                  "-byte chunk");
        return out;
      }
      consumed_total += r.consumed;
      if (p.offset() != consumed_total) violation("offset() disagrees with the bytes consumed");
      if (r.status == sse::errc::ok) {
        if (r.consumed != rest.size()) violation("feed returned ok without consuming the whole chunk");
        break;
      }
      if (r.status == sse::errc::paused) {
        if (!opt.pause_each_event) violation("paused although the visitor never asked to");
        if (r.consumed == 0) {
          violation("paused without consuming anything");
          break;
        }
        // A CR that ends the chunk ends the line; its LF, if any, is in the
        // next chunk and cannot have been consumed yet. Count it as part of
        // the terminator so the expected offsets hold for every chunking.
        std::uint64_t at = consumed_total;
        if (r.consumed == rest.size() && at < input.size() && input[at - 1] == '\r' && input[at] == '\n') ++at;
        out.pauses.push_back(at);
        rest.remove_prefix(r.consumed);
        if (rest.empty()) break;
        continue;  // resume with the rest of this chunk
      }
      status = r.status;
      if (!sse::is_fatal(status)) violation("feed returned " + std::string(sse::to_string(status)));
      break;
    }
    if (status != sse::errc::ok) break;
  }

  if (status == sse::errc::ok) status = p.finish();
  out.status = status;
  out.error_offset = sse::is_fatal(status) ? p.error_offset() : 0;
  out.last_event_id = std::string(p.last_event_id());
  if (p.retry() != (out.retries.empty() ? std::nullopt : std::optional<std::uint64_t>(out.retries.back()))) {
    violation("retry() is not the last retry reported");
  }
  if (status == sse::errc::ok && p.offset() != input.size()) violation("offset() at the end is not the input size");

  // Whatever the stream ended with is sticky: later calls repeat it and
  // deliver nothing. After a clean finish() that code is errc::finished.
  const sse::errc sticky = status == sse::errc::ok ? sse::errc::finished : status;
  const std::size_t events_before = out.events.size();
  const exact_copy more("data: more\n\n");
  const sse::feed_result again = p.feed(more.view());
  if (again.consumed != 0 || again.status != sticky) {
    violation("feed after the end gave " + std::string(sse::to_string(again.status)) + " consuming " +
              std::to_string(again.consumed) + ", expected " + std::string(sse::to_string(sticky)));
  }
  if (p.finish() != sticky) violation("finish after the end did not repeat " + std::string(sse::to_string(sticky)));
  if (p.error() != sticky) violation("error() is not " + std::string(sse::to_string(sticky)));
  if (out.events.size() != events_before) violation("events delivered after the end");
  return out;
}

inline std::string describe(const event_record& e) {
  return "event type=\"" + escape(e.type) + "\" data=\"" + escape(e.data) + "\" id=\"" + escape(e.id) +
         "\" off=" + std::to_string(e.offset);
}
inline std::string describe(const comment_record& c) {
  return "comment \"" + escape(c.text) + "\" off=" + std::to_string(c.offset);
}
inline std::string describe(const diag_record& d) {
  return "diag " + std::string(sse::to_string(d.code)) + " off=" + std::to_string(d.offset) + " detail=\"" +
         escape(d.detail) + "\"";
}
inline void PrintTo(const event_record& e, std::ostream* os) { *os << describe(e); }
inline void PrintTo(const comment_record& c, std::ostream* os) { *os << describe(c); }
inline void PrintTo(const diag_record& d, std::ostream* os) { *os << describe(d); }
inline std::string describe(std::uint64_t n) { return std::to_string(n); }
inline std::string describe(const std::string& s) { return s; }

inline std::string describe(const outcome& o) {
  std::string s;
  for (const auto& e : o.events) s += "  " + describe(e) + "\n";
  for (const auto& r : o.retries) s += "  retry " + std::to_string(r) + "\n";
  for (const auto& c : o.comments) s += "  " + describe(c) + "\n";
  for (const auto& d : o.diagnostics) s += "  " + describe(d) + "\n";
  for (const auto& p : o.pauses) s += "  paused at " + std::to_string(p) + "\n";
  for (const auto& v : o.violations) s += "  VIOLATION " + v + "\n";
  s += "  last_event_id=\"" + escape(o.last_event_id) + "\" status=" + std::string(sse::to_string(o.status));
  if (sse::is_fatal(o.status)) s += " error_offset=" + std::to_string(o.error_offset);
  return s + "\n";
}

template <class T>
std::optional<std::string> first_difference_in(std::string_view what, const std::vector<T>& want,
                                               const std::vector<T>& got) {
  const std::size_t common = std::min(want.size(), got.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (!(want[i] == got[i])) {
      return std::string(what) + " #" + std::to_string(i) + " differs\n    expected: " + describe(want[i]) +
             "\n    actual:   " + describe(got[i]);
    }
  }
  if (want.size() == got.size()) return std::nullopt;
  std::string s =
      std::string(what) + ": expected " + std::to_string(want.size()) + ", got " + std::to_string(got.size());
  if (got.size() > common) s += "; first unexpected: " + describe(got[common]);
  else s += "; first missing: " + describe(want[common]);
  return s;
}

/// The first way `got` differs from `want`, in a line a human can act on.
inline std::optional<std::string> first_difference(const outcome& want, const outcome& got) {
  if (auto d = first_difference_in("violations", want.violations, got.violations)) return d;
  if (auto d = first_difference_in("event", want.events, got.events)) return d;
  if (auto d = first_difference_in("retry", want.retries, got.retries)) return d;
  if (auto d = first_difference_in("comment", want.comments, got.comments)) return d;
  if (auto d = first_difference_in("diagnostic", want.diagnostics, got.diagnostics)) return d;
  if (auto d = first_difference_in("pause", want.pauses, got.pauses)) return d;
  if (want.last_event_id != got.last_event_id) {
    return "last_event_id: expected \"" + escape(want.last_event_id) + "\", got \"" + escape(got.last_event_id) + "\"";
  }
  if (want.status != got.status) {
    return "status: expected " + std::string(sse::to_string(want.status)) + ", got " +
           std::string(sse::to_string(got.status));
  }
  if (want.error_offset != got.error_offset) {
    return "error_offset: expected " + std::to_string(want.error_offset) + ", got " + std::to_string(got.error_offset);
  }
  return std::nullopt;
}

inline std::string chunk_sizes(const std::vector<std::string_view>& chunks) {
  std::string s;
  for (std::size_t i = 0; i < chunks.size() && i < 64; ++i) s += (i ? "," : "") + std::to_string(chunks[i].size());
  if (chunks.size() > 64) s += ",...(" + std::to_string(chunks.size()) + " chunks)";
  return s;
}

/// The caller's file and line, as a default argument takes them. Not
/// std::source_location: libstdc++ builds it on a builtin clang 14 lacks, so
/// clang-tidy (tools/tidy.sh) could not read any test that includes this file.
struct call_site {
  const char* file;
  int line;
};

/// Parses `input` under every chunking of all_chunkings() and expects each
/// outcome to equal `expected`. One failure per call, at the caller's line,
/// naming how many chunkings failed, the first one (name and chunk sizes) and
/// its first difference, then both outcomes in full.
inline void expect_same_under_all_chunkings(std::string_view input, const outcome& expected,
                                            const run_options& opt = {},
                                            call_site where = {__builtin_FILE(), __builtin_LINE()}) {
  const std::vector<chunking_plan> plans = all_chunkings(input, opt);
  std::size_t failed = 0;
  std::string report;
  for (const chunking_plan& plan : plans) {
    const outcome got = observe(input, plan.chunks, opt);
    const auto difference = first_difference(expected, got);
    if (!difference) continue;
    if (failed++ == 0) {
      report = "first failing chunking: " + plan.name + " (chunk sizes " + chunk_sizes(plan.chunks) + ")\n  " +
               *difference + "\n expected outcome:\n" + describe(expected) + " actual outcome:\n" + describe(got);
    }
  }
  if (failed != 0) {
    ADD_FAILURE_AT(where.file, where.line)
        << "input \"" << escape(input) << "\" (" << input.size() << " bytes) failed under " << failed << " of "
        << plans.size() << " chunkings\n " << report;
  }
}

/// A named input with its expected outcome, for table-driven tests.
struct parse_case {
  std::string name;
  std::string input;
  outcome expected;
};

/// Runs every case under every chunking; each failure names its case.
inline void run_cases(const std::vector<parse_case>& cases, const run_options& opt = {}) {
  for (const parse_case& c : cases) {
    SCOPED_TRACE("case: " + c.name);
    expect_same_under_all_chunkings(c.input, c.expected, opt);
  }
}

}  // namespace sse_test
