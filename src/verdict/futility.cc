#include "verdict/futility.h"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "stats/normal_distribution.h"
#include "verdict/verdict.h"

namespace cobench::verdict {

double chance_to_decide(const TimeJudgement& row, double budget, int pairs, int max_runs, double final_confidence) {
  const auto& e = row.estimate;
  if (!row.compared || !(e.ratio > 0) || !std::isfinite(row.noise) || pairs <= 0 || pairs >= max_runs)
    return std::nan("");
  // The estimate's standard error now, from the robust σ of a pair (not from an interim interval, which
  // at 99.73% and a few pairs spans their extremes: one neighbour's burst would read as noise of every
  // pair); the Hodges-Lehmann estimate's is about sqrt(π/3) σ / sqrt(n).
  const double standard_error = std::sqrt(std::numbers::pi / 3) * row.noise / std::sqrt(pairs);
  if (!(standard_error > 0)) return std::nan("");
  const double now = static_cast<double>(pairs) / max_runs;
  const double final_half_width = stats::two_sided_z(final_confidence) * standard_error * std::sqrt(now);
  const double step = standard_error * std::sqrt(1 - now);  // how far the estimate may still move
  const double from_line = std::log(e.ratio) - std::log(budget_line(budget));
  // A regression: the final estimate beyond the line by the final half-width; a pass: below it by as much.
  return stats::normal_upper_tail((final_half_width - from_line) / step) +
         stats::normal_upper_tail((final_half_width + from_line) / step);
}

std::optional<std::string> not_worth_more_runs(const TimeJudgement& row, double budget, int pairs, int max_runs,
                                               double final_confidence) {
  if (row.verdict != Verdict::Inconclusive || pairs < kFutilityFromPairs) return std::nullopt;
  const double chance = chance_to_decide(row, budget, pairs, max_runs, final_confidence);
  if (!(chance < kLeastChanceToDecide)) return std::nullopt;  // NaN too: nothing to project from
  return fmt::format("not measured further: after {} pairs a {:.1f}% chance to be decided by max_runs = {} (projected)",
                     pairs, chance * 100, max_runs);
}

}  // namespace cobench::verdict
