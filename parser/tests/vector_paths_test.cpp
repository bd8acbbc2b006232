// SPDX-License-Identifier: MIT
// The vector code paths (AVX2 line scan and UTF-8 validation, picked at run
// time; SSE2 otherwise) against plain byte-at-a-time references, with the
// bytes that matter placed at every position around the 16- and 32-byte
// block boundaries. Each input sits in an exactly sized heap allocation, so
// an overread shows under ASan.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"
#include "sse/chunking.hpp"
#include "sse/parser.hpp"
#include "sse/utf8.hpp"

namespace {

using namespace std::string_literals;

using sse_test::exact_copy;

// The oracle: append_repaired is scalar everywhere and replaces nothing
// exactly when the input is well-formed UTF-8.
bool valid_by_repair(std::string_view bytes) {
  std::string out;
  return sse::utf8::append_repaired(out, bytes) == 0;
}

std::string hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += digits[b >> 4];
    out += digits[b & 15];
    out += ' ';
  }
  return out;
}

// Returns false after one failure, so loops over many inputs stop early.
bool is_valid_agrees(std::string_view bytes) {
  const exact_copy copy(bytes);
  const bool got = sse::utf8::is_valid(copy.view());
  const bool want = valid_by_repair(bytes);
  if (got == want) return true;
  ADD_FAILURE() << "is_valid " << got << ", expected " << want << ", for " << bytes.size() << " bytes: " << hex(bytes);
  return false;
}

TEST(VectorPaths, IsValidWithEveryBoundaryByteAtEveryBlockPosition) {
  const std::string interesting =
      "\x00\x41\x7F\x80\x8F\x90\x9F\xA0\xBF\xC0\xC1\xC2\xDF\xE0\xE1\xEC"
      "\xED\xEE\xEF\xF0\xF1\xF3\xF4\xF5\xFF"s;
  // A third or fourth byte is either a continuation or not: these cover both
  // and the bounds.
  const std::string later = "\x41\x80\xBF\xC2\xE0\xF0"s;
  // Sequences of one to four such bytes, in ASCII padding, starting on
  // either side of each block boundary of inputs at and just over one and
  // two blocks.
  for (const std::size_t total : {32u, 33u, 64u, 65u}) {
    for (const std::size_t at : {0u, 15u, 16u, 29u, 30u, 31u, 32u, 33u, 61u, 62u, 63u, 64u}) {
      const auto placed = [&](std::string_view sequence) {
        std::string bytes(total, 'x');
        bytes.replace(at, sequence.size(), sequence);
        return bytes;
      };
      for (const char a : interesting) {
        if (at + 1 <= total && !is_valid_agrees(placed(std::string{a}))) return;
        for (const char b : interesting) {
          if (at + 2 > total) continue;
          if (!is_valid_agrees(placed(std::string{a, b}))) return;
          for (const char c : later) {
            if (at + 3 > total) continue;
            if (!is_valid_agrees(placed(std::string{a, b, c}))) return;
            for (const char d : later) {
              if (at + 4 <= total && !is_valid_agrees(placed(std::string{a, b, c, d}))) return;
            }
          }
        }
      }
    }
  }
}

TEST(VectorPaths, IsValidWithEveryTwoBytePairAcrossTheBlockBoundary) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      for (const std::size_t at : {30u, 31u, 62u}) {
        std::string padded(64, 'y');
        padded[at] = static_cast<char>(a);
        padded[at + 1] = static_cast<char>(b);
        if (!is_valid_agrees(padded)) return;
        // The same pair as the last bytes of the input.
        if (!is_valid_agrees(padded.substr(0, at + 2))) return;
      }
    }
  }
}

