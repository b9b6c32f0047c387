#include "core/shell_words.h"

#include <cctype>

namespace cobench {

ShellWords split_shell_words(std::string_view text) {
  ShellWords out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else word += c;
    } else if (quote == '"') {
      // Inside double quotes a backslash escapes only these, as in sh.
      if (c == '\\' && i + 1 < text.size() && std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
        word += text[++i];
      else if (c == '"') quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\') {
      if (i + 1 == text.size()) return {{}, "ends with a lone backslash"};
      word += text[++i];
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) return {{}, quote == '"' ? "unterminated double quote" : "unterminated single quote"};
  if (in_word) out.words.push_back(std::move(word));
  return out;
}

}  // namespace cobench
