#include "formats/json_text.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/errors.h"

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
  try {
    return nlohmann::json::parse(neutralise_non_finite(text), depth_limit(source));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}: {}: {}", source, position(text, e.byte), bare_message(e.what())));
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

std::optional<double> json_number(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string())
    for (const auto& r : kReplacements)
      if (r.sentinel.substr(1, r.sentinel.size() - 2) == value.get_ref<const std::string&>()) return r.value;
  return std::nullopt;
}

}  // namespace cobench::formats
