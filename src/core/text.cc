#include "core/text.h"

#include <cstdint>

#include <fmt/format.h>

namespace cobench {

size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t lead = byte(i);
  const size_t length =
      lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
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

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

namespace {

/// The value of an upper-case hex digit, -1 for any other character (what escapes write is upper case).
int upper_hex_digit(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; }

/// The byte a "\xHH" at text[i] names, -1 when there is none there.
int escaped_byte(std::string_view text, size_t i) {
  if (i + 4 > text.size() || text[i] != '\\' || text[i + 1] != 'x') return -1;
  const int high = upper_hex_digit(text[i + 2]), low = upper_hex_digit(text[i + 3]);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

constexpr uint8_t kBackslash = 0x5C;

}  // namespace

bool starts_byte_escape(std::string_view text, size_t i) {
  const int byte = escaped_byte(text, i);
  return byte == kBackslash || byte >= 0x80;
}

std::string escape_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0 || starts_byte_escape(text, i)) {
      out += fmt::format("\\x{:02X}", static_cast<uint8_t>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string unescape_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (starts_byte_escape(text, i)) {
      out += static_cast<char>(escaped_byte(text, i));
      i += 4;
    } else {
      out += text[i++];
    }
  }
  return out;
}

namespace {

/// The longest prefix of at most `max_bytes` that does not end inside a UTF-8 sequence.
size_t cut_point(std::string_view text, size_t max_bytes) {
  size_t end = max_bytes;
  while (end > 0 && (static_cast<uint8_t>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

}  // namespace

std::string shorten(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return std::string(text.substr(0, cut_point(text, max_bytes))) + "…";
}

std::string shorten_saying_size(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return fmt::format("{}… ({} bytes)", text.substr(0, cut_point(text, max_bytes)), text.size());
}

}  // namespace cobench
