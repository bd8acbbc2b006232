// SPDX-License-Identifier: MIT
// What the reference did with each block of a stream, and an edit script
// between two event lists: how `sse-conform fuzz` names an event that an
// implementation dispatched and the reference did not (or the other way
// round) by the step of the WHATWG algorithm that decided it
// (tools/docs/fuzz.md, "Fingerprints").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace ssec::differential {

/// How the reference ended one block (a run of lines up to a blank line, or
/// the stream's end).
enum class block_kind {
  dispatched,         ///< A blank line dispatched it with data.
  empty_data,         ///< Dispatched with empty data (`data` lines with empty values).
  no_data,            ///< Field lines but no `data`: step 2 dispatched nothing.
  blank,              ///< A blank line after nothing: step 2 dispatched nothing.
  comment_only,       ///< A blank line after comments only: step 2 dispatched nothing.
  unterminated_tail,  ///< Lines the stream's end left without a blank line: discarded.
};

/// "data", "empty-data", "no-data", "blank", "comment-only", "unterminated-tail".
std::string_view to_string(block_kind k) noexcept;

/// True for the kinds that dispatch an event.
constexpr bool dispatches(block_kind k) noexcept { return k == block_kind::dispatched || k == block_kind::empty_data; }

struct block {
  block_kind kind = block_kind::dispatched;
  std::uint64_t offset = 0;  ///< The block's first field line (or the blank line, or the comment).
};

/// The blocks of `input` as the reference parser (default limits, fed whole)
/// ends them, in stream order: one dispatching block per event of the
/// reference's log, in the same order.
std::vector<block> reference_blocks(std::string_view input);

/// One step of an edit script from `want` to `got`.
struct edit {
  enum class op { keep, remove, insert } what = op::keep;
  std::size_t want = 0;  ///< Index into want (keep, remove); for insert, how many of want come before it.
  std::size_t got = 0;   ///< Index into got (keep, insert); for remove, how many of got come before it.
};

/// A shortest edit script (a longest common subsequence) turning `n` items
/// of want into `m` items of got, where `same(i, j)` says want[i] equals
/// got[j]. Removes come before inserts within one run of changes. Past
/// `max_cells` (n * m after the common head and tail), the middle is
/// removed and inserted whole.
std::vector<edit> edit_script(std::size_t n, std::size_t m, const std::function<bool(std::size_t, std::size_t)>& same,
                              std::size_t max_cells = 1u << 20);

/// One step of an alignment of an answer's events with the reference's blocks.
struct block_edit {
  enum class op {
    keep,    ///< A dispatching block whose event the answer has.
    absorb,  ///< A block the reference dispatched nothing for, an event in the answer.
    remove,  ///< A dispatching block whose event the answer lacks.
    insert,  ///< An answer event no block explains.
  } what = op::keep;
  std::size_t block = 0;  ///< Index into the blocks (keep, absorb, remove).
  std::size_t want = 0;   ///< The reference event's index (keep, remove); how many come before (absorb, insert).
  std::size_t got = 0;    ///< The answer event's index (keep, absorb, insert).
};

/// Aligns `m` answer events with `blocks` (reference_blocks), best first by
/// score: a kept event (equal to the reference's) outweighs everything; a
/// changed one (a reference event and a differing answer event paired: a
/// remove and an insert in a row) and an absorbed one (an answer event for a
/// block the reference dispatched nothing for) count less and alike, a change
/// winning a tie, and an absorbed event prefers a block of no-data, then the
/// unterminated tail, comment-only, blank. `same(w, g)`: reference event w
/// equals answer event g; `may_absorb(kind, g)`: answer event g could come
/// from a block of that kind. nullopt past `max_cells` (blocks × m) cells.
std::optional<std::vector<block_edit>> align_blocks(const std::vector<block>& blocks, std::size_t m,
                                                    const std::function<bool(std::size_t, std::size_t)>& same,
                                                    const std::function<bool(block_kind, std::size_t)>& may_absorb,
                                                    std::size_t max_cells = 1u << 20);

}  // namespace ssec::differential
