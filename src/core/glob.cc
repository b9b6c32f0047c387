#include "core/glob.h"

namespace cobench {
namespace {

/// `[...]` at p[0]; sets `len` to the class's length. False when malformed.
bool class_matches(std::string_view p, char c, size_t& len) {
  size_t i = 1;
  bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool hit = false;
  size_t first = i;
  for (; i < p.size() && (p[i] != ']' || i == first); ++i) {
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      hit |= p[i] <= c && c <= p[i + 2];
      i += 2;
    } else {
      hit |= p[i] == c;
    }
  }
  if (i >= p.size()) return false;
  len = i + 1;
  return hit != negate && c != '/';
}

bool match_from(std::string_view p, std::string_view s) {
  while (!p.empty()) {
    if (p.substr(0, 2) == "**") {
      std::string_view rest = p.substr(2);
      // "**/" also matches zero folders.
      if (!rest.empty() && rest[0] == '/' && match_from(rest.substr(1), s)) return true;
      for (size_t i = 0; i <= s.size(); ++i)
        if (match_from(rest, s.substr(i))) return true;
      return false;
    }
    if (p[0] == '*') {
      for (size_t i = 0; i <= s.size(); ++i) {
        if (match_from(p.substr(1), s.substr(i))) return true;
        if (i < s.size() && s[i] == '/') break;
      }
      return false;
    }
    if (s.empty()) return false;
    if (p[0] == '?') {
      if (s[0] == '/') return false;
    } else if (p[0] == '[') {
      size_t len = 0;
      if (class_matches(p, s[0], len)) {
        p.remove_prefix(len);
        s.remove_prefix(1);
        continue;
      }
      if (len) return false;
      if (s[0] != '[') return false;  // malformed class: a literal '['
    } else if (p[0] != s[0]) {
      return false;
    }
    p.remove_prefix(1);
    s.remove_prefix(1);
  }
  return s.empty();
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.substr(0, 1) == "/") pattern.remove_prefix(1);
  if (pattern.find('/') == std::string_view::npos) {
    size_t slash = path.rfind('/');
    return match_from(pattern, slash == std::string_view::npos ? path : path.substr(slash + 1));
  }
  return match_from(pattern, path);
}

std::optional<std::string> glob_problem(std::string_view pattern) {
  if (pattern.empty()) return "empty pattern";
  if (pattern.find("***") != std::string_view::npos) return "*** is not a glob: use ** for any depth";
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '[') continue;
    size_t len = 0;
    class_matches(pattern.substr(i), 'a', len);
    if (len == 0) return "unterminated [ character class";
    i += len - 1;
  }
  return std::nullopt;
}

const std::string* first_match(const std::vector<std::string>& patterns, std::string_view path) {
  for (const auto& p : patterns)
    if (glob_match(p, path)) return &p;
  return nullptr;
}

}  // namespace cobench
