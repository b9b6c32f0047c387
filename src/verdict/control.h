#pragma once
// The control rule. A control is a benchmark whose head and base are the same
// code: the same binary run as both sides (machine control: the machine's
// noise and drift) or an untouched target rebuilt on both sides (layout
// control: what rebuilding and relinking alone does). Its interval is how far
// "no change" can wander in this job; a delta is believable only when it
// clears that spread.
#include <optional>
#include <string>
#include <vector>

#include "stats/stats.h"
#include "verdict/judge.h"

namespace cobench::verdict {

/// One control's interval, and how far it reaches from 1.
struct ControlSpread {
  std::string name;    ///< "machine:bench_join/BM_Join/64"
  std::string kind;    ///< "machine" | "layout"
  double ratio = 1;
  double ci_low = 1;
  double ci_high = 1;
  double spread = 0;   ///< max(1 - ci_low, ci_high - 1): 0.031 means ±3.1%
};

/// The spread of a control's interval; nullopt when it has none (too few runs).
std::optional<double> spread_of(const stats::RatioEstimate& estimate);

/// The rule: an interval clears the controls' spread `s` when it lies wholly
/// above 1 + s or wholly below 1 - s. A regression or a "faster" that does
/// not clear it is within what no change produced in this job.
bool clears(const stats::RatioEstimate& estimate, double spread);

/// Whether a judged regression stands against the controls' spread: it does
/// when there is no spread yet, when its interval is not known (its verdict
/// says so already), or when its interval clears the spread. One that does not
/// stand is inconclusive in the reports, and the schedule keeps measuring it.
bool regression_stands(const TimeJudgement& judgement, std::optional<double> spread);

/// The widest control per kind, in the order machine, layout.
std::vector<ControlSpread> widest_per_kind(const std::vector<ControlSpread>& controls);

}  // namespace cobench::verdict
