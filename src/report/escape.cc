#include "report/escape.h"

#include <cstdint>

namespace cobench::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i], 0 when invalid.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  uint8_t lead = byte(i);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and out-of-range code points are invalid too.
  static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinimum[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
  return length;
}

}  // namespace

std::string sanitize_text(std::string_view text, bool one_line) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t length = utf8_sequence_length(text, i);
    char c = text[i];
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (length == 1 && (c == '\n' || c == '\r')) {
      out += one_line ? ' ' : c;
    } else if (length == 1 && c != '\t' && (static_cast<uint8_t>(c) < 0x20 || c == 0x7F)) {
      out += kReplacement;
    } else if (length == 2 && static_cast<uint8_t>(c) == 0xC2 && static_cast<uint8_t>(text[i + 1]) < 0xA0) {
      out += kReplacement;  // C1 controls (U+0080-U+009F): CSI U+009B starts a terminal escape too
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  std::string out;
  for (char c : sanitize_text(text, true)) {
    switch (c) {
      // Entities, not backslashes: they also hold inside <summary> and raw HTML blocks.
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      // A zero-width space after '@' keeps @here / @user from notifying anyone.
      case '@': out += "@&#8203;"; break;
      case '|': case '`': case '\\': case '*': case '_': case '[': case ']': case '~': case '#': case '!':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_xml(std::string_view text) {
  std::string out;
  for (char c : sanitize_text(text, false)) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      // As references, so attribute-value normalisation cannot turn them into spaces.
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace cobench::report