TEST(VectorPaths, IsValidOnSeededRandomLongStrings) {
  const std::vector<std::string> pieces = {"a",
                                           "bcdefgh",
                                           "abcdefghijklmnopqrstuvwxyz0123456789",
                                           "\0"s,
                                           "\xC3\xA9",
                                           "\xC2\x80",
                                           "\xDF\xBF",
                                           "\xE2\x82\xAC",
                                           "\xE0\xA0\x80",
                                           "\xED\x9F\xBF",
                                           "\xEE\x80\x80",
                                           "\xE4\xBD\xA0\xE5\xA5\xBD",
                                           "\xF0\x90\x80\x80",
                                           "\xF0\x9F\x98\x80",
                                           "\xF4\x8F\xBF\xBF",
                                           "\xC3",
                                           "\xE2\x82",
                                           "\xF0\x9F\x98",
                                           "\x80",
                                           "\xBF",
                                           "\xC0",
                                           "\xC1",
                                           "\xE0\x80",
                                           "\xED\xA0\x80",
                                           "\xF4\x90",
                                           "\xF5",
                                           "\xFF",
                                           "\xFE"};
  const std::size_t valid_pieces = 15;  // the first fifteen are well-formed
  for (std::uint64_t seed = 1; seed <= 20000; ++seed) {
    sse::chunking::splitmix64 rng(seed);
    const bool only_valid = seed % 2 == 0;
    std::string bytes;
    const auto count = rng.next() % 48;
    for (std::uint64_t i = 0; i < count; ++i) {
      bytes += pieces[rng.next() % (only_valid ? valid_pieces : pieces.size())];
    }
    if (!is_valid_agrees(bytes)) {
      ADD_FAILURE() << "seed " << seed;
      return;
    }
  }
}

// The reference line scan: byte by byte.
sse::detail::line_scan naive_scan(const char* p, const char* end) {
  const char* ascii_end = nullptr;
  for (; p < end && *p != '\r' && *p != '\n'; ++p) {
    if (ascii_end == nullptr && static_cast<unsigned char>(*p) >= 0x80) ascii_end = p;
  }
  return {p, ascii_end != nullptr ? ascii_end : p};
}

TEST(VectorPaths, ScanLineFindsTheLineEndAndTheFirstHighByteFromEveryStart) {
  const char alphabet[] = {'a', 'b', ' ', ':', '\r', '\n', '\x80', '\xC3', '\xFF', '\x7F'};
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    sse::chunking::splitmix64 rng(seed);
    const auto size = static_cast<std::size_t>(rng.next() % 160);
    // Mostly plain bytes, so that lines and ASCII runs are long enough to
    // cross blocks; seeds differ in how rare line ends and high bytes are.
    const std::uint64_t rarity = 1 + seed % 64;
    std::string bytes;
    for (std::size_t i = 0; i < size; ++i) {
      bytes += rng.next() % rarity == 0 ? alphabet[4 + rng.next() % 6] : alphabet[rng.next() % 4];
    }
    const exact_copy copy(bytes);
    const char* begin = copy.view().data();
    const char* end = begin + copy.view().size();
    for (const char* from = begin; from <= end; ++from) {
      const sse::detail::line_scan got = sse::detail::scan_line(from, end);
      const sse::detail::line_scan want = naive_scan(from, end);
      // A line the scan found well formed may say so by ascii_end == eol.
      const bool checked_whole = got.eol == want.eol && got.ascii_end == got.eol &&
                                 valid_by_repair(std::string_view(from, static_cast<std::size_t>(got.eol - from)));
      if (got.eol != want.eol || (got.ascii_end != want.ascii_end && !checked_whole)) {
        ADD_FAILURE() << "seed " << seed << ", from byte " << (from - begin) << ": eol " << (got.eol - begin)
                      << " (expected " << (want.eol - begin) << "), ascii_end " << (got.ascii_end - begin)
                      << " (expected " << (want.ascii_end - begin) << ") in " << hex(bytes);
        return;
      }
      EXPECT_EQ(sse::detail::find_line_end(from, end), want.eol);
    }
  }
}

// The line scan checks UTF-8 in its 64-byte steps. A line it finds there
// (a line end with at least 64 bytes from the step's start to the chunk's
// end) and finds well formed is said to be, by ascii_end == eol; any other
// line has ascii_end at its first high byte. Here every piece that breaks a
// line, or a sequence cut by the line end, sits at every position of lines
// of every length up to three steps, among valid two-, three- and four-byte
// characters; an off-by-one in the masking at the line end shows as a broken
// line taken for well formed (or, on the other side, a well-formed one not
// recognised).
TEST(VectorPaths, ScanLineChecksUtf8OfTheLinesItFindsInItsSteps) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const bool checks_in_steps = __builtin_cpu_supports("avx2");
#else
  const bool checks_in_steps = false;
