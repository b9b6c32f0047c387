#include "verdict/budget.h"

#include <regex>

#include "core/errors.h"

namespace cobench::verdict {
namespace {

std::regex compile(const std::string& pattern) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError("budget override: invalid regex '" + pattern + "': " + e.what());
  }
}

}  // namespace

double BudgetRules::time_for(const std::string& target, const std::string& name) const {
  const std::string qualified = target.empty() ? name : target + "/" + name;
  for (const auto& rule : overrides) {
    if (!rule.time) continue;
    const auto re = compile(rule.match);
    if (std::regex_search(qualified, re) || std::regex_search(name, re)) return *rule.time;
  }
  return time;
}

void BudgetRules::validate() const {
  for (const auto& rule : overrides) compile(rule.match);
}

nlohmann::json to_json(const BudgetRules& rules) {
  nlohmann::json out = {{"time", rules.time}, {"overrides", nlohmann::json::array()}};
  for (const auto& rule : rules.overrides) {
    nlohmann::json item = {{"match", rule.match}};
    if (rule.time) item["time"] = *rule.time;
    if (rule.allocs) item["allocs"] = *rule.allocs;
    if (rule.bytes) item["bytes"] = *rule.bytes;
    out["overrides"].push_back(item);
  }
  return out;
}

BudgetRules budget_rules_from_json(const nlohmann::json& settings, const std::string& source) {
  BudgetRules rules;
  try {
    const auto& budget = settings.at("budget");
    rules.time = budget.at("time").get<double>();
    for (const auto& item : budget.value("overrides", nlohmann::json::array())) {
      config::BudgetOverride rule;
      rule.match = item.at("match").get<std::string>();
      if (item.contains("time")) rule.time = item["time"].get<double>();
      if (item.contains("allocs")) rule.allocs = item["allocs"].get<std::string>();
      if (item.contains("bytes")) rule.bytes = item["bytes"].get<std::string>();
      rules.overrides.push_back(rule);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": settings line: bad budget: " + e.what());
  }
  return rules;
}

}  // namespace cobench::verdict
