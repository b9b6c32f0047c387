#include "select/include_scanner.h"

#include <cctype>

#include "select/source_text.h"

namespace cobench::select {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && is_blank(s[i])) ++i;
  return i;
}

/// Parses one line of blanked text; false when it is not an include directive.
bool parse_line(std::string_view line, IncludeDirective& out) {
  size_t i = skip_blanks(line, 0);
  if (i >= line.size() || line[i] != '#') return false;
  i = skip_blanks(line, i + 1);
  size_t name_end = i;
  while (name_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[name_end])) || line[name_end] == '_'))
    ++name_end;
  std::string_view name = line.substr(i, name_end - i);
  if (name != "include" && name != "include_next" && name != "import") return false;
  i = skip_blanks(line, name_end);
  if (i >= line.size()) return false;
  char open = line[i];
  if (open == '"' || open == '<') {
    size_t close = line.find(open == '"' ? '"' : '>', i + 1);
    if (close == std::string_view::npos) return false;
    out.spelling = std::string(line.substr(i + 1, close - i - 1));
    out.angled = open == '<';
    out.macro = false;
    return !out.spelling.empty();
  }
  size_t end = line.size();
  while (end > i && is_blank(line[end - 1])) --end;
  out.spelling = std::string(line.substr(i, end - i));
  out.angled = false;
  out.macro = true;
  return true;
}

}  // namespace

std::vector<IncludeDirective> scan_includes(std::string_view text) {
  std::string code = blank_comments_and_literals(text);
  std::vector<IncludeDirective> found;
  std::string_view view(code);
  int line_no = 1;
  for (size_t start = 0; start <= view.size();) {
    size_t end = view.find('\n', start);
    if (end == std::string_view::npos) end = view.size();
    std::string_view line = view.substr(start, end - start);
    // Cheap pre-check: most lines have no '#'.
    if (line.find('#') != std::string_view::npos) {
      IncludeDirective d;
      if (parse_line(line, d)) {
        d.line = line_no;
        found.push_back(std::move(d));
      }
    }
    ++line_no;
    start = end + 1;
  }
  return found;
}

}  // namespace cobench::select
