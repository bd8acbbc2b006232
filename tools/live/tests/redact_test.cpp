// SPDX-License-Identifier: MIT
// Secrets a server reflects never reach a report, whole or in part: every
// clip length around a reflected token, and tokens that excerpts escape.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ssec/live/check.hpp"

namespace {

// Every form a report is written in.
std::string rendered(const ssec::live::check_report& r) {
  return ssec::live::to_text(r) + "\n" + ssec::live::to_json(r).dump() + "\n" + ssec::live::to_junit({r}, {r.source});
}

// A 502 whose body reflects the request's Authorization header, the token
// starting `lead` bytes into the body.
ssec::live::check_report reflected(const std::string& token, std::size_t lead) {
  ssec::live::capture cap;
  cap.status = 502;
  cap.pieces.push_back({std::string(lead, '.') + token + " " + std::string(300, '.'), 0.1});
  return ssec::live::redact(ssec::live::analyze(cap, {}), {token});
}

}  // namespace

TEST(redact, no_clip_length_leaves_part_of_a_reflected_token) {
  const std::string alphabet = "Zq7Wk2Xv9Jm4Tb8Rn3Hc6Lp5Fy1Gd0Ks";
  for (const std::size_t length : {1U, 2U, 8U, 35U, 36U, 37U}) {
    std::string token;
    for (std::size_t i = 0; i < length; ++i) token += alphabet[i % alphabet.size()];
    // The body's excerpt is clipped at 200 bytes: cuts before, inside and after the token.
    for (std::size_t lead = 200 - std::min<std::size_t>(length + 2, 200); lead <= 201; ++lead) {
      const auto r = reflected(token, lead);
      ASSERT_FALSE(r.findings.empty());
      const std::string text = rendered(r);
      const std::string what = "token of " + std::to_string(length) + " bytes from byte " + std::to_string(lead);
      EXPECT_EQ(text.find(token.substr(0, std::min<std::size_t>(length, 3))), std::string::npos) << what << "\n"
                                                                                                 << text;
      EXPECT_EQ(text.find(token.substr(0, 1) + "\"... ("), std::string::npos) << what << "\n" << text;
      if (lead < 200) {
        EXPECT_NE(text.find("[redacted]"), std::string::npos) << what << "\n" << text;
      }
    }
  }
}

TEST(redact, a_token_that_an_excerpt_escapes_is_blanked_in_its_escaped_form) {
  const std::string token =
      "ab\"c\\d\x01"
      "e";
  const auto r = reflected(token, 10);
  const std::string text = rendered(r);
  EXPECT_EQ(text.find("ab\\\"c"), std::string::npos) << text;
  EXPECT_NE(text.find("[redacted]"), std::string::npos) << text;
}

TEST(redact, text_without_the_secret_or_a_clip_is_unchanged) {
  const std::string text = "a finding \"Zq\" that ends \"plain\"... (3 more bytes)";
  EXPECT_EQ(ssec::live::redact(text, {"Zq7Wk2"}), text);
  EXPECT_EQ(ssec::live::redact("x \"..Zq\"... (9 more bytes)", {"Zq7Wk2"}), "x \"..[redacted]\"... (9 more bytes)");
}
