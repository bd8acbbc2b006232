#include "ssec/base64.hpp"

#include <gtest/gtest.h>

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
