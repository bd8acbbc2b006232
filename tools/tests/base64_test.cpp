#include "ssec/support/base64.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

TEST(base64, encodes_the_rfc4648_vectors) {
  EXPECT_EQ(ssec::base64_encode(""), "");
  EXPECT_EQ(ssec::base64_encode("f"), "Zg==");
  EXPECT_EQ(ssec::base64_encode("fo"), "Zm8=");
  EXPECT_EQ(ssec::base64_encode("foo"), "Zm9v");
  EXPECT_EQ(ssec::base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(ssec::base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(ssec::base64_encode("foobar"), "Zm9vYmFy");
}

TEST(base64, decodes_padded_and_unpadded) {
  EXPECT_EQ(ssec::base64_decode("Zm9vYg=="), "foob");
  EXPECT_EQ(ssec::base64_decode("Zm9vYg"), "foob");
  EXPECT_EQ(ssec::base64_decode("Zm9vYmE="), "fooba");
  EXPECT_EQ(ssec::base64_decode(""), "");
}

TEST(base64, rejects_what_no_encoder_writes) {
  EXPECT_FALSE(ssec::base64_decode("Zm9v!"));
  EXPECT_FALSE(ssec::base64_decode("Z"));
  EXPECT_FALSE(ssec::base64_decode("Zm9v Zg=="));
  EXPECT_FALSE(ssec::base64_decode("Zg==Zg=="));
}

TEST(base64, round_trips_every_byte_value) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    const std::string s = all.substr(0, n);
    EXPECT_EQ(ssec::base64_decode(ssec::base64_encode(s)), s);
  }
}

// The decoder reads four characters at a time; an accumulating decoder (six
// bits in, a byte out whenever eight are there) is what it must equal, on
// valid and invalid text alike, for every length up to 9 and every character
// class (alphabet, '=', others).
namespace {
std::optional<std::string> accumulating_decode(std::string_view text) {
  const std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (text.size() % 4 == 0 && text.ends_with("==")) text.remove_suffix(2);
  else if (text.size() % 4 == 0 && text.ends_with('=')) text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (const char c : text) {
    const auto v = alphabet.find(c);
    if (v == std::string_view::npos) return std::nullopt;
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}
}  // namespace

TEST(base64, decodes_as_an_accumulating_decoder_does) {
  const std::string pieces[] = {"A", "Q", "/", "+", "z", "9", "=", "!", " "};
  std::uint64_t state = 0x9E3779B97F4A7C15u;
  for (int round = 0; round < 20000; ++round) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const std::size_t length = (state >> 33) % 10;
    std::string text;
    for (std::size_t k = 0; k < length; ++k) text += pieces[(state >> (3 * k + 1)) % 9];
    EXPECT_EQ(ssec::base64_decode(text), accumulating_decode(text)) << text;
  }
}

TEST(base64, append_adds_to_what_is_there) {
  std::string out = "x";
  ssec::base64_append(out, "fo");
  ssec::base64_append(out, "");
  ssec::base64_append(out, "foobar");
  EXPECT_EQ(out, "xZm8=Zm9vYmFy");
}

TEST(base64, decode_append_adds_or_leaves_out_as_it_was) {
  std::vector<char> out{'x'};
  EXPECT_TRUE(ssec::base64_decode_append("Zm8=", out));
  EXPECT_TRUE(ssec::base64_decode_append("", out));
  EXPECT_TRUE(ssec::base64_decode_append("Zm9vYmFy", out));
  EXPECT_EQ(std::string(out.begin(), out.end()), "xfofoobar");
  EXPECT_FALSE(ssec::base64_decode_append("Zm9v!", out));
  EXPECT_FALSE(ssec::base64_decode_append("Z", out));
  EXPECT_EQ(std::string(out.begin(), out.end()), "xfofoobar");
}
