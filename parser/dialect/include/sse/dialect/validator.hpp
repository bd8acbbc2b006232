// SPDX-License-Identifier: MIT
// The producer validator: runs a dialect's producer rules (spec/*.yaml,
// `rules:`) over a stream, per frame and across frames, and reports each
// breach as a finding with its rule, frame index and byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/parser.hpp"

namespace sse::dialect {

/// One breach of a producer rule.
struct finding {
  const rule_spec* rule = nullptr;  ///< The catalog's rule (id, severity, text).
  std::size_t frame = 0;            ///< 0-based frame index; the frame count for end-of-stream findings.
  std::uint64_t offset = 0;         ///< Stream offset of the frame's block (see spec/FORMAT.md section 3).
  std::string expected;             ///< What the rule wanted.
  std::string seen;                 ///< What the stream had.
};

/// The JSON form of a finding (spec/FORMAT.md section 3).
nlohmann::ordered_json to_json(const finding& f);

/// Incremental validator for one stream. Feed it every frame in order, the
/// wire diagnostics as they come, then finish(). Not thread-safe.
class validator {
 public:
  /// `d` must outlive the validator.
  explicit validator(const dialect_spec& d);
  ~validator();
  validator(validator&&) noexcept;
  validator& operator=(validator&&) noexcept;

  /// One frame: its decoded event (from a decoder of the same dialect) and, if
  /// the caller has them, the exact bytes of its block, from its first line
  /// through the blank line that ends it (empty: the block checks
  /// lf_line_ends, data_only and data_space are skipped for this frame).
  void on_frame(const event_view& ev, std::string_view block = {});

  /// A wire diagnostic (invalid_utf8 feeds the utf8 check).
  void on_diagnostic(const diagnostic& d);

  /// The HTTP response's Content-Type header value, when the caller has it
  /// (a live endpoint); the content_type check runs only if this is called.
  void on_content_type(std::string_view header_value);

  /// The stream ended. `tail` is the discarded unterminated part (from the
  /// discarded_at_eof diagnostic's offset to the end), or empty; `stream_size`
  /// is the byte count, the offset of end-of-stream findings.
  void finish(std::uint64_t stream_size, std::uint64_t tail_offset = 0, std::string_view tail = {});

  /// Findings so far, in the order found.
  const std::vector<finding>& findings() const noexcept;
  /// Frames seen so far.
  std::size_t frames() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The outcome of validating a whole stream.
struct validation_report {
  std::string dialect;
  std::size_t frames = 0;
  std::vector<finding> findings;
  std::size_t must = 0;         ///< Findings of severity must.
  std::size_t should = 0;       ///< Findings of severity should.
  errc wire_status = errc::ok;  ///< A fatal wire error (limit), if any; frames before it were checked.
  std::uint64_t wire_error_offset = 0;
  /// False when the end of the stream was not graded: a wire limit stopped
  /// reading (wire_status), or the caller read only a sample (validate_stream's
  /// `read_to_end`). End-of-stream rules (last frame, open pairs, an
  /// unterminated frame) then report nothing: the tail was never read.
  bool end_graded = true;
  /// True when no MUST rule is broken.
  bool conforming() const noexcept { return must == 0 && wire_status == errc::ok; }
};

/// Decodes and validates a stream held in memory; `content_type`, when given,
/// is the HTTP Content-Type the stream came with (see on_content_type).
/// `read_to_end` false: `bytes` is a sample (the stream went on), so the
/// end-of-stream rules are not run (see validation_report::end_graded).
validation_report validate_stream(const dialect_spec& d, std::string_view bytes, limits lim = {},
                                  std::optional<std::string_view> content_type = std::nullopt, bool read_to_end = true);

/// The bytes of the block starting at `offset` in `stream`, through its
/// terminating blank line (or to the end when unterminated).
std::string_view block_at(std::string_view stream, std::uint64_t offset) noexcept;

}  // namespace sse::dialect
