#include "job/console.h"
#include "job/planned_build.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "core/clock.h"
#include "process/signals.h"

namespace cobench::job {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

/// Build order: the controls, then the compared targets (rank order), then head-only, then base-only.
std::vector<plan::PlannedTarget> build_order(const TargetChoice& choice) {
  std::vector<plan::PlannedTarget> order;
  for (const auto& name : choice.layout_controls) order.push_back({name, 2, true});
  for (const auto& name : choice.both)
    if (!contains(choice.layout_controls, name)) order.push_back({name, 2, false});
  for (const auto* list : {&choice.head_only, &choice.base_only})
    for (const auto& name : *list) order.push_back({name, 1, false});
  return order;
}

void drop(TargetChoice& choice, const plan::PlannedTarget& target) {
  for (auto* list : {&choice.both, &choice.head_only, &choice.base_only, &choice.layout_controls})
    std::erase(*list, target.name);
  if (!target.required) choice.budget_dropped.push_back(target.name);
}

}  // namespace

std::vector<std::string> targets_on(const TargetChoice& choice, Side side) {
  std::vector<std::string> out = choice.both;
  const auto& own = side == Side::Base ? choice.base_only : choice.head_only;
  out.insert(out.end(), own.begin(), own.end());
  return out;
}

BuildOutcome build_chosen(TargetChoice& choice, const SideBuild& base, const SideBuild& head, plan::BuildPlan* plan,
                          const std::function<double()>& elapsed, run::Progress& progress) {
  BuildOutcome out;
  std::vector<plan::PlannedTarget> order = build_order(choice);
  if (plan) progress.message(plan->describe(order, elapsed()));
  std::vector<std::string> measured;  // built so far, the controls aside
  for (size_t i = 0; i < order.size(); ++i) {
    if (plan) {
      const std::vector<plan::PlannedTarget> rest(order.begin() + static_cast<std::ptrdiff_t>(i), order.end());
      const plan::Fit fit = plan->fit(rest, measured, elapsed());
      if (fit.keep < rest.size()) {
        console().line(fit.why);
        out.notes.push_back(fit.why);
        for (size_t k = fit.keep; k < rest.size(); ++k) drop(choice, rest[k]);
        order.resize(i + fit.keep);
        if (i == order.size()) break;
      }
    }
    const plan::PlannedTarget& target = order[i];
    progress.message(fmt::format("building {} ({}/{})", target.name, i + 1, order.size()));
    for (const SideBuild* side : {&base, &head}) {
      if (!contains(targets_on(choice, side->side), target.name)) continue;
      const auto start = std::chrono::steady_clock::now();
      build_side(*side, {target.name});
      const double seconds = seconds_since(start);
      out.times.push_back({target.name, side->side, seconds});
      if (plan) plan->learn(target.name, seconds);
      signals::throw_if_cancelled();
    }
    if (!target.required) measured.push_back(target.name);
  }
  return out;
}

}  // namespace cobench::job
