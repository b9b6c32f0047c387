#include "formats/json_text.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/text.h"

namespace cobench::formats {
namespace {

// Each bare token becomes a JSON string of exactly the same length, so the
// line and column of any later syntax error still point into the user's file.
struct Replacement {
  std::string_view token, sentinel;
  double value;
};
constexpr double kInf = std::numeric_limits<double>::infinity();
const Replacement kReplacements[] = {
    {"-Infinity", "\"-Infini\"", -kInf},
    {"Infinity", "\"Infini\"", kInf},
    {"-NaN", "\"-N\"", std::numeric_limits<double>::quiet_NaN()},
    {"NaN", "\"N\"", std::numeric_limits<double>::quiet_NaN()},
};

std::string neutralise_non_finite(std::string_view text) {
  std::string out(text);
  bool in_string = false;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    for (const auto& r : kReplacements)
      if (std::string_view(out).substr(i, r.token.size()) == r.token) {
        out.replace(i, r.token.size(), r.sentinel);
        i += r.token.size() - 1;
        break;
      }
  }
  return out;
}

// Bytes that are not UTF-8 inside strings are carried through nlohmann's
// parser (which refuses them) as code points U+10FF80..U+10FFFF, one per
// byte, and turned back into the bytes afterwards. A literal code point of
// that range in the input is carried byte by byte the same way, so the
// round trip is exact. Raw control characters become \u00XX escapes, which
// JSON reads as the same bytes.
constexpr uint32_t kCarrierBase = 0x10FF00;

void append_carrier(std::string& out, unsigned char byte) {
  const uint32_t code = kCarrierBase + byte;
  out += static_cast<char>(0xF0 | (code >> 18));
  out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
  out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
  out += static_cast<char>(0x80 | (code & 0x3F));
}

/// The code point of a JSON surrogate-pair escape at the start of `text`
/// ("\\ud83d\\ude00"); nullopt when there is none.
std::optional<uint32_t> escaped_pair(std::string_view text) {
  auto unit = [&](size_t at) -> std::optional<uint32_t> {
    if (text.size() < at + 6 || text[at] != '\\' || text[at + 1] != 'u') return std::nullopt;
    uint32_t value = 0;
    for (size_t k = at + 2; k < at + 6; ++k) {
      const char h = text[k];
      const int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (digit < 0) return std::nullopt;
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    return value;
  };
  const auto high = unit(0), low = unit(6);
  if (!high || !low || *high < 0xD800 || *high > 0xDBFF || *low < 0xDC00 || *low > 0xDFFF) return std::nullopt;
  return 0x10000 + ((*high - 0xD800) << 10) + (*low - 0xDC00);
}

/// The carried-over text of `text` and, where it grew, how much: pairs of
/// (offset in the new text after the growth, total growth so far).
struct Carried {
  std::string text;
  std::vector<std::pair<size_t, size_t>> growth;
};

Carried carry_raw_bytes(std::string_view text) {
  Carried out;
  bool in_string = false;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!in_string) {
      if (c == '"') in_string = true;
      out.text += text[i++];
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      // An escaped code point of the carriers' range (\udbff\udf80-\udbff\udfff) is carried too.
      if (const auto code = escaped_pair(text.substr(i)); code && *code >= kCarrierBase + 0x80) {
        const size_t before = out.text.size();
        std::string bytes;
        bytes += static_cast<char>(0xF0 | (*code >> 18));
        bytes += static_cast<char>(0x80 | ((*code >> 12) & 0x3F));
        bytes += static_cast<char>(0x80 | ((*code >> 6) & 0x3F));
        bytes += static_cast<char>(0x80 | (*code & 0x3F));
        for (char byte : bytes) append_carrier(out.text, static_cast<unsigned char>(byte));
        i += 12;
        const size_t grown = (out.text.size() - before) - 12;
        out.growth.emplace_back(out.text.size(), (out.growth.empty() ? 0 : out.growth.back().second) + grown);
        continue;
      }
      out.text.append(text.substr(i, 2));
      i += 2;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out.text += text[i++];
      continue;
    }
    const size_t before = out.text.size();
    size_t length = utf8_sequence_length(text, i);
    const bool carrier_code_point = length == 4 && c == 0xF4 && static_cast<unsigned char>(text[i + 1]) == 0x8F &&
                                    static_cast<unsigned char>(text[i + 2]) >= 0xBE;
    if (c < 0x20) {
      out.text += fmt::format("\\u{:04x}", c);
      length = 1;
    } else if (length == 0 || carrier_code_point) {
      length = length == 0 ? 1 : length;
      for (size_t k = 0; k < length; ++k) append_carrier(out.text, static_cast<unsigned char>(text[i + k]));
    } else {
      out.text.append(text.substr(i, length));
      i += length;
      continue;
    }
    i += length;
    const size_t grown = (out.text.size() - before) - length;
    out.growth.emplace_back(out.text.size(), (out.growth.empty() ? 0 : out.growth.back().second) + grown);
  }
  return out;
}

