#include "core/regex_limits.h"

#include <cctype>

namespace cobench {

bool has_oversized_number(std::string_view pattern) {
  auto digits_at = [&](size_t i) {
    size_t n = 0;
    while (i + n < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[i + n]))) ++n;
    return n;
  };
  bool in_braces = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (digits_at(i + 1) > kMaxRegexNumberDigits) return true;
      ++i;  // an escaped brace is a literal
    } else if (pattern[i] == '{' || pattern[i] == '}') {
      in_braces = pattern[i] == '{';
    } else if (in_braces && digits_at(i) > kMaxRegexNumberDigits) {
      return true;
    }
  }
  return false;
}

}  // namespace cobench
