#include "select/source_text.h"

#include <cctype>

namespace cobench::select {
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Keeps newlines (line numbers must survive) and blanks everything else.
void blank(std::string& out, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (out[i] != '\n') out[i] = ' ';
}

/// Start of the identifier or pp-number ending just before `pos`.
size_t token_start(std::string_view text, size_t pos) {
  while (pos > 0 && (is_ident_char(text[pos - 1]) || text[pos - 1] == '\'' || text[pos - 1] == '.')) --pos;
  return pos;
}

/// Whether the identifier just before a quote is a literal prefix (u8, L, R...).
bool is_literal_prefix(std::string_view prefix) {
  return prefix.empty() || prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L";
}

/// One pass over the text, tracking whether we are in a directive that is an
/// #include, so its "header-name" is not mistaken for a string literal.
class Blanker {
 public:
  explicit Blanker(std::string_view text) : in_(text), out_(text) {}

  std::string run() {
    while (i_ < in_.size()) step();
    return std::move(out_);
  }

 private:
  void step() {
    char c = in_[i_];
    if (c == '\n') {
      line_start_ = true;
      include_ = false;
      ++i_;
    } else if (c == '/' && next() == '/') {
      line_comment();
    } else if (c == '/' && next() == '*') {
      block_comment();
    } else if (c == '"') {
      quote('"');
    } else if (c == '\'') {
      apostrophe();
    } else if (c == '#' && line_start_) {
      line_start_ = false;
      ++i_;
      directive_name();
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) line_start_ = false;
      ++i_;
    }
  }

  char next() const { return i_ + 1 < in_.size() ? in_[i_ + 1] : '\0'; }

  void directive_name() {
    size_t j = i_;
    while (j < in_.size() && (in_[j] == ' ' || in_[j] == '\t')) ++j;
    size_t k = j;
    while (k < in_.size() && is_ident_char(in_[k])) ++k;
    std::string_view name = in_.substr(j, k - j);
    include_ = name == "include" || name == "include_next" || name == "import";
    i_ = k;
  }

  void line_comment() {
    size_t j = i_ + 2;
    // A backslash-newline continues a // comment onto the next line.
    while (j < in_.size() && !(in_[j] == '\n' && in_[j - 1] != '\\')) ++j;
    blank(out_, i_, j);
    i_ = j;
  }

  void block_comment() {
    size_t end = in_.find("*/", i_ + 2);
    size_t j = end == std::string_view::npos ? in_.size() : end + 2;
    blank(out_, i_, j);
    i_ = j;
  }

  void quote(char q) {
    size_t start = token_start(in_, i_);
    std::string_view prefix = in_.substr(start, i_ - start);
    if (q == '"' && !prefix.empty() && prefix.back() == 'R' &&
        is_literal_prefix(prefix.substr(0, prefix.size() - 1))) {
      raw_string();
      return;
    }
    if (q == '"' && include_) {  // #include "header-name": keep it
      size_t end = in_.find_first_of("\"\n", i_ + 1);
      i_ = end == std::string_view::npos ? in_.size() : end + 1;
      include_ = false;
      return;
    }
    size_t j = i_ + 1;
    while (j < in_.size() && in_[j] != q && in_[j] != '\n') j += in_[j] == '\\' ? 2 : 1;
    j = std::min(j, in_.size());
    blank(out_, i_ + 1, j);
    i_ = j < in_.size() ? j + 1 : j;
    line_start_ = false;
  }

  void apostrophe() {
    size_t start = token_start(in_, i_);
    // 1'000'000: a digit separator inside a pp-number, not a char literal.
    if (start < i_ && std::isdigit(static_cast<unsigned char>(in_[start]))) {
      ++i_;
      return;
    }
    quote('\'');
  }

  void raw_string() {
    size_t open = in_.find('(', i_ + 1);
    if (open == std::string_view::npos || open - i_ > 17) {  // not a raw string after all
      ++i_;
      return;
    }
    std::string close = ")" + std::string(in_.substr(i_ + 1, open - i_ - 1)) + "\"";
    size_t end = in_.find(close, open + 1);
    size_t j = end == std::string_view::npos ? in_.size() : end + close.size();
    blank(out_, i_ + 1, j == in_.size() ? j : j - 1);
    i_ = j;
    line_start_ = false;
  }

  std::string_view in_;
  std::string out_;
  size_t i_ = 0;
  bool line_start_ = true;
  bool include_ = false;
};

}  // namespace

std::string blank_comments_and_literals(std::string_view text) { return Blanker(text).run(); }

}  // namespace cobench::select
