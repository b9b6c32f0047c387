#include "verdict/control.h"

#include <algorithm>
#include <cmath>

namespace cobench::verdict {

std::optional<double> spread_of(const stats::RatioEstimate& e) {
  if (!e.ci_reachable || !std::isfinite(e.ci_low) || !std::isfinite(e.ci_high)) return std::nullopt;
  return std::max(1 - e.ci_low, e.ci_high - 1);
}

bool clears(const stats::RatioEstimate& e, double spread) {
  if (!e.ci_reachable || !std::isfinite(e.ci_low) || !std::isfinite(e.ci_high)) return false;
  return e.ci_low > 1 + spread || e.ci_high < 1 - spread;
}

bool regression_stands(const TimeJudgement& judgement, std::optional<double> spread) {
  if (judgement.verdict != stats::Verdict::Regression || !spread || !judgement.estimate.ci_reachable) return true;
  return clears(judgement.estimate, *spread);
}

std::vector<ControlSpread> widest_per_kind(const std::vector<ControlSpread>& controls) {
  std::vector<ControlSpread> out;
  for (const char* kind : {"machine", "layout"}) {
    const ControlSpread* widest = nullptr;
    for (const auto& control : controls)
      if (control.kind == kind && (!widest || control.spread > widest->spread)) widest = &control;
    if (widest) out.push_back(*widest);
  }
  return out;
}

}  // namespace cobench::verdict
