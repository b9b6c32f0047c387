#include "verdict/verdict.h"

#include <cmath>

namespace cobench::verdict {

double budget_line(double budget) { return 1 + budget; }

double faster_line(double budget) { return 1 / budget_line(budget); }

Verdict judge_interval(const stats::RatioEstimate& estimate, double budget) {
  if (!estimate.ci_reachable || std::isnan(estimate.ci_low) || std::isnan(estimate.ci_high))
    return Verdict::Inconclusive;
  const double line = budget_line(budget);
  if (estimate.ci_low > line) return Verdict::Regression;
  if (estimate.ci_high <= line) return Verdict::Pass;
  return Verdict::Inconclusive;
}

bool is_faster(const stats::RatioEstimate& estimate) { return estimate.ci_reachable && estimate.ci_high < 1; }

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "pass";
    case Verdict::Regression: return "regression";
    case Verdict::Unrelated: return "unrelated change";
    case Verdict::LayoutSensitive: return "layout-sensitive";
    case Verdict::Inconclusive: break;
  }
  return "inconclusive";
}

std::optional<Verdict> verdict_from_string(const std::string& text) {
  for (Verdict v : {Verdict::Pass, Verdict::Regression, Verdict::Inconclusive, Verdict::Unrelated, Verdict::LayoutSensitive})
    if (to_string(v) == text) return v;
  return std::nullopt;
}

}  // namespace cobench::verdict
