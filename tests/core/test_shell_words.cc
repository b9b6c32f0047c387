#include "core/shell_words.h"

#include <gtest/gtest.h>

namespace cobench {
namespace {

using Words = std::vector<std::string>;

TEST(ShellWords, SplitsAndUnquotesLikeAShellWithoutExpanding) {
  EXPECT_EQ(split_shell_words(" a\tb\n c  ").words, (Words{"a", "b", "c"}));
  EXPECT_EQ(split_shell_words(R"('$x \' "y")").words, (Words{R"($x \)", "y"}));
  // In double quotes a backslash escapes only " \ $ `; outside, any character.
  EXPECT_EQ(split_shell_words(R"("\"\\\$\`\n" a\ b\q)").words, (Words{R"("\$`\n)", "a bq"}));
  EXPECT_EQ(split_shell_words(R"(-DX=\"y\" pre'fix'"ed" '' "")").words, (Words{R"(-DX="y")", "prefixed", "", ""}));
  EXPECT_TRUE(split_shell_words("").words.empty());
  EXPECT_EQ(split_shell_words("a b").problem, "");
}

TEST(ShellWords, SaysWhyALineCannotBeSplit) {
  EXPECT_EQ(split_shell_words("a \\").problem, "ends with a lone backslash");
  EXPECT_EQ(split_shell_words("a \"b").problem, "unterminated double quote");
  EXPECT_EQ(split_shell_words("a 'b").problem, "unterminated single quote");
  EXPECT_TRUE(split_shell_words("a \"b").words.empty()) << "no words from a line that cannot be split";
  EXPECT_EQ(split_shell_words("'b\\'").words, Words{"b\\"}) << "a backslash does not escape inside '...'";
}

}  // namespace
}  // namespace cobench
