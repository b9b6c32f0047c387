// SHA-256 against the FIPS 180-4 examples and the file reader against sha256sum.
#include <string>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/sha256.h"
#include "support/testing.h"

namespace cobench {
namespace {

TEST(Sha256, MatchesTheStandardsExamples) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the length no longer fits the first padding block.
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, EveryTailLengthAgreesWithSha256sum) {
  testing::TempDir dir;
  for (size_t size : {55u, 63u, 64u, 65u, 119u, 120u, 127u, 128u}) {
    std::string bytes;
    for (size_t i = 0; i < size; ++i) bytes += static_cast<char>(i * 7);
    testing::write_file(dir / "data", bytes);
    const auto result = testing::run_checked({"sha256sum", (dir / "data").string()});
    EXPECT_EQ(sha256_file(dir / "data"), result.out.substr(0, 64)) << size << " bytes";
  }
}

TEST(Sha256, AMissingFileNamesItsPath) {
  try {
    sha256_file("/nonexistent/cobench-file");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cobench-file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cobench
