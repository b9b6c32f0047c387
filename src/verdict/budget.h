#pragma once
// What a benchmark may cost, from the budgets as configured
// (config/budget_values.h): one matcher decides which override applies; its
// regexes are compiled once.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "config/budget_values.h"
#include "config/config.h"

namespace cobench::verdict {

/// The budgets one benchmark is judged against.
struct Budget {
  double time = 0.05;                ///< allowed slowdown as a fraction: 0.05 means head/base <= 1.05
  std::optional<config::Threshold> allocs;   ///< nullopt: reported, not judged
  std::optional<config::Threshold> bytes;
};

/// The default budgets and the overrides, in file order. For each metric the
/// first override that matches the benchmark and sets that metric wins.
class Budgets {
 public:
  Budgets() = default;
  /// Compiles every `match` once; throws InputError naming a rule whose regex is invalid.
  Budgets(Budget defaults, std::vector<config::BudgetOverride> overrides);

  /// The budgets of one benchmark (`target` may be empty, as in `compare`).
  Budget for_benchmark(const std::string& target, const std::string& name) const;
  const Budget& defaults() const { return defaults_; }
  /// Whether any benchmark is judged on allocs/op or bytes/op (a default or an override sets one).
  bool judges_allocations() const;
  const std::vector<config::BudgetOverride>& overrides() const { return overrides_; }

 private:
  Budget defaults_;
  std::vector<config::BudgetOverride> overrides_;
  std::vector<std::regex> patterns_;  ///< patterns_[i] is overrides_[i].match, compiled
};

/// The job's budgets from the configured ones, their overrides compiled
/// (throws InputError naming an override whose regex is invalid).
Budgets budgets_of(const config::BudgetConfig& configured);

}  // namespace cobench::verdict
