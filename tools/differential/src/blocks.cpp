// SPDX-License-Identifier: MIT
#include "ssec/differential/blocks.hpp"

#include <algorithm>

#include "sse/errc.hpp"
#include "sse/parser.hpp"

namespace ssec::differential {

std::string_view to_string(block_kind k) noexcept {
  switch (k) {
    case block_kind::dispatched: return "data";
    case block_kind::empty_data: return "empty-data";
    case block_kind::no_data: return "no-data";
    case block_kind::blank: return "blank";
    case block_kind::comment_only: return "comment-only";
    case block_kind::unterminated_tail: return "unterminated-tail";
  }
  return "data";
}

namespace {

// Records the end of every block from the parser's hooks: on_event (step 5),
// on_no_dispatch (step 2), and the discarded_at_eof diagnostic (end of stream).
struct block_recorder {
  std::vector<block> blocks;
  std::optional<std::uint64_t> comment;  // the first comment since the last block ended

  sse::action on_event(const sse::event_view& e) {
    blocks.push_back({e.data.empty() ? block_kind::empty_data : block_kind::dispatched, e.offset});
    comment.reset();
    return sse::action::proceed;
  }
  void on_comment(std::string_view /*text*/, std::uint64_t offset) {
    if (!comment) comment = offset;
  }
  void on_no_dispatch(std::uint64_t offset, bool had_fields) {
    if (had_fields) blocks.push_back({block_kind::no_data, offset});
    else if (comment) blocks.push_back({block_kind::comment_only, *comment});
    else blocks.push_back({block_kind::blank, offset});
    comment.reset();
  }
  void on_diagnostic(const sse::diagnostic& d) {
    if (d.code == sse::diag::discarded_at_eof) blocks.push_back({block_kind::unterminated_tail, d.offset});
  }
};

}  // namespace

std::vector<block> reference_blocks(std::string_view input) {
  block_recorder r;
  sse::parser<block_recorder> p(r);
  p.feed(input);
  p.finish();
  return std::move(r.blocks);
}

std::vector<edit> edit_script(std::size_t n, std::size_t m, const std::function<bool(std::size_t, std::size_t)>& same,
                              std::size_t max_cells) {
  std::vector<edit> out;
  std::size_t head = 0;
  while (head < n && head < m && same(head, head)) ++head;
  std::size_t tail = 0;
  while (tail < n - head && tail < m - head && same(n - 1 - tail, m - 1 - tail)) ++tail;
  for (std::size_t i = 0; i < head; ++i) out.push_back({edit::op::keep, i, i});
  const std::size_t rn = n - head - tail, rm = m - head - tail;
  // lcs[i][j]: the longest common subsequence of want[head+i..] and got[head+j..].
  std::vector<std::uint32_t> lcs;
  const bool small = rn == 0 || rm == 0 || rn * rm <= max_cells;
  if (small && rn > 0 && rm > 0) {
    lcs.assign((rn + 1) * (rm + 1), 0);
    const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (rm + 1) + j]; };
    for (std::size_t i = rn; i-- > 0;) {
      for (std::size_t j = rm; j-- > 0;) {
        at(i, j) = same(head + i, head + j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
  }
  const auto cell = [&](std::size_t i, std::size_t j) -> std::uint32_t {
    return lcs.empty() ? 0 : lcs[i * (rm + 1) + j];
  };
  std::size_t i = 0, j = 0;
  std::vector<edit> removes, inserts;
  const auto flush = [&] {
    out.insert(out.end(), removes.begin(), removes.end());
    out.insert(out.end(), inserts.begin(), inserts.end());
    removes.clear();
    inserts.clear();
  };
  while (i < rn || j < rm) {
    if (i < rn && j < rm && !lcs.empty() && same(head + i, head + j) && cell(i, j) == cell(i + 1, j + 1) + 1) {
      flush();
      out.push_back({edit::op::keep, head + i, head + j});
      ++i;
      ++j;
    } else if (i < rn && (j == rm || lcs.empty() || cell(i + 1, j) >= cell(i, j + 1))) {
      removes.push_back({edit::op::remove, head + i, head + j});
      ++i;
    } else {
      inserts.push_back({edit::op::insert, head + i, head + j});
      ++j;
    }
  }
  flush();
  for (std::size_t k = 0; k < tail; ++k) out.push_back({edit::op::keep, n - tail + k, m - tail + k});
  return out;
}

std::optional<std::vector<block_edit>> align_blocks(const std::vector<block>& blocks, std::size_t m,
                                                    const std::function<bool(std::size_t, std::size_t)>& same,
                                                    const std::function<bool(block_kind, std::size_t)>& may_absorb,
                                                    std::size_t max_cells) {
  const std::size_t n = blocks.size();
  if (n != 0 && m != 0 && n * m > max_cells) return std::nullopt;
  std::vector<std::size_t> want_of(n + 1, 0);  // reference events before block i
  for (std::size_t i = 0; i < n; ++i) want_of[i + 1] = want_of[i] + (dispatches(blocks[i].kind) ? 1 : 0);
  // score[i][j]: the best score of blocks[i..] against answer events [j..].
  // A kept event outweighs anything else; a changed event (a reference event
  // and an answer event paired though they differ) and an absorbed one count
  // alike, a change first, and among blocks an absorbed event prefers a
  // block without data, then the tail, then comments, then a blank line.
  constexpr std::uint32_t keep_score = 64, pair_score = 16;
  const auto rank = [](block_kind k) -> std::uint32_t {
    return k == block_kind::no_data             ? 3
           : k == block_kind::unterminated_tail ? 2
           : k == block_kind::comment_only      ? 1
                                                : 0;
  };
  std::vector<std::uint32_t> score((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return score[i * (m + 1) + j]; };
  const auto keeps = [&](std::size_t i, std::size_t j) { return dispatches(blocks[i].kind) && same(want_of[i], j); };
  const auto absorbs = [&](std::size_t i, std::size_t j) {
    return !dispatches(blocks[i].kind) && may_absorb(blocks[i].kind, j);
  };
  const auto keep_at = [&](std::size_t i, std::size_t j) { return at(i + 1, j + 1) + keep_score; };
  const auto change_at = [&](std::size_t i, std::size_t j) { return at(i + 1, j + 1) + pair_score + 4; };
  const auto absorb_at = [&](std::size_t i, std::size_t j) {
    return at(i + 1, j + 1) + pair_score + rank(blocks[i].kind);
  };
  for (std::size_t i = n + 1; i-- > 0;) {
    for (std::size_t j = m + 1; j-- > 0;) {
      if (i == n && j == m) continue;
      std::uint32_t best = 0;
      if (i < n && j < m && keeps(i, j)) best = std::max(best, keep_at(i, j));
      if (i < n && j < m && dispatches(blocks[i].kind)) best = std::max(best, change_at(i, j));
      if (i < n && j < m && absorbs(i, j)) best = std::max(best, absorb_at(i, j));
      if (i < n) best = std::max(best, at(i + 1, j));
      if (j < m) best = std::max(best, at(i, j + 1));
      at(i, j) = best;
    }
  }
  std::vector<block_edit> out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    const std::uint32_t here = at(i, j);
    if (i < n && j < m && keeps(i, j) && here == keep_at(i, j)) {
      out.push_back({block_edit::op::keep, i, want_of[i], j});
      ++i, ++j;
    } else if (i < n && j < m && dispatches(blocks[i].kind) && !keeps(i, j) && here == change_at(i, j)) {
      out.push_back({block_edit::op::remove, i, want_of[i], j});
      out.push_back({block_edit::op::insert, i + 1, want_of[i + 1], j});
      ++i, ++j;
    } else if (i < n && j < m && absorbs(i, j) && here == absorb_at(i, j)) {
      out.push_back({block_edit::op::absorb, i, want_of[i], j});
      ++i, ++j;
    } else if (i < n && here == at(i + 1, j)) {
      if (dispatches(blocks[i].kind)) out.push_back({block_edit::op::remove, i, want_of[i], j});
      ++i;
    } else {
      out.push_back({block_edit::op::insert, i, want_of[i], j});
      ++j;
    }
  }
  return out;
}

}  // namespace ssec::differential
