#include "verdict/budget.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::verdict {

Budgets::Budgets(Budget defaults, std::vector<config::BudgetOverride> overrides)
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
  return std::any_of(overrides_.begin(), overrides_.end(), [](const config::BudgetOverride& o) { return o.allocs || o.bytes; });
}

Budget Budgets::for_benchmark(const std::string& target, const std::string& name) const {
  const std::string qualified = target.empty() ? name : target + "/" + name;
  Budget out = defaults_;
  bool time = false, allocs = false, bytes = false;
  for (size_t i = 0; i < overrides_.size(); ++i) {
    const config::BudgetOverride& rule = overrides_[i];
    if (!(std::regex_search(qualified, patterns_[i]) || std::regex_search(name, patterns_[i]))) continue;
    if (rule.time && !time) out.time = *rule.time, time = true;
    if (rule.allocs && !allocs) out.allocs = rule.allocs, allocs = true;
    if (rule.bytes && !bytes) out.bytes = rule.bytes, bytes = true;
  }
  return out;
}

Budgets budgets_of(const config::BudgetConfig& configured) {
  return Budgets({configured.time, configured.allocs, configured.bytes}, configured.overrides);
}

}  // namespace cobench::verdict