#endif
  const std::vector<std::string> characters = {"a", "\xC3\xA9", "b", "\xE2\x82\xAC", "c", "\xF0\x9F\x98\x80"};
  const std::vector<std::string> breaks = {
      "", "\xC3", "\x80", "\xFF", "\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF0\x9F\x98", "\xF4\x90\x80\x80"};
  std::size_t checked = 0;
  for (std::size_t length = 1; length <= 192; ++length) {
    for (const std::string& broken : breaks) {
      for (std::size_t at = 0; at + broken.size() <= length; at += broken.empty() ? length : 1) {
        // `length` bytes of valid characters and ASCII, the break written over
        // the bytes from `at`; a character it cuts is broken too.
        std::string line;
        for (std::size_t i = 0; line.size() < length; ++i) line += characters[i % characters.size()];
        line.resize(length);
        line.replace(at, broken.size(), broken);
        const bool valid = valid_by_repair(line);
        for (const std::string_view ending : {"\r\n", "\n", "\r"}) {
          const exact_copy copy(line + std::string(ending) + std::string(64, 'z'));
          const char* begin = copy.view().data();
          const char* end = begin + copy.view().size();
          const sse::detail::line_scan got = sse::detail::scan_line(begin, end);
          const sse::detail::line_scan naive = naive_scan(begin, end);
          const char* want = checks_in_steps && valid ? naive.eol : naive.ascii_end;
          if (got.eol != naive.eol || got.ascii_end != want) {
            ADD_FAILURE() << "line of " << length << " bytes, " << (valid ? "valid" : "broken") << ": eol "
                          << (got.eol - begin) << " (expected " << (naive.eol - begin) << "), ascii_end "
                          << (got.ascii_end - begin) << " (expected " << (want - begin) << ") in " << hex(line);
            return;
          }
          if (valid && got.ascii_end == got.eol && naive.ascii_end != naive.eol) ++checked;
        }
      }
    }
  }
  // The lines above with a high byte and no break are the ones counted.
  if (checks_in_steps) {
    EXPECT_GT(checked, 500u);
  }
}

// A stream of every kind of line: fields with values of every length (a few
// past one window), CR, LF and CR LF ends, valid and broken UTF-8, NUL,
// comments, unknown fields, a BOM now and then.
std::string seeded_stream(sse::chunking::splitmix64& rng, std::size_t lines) {
  const std::vector<std::string> value_pieces = {
      "x", "hello", " ", ":", "\0"s, "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC3", "\x80", "\xFF", "12"};
  const std::vector<std::string> names = {"data", "data", "data", "event", "id", "retry", "", "dat", "Data"};
  const std::vector<std::string> ends = {"\n", "\r", "\r\n", "\r\n"};
  std::string out = rng.next() % 8 == 0 ? "\xEF\xBB\xBF" : "";
  for (std::size_t i = 0; i < lines; ++i) {
    const std::string& end = ends[rng.next() % ends.size()];
    if (rng.next() % 4 == 0) {
      out += end;  // blank: dispatch
      continue;
    }
    std::string value;
    const std::uint64_t kind = rng.next() % 16;
    const std::size_t pieces = kind < 10 ? rng.next() % 4 : kind < 15 ? rng.next() % 40 : 200 + rng.next() % 800;
    const bool ascii_only = rng.next() % 3 != 0;
    for (std::size_t k = 0; k < pieces; ++k) value += value_pieces[rng.next() % (ascii_only ? 2 : value_pieces.size())];
    const std::string& name = names[rng.next() % names.size()];
    if (name == "retry" && rng.next() % 2 == 0) value = std::to_string(rng.next() % 100000);
    const std::uint64_t colon = rng.next() % 8;
    out += name;
    if (colon < 5) out += ": ";
    else if (colon < 7) out += ":";
    out += value;
    out += end;
  }
  return out;
}

