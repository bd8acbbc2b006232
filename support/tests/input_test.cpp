// SPDX-License-Identifier: MIT
// read_document: a document is a regular file within its bound, refused
// before it is opened or read when it is not (a FIFO would block, /dev/zero
// and a sparse file would be read until memory is gone).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ssec/support/input.hpp"

namespace fs = std::filesystem;

namespace {

class read_document_test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ssec-input-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

}  // namespace

TEST_F(read_document_test, reads_a_regular_file_within_the_bound) {
  std::ofstream(dir_ / "a.yaml") << "key: value\n";
  const auto text = ssec::read_document((dir_ / "a.yaml").string(), 11);
  ASSERT_TRUE(text.ok()) << text.error().to_string();
  EXPECT_EQ(*text, "key: value\n");
}

TEST_F(read_document_test, a_fifo_is_refused_without_opening_it) {
  const fs::path fifo = dir_ / "profile.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Opened, a FIFO with no writer blocks here forever.
  const auto text = ssec::read_document(fifo.string());
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().file, fifo.string());
  EXPECT_NE(text.error().message.find("is not a regular file"), std::string::npos) << text.error().to_string();
}

TEST_F(read_document_test, a_device_and_a_directory_are_refused) {
  const auto zero = ssec::read_document("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().to_string(),
            "/dev/zero: is not a regular file (a device or a FIFO is not read as a document)");
  const auto dir = ssec::read_document(dir_.string());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos);
}

TEST_F(read_document_test, a_sparse_file_over_the_bound_is_refused_before_it_is_read) {
  const fs::path big = dir_ / "big.yaml";
  std::ofstream(big).close();
  fs::resize_file(big, std::uint64_t{3} << 30);  // sparse: 3 GiB that take no disk
  const auto text = ssec::read_document(big.string());
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().to_string(), big.string() + ": is 3072 MiB, more than the 64 MiB a document may be");
  std::ofstream(dir_ / "b.yaml") << "12345";
  EXPECT_FALSE(ssec::read_document((dir_ / "b.yaml").string(), 4).ok());
  EXPECT_TRUE(ssec::read_document((dir_ / "b.yaml").string(), 5).ok());
}
