#include "core/parse.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace cobench {

std::optional<double> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<double> parse_fraction(std::string_view text) {
  bool percent = !text.empty() && text.back() == '%';
  if (percent) text.remove_suffix(1);
  auto value = parse_number(text);
  if (!value || *value < 0) return std::nullopt;
  return percent ? *value / 100.0 : *value;
}

namespace {

std::optional<double> duration_seconds(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (auto plain = parse_number(text)) return *plain >= 0 ? plain : std::nullopt;
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    auto number = parse_number(text.substr(start, i - start));
    size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string_view unit = text.substr(unit_start, i - unit_start);
    if (!number) return std::nullopt;
    double scale = 0;
    if (unit == "ms") scale = 1e-3;
    else if (unit == "s") scale = 1;
    else if (unit == "m" || unit == "min") scale = 60;
    else if (unit == "h") scale = 3600;
    else return std::nullopt;
    total += *number * scale;
  }
  return total;
}

}  // namespace

std::optional<double> parse_duration_seconds(std::string_view text) {
  const auto seconds = duration_seconds(text);
  if (!seconds || !std::isfinite(*seconds) || *seconds > kMaxDurationSeconds) return std::nullopt;
  return seconds;
}

std::string format_duration(double seconds) {
  if (seconds < 1) return fmt::format("{:.0f} ms", seconds * 1e3);
  if (seconds < 120) return fmt::format("{:.1f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.1f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

}  // namespace cobench
