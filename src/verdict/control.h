#pragma once
// The control rule. A control is a benchmark whose head and base are the same
// code: the same binary run as both sides (machine control: the machine's
// drift and any bias of a side's slot) or an untouched target rebuilt on both
// sides (layout control: what rebuilding and relinking alone does). What its
// interval is evidence of is a *shift*: a control whose whole interval lies
// above 1 shows that something other than the change made the head side
// slower, by at least its lower end. A claim stands only when it clears the
// budget on top of that shift. A control that is merely noisy (its interval
// straddles 1) is evidence of nothing and moves no row's line: its noise is
// its own, and each row's interval already carries the row's noise.
#include <optional>
#include <string>
#include <vector>

#include "stats/stats.h"
#include "verdict/judge.h"
#include "verdict/look.h"

namespace cobench::verdict {

/// One control's interval.
struct ControlInterval {
  std::string name;    ///< "machine:cobench-machine-control/BM_MachineCompute"
  std::string kind;    ///< "machine" | "layout"
  double ratio = 1;
  double ci_low = 1;
  double ci_high = 1;
  /// max(1 - ci_low, ci_high - 1): how far the interval reaches from 1 (0.031: ±3.1%), for reports.
  double spread = 0;
  /// +1 (-1): its interval at the early looks' level (99%; 99.73% while it has too few pairs for a
  /// paired one) lies wholly above (below) 1 as well: a shift beyond what a chance reading of a
  /// noisy control gives (at 95.5% one in 45 jobs of an unshifted control reads slower, at 99%
  /// one in 200). 0: not, or no such interval yet.
  int clear_shift = 0;
};

/// A control's interval from its estimate; nullopt when it has none (too few runs).
std::optional<ControlInterval> control_interval(const std::string& name, const std::string& kind,
                                                const stats::RatioEstimate& estimate);

/// How controls hold claims back.
enum class ControlRule {
  Shift,   ///< by the shift a control's whole interval shows (the rule)
  Spread,  ///< by the widest control's half-width, either way (how cobench judged before; for comparison only)
};

/// "shift" | "spread".
const char* to_string(ControlRule rule);

/// What a job's controls are evidence of: under the shift rule, the largest
/// shift each way that a control's whole interval shows (a factor of 1: no
/// evidence that way); under the spread rule, the widest control's half-width.
struct ControlShift {
  ControlRule rule = ControlRule::Shift;
  double slower = 1;                  ///< the highest lower end above 1 (1.02: the head side is ≥ 2% slower with no change)
  double faster = 1;                  ///< the lowest upper end below 1
  std::optional<ControlInterval> slower_by;  ///< the control that shows `slower` (spread rule: the widest)
  std::optional<ControlInterval> faster_by;  ///< the control that shows `faster` (spread rule: the widest)
  double spread = 0;                  ///< spread rule: the widest half-width
  /// The largest shift each way the controls still allow: the highest upper
  /// end (at least 1) and the lowest lower end (at most 1).
  double slower_bound = 1;
  double faster_bound = 1;
  std::optional<ControlInterval> slower_bound_by;
  std::optional<ControlInterval> faster_bound_by;
  std::vector<ControlInterval> controls;  ///< every control's interval
  /// A control measured at this look had no interval yet (too few untied
  /// pairs for its confidence): it rules out no shift, so no claim clears the
  /// largest one the controls allow.
  bool unbounded = false;

  bool any() const { return slower_by.has_value() || faster_by.has_value(); }
};

/// The shift the controls show, from the one that is evidence of the largest
/// shift each way (never from the widest: width is noise, not bias); under
/// the spread rule, the widest.
ControlShift shift_of(const std::vector<ControlInterval>& controls, ControlRule rule = ControlRule::Shift);

/// A claim a row makes that the controls may withdraw.
enum class Claim {
  Regression,  ///< its verdict is regression
  Faster,      ///< its whole interval lies below 1
};

/// Whether `claim` about a row (judged `row` at `look`) stands against the
/// controls. Shift rule:
/// - it stands at any look when it clears even the largest shift the controls
///   still allow: above (1 + budget) × the highest upper end of a control's
///   interval, or below the lowest lower end;
/// - else never unless it clears the shift the controls show
///   (clears_shown_shift): what a control's whole interval proves, its near
///   end, however wide the control;
/// - then, where net_against() names a control (narrow, or showing a clear
///   shift), only when `net` (the
///   row's ratio net of that control's, from the two intervals at the row's
///   look) still makes the claim: wholly above 1 + `budget`, or wholly below
///   1; a precise biased control thus takes its bias out of every row;
/// - else (every control too wide to measure the head side's slot) only at the
///   final look (before it, more runs may narrow one): a wide control's noise
///   is its own and moves no row.
/// Spread rule: the row's own interval must lie beyond 1 ± the widest
/// control's half-width (and above the budget), at every look.
bool claim_stands(Claim claim, const TimeJudgement& row, double budget, const ControlShift& shift,
                  const std::optional<stats::RatioEstimate>& net, Look look);

/// Whether the row's interval clears the budget on top of the shift the
/// controls' whole intervals show that way: above (1 + budget) × the highest
/// lower end above 1, or below the lowest upper end below 1. A control that
/// shows a shift is evidence of at least its near end, whatever its width.
/// Always true under the spread rule.
bool clears_shown_shift(Claim claim, const stats::RatioEstimate& estimate, double budget, const ControlShift& shift);

/// The control the row's claim must be judged net of (shift rule): among the
/// controls narrow enough to have shown a shift of the budget's size (half
/// their interval's width at most `budget`, wherever it lies) and those whose
/// shift that way is clear (clear_shift: it shows at 99% too), the one
/// whose whole interval shows the largest shift that way, else (none shows
/// one) the narrowest: the net carries its noise into the row's interval, and
/// none is evidence of a shift. A narrow control measures the head side's slot;
/// a clear shift is one whatever the control's width (a +20% shift seen
/// through a 13%-noise control). A wide control's chance reading off 1 is
/// neither: netting against it would add its noise to every row, and it binds
/// through clears_shown_shift instead. nullopt: none.
std::optional<ControlInterval> net_against(Claim claim, const ControlShift& shift, double budget);

/// Whether an interval lies wholly beyond what the controls show: above
/// `shift.slower` or below `shift.faster` (spread rule: outside 1 ± spread).
bool clears(const stats::RatioEstimate& estimate, const ControlShift& shift);

/// The control of each kind that shows the largest shift (the farther of its
/// interval's ends from 1 where the whole interval is off 1, else the one
/// reaching farthest), in the order machine, layout: what the reports show.
std::vector<ControlInterval> telling_per_kind(const std::vector<ControlInterval>& controls);

/// The rule in one line, for every report.
std::string describe(ControlRule rule);

}  // namespace cobench::verdict
