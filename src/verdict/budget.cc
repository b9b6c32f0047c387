#include "verdict/budget.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parse.h"

namespace cobench::verdict {
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

Budgets::Budgets(Budget defaults, std::vector<Override> overrides)
    : defaults_(std::move(defaults)), overrides_(std::move(overrides)) {
  for (size_t i = 0; i < overrides_.size(); ++i) {
    try {
      patterns_.emplace_back(overrides_[i].match, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw InputError(fmt::format("budget.override[{}]: match '{}' is not a valid regex: {}", i + 1,
                                   overrides_[i].match, e.what()));
    }
  }
}

bool Budgets::judges_allocations() const {
  if (defaults_.allocs || defaults_.bytes) return true;
  return std::any_of(overrides_.begin(), overrides_.end(), [](const Override& o) { return o.allocs || o.bytes; });
}

Budget Budgets::for_benchmark(const std::string& target, const std::string& name) const {
  const std::string qualified = target.empty() ? name : target + "/" + name;
  Budget out = defaults_;
  bool time = false, allocs = false, bytes = false;
  for (size_t i = 0; i < overrides_.size(); ++i) {
    const Override& rule = overrides_[i];
    if (!(std::regex_search(qualified, patterns_[i]) || std::regex_search(name, patterns_[i]))) continue;
    if (rule.time && !time) out.time = *rule.time, time = true;
    if (rule.allocs && !allocs) out.allocs = rule.allocs, allocs = true;
    if (rule.bytes && !bytes) out.bytes = rule.bytes, bytes = true;
  }
  return out;
}

}  // namespace cobench::verdict
