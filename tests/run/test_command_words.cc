#include <gtest/gtest.h>

#include "core/errors.h"
#include "run/command_runner.h"

namespace cobench::run {
namespace {

using Words = std::vector<std::string>;

TEST(CommandWords, SplitsLikeAShellWithoutExpanding) {
  EXPECT_EQ(split_command_line("./bench --size 10", "--command"), (Words{"./bench", "--size", "10"}));
  EXPECT_EQ(split_command_line("  a\t b  ", "--command"), (Words{"a", "b"}));
  EXPECT_EQ(split_command_line("sh -c 'sleep 0.1; echo $HOME'", "--command"), (Words{"sh", "-c", "sleep 0.1; echo $HOME"}));
  EXPECT_EQ(split_command_line(R"(echo "a \"b\" \$x \n" c\ d '')", "--command"),
            (Words{"echo", R"(a "b" $x \n)", "c d", ""}));
  EXPECT_EQ(split_command_line(R"(pre'fix'"ed")", "--command"), (Words{"prefixed"}));
}

TEST(CommandWords, JsonArraysAreTakenVerbatim) {
  EXPECT_EQ(split_command_line(R"(["./run", "a b", "'q'"])", "--command"), (Words{"./run", "a b", "'q'"}));
}

void expect_error(const std::string& text, const std::string& what) {
  try {
    split_command_line(text, "--command");
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind("--command '" + text + "': ", 0), 0u) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
}

TEST(CommandWords, BadInputNamesTheFlagAndText) {
  expect_error("echo 'open", "unterminated single quote");
  expect_error("echo \"open", "unterminated double quote");
  expect_error("echo \\", "lone backslash");
  expect_error("   ", "empty command");
  expect_error("[\"a\", 1]", "element 1 is not a string");
  expect_error("[\"a\"", "not a JSON array");
  expect_error("[]", "empty command");
}

TEST(CommandWords, RepeatedCommandsAreRejected) {
  EXPECT_THROW(parse_commands({"./a", "./a"}, "--command"), InputError);
  auto specs = parse_commands({"./a x", "./b"}, "--command");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].label, "./a x");
  EXPECT_EQ(specs[0].argv, (Words{"./a", "x"}));
}

}  // namespace
}  // namespace cobench::run