// The vector scans run only where a chunk holds 16 bytes or more from a line
// start on; byte-by-byte feeding never reaches them. The two must observe the
// same events, comments, diagnostics, offsets, pauses and errors, under chunk
// sizes around the 32- and 64-byte blocks and seeded random splits, with
// default and small limits.
TEST(VectorPaths, ChunkedParsesLikeByteByByteFeedingOnSeededStreams) {
  namespace ch = sse::chunking;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    ch::splitmix64 rng(seed);
    const std::string input = seeded_stream(rng, 20 + rng.next() % 300);
    sse_test::run_options opt;
    if (seed % 5 == 0) opt.lim = sse::limits{20 + rng.next() % 3000, 50 + rng.next() % 6000};
    opt.pause_each_event = seed % 7 == 0;
    const sse_test::outcome want = sse_test::observe(input, ch::bytes(input), opt);
    std::vector<sse_test::chunking_plan> plans = {{"whole", ch::whole(input)}};
    for (const std::size_t size : {63u, 64u, 65u, 127u, 129u, 2047u, 2048u, 2111u, 4096u}) {
      plans.push_back({"fixed(" + std::to_string(size) + ")", ch::fixed(input, size)});
    }
    for (std::uint64_t split_seed = 1; split_seed <= 4; ++split_seed) {
      plans.push_back({"random seed=" + std::to_string(split_seed), ch::random(input, split_seed)});
    }
    for (const auto& plan : plans) {
      const sse_test::outcome got = sse_test::observe(input, plan.chunks, opt);
      if (const auto difference = sse_test::first_difference(want, got)) {
        ADD_FAILURE() << "stream seed " << seed << " (" << input.size() << " bytes), " << plan.name
                      << " against byte by byte: " << *difference;
        return;
      }
    }
  }
}

// Guards any UTF-8 check coarser than a line (one span per chunk or per
// window of lines: benchmarks.md, "Tried and not kept"). Each stream here has
// one broken line among
// valid non-ASCII ones (or none), at every position relative to the chunk
// boundaries: the
// repair and its diagnostic must land on that line, at its offset, whatever
// the chunking, and the sequences that chunks cut must not count as broken.
TEST(VectorPaths, OneBrokenLineAmongValidOnesIsRepairedAtItsOffsetUnderEveryChunking) {
  namespace ch = sse::chunking;
  const std::vector<std::string> breaks = {"\xC3", "\x80", "\xFF", "\xE2\x82", "\xED\xA0\x80", "\xF0\x9F\x98"};
  for (std::size_t broken_line = 0; broken_line <= 24; ++broken_line) {
    for (std::size_t kind = 0; kind < breaks.size(); ++kind) {
      std::string input;
      std::uint64_t broken_at = 0;
      for (std::size_t i = 0; i < 24; ++i) {
        if (i == broken_line) broken_at = input.size();
        // Lines of 9-40 bytes: two-, three- and four-byte sequences at every
        // position around the 16- and 32-byte blocks.
        input += i % 3 == 0 ? "data: caf\xC3\xA9 " : i % 3 == 1 ? "data:\xE2\x82\xAC" : ": \xF0\x9F\x98\x80";
        input += std::string(i % 7 * 3, 'x');
        if (i == broken_line) input += breaks[kind] + "z";
        input += i % 5 == 4 ? "\r\n\r\n" : i % 2 == 0 ? "\r\n" : "\n";
      }
      input += "\r\n";
      sse_test::run_options opt;
      const sse_test::outcome want = sse_test::observe(input, ch::bytes(input), opt);
      if (broken_line < 24) {
        ASSERT_EQ(want.diagnostics.size(), 1u) << "line " << broken_line << ", break " << kind;
        EXPECT_EQ(want.diagnostics[0].code, sse::diag::invalid_utf8);
        EXPECT_EQ(want.diagnostics[0].offset, broken_at);
      } else {
        ASSERT_TRUE(want.diagnostics.empty());
      }
      std::vector<sse_test::chunking_plan> plans = {{"whole", ch::whole(input)}};
      for (std::size_t size = 16; size <= 80; ++size) {
        plans.push_back({"fixed(" + std::to_string(size) + ")", ch::fixed(input, size)});
      }
      for (std::uint64_t split_seed = 1; split_seed <= 4; ++split_seed) {
        plans.push_back({"random seed=" + std::to_string(split_seed), ch::random(input, split_seed)});
      }
      for (const auto& plan : plans) {
        const sse_test::outcome got = sse_test::observe(input, plan.chunks, opt);
        if (const auto difference = sse_test::first_difference(want, got)) {
          ADD_FAILURE() << "broken line " << broken_line << ", break " << hex(breaks[kind]) << ", " << plan.name
                        << " against byte by byte: " << *difference;
          return;
        }
      }
    }
  }
}

}  // namespace
