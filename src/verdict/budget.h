#pragma once
// Per-benchmark time budgets: the default and `[[budget.override]]` rules,
// the first rule whose regex matches "target/name" (or the name) wins.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.h"

namespace cobench::verdict {

/// The budgets of one comparison, as recorded in results.jsonl's settings line.
struct BudgetRules {
  double time = 0.05;                              ///< default allowed slowdown (fraction)
  std::vector<config::BudgetOverride> overrides;   ///< in file order

  /// The time budget for one benchmark. Throws InputError for an invalid regex.
  double time_for(const std::string& target, const std::string& name) const;
  /// Throws InputError naming the rule when a `match` is not a valid regex.
  void validate() const;
};

nlohmann::json to_json(const BudgetRules& rules);  ///< {"time":0.05,"overrides":[{match,time,allocs,bytes}]}
/// Reads the settings line's budget; `source` names the file in errors.
BudgetRules budget_rules_from_json(const nlohmann::json& settings, const std::string& source);

}  // namespace cobench::verdict
