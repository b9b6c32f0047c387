#include "core/glob.h"

#include <gtest/gtest.h>

namespace cobench {
namespace {

TEST(Glob, DoubleStarSpansFolders) {
  EXPECT_TRUE(glob_match("docs/**", "docs/a/b.txt"));
  EXPECT_FALSE(glob_match("docs/**", "src/docs.txt"));
  EXPECT_TRUE(glob_match("**/*.md", "README.md"));
  EXPECT_TRUE(glob_match("**/*.md", "a/b/NOTES.md"));
  EXPECT_TRUE(glob_match("src/**/impl/*.h", "src/impl/x.h"));
  EXPECT_TRUE(glob_match("src/**/impl/*.h", "src/a/b/impl/x.h"));
}

TEST(Glob, StarStaysInOneFolder) {
  EXPECT_TRUE(glob_match("bench/*.cc", "bench/a.cc"));
  EXPECT_FALSE(glob_match("bench/*.cc", "bench/sub/a.cc"));
  EXPECT_TRUE(glob_match("a?c/x", "abc/x"));
  EXPECT_FALSE(glob_match("a?c/x", "a/c/x"));
}

TEST(Glob, NameOnlyPatternMatchesAtAnyDepth) {
  EXPECT_TRUE(glob_match(".gitlab-ci.yml", ".gitlab-ci.yml"));
  EXPECT_TRUE(glob_match("LICENSE*", "third_party/LICENSE.txt"));
  EXPECT_FALSE(glob_match("LICENSE*", "src/license.h"));
  EXPECT_TRUE(glob_match("/top.txt", "top.txt"));
}

TEST(Glob, CharacterClasses) {
  EXPECT_TRUE(glob_match("v[0-9].txt", "v3.txt"));
  EXPECT_FALSE(glob_match("v[!0-9].txt", "v3.txt"));
  EXPECT_TRUE(glob_match("v[!0-9].txt", "vx.txt"));
}

TEST(Glob, FirstMatchReturnsThePattern) {
  std::vector<std::string> patterns = {"docs/**", "**/*.md"};
  ASSERT_NE(first_match(patterns, "src/a.md"), nullptr);
  EXPECT_EQ(*first_match(patterns, "src/a.md"), "**/*.md");
  EXPECT_EQ(first_match(patterns, "src/a.h"), nullptr);
}

}  // namespace
}  // namespace cobench
