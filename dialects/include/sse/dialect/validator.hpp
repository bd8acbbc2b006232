// SPDX-License-Identifier: MIT
// The producer validator: runs a dialect's producer rules (spec/*.yaml,
// `rules:`) over a stream, per frame and across frames, and reports each
// breach as a finding with its rule, frame index and byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
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
  bool at_end = false;              ///< Found at the end of the stream, after the last frame (`frame` is the count).
};

/// The JSON form of a finding (spec/FORMAT.md section 3).
nlohmann::ordered_json to_json(const finding& f);

/// Where a finding is, as every text report says it: "frame 3" (counted
/// from 1), or "the end of the stream, after frame 5" for a finding at the
/// end (`frame` is then the frame count; "the end of an empty stream").
std::string frame_text(std::size_t frame, bool at_end);

/// The same as a JSON report's `frame_number`: the frame counted from 1,
/// null at the end of the stream (`frame` keeps the 0-based index).
nlohmann::ordered_json frame_number(std::size_t frame, bool at_end);

/// How many findings of one rule a validator keeps by default; the rest are
/// counted (in the severity counts and not_stored()), not stored, so a
/// stream of millions of bad frames costs no more memory than a hundred.
inline constexpr std::size_t default_max_findings_per_rule = 100;

/// Incremental validator for one stream. Feed it every frame in order, the
/// wire diagnostics as they come, then finish(). Not thread-safe.
class validator {
 public:
  /// `d` must outlive the validator. At most `max_findings_per_rule`
  /// findings of each rule are stored (the first ones, in stream order).
  explicit validator(const dialect_spec& d, std::size_t max_findings_per_rule = default_max_findings_per_rule);
  ~validator();
  validator(validator&&) noexcept;
  validator& operator=(validator&&) noexcept;

  /// One frame: its decoded event (from a decoder of the same dialect) and, if
  /// the caller has them, the exact bytes of its block, from its first line
  /// through the blank line that ends it (empty: the block checks
  /// lf_line_ends, data_only and data_space are skipped for this frame).
  void on_frame(const event_view& ev, std::string_view block = {});

  /// A wire diagnostic, as it comes (before the event of its block): it
  /// feeds the utf8 check (invalid_utf8) and the known_field check
  /// (unknown_field).
  void on_diagnostic(const diagnostic& d);

  /// The HTTP response's Content-Type header value, when the caller has it
  /// (a live endpoint); the content_type check runs only if this is called.
  void on_content_type(std::string_view header_value);

  /// The stream ended. `tail` is the discarded unterminated part (from the
  /// discarded_at_eof diagnostic's offset to the end), or empty; `stream_size`
  /// is the byte count, the offset of end-of-stream findings.
  void finish(std::uint64_t stream_size, std::uint64_t tail_offset = 0, std::string_view tail = {});

  /// Findings stored so far, in the order found.
  const std::vector<finding>& findings() const noexcept;
  /// The stored findings, moved out (findings() is empty after; the counts
  /// stay): for a caller done with the validator, a report without a copy.
  std::vector<finding> take_findings() noexcept;
  /// Findings counted but not stored (beyond a rule's cap).
  std::size_t not_stored() const noexcept;
  /// All findings so far, stored or not, of MUST rules, of SHOULD rules, and
  /// of rules whose basis is a decision.
  std::size_t must() const noexcept;
  std::size_t should() const noexcept;
  std::size_t decision() const noexcept;
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
  std::vector<finding> findings;  ///< Those stored: at most the cap of each rule.
  std::size_t must = 0;           ///< Findings of severity must, stored or not.
  std::size_t should = 0;         ///< Findings of severity should, stored or not.
  std::size_t decision = 0;       ///< Findings of decision-based rules, stored or not.
  std::size_t not_shown = 0;      ///< Findings counted above but not stored (beyond a rule's cap).
  std::uint64_t bytes = 0;        ///< Bytes read (up to a fatal wire error).
  errc wire_status = errc::ok;    ///< A fatal wire error (limit), if any; frames before it were checked.
  std::uint64_t wire_error_offset = 0;
  /// False when the end of the stream was not graded: a wire limit stopped
  /// reading (wire_status), or the caller read only a sample (validate_stream's
  /// `read_to_end`). End-of-stream rules (last frame, open pairs, an
  /// unterminated frame) then report nothing: the tail was never read.
  bool end_graded = true;
  /// True when no MUST rule is broken.
  bool conforming() const noexcept { return must == 0 && wire_status == errc::ok; }
};

