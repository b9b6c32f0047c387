#include "process/bounded_output.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "support/testing.h"

namespace cobench::process {
namespace {

/// What a BoundedOutput in memory keeps of `chunks`, appended in turn.
std::string kept(std::size_t keep, std::initializer_list<std::string_view> chunks) {
  BoundedOutput output(keep, -1);
  for (auto chunk : chunks) output.append(chunk);
  output.finish();
  return output.text();
}

TEST(BoundedOutput, KeepsHeadAndTailAndCountsTheCut) {
  EXPECT_EQ(kept(4, {"abcdefghijklmnop"}), "abcd\n[cobench: 8 bytes cut here]\nmnop");
}

TEST(BoundedOutput, TheSameWhateverTheChunks) {
  const std::string expected = "abcd\n[cobench: 8 bytes cut here]\nmnop";
  EXPECT_EQ(kept(4, {"ab", "cdefg", "hij", "klm", "nop"}), expected);
  EXPECT_EQ(kept(4, {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"}), expected);
  EXPECT_EQ(kept(4, {"abcdef", "ghijklmnop"}), expected);
  EXPECT_EQ(kept(4, {"abcdefghijklmno", "p"}), expected);
}

TEST(BoundedOutput, NothingCutUpToTwiceTheCap) {
  EXPECT_EQ(kept(4, {}), "");
  EXPECT_EQ(kept(4, {"abc"}), "abc");
  EXPECT_EQ(kept(4, {"abcd", "efgh"}), "abcdefgh");
  EXPECT_EQ(kept(4, {"abcdefghi"}), "abcd\n[cobench: 1 byte cut here]\nfghi");
}

TEST(BoundedOutput, ZeroKeepsEverything) {
  EXPECT_EQ(kept(0, {"abcdefghijklmnop", "q"}), "abcdefghijklmnopq");
}

TEST(BoundedOutput, WritesTheHeadToTheFileAsItArrives) {
  testing::TempDir dir;
  const auto path = dir / "log";
  std::FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  BoundedOutput output(4, ::fileno(file));
  output.append("abcdefgh");
  EXPECT_EQ(testing::read_text(path), "abcd");  // a running child's log shows its start
  output.append("ijklmnop");
  output.finish();
  std::fclose(file);
  EXPECT_EQ(testing::read_text(path), "abcd\n[cobench: 8 bytes cut here]\nmnop");
  EXPECT_TRUE(output.text().empty());
}

TEST(BoundedOutput, GroupsThousands) {
  EXPECT_EQ(group_thousands(0), "0");
  EXPECT_EQ(group_thousands(999), "999");
  EXPECT_EQ(group_thousands(1000), "1,000");
  EXPECT_EQ(group_thousands(1048576000), "1,048,576,000");
}

}  // namespace
}  // namespace cobench::process
