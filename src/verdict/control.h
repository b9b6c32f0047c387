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

/// The widest control per kind, in the order machine, layout.
std::vector<ControlSpread> widest_per_kind(const std::vector<ControlSpread>& controls);

}  // namespace cobench::verdict
