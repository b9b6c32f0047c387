#include "report/escape.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "formats/json_text.h"

namespace cobench::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// The code point of a valid UTF-8 sequence of `length` bytes at text[i].
uint32_t code_point(std::string_view text, size_t i, size_t length) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[i + k]); };
  if (length == 1) return byte(0);
  uint32_t code = byte(0) & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) code = (code << 6) | (byte(k) & 0x3F);
  return code;
}

/// Characters that change how a terminal or an editor lays out what follows
/// (the "Trojan Source" bidirectional overrides and isolates, the marks, the
/// Arabic letter mark) or breaks lines where no newline is.
bool reorders_text(uint32_t code) {
  return code == 0x061C || code == 0x200E || code == 0x200F || (code >= 0x202A && code <= 0x202E) ||
         (code >= 0x2066 && code <= 0x2069) || code == 0x2028 || code == 0x2029;
}

}  // namespace

std::string sanitize_text(std::string_view text, bool one_line) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text, i);
    const char c = text[i];
    if (length == 0 || starts_byte_escape(text, i)) {  // the byte, as escape_invalid_utf8 writes it
      out += fmt::format("\\x{:02X}", static_cast<uint8_t>(c));
      ++i;
      continue;
    }
    const uint32_t code = code_point(text, i, length);
    if (code == '\n' || code == '\r' || code == '\t') {
      out += one_line ? ' ' : c;  // a tab in a name would break a table's columns
    } else if ((code < 0x20 && code != '\t') || code == 0x7F || (code >= 0x80 && code < 0xA0)) {
      out += kReplacement;  // C0 and C1 controls: CSI U+009B starts a terminal escape too
    } else if (reorders_text(code)) {
      out += kReplacement;
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

std::string value_text(const nlohmann::json& value) {
  constexpr size_t kShownBytes = 4096;
  return secrets::scrub_and_shorten(value.is_string() ? value.get<std::string>() : formats::dump_json(value),
                                    kShownBytes);
}

std::vector<secrets::Secret> as_rendered(const std::vector<secrets::Secret>& secrets) {
  std::vector<secrets::Secret> out = secrets;
  for (const auto& secret : secrets)
    for (const std::string& form : {escape_markdown(secret.value), escape_xml(secret.value)})
      if (form != secret.value) out.push_back({secret.name, form});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.value.size() > b.value.size(); });
  return out;
}

std::string scrub_rendered(std::string_view text) {
  static const std::vector<secrets::Secret> rendered = as_rendered(secrets::process_credentials());
  return secrets::scrub(text, rendered);
}

}  // namespace cobench::report
