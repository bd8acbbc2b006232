// SPDX-License-Identifier: MIT
// sse::utf8::is_valid and append_repaired against the WHATWG Encoding
// standard's UTF-8 decoder (https://encoding.spec.whatwg.org/#utf-8-decoder):
// hand-written tables, then a differential check against a reference decoder
// transcribed from the standard's algorithm, over exhaustive short inputs,
// every code point, and seeded random byte strings.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sse/chunking.hpp"
#include "sse/utf8.hpp"

namespace {

using namespace std::literals;
using sse_test::escape;
using sse_test::exact_copy;

#define U_FFFD "\xEF\xBF\xBD"

// The WHATWG UTF-8 decoder, step by step as the standard writes it (bytes
// needed / seen, lower and upper boundary, "restore byte to ioQueue"), with
// the result re-encoded as UTF-8. Deliberately unlike the library's code.
struct reference_result {
  std::string text;
  std::size_t errors = 0;
};

void append_code_point(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

reference_result whatwg_utf8_decode(std::string_view bytes) {
  reference_result r;
  std::uint32_t code_point = 0;
  int bytes_seen = 0;
  int bytes_needed = 0;
  unsigned lower = 0x80;
  unsigned upper = 0xBF;
  auto error = [&] {
    r.text += U_FFFD;
    ++r.errors;
  };
  std::size_t i = 0;
  while (i < bytes.size()) {
    const unsigned byte = static_cast<unsigned char>(bytes[i]);
    if (bytes_needed == 0) {
      ++i;
      if (byte <= 0x7F) {
        r.text += static_cast<char>(byte);
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        bytes_needed = 1;
        code_point = byte & 0x1F;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        if (byte == 0xE0) lower = 0xA0;
        if (byte == 0xED) upper = 0x9F;
        bytes_needed = 2;
        code_point = byte & 0xF;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        if (byte == 0xF0) lower = 0x90;
        if (byte == 0xF4) upper = 0x8F;
        bytes_needed = 3;
        code_point = byte & 0x7;
      } else {
        error();
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      // Reset and "restore byte to ioQueue": the byte is read again.
      code_point = 0;
      bytes_needed = 0;
      bytes_seen = 0;
      lower = 0x80;
      upper = 0xBF;
      error();
      continue;
    }
    ++i;
    lower = 0x80;
    upper = 0xBF;
    code_point = (code_point << 6) | (byte & 0x3F);
    if (++bytes_seen != bytes_needed) continue;
    append_code_point(r.text, code_point);
    code_point = 0;
    bytes_needed = 0;
    bytes_seen = 0;
  }
  if (bytes_needed != 0) error();  // end of queue inside a sequence
  return r;
}

// Both functions on an exact-size heap copy, so a word-at-a-time overread
// past the end is caught by ASan.
bool valid(std::string_view bytes) {
  const exact_copy copy(bytes);
  return sse::utf8::is_valid(copy.view());
}

struct repair_result {
  std::string text;
  std::size_t replaced;
};

repair_result repair(std::string_view bytes) {
  const exact_copy copy(bytes);
  repair_result r{};
  r.replaced = sse::utf8::append_repaired(r.text, copy.view());
  return r;
}

// ---------------------------------------------------------------------------

struct validity_case {
  std::string bytes;
  bool valid;
};

TEST(Utf8IsValid, Table) {
  const std::vector<validity_case> cases = {
      {"", true},
      {"a", true},
      {"plain ASCII, longer than one word", true},
      {"\xC2\x80", true},          // U+0080
      {"\xDF\xBF", true},          // U+07FF
      {"\xE0\xA0\x80", true},      // U+0800
      {"\xED\x9F\xBF", true},      // U+D7FF
      {"\xEE\x80\x80", true},      // U+E000
      {"\xEF\xBB\xBF", true},      // U+FEFF
      {"\xEF\xBF\xBF", true},      // U+FFFF
      {"\xF0\x90\x80\x80", true},  // U+10000
      {"\xF4\x8F\xBF\xBF", true},  // U+10FFFF
      {"a\xC3\xA9z", true},
      {"1234567\xC3\xA9", true},  // a sequence straddling the first word
      {"12345678\xE2\x82\xAC", true},
      {"\x80", false},  // lone continuation
      {"\xBF", false},
      {"\xC0\x80", false},  // overlong NUL
      {"\xC1\xBF", false},  // overlong
      {"\xC2", false},      // truncated
      {"\xC2"
       "a",
       false},
      {"\xE0\x9F\xBF", false},      // overlong 3-byte
      {"\xE0\xA0", false},          // truncated 3-byte
      {"\xED\xA0\x80", false},      // surrogate U+D800
      {"\xED\xBF\xBF", false},      // surrogate U+DFFF
      {"\xEF\xBB", false},          // partial BOM
      {"\xF0\x8F\xBF\xBF", false},  // overlong 4-byte
      {"\xF0\x9F\x98", false},      // truncated 4-byte
      {"\xF4\x90\x80\x80", false},  // above U+10FFFF
      {"\xF5\x80\x80\x80", false},
      {"\xF8\x88\x80\x80\x80", false},  // old 5-byte form
      {"\xFE", false},
      {"\xFF", false},
      {"12345678\xFF", false},  // after a whole ASCII word
      {"1234567\xC3", false},   // truncated at the end of the first word
      {"abcdefgh12345678\x80", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(valid(c.bytes), c.valid) << "bytes \"" << escape(c.bytes) << "\"";
  }
}

struct repair_case {
  std::string bytes;
  std::string repaired;
  std::size_t replaced;
};

TEST(Utf8AppendRepaired, EachMaximalSubpartBecomesOneReplacementCharacter) {
  const std::vector<repair_case> cases = {
      {"", "", 0},
      {"abc", "abc", 0},
      {"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 0},
      {"\xF0\x9F\x98"
       "A",
       U_FFFD "A", 1},
      {"\xE0\x80", U_FFFD U_FFFD, 2},
      {"\xE0\x80\x80", U_FFFD U_FFFD U_FFFD, 3},
      {"\xED\xA0\x80", U_FFFD U_FFFD U_FFFD, 3},
      {"\xED\xBF\xBF", U_FFFD U_FFFD U_FFFD, 3},
      {"\xC0\xAF", U_FFFD U_FFFD, 2},
      {"\xC0\x80", U_FFFD U_FFFD, 2},
      {"\xF0\x80\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD, 4},
      {"\xF4\x90\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD, 4},
      {"\xF8\x88\x80\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD U_FFFD, 5},
      {"\xFC\x84\x80\x80\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD U_FFFD U_FFFD, 6},
      {"\x80", U_FFFD, 1},
      {"\x80\x80", U_FFFD U_FFFD, 2},
      {"\xFF", U_FFFD, 1},
      {"\xFE\xFF", U_FFFD U_FFFD, 2},
      {"\xC3", U_FFFD, 1},
      {"\xE2\x82", U_FFFD, 1},
      {"\xF0\x9F\x98", U_FFFD, 1},
      {"\xE2\x82"
       "a",
       U_FFFD "a", 1},
      {"\xF0\x9F"
       "\xF0\x9F\x98\x80",
       U_FFFD "\xF0\x9F\x98\x80", 1},
      {"\xC2\xC2\x80", U_FFFD "\xC2\x80", 1},
      {"\xE1\x80\xC2", U_FFFD U_FFFD, 2},
      {"\xEF\xBB", U_FFFD, 1},
      {"\xEF\xBB"
       "x",
       U_FFFD "x", 1},
      // Unicode Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
      {"a\xF1\x80\x80\xE1\x80\xC2"
       "b\x80"
       "c\x80\xBF"
       "d",
       "a" U_FFFD U_FFFD U_FFFD "b" U_FFFD "c" U_FFFD U_FFFD "d", 6},
      {"12345678\xFF"
       "abcdefgh",
       "12345678" U_FFFD "abcdefgh", 1},
      {"a\0b"s, "a\0b"s, 0},
  };
  for (const auto& c : cases) {
    const repair_result r = repair(c.bytes);
    EXPECT_EQ(r.text, c.repaired) << "bytes \"" << escape(c.bytes) << "\" gave \"" << escape(r.text) << "\"";
    EXPECT_EQ(r.replaced, c.replaced) << "bytes \"" << escape(c.bytes) << "\"";
    EXPECT_EQ(valid(c.bytes), c.replaced == 0) << "bytes \"" << escape(c.bytes) << "\"";
  }
}

TEST(Utf8AppendRepaired, AppendsAfterExistingContent) {
  std::string out = "prefix:";
  EXPECT_EQ(sse::utf8::append_repaired(out,
                                       "\xFF"
                                       "ok"),
            1u);
  EXPECT_EQ(out, "prefix:" U_FFFD "ok");
  EXPECT_EQ(sse::utf8::append_repaired(out, "\xC3\xA9"), 0u);
  EXPECT_EQ(out, "prefix:" U_FFFD "ok\xC3\xA9");
}

TEST(Utf8AppendRepaired, InvalidByteAtEveryPositionAroundTheAsciiWordPath) {
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string bytes(length, 'a');
      bytes[at] = '\xFF';
      std::string expected = bytes.substr(0, at) + U_FFFD + bytes.substr(at + 1);
      SCOPED_TRACE("length " + std::to_string(length) + ", FF at " + std::to_string(at));
      EXPECT_FALSE(valid(bytes));
      const repair_result r = repair(bytes);
      EXPECT_EQ(r.text, expected);
      EXPECT_EQ(r.replaced, 1u);
    }
  }
}

// ---------------------------------------------------------------------------
// Differential: the library and the reference decoder must agree exactly.

// Checks one input; returns false (after one EXPECT failure) on disagreement
// so that loops over millions of inputs stop at the first one.
bool agrees_with_reference(std::string_view bytes) {
  const reference_result want = whatwg_utf8_decode(bytes);
  const repair_result got = repair(bytes);
  const bool is_valid = valid(bytes);
  if (got.text == want.text && got.replaced == want.errors && is_valid == (want.errors == 0)) return true;
  ADD_FAILURE() << "bytes \"" << escape(bytes) << "\": reference \"" << escape(want.text) << "\" (" << want.errors
                << " errors), append_repaired \"" << escape(got.text) << "\" (" << got.replaced << "), is_valid "
                << is_valid;
  return false;
}

TEST(Utf8Differential, ReferenceDecoderSanity) {
  // The reference itself, on the cases the standard's own notes spell out.
  EXPECT_EQ(whatwg_utf8_decode("\xF0\x9F\x98"
                               "A")
                .text,
            U_FFFD "A");
  EXPECT_EQ(whatwg_utf8_decode("\xE0\x80").errors, 2u);
  EXPECT_EQ(whatwg_utf8_decode("\xED\xA0\x80").errors, 3u);
  EXPECT_EQ(whatwg_utf8_decode("\xF0\x9F\x98\x80").text, "\xF0\x9F\x98\x80");
}

TEST(Utf8Differential, EveryStringOfOneOrTwoBytes) {
  for (int a = 0; a < 256; ++a) {
    const std::string one(1, static_cast<char>(a));
    if (!agrees_with_reference(one)) return;
    for (int b = 0; b < 256; ++b) {
      const std::string two{static_cast<char>(a), static_cast<char>(b)};
      if (!agrees_with_reference(two)) return;
    }
  }
}

TEST(Utf8Differential, EveryThreeAndFourByteStringOverBoundaryBytes) {
  // Each byte class boundary of the decoder, plus ASCII.
  const std::string interesting =
      "\x00\x41\x7F\x80\x8F\x90\x9F\xA0\xBF\xC0\xC1\xC2\xDF\xE0\xE1\xEC"
      "\xED\xEE\xEF\xF0\xF1\xF3\xF4\xF5\xFF"s;
  for (const char a : interesting) {
    for (const char b : interesting) {
      for (const char c : interesting) {
        if (!agrees_with_reference(std::string{a, b, c})) return;
        for (const char d : interesting) {
          if (!agrees_with_reference(std::string{a, b, c, d})) return;
        }
      }
    }
  }
}

TEST(Utf8Differential, EveryCodePoint) {
  // Every scalar value is valid and kept; every encoded surrogate is three
  // maximal subparts (ED then A0..BF fails at the second byte).
  std::size_t disagreements = 0;
  for (std::uint32_t cp = 0; cp <= 0x10FFFF && disagreements < 5; ++cp) {
    std::string bytes;
    append_code_point(bytes, cp);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    const repair_result r = repair(bytes);
    const bool ok = surrogate ? (!valid(bytes) && r.text == U_FFFD U_FFFD U_FFFD && r.replaced == 3)
                              : (valid(bytes) && r.text == bytes && r.replaced == 0);
    if (!ok) {
      ++disagreements;
      ADD_FAILURE() << "code point U+" << std::hex << cp << " bytes \"" << escape(bytes) << "\"";
    }
  }
}

TEST(Utf8Differential, EveryPieceAtEveryPositionOfEveryLengthAroundTheBlockTail) {
  // The vector check takes an input's last bytes as one block overlapping
  // the blocks before it, and the 32 bytes before that block from the input
  // or, near its start, as NUL: every length from one block to four, with a
  // valid, truncated or broken sequence at every position, over ASCII and
  // over multi-byte filler (so the bytes checked twice hold leads too).
  const std::vector<std::string> pieces = {
      "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC3",     "\xE2\x82", "\xF0\x9F\x98", "\x80",
      "\xE0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC1\xBF", "\xFF"};
  const std::vector<std::string> fillers = {"a", "\xC3\xA9", "\xE2\x82\xAC"};
  for (const std::string& filler : fillers) {
    for (std::size_t length = 32; length <= 130; ++length) {
      std::string base;
      while (base.size() < length) base += filler;
      base.resize(length - length % filler.size());
      for (const std::string& piece : pieces) {
        for (std::size_t at = 0; at + piece.size() <= base.size(); ++at) {
          std::string bytes = base;
          bytes.replace(at, piece.size(), piece);
          if (!agrees_with_reference(bytes)) {
            ADD_FAILURE() << "length " << bytes.size() << ", piece at " << at;
            return;
          }
        }
      }
    }
  }
}

TEST(Utf8Differential, SeededRandomStrings) {
  // Pieces chosen so that random strings hit valid sequences, their
  // truncations and every error class, at every alignment to the word path.
  const std::vector<std::string> pieces = {"a",
                                           "bcdefgh",
                                           " ",
                                           "\n",
                                           "\0"s,
                                           "\xC3\xA9",
                                           "\xE2\x82\xAC",
                                           "\xF0\x9F\x98\x80",
                                           "\xEF\xBB\xBF",
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
                                           "\xFE",
                                           "\xE0",
                                           "\xED",
                                           "\xF0",
                                           "\xF4"};
  for (std::uint64_t seed = 1; seed <= 20000; ++seed) {
    sse::chunking::splitmix64 rng(seed);
    std::string bytes;
    const auto count = rng.next() % 16;
    for (std::uint64_t i = 0; i < count; ++i) bytes += pieces[rng.next() % pieces.size()];
    if (!agrees_with_reference(bytes)) {
      ADD_FAILURE() << "seed " << seed;
      return;
    }
  }
}

}  // namespace
