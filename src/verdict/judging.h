#pragma once
// How a job judges the time of one benchmark from its runs, in one place for
// the schedule (which decides whether to keep measuring) and the aggregation
// (which writes the reports): the same samples, pairing and look give the same
// verdict, and the control rule holds both to the same controls.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "verdict/control.h"
#include "verdict/judge.h"
#include "verdict/look.h"
#include "verdict/samples.h"

namespace cobench::verdict {

/// The job's way of judging time.
struct TimeRule {
  std::string metric = "auto";                ///< "real_time", "cpu_time" or "auto"
  Pairing pairing = Pairing::Paired;          ///< run's default: pairs of one run index
  LookRule looks;                             ///< interim and final confidence
  ControlRule controls = ControlRule::Shift;  ///< how the job's controls hold claims back
};

/// What a row judged at an early look by the rank-sum interval says.
inline constexpr std::string_view kUnpairedFirstLook =
    "judged as two samples (rank-sum): too few pairs yet for a signed-rank interval at this look";

/// The rule in one line, for every report: the looks' levels and, paired,
/// how an early look with too few pairs judges its runs.
std::string describe(const TimeRule& rule);

/// One benchmark judged at `look`: paired on its complete pairs (the note says
/// how many incomplete ones were dropped) or unpaired on all its runs. Paired,
/// at an early look with too few pairs for a signed-rank interval at its
/// confidence, the runs are judged as two samples when that gives an interval.
TimeJudgement judge_samples(const BenchmarkSamples& samples, double budget, const TimeRule& rule, Look look);

/// The job's controls, and the shift they show under the rule at each look.
/// A row judged at a look is held to the controls' intervals at that look's
/// confidence: a bound from a laxer level, looked at again after every block,
/// lets a control's chance low reading pass a row that only its shift explains.
struct JobControls {
  std::vector<ControlInterval> controls;  ///< at the final look, however early one stopped (what reports show)
  /// The shift the controls show at each look's confidence, indexed by Look.
  std::array<ControlShift, 3> shift_by_look;

  /// The shift the controls show at `look`'s confidence (the final look's is what reports show).
  const ControlShift& shift_at(Look look) const {
    return shift_by_look[static_cast<size_t>(look)];
  }
};

/// One control target's benchmarks, as the log gathered them.
struct ControlTarget {
  std::string kind;                                       ///< "machine" or "layout"
  std::map<std::string, BenchmarkSamples> benchmarks;     ///< name -> samples
};

/// Every benchmark of the job's control targets (target name -> its samples)
/// judged as a control.
JobControls judge_controls(const std::map<std::string, ControlTarget>& targets, const TimeRule& rule);

/// The row's ratio net of a control's: (row head/base) / (control head/base),
/// from the row's interval and the control's, both at the row's look: each end
/// reaches out by the root sum of squares of the two intervals' reaches that
/// way on the log scale (independent errors add). The row's other fields are
/// kept (its confidence and method; its p-value is the row's own, not the
/// net's: only the ratio and interval are read); nullopt when either has no interval.
std::optional<stats::RatioEstimate> net_of(const stats::RatioEstimate& row, const ControlInterval& control);

/// What the control rule makes of one judged row.
struct ControlOutcome {
  bool regression_stands = true;
  bool faster_stands = true;
  std::optional<stats::RatioEstimate> net;  ///< the row net of the control it was judged against, when one was
  std::optional<ControlInterval> net_against;  ///< that control
};

/// The control rule on one row judged at `look` (claim_stands), with
/// the net interval it took against the control showing the largest shift.
/// The schedule and the reports both judge through this.
ControlOutcome apply_control_rule(const TimeJudgement& row, double budget,
                                  const JobControls& controls, const TimeRule& rule, Look look);

}  // namespace cobench::verdict
