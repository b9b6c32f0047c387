#pragma once
// Splitting a command line into words the way a POSIX shell would, without
// any expansion: for commands users write (--command) and for the command
// fragments CMake writes (File API link and compile fragments).
#include <string>
#include <string_view>
#include <vector>

namespace cobench {

/// The words of a command line, or why it cannot be split.
struct ShellWords {
  std::vector<std::string> words;
  std::string problem;  ///< "" when split; else "ends with a lone backslash" or "unterminated double quote"
};

/// Splits `text` at unquoted whitespace. '...' keeps everything inside; "..."
/// keeps everything but a backslash before " \ $ `, which escapes it; outside
/// quotes a backslash keeps the next character. '' and "" are empty words.
ShellWords split_shell_words(std::string_view text);

}  // namespace cobench