/// Decodes and validates a stream fed piece by piece (how `validate` reads a
/// file and validate_stream a string). Holds the rules' memory, the findings
/// stored, and the bytes of the frame in progress for its block checks: at
/// most limits.max_line + limits.max_event_data of them past the latest
/// multiple of validation_slice (a longer block, of many non-data lines, has
/// its block checks skipped). The report is the same however the stream is
/// cut into pieces: a frame whose blank line ends in CR at the end of a piece
/// is judged with the next piece (or at finish), once it is known whether an
/// LF follows. Not thread-safe.
class stream_validator {
 public:
  /// `d` must outlive this object; `content_type` as validate_stream's.
  explicit stream_validator(const dialect_spec& d, limits lim = {},
                            std::optional<std::string_view> content_type = std::nullopt,
                            std::size_t max_findings_per_rule = default_max_findings_per_rule);
  ~stream_validator();
  stream_validator(const stream_validator&) = delete;
  stream_validator& operator=(const stream_validator&) = delete;

  /// Feeds the next piece. False once a fatal wire error (a limit) stopped
  /// reading; what follows is ignored.
  bool feed(std::string_view bytes);
  /// Bytes fed so far; after a fatal wire error, its offset.
  std::uint64_t size() const noexcept;
  /// The findings stored so far, in the order found: a frame's once it is
  /// judged (for printing them while the stream is still open). finish()
  /// adds the end-of-stream ones and hands them all over in the report.
  const std::vector<finding>& findings() const noexcept;
  /// The report of what was fed. `read_to_end` false: the caller stopped
  /// before the end of the stream (a sample), so the end-of-stream rules are
  /// not run (validation_report::end_graded). Call once.
  validation_report finish(bool read_to_end = true);

 private:
  // Gathers its slices straight into impl's buffer.
  friend validation_report validate_pieces(const dialect_spec& d, std::span<const std::string_view> pieces, limits lim,
                                           std::optional<std::string_view> content_type, bool read_to_end,
                                           std::size_t max_findings_per_rule);
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Where a stream_validator cuts off the start of a block longer than it
/// keeps: at each multiple of these bytes of the stream (and at its end),
/// whatever pieces it is fed, so its report does not depend on them.
inline constexpr std::size_t validation_slice = std::size_t{1} << 20;

/// Decodes and validates a stream held in memory; `content_type`, when given,
/// is the HTTP Content-Type the stream came with (see on_content_type).
/// `read_to_end` false: `bytes` is a sample (the stream went on), so the
/// end-of-stream rules are not run (see validation_report::end_graded).
/// `max_findings_per_rule` as the validator's.
validation_report validate_stream(const dialect_spec& d, std::string_view bytes, limits lim = {},
                                  std::optional<std::string_view> content_type = std::nullopt, bool read_to_end = true,
                                  std::size_t max_findings_per_rule = default_max_findings_per_rule);

/// validate_stream of the concatenation of `pieces`, without concatenating
/// them: the same report, byte for byte (as stream_validator's of the same
/// pieces). For a body held as the reads that brought it
/// (ssec::live::capture). The views must stay valid during the call.
validation_report validate_pieces(const dialect_spec& d, std::span<const std::string_view> pieces, limits lim = {},
                                  std::optional<std::string_view> content_type = std::nullopt, bool read_to_end = true,
                                  std::size_t max_findings_per_rule = default_max_findings_per_rule);

/// The bytes of the block starting at `offset` in `stream`, through its
/// terminating blank line (or to the end when unterminated).
std::string_view block_at(std::string_view stream, std::uint64_t offset) noexcept;

}  // namespace sse::dialect
