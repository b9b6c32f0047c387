#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/parse.h"
#include "plan/plan.h"

namespace cobench::plan {
namespace {

// Without recorded run times, the share of the budget kept for measuring.
constexpr double kMeasuringShareWithoutHistory = 0.25;
// The share of the budget the reach pass may use to rank targets before anything is built.
constexpr double kRankingShare = 0.5;

std::string plural(size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

/// Whether the first `keep` of `targets` hold one that is measured, not only controls.
bool target_kept(const std::vector<PlannedTarget>& targets, size_t keep) {
  return std::any_of(targets.begin(), targets.begin() + static_cast<std::ptrdiff_t>(keep),
                     [](const auto& t) { return !t.required; });
}

}  // namespace

BuildPlan::BuildPlan(double time_budget, std::optional<double> measure_budget, int min_runs, CostHistory history)
    : time_budget_(time_budget), measure_budget_(measure_budget), min_runs_(min_runs), history_(std::move(history)) {}

void BuildPlan::learn(const std::string& target, double seconds) {
  learned_[target].seconds += seconds;
  ++learned_[target].sides;
  learned_seconds_ += seconds;
  ++sides_learned_;
}

std::optional<double> BuildPlan::build_estimate(const std::string& target, int sides) const {
  // How this machine compares with the history on the targets built so far.
  double actual = 0, recorded = 0, recorded_mean = 0;
  int with_builds = 0;
  for (const auto& [name, cost] : history_.targets) {
    if (cost.builds == 0) continue;
    recorded_mean += cost.build_seconds;
    ++with_builds;
  }
  if (with_builds > 0) recorded_mean /= with_builds;
  for (const auto& [name, built] : learned_) {
    auto past = history_.targets.find(name);
    if (past == history_.targets.end() || past->second.builds == 0) continue;
    actual += built.seconds;
    recorded += past->second.build_seconds * built.sides;
  }
  const double correction = recorded > 0 ? actual / recorded : 1;
  if (auto past = history_.targets.find(target); past != history_.targets.end() && past->second.builds > 0)
    return past->second.build_seconds * sides * correction;
  if (sides_learned_ > 0) return learned_seconds_ / sides_learned_ * sides;
  if (with_builds > 0) return recorded_mean * sides * correction;
  return std::nullopt;
}

double BuildPlan::measuring_reserve(const std::vector<std::string>& targets) const {
  double run_sum = 0;
  int with_runs = 0;
  for (const auto& [name, cost] : history_.targets)
    if (cost.runs > 0) {
      run_sum += cost.run_seconds;
      ++with_runs;
    }
  double reserve = time_budget_ * kMeasuringShareWithoutHistory;
  if (with_runs > 0) {
    reserve = 0;
    for (const auto& name : targets) {
      auto past = history_.targets.find(name);
      const double run = past != history_.targets.end() && past->second.runs > 0 ? past->second.run_seconds
                                                                                 : run_sum / with_runs;
      reserve += 2.0 * min_runs_ * run;
    }
  }
  return measure_budget_ ? std::min(reserve, *measure_budget_) : reserve;
}

std::string BuildPlan::ranking_stop(double elapsed) const {
  if (elapsed < time_budget_ * kRankingShare) return "";
  return fmt::format("time budget {}: the reach pass stopped after {} of the job (ranking the targets may use "
                     "half of the budget; building and measuring need the rest)",
                     format_duration(time_budget_), format_duration(elapsed));
}

std::string BuildPlan::coverage_stop(const std::vector<std::string>& measured, double elapsed) const {
  const double reserve = measuring_reserve(measured);
  if (elapsed + reserve < time_budget_) return "";
  return fmt::format("time budget {}: the reach pass stopped with {} of the budget left after {} of the job; "
                     "measuring needs {}",
                     format_duration(time_budget_), format_duration(std::max(0.0, time_budget_ - elapsed)),
                     format_duration(elapsed), format_duration(reserve));
}

std::string BuildPlan::basis() const {
  const bool recorded = std::any_of(history_.targets.begin(), history_.targets.end(),
                                    [](const auto& t) { return t.second.builds > 0; });
  if (recorded && sides_learned_ > 0)
    return fmt::format("from {}, scaled by the {} so far", fmt::join(history_.files, ", "), plural(sides_learned_, "build"));
  if (recorded) return fmt::format("from {}", fmt::join(history_.files, ", "));
  return fmt::format("the mean of the {} so far", plural(sides_learned_, "build"));
}

Fit BuildPlan::fit(const std::vector<PlannedTarget>& remaining, const std::vector<std::string>& built,
                   double elapsed) const {
  const double left = time_budget_ - elapsed;
  std::vector<std::string> measured = built;  // what measuring will need time for
  double building = 0;
  size_t keep = 0;
  for (; keep < remaining.size(); ++keep) {
    const PlannedTarget& target = remaining[keep];
    if (!target.required) measured.push_back(target.name);
    const auto estimate = build_estimate(target.name, target.sides);
    const double cost = estimate.value_or(0);
    const bool fits = building + cost + measuring_reserve(measured) <= left;
    if (!fits && (!target.required || left <= 0)) break;  // a control is built whenever anything is
    building += cost;
    if (!estimate) return {remaining.size(), ""};  // nothing to judge by until this one is built
  }
  if (keep == remaining.size()) return {keep, ""};
  if (!target_kept(remaining, keep) && built.empty()) keep = 0;  // controls alone measure nothing
  std::vector<std::string> dropped, kept = built;
  double dropped_estimate = 0;
  for (size_t i = 0; i < remaining.size(); ++i) {
    if (remaining[i].required) continue;
    if (i < keep) {
      kept.push_back(remaining[i].name);
      continue;
    }
    dropped.push_back(remaining[i].name);
    dropped_estimate += build_estimate(remaining[i].name, remaining[i].sides).value_or(0);
  }
  const std::string need = dropped_estimate > 0 ? fmt::format("building them needs an estimated {} ({}); ",
                                                              format_duration(dropped_estimate), basis())
                                                : std::string();
  return {keep, fmt::format("time budget {}: the {} lowest-ranked of the selected targets not built nor measured "
                            "({}): {}{} of the budget is left after {} of the job so far, and measuring {} needs {}",
                            format_duration(time_budget_), dropped.size(), fmt::join(dropped, ", "), need,
                            format_duration(std::max(0.0, left)), format_duration(elapsed),
                            kept.empty() ? "the first of them" : "the others",
                            format_duration(measuring_reserve(kept.empty() ? std::vector<std::string>{dropped.front()}
                                                                           : kept)))};
}

std::string BuildPlan::describe(const std::vector<PlannedTarget>& targets, double elapsed) const {
  std::string head = fmt::format("time budget {}: {} left after {} of configure", format_duration(time_budget_),
                                 format_duration(std::max(0.0, time_budget_ - elapsed)), format_duration(elapsed));
  double total = 0;
  std::vector<std::string> names;
  for (const auto& t : targets) {
    names.push_back(t.name);
    auto estimate = build_estimate(t.name, t.sides);
    if (!estimate) {
      return head + fmt::format("; the build of {} is not known yet (no --cost-from): the first target's build is the "
                                "first estimate",
                                plural(targets.size(), "target"));
    }
    total += *estimate;
  }
  return head + fmt::format("; building {} estimated at {} ({}), measuring needs {}", plural(targets.size(), "target"),
                            format_duration(total), basis(), format_duration(measuring_reserve(names)));
}

std::optional<MeasuringBound> measuring_bound(std::optional<double> time_budget, std::optional<double> measure_budget,
                                              double elapsed) {
  if (!time_budget && !measure_budget) return std::nullopt;
  const double left = time_budget ? std::max(0.0, *time_budget - elapsed) : 0;
  if (measure_budget && (!time_budget || *measure_budget <= left))
    return MeasuringBound{*measure_budget, fmt::format("measuring budget {}", format_duration(*measure_budget))};
  return MeasuringBound{left, fmt::format("time budget {} ({} left for measuring)", format_duration(*time_budget),
                                          format_duration(left))};
}

}  // namespace cobench::plan
