// SPDX-License-Identifier: MIT
// Helpers the check engine's files share (check_analysis.cpp, check_fetch.cpp,
// resume.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssec/live/check.hpp"

namespace ssec::live::detail {

std::string lower(std::string s);

/// Offset of the start of the unterminated last block, or nullopt when the
/// bytes end on a frame boundary (a blank line) or are empty.
std::optional<std::uint64_t> unterminated_block(std::string_view bytes);

/// Adds a finding and counts it as must or should.
void add(check_report& r, check_finding f);

/// The reads of a body, folded as they arrive: how many, where the latest
/// began (its stream offset) and when it arrived (seconds since the start),
/// the first arrival and the longest wait between two. Constant size: a slow
/// producer's stream may take a read per byte for hours, and a list of
/// reads would then outgrow the body it describes.
struct reads {
  std::size_t count = 0;
  std::uint64_t latest_start = 0;
  double first_at = 0;
  double latest_at = 0;
  double max_gap = 0;  ///< The longest time between two consecutive reads.
  void add(std::uint64_t offset, double at_seconds) {
    if (count == 0) first_at = at_seconds;
    else max_gap = std::max(max_gap, at_seconds - latest_at);
    latest_start = offset;
    latest_at = at_seconds;
    ++count;
  }
};

/// True when analyze judges the response's body as a stream (a 200, or no
/// HTTP at all, with a connection).
bool is_stream(const capture& c) noexcept;

/// True when the read stopped where the user asked (--max-events,
/// --max-bytes, --max-time): the end of the stream was never read.
bool is_sample(const capture& c) noexcept;

/// The reference parser fed a body's reads as they arrived: which read
/// completed each event, the as-received chunking's digest, the event count
/// a read stops at (--max-events). Holds counters, not events. Reads `rd`
/// (which must outlive it), to which each read is added before it is fed.
class arrival_pass {
 public:
  arrival_pass(const sse::limits& lim, const reads& rd);
  ~arrival_pass();
  arrival_pass(const arrival_pass&) = delete;
  arrival_pass& operator=(const arrival_pass&) = delete;
  /// Feeds read number `index` (rd's entry `index`). False once the parser
  /// stopped at a fatal error: feed nothing more, and do not finish.
  bool feed(std::size_t index, std::string_view bytes);
  /// The end of the body, after the last read (unless feed returned false).
  void finish();
  /// Events dispatched so far.
  std::size_t events() const noexcept;
  /// True once the parser stopped at a fatal error (a limit).
  bool stopped() const noexcept;
  /// What the pass counted, for judge (defined in check_analysis.cpp).
  struct impl;
  const impl& state() const noexcept { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

/// The whole-body checks, followed read by read so that the body is not
/// held: its size, its first bytes (the excerpt of an error page), where its
/// unterminated last block begins, and its re-parses under other chunkings,
/// compared by digest. A body of at most `held_whole` bytes is held and
/// re-parsed at the end: whole, byte by byte (up to 64 KiB), and under every
/// random seed. A larger one is let go as it grows past that: from then on
/// one parse follows it, the first random seed's split, and the reference
/// it is compared with is the as-received parse; its memory is one random
/// chunk (tools/docs/check.md, "Chunkings").
class body_pass {
 public:
  static constexpr std::uint64_t held_whole = std::uint64_t{4} << 20;
  /// A held body of at most this many bytes is also re-parsed byte by byte.
  static constexpr std::uint64_t byte_by_byte_max = std::uint64_t{64} << 10;
  static constexpr std::size_t head_size = 256;  // more than an excerpt shows

  /// `one_read`: the body will come as one read, so the as-received parse is
  /// the whole parse and no reference parse is made. `parse`: false when
  /// the body is not a stream (no re-parse is wanted).
  body_pass(const sse::limits& lim, std::uint64_t chunking_seeds, bool one_read, bool parse = true);
  ~body_pass();
  body_pass(const body_pass&) = delete;
  body_pass& operator=(const body_pass&) = delete;
  /// The next read's bytes.
  void feed(std::string_view bytes);
  /// The end of the body, after the last read.
  void finish();

  std::uint64_t size() const noexcept;
  /// The first head_size bytes (all of a shorter body).
  std::string_view head() const noexcept;
  /// unterminated_block of the whole body.
  std::optional<std::uint64_t> unterminated() const noexcept;
  /// The chunkings re-parsed, by name, each with its digest, after finish();
  /// the whole parse's digest is reference(), unless the body was one read
  /// or was let go.
  struct chunking {
    std::string name;
    std::uint64_t digest;
  };
  const std::vector<chunking>& chunkings() const noexcept;
  std::optional<std::uint64_t> reference() const noexcept;
  /// True when the body outgrew held_whole (and was not parsed whole).
  bool let_go() const noexcept;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

/// analyze's report of a response whose body was followed by `body`, read as
/// `rd`, after the as-received parse `arrived` (null unless is_stream(meta)),
/// but for the producer rules' findings (add_producer adds them, last). Only
/// meta's members other than `pieces` are read.
check_report judge(const capture& meta, const body_pass& body, const reads& rd, const arrival_pass* arrived,
                   const check_options& opt);

/// Adds the producer rules' report to a report made by judge: frames,
/// findings, and the counts of those not stored.
void add_producer(const sse::dialect::validation_report& v, check_report& r);

}  // namespace ssec::live::detail
