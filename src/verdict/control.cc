#include "verdict/control.h"
#include "verdict/verdict.h"

#include <algorithm>
#include <cmath>

namespace cobench::verdict {
namespace {

bool known(const stats::RatioEstimate& e) {
  return e.ci_reachable && std::isfinite(e.ci_low) && std::isfinite(e.ci_high) && e.ci_low > 0;
}

/// How far a control's whole interval lies off 1 (log scale, either way); 0 when it straddles 1.
double shown_shift(const ControlInterval& c) {
  if (c.ci_low > 1) return std::log(c.ci_low);
  if (c.ci_high < 1) return -std::log(c.ci_high);
  return 0;
}

/// The shift a control's whole interval shows toward slower (or faster) heads; 0 when it shows none that way.
double shown_shift_toward(const ControlInterval& c, bool slower) {
  return (slower ? c.ci_low > 1 : c.ci_high < 1) ? shown_shift(c) : 0;
}

/// Half the interval's width: what the control could still not tell apart.
/// Where it lies (its reach from 1) is the shift it allows, not its precision.
double half_width(const ControlInterval& c) { return (c.ci_high - c.ci_low) / 2; }

}  // namespace

std::optional<ControlInterval> control_interval(const std::string& name, const std::string& kind,
                                                const stats::RatioEstimate& e) {
  if (!known(e)) return std::nullopt;
  return ControlInterval{name, kind, e.ratio, e.ci_low, e.ci_high, std::max(1 - e.ci_low, e.ci_high - 1)};
}

const char* to_string(ControlRule rule) { return rule == ControlRule::Shift ? "shift" : "spread"; }

ControlShift shift_of(const std::vector<ControlInterval>& controls, ControlRule rule) {
  ControlShift shift;
  shift.rule = rule;
  shift.controls = controls;
  if (rule == ControlRule::Spread) {
    for (const auto& c : controls)
      if (!shift.slower_by || c.spread > shift.spread) {
        shift.spread = c.spread;
        shift.slower_by = shift.faster_by = c;
      }
    return shift;
  }
  // Keeps the control whose end lies farthest out that way, and the end.
  auto farthest = [](const ControlInterval& c, double end, bool above, double& line, std::optional<ControlInterval>& by) {
    if (above ? end > line : end < line) {
      line = end;
      by = c;
    }
  };
  for (const auto& c : controls) {
    farthest(c, c.ci_high, true, shift.slower_bound, shift.slower_bound_by);
    farthest(c, c.ci_low, false, shift.faster_bound, shift.faster_bound_by);
    farthest(c, c.ci_low, true, shift.slower, shift.slower_by);
    farthest(c, c.ci_high, false, shift.faster, shift.faster_by);
  }
  return shift;
}

/// Where a "faster" row's upper end must lie below for the controls to leave it: the
/// shift they show that way (spread rule: 1 - spread).
double faster_line(const ControlShift& shift) {
  return shift.rule == ControlRule::Spread ? 1 - shift.spread : shift.faster;
}

std::optional<ControlInterval> net_against(Claim claim, const ControlShift& shift, double budget) {
  if (shift.rule != ControlRule::Shift) return std::nullopt;
  const bool regression = claim == Claim::Regression;
  // A narrow control measured the head side's slot well enough to take its reading out of a row, and a
  // clear shift is taken out whatever the control's width. A wide control's reading off 1 at the look's
  // level alone is as often chance: it proves its near end (clears_shown_shift), and its noise stays
  // its own. Among those, the one showing the largest shift that way; where none shows one, the
  // narrowest: each is then evidence of no shift, and the net carries the chosen one's noise into the
  // row's interval (the machine control's memory benchmark, ±4% per pair on a noisy day, held a real
  // +10% pointer chase, 1.088 [1.058, 1.118], back that way where its compute benchmark, ±1.5%, was
  // beside it). Two showing the same shift: the one reaching farther.
  const ControlInterval* chosen = nullptr;
  auto further = [&](const ControlInterval& c) {
    const double shown = shown_shift_toward(c, regression), chosen_shown = shown_shift_toward(*chosen, regression);
    if (shown != chosen_shown) return shown > chosen_shown;
    if (shown == 0 && half_width(c) != half_width(*chosen)) return half_width(c) < half_width(*chosen);
    return regression ? c.ratio > chosen->ratio : c.ratio < chosen->ratio;
  };
  for (const auto& c : shift.controls)
    if ((half_width(c) <= budget || c.clear_shift == (regression ? 1 : -1)) && (!chosen || further(c))) chosen = &c;
  if (!chosen) return std::nullopt;
  return *chosen;
}

bool clears_shown_shift(Claim claim, const stats::RatioEstimate& e, double budget, const ControlShift& shift) {
  if (shift.rule != ControlRule::Shift) return true;
  return claim == Claim::Regression ? e.ci_low > budget_line(budget) * shift.slower : e.ci_high < shift.faster;
}

bool claim_stands(Claim claim, const TimeJudgement& row, double budget, const ControlShift& shift,
                  const std::optional<stats::RatioEstimate>& net, Look look) {
  if (!known(row.estimate)) return true;  // no interval: its verdict says so already
  const bool regression = claim == Claim::Regression;
  const auto& e = row.estimate;
  if (shift.rule == ControlRule::Spread)
    return regression ? e.ci_low > 1 + std::max(budget, shift.spread) : e.ci_high < faster_line(shift);
  // Beyond even the largest shift the controls still allow: no shift of theirs explains it.
  if (!shift.unbounded &&
      (regression ? e.ci_low > budget_line(budget) * shift.slower_bound : e.ci_high < shift.faster_bound))
    return true;
  if (!clears_shown_shift(claim, e, budget, shift)) return false;
  if (net_against(claim, shift, budget)) {
    if (!net || !known(*net)) return false;  // too few runs beside the control to take its shift out
    return regression ? net->ci_low > budget_line(budget) : net->ci_high < 1;
  }
  return look == Look::Final;
}

bool clears(const stats::RatioEstimate& e, const ControlShift& shift) {
  if (!known(e)) return false;
  const double above = shift.rule == ControlRule::Spread ? 1 + shift.spread : shift.slower;
  return e.ci_low > above || e.ci_high < faster_line(shift);
}

std::vector<ControlInterval> telling_per_kind(const std::vector<ControlInterval>& controls) {
  std::vector<ControlInterval> out;
  for (const char* kind : {"machine", "layout"}) {
    const ControlInterval* telling = nullptr;
    for (const auto& c : controls) {
      if (c.kind != kind) continue;
      if (!telling || shown_shift(c) > shown_shift(*telling) ||
          (shown_shift(c) == shown_shift(*telling) && c.spread > telling->spread))
        telling = &c;
    }
    if (telling) out.push_back(*telling);
  }
  return out;
}

std::string describe(ControlRule rule) {
  if (rule == ControlRule::Spread)
    return "a regression or a faster row stands when its interval lies wholly beyond 1 ± the widest control's "
           "half-width (the spread rule, for comparison)";
  return "a regression (or faster row) stands when it clears the budget on top of the largest shift the controls' "
         "intervals still allow at the row's look (or lies below the lowest); else only if it clears the budget on top "
         "of the shift any control's whole interval shows (the head side slower with no change by at least its near "
         "end), and, where a control is narrow enough to have shown a shift of the budget's size or shows a shift at "
         "99% too, if its ratio net of that control's (the two intervals' errors added) still clears the budget "
         "(or lies below 1); else at the "
         "last look, where a wider control's noise is its own and moves no row";
}

}  // namespace cobench::verdict