/// The offset in the original text of `offset` in the carried text.
size_t original_offset(const Carried& carried, size_t offset) {
  size_t growth = 0;
  for (const auto& [end, total] : carried.growth) {
    if (end > offset) break;
    growth = total;
  }
  return offset > growth ? offset - growth : 0;
}

std::string restore_raw_bytes(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0xF4 && i + 3 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x8F &&
        static_cast<unsigned char>(text[i + 2]) >= 0xBE) {
      const uint32_t code = 0x100000 | (0x0F << 12) | ((static_cast<unsigned char>(text[i + 2]) & 0x3F) << 6) |
                            (static_cast<unsigned char>(text[i + 3]) & 0x3F);
      out += static_cast<char>(code - kCarrierBase);
      i += 3;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::string position(std::string_view text, size_t byte) {
  size_t pos = std::min(byte > 0 ? byte - 1 : 0, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < pos; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return fmt::format("line {}, column {}", line, pos - line_start + 1);
}

/// nlohmann's message without its own "[json.exception...] parse error at ..." prefix.
std::string bare_message(const std::string& what) {
  size_t column = what.find("column ");
  size_t colon = column == std::string::npos ? std::string::npos : what.find(": ", column);
  if (colon != std::string::npos) return what.substr(colon + 2);
  size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

}  // namespace

nlohmann::json::parser_callback_t depth_limit(const std::string& what) {
  return [what](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    bool opens = event == nlohmann::json::parse_event_t::object_start ||
                 event == nlohmann::json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth)
      throw InputError(fmt::format("{}: arrays and objects nested deeper than {} levels", what, kMaxJsonDepth));
    return true;
  };
}

nlohmann::json parse_lenient_json(std::string_view text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(source + ": empty file, expected JSON");
  const Carried carried = carry_raw_bytes(neutralise_non_finite(text));
  try {
    nlohmann::json value = nlohmann::json::parse(carried.text, depth_limit(source));
    return carried.growth.empty() ? value : map_strings(value, restore_raw_bytes);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}: {}: {}", source, position(text, original_offset(carried, e.byte)),
                                 escape_invalid_utf8(bare_message(e.what()))));
  } catch (const nlohmann::json::out_of_range& e) {
    // "number overflow parsing '1e400'": find the number to say where it is.
    const std::string what = e.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number = open < close ? what.substr(open + 1, close - open - 1) : "";
    const size_t at = number.empty() ? std::string_view::npos : text.find(number);
    throw InputError(fmt::format("{}: {}: number {} is out of range", source,
                                 at == std::string_view::npos ? "somewhere" : position(text, at + 1), number));
  }
}

nlohmann::json map_strings(const nlohmann::json& value, const std::function<std::string(const std::string&)>& change) {
  if (value.is_string()) return change(value.get_ref<const std::string&>());
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : value) out.push_back(map_strings(item, change));
    return out;
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.items()) out[change(key)] = map_strings(item, change);
    return out;
  }
  return value;
}

std::string dump_json(const nlohmann::json& value, int indent) {
  return map_strings(value, [](const std::string& text) { return escape_invalid_utf8(text); }).dump(indent);
}

nlohmann::json restore_dumped_bytes(const nlohmann::json& value) {
  return map_strings(value, [](const std::string& text) { return unescape_invalid_utf8(text); });
}

std::optional<double> json_number(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string())
    for (const auto& r : kReplacements)
      if (r.sentinel.substr(1, r.sentinel.size() - 2) == value.get_ref<const std::string&>()) return r.value;
  return std::nullopt;
}

}  // namespace cobench::formats
