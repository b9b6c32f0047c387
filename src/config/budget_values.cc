#include "config/budget_values.h"

#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parse.h"

namespace cobench::config {
namespace {

constexpr const char* kTimeSpellings = "write a fraction (0.05) or a percentage (\"5%\")";

std::string bad_percentage(auto value) {
  return fmt::format("bad percentage '{}': write e.g. \"5%\" or 0.05 (not negative)", value);
}

}  // namespace

double time_budget_from_number(double value) {
  if (!std::isfinite(value) || value < 0) throw InputError(bad_percentage(value));
  if (value > 1) throw InputError(fmt::format("{} would mean {}%; {}", value, value * 100, kTimeSpellings));
  return value;
}

double parse_time_budget(std::string_view text) {
  if (text.ends_with('%')) {
    if (auto fraction = parse_fraction(text)) {
      if (*fraction > kMaxTimeBudget)
        throw InputError(fmt::format("'{}' allows more than a {}x slowdown, which no verdict could tell from a pass; "
                                     "at most {:.0f}%",
                                     text, 1 + kMaxTimeBudget, kMaxTimeBudget * 100));
      return *fraction;
    }
  } else if (auto number = parse_number(text)) {
    return time_budget_from_number(*number);
  }
  throw InputError(bad_percentage(text));
}

Threshold parse_threshold(std::string_view text) {
  const bool relative = text.ends_with('%');
  auto number = parse_number(relative ? text.substr(0, text.size() - 1) : text);
  if (!number || *number < 0)
    throw InputError(fmt::format("bad allowed increase '{}': write an absolute amount (\"0\", \"64\") or a "
                                 "percentage (\"5%\")",
                                 text));
  return {relative ? *number / 100 : *number, relative, std::string(text)};
}

}  // namespace cobench::config
