#pragma once
// How a job judges the time of one benchmark from its runs, in one place for
// the schedule (which decides whether to keep measuring) and the aggregation
// (which writes the reports): the same samples, pairing and look give the same
// verdict. Also the split of the run-to-run noise into what repetitions inside
// a process can average away and what only more processes can.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/record.h"
#include "results/samples.h"
#include "verdict/control.h"
#include "verdict/judge.h"
#include "verdict/look.h"

namespace cobench::results {

/// The job's way of judging time.
struct TimeRule {
  std::string metric = "auto";                               ///< "real_time", "cpu_time" or "auto"
  verdict::Pairing pairing = verdict::Pairing::Paired;       ///< run's default: pairs of one run index
  verdict::LookRule looks;                                   ///< interim and final confidence
  verdict::ControlRule controls = verdict::ControlRule::Shift;  ///< how the job's controls hold claims back
};

/// One benchmark judged at `look`: paired on its complete pairs (the note says
/// how many incomplete ones were dropped) or unpaired on all its runs.
verdict::TimeJudgement judge_samples(const BenchmarkSamples& samples, double budget, const TimeRule& rule,
                                     verdict::Look look);

/// One control of the job as the control rule uses it: its interval (judged
/// at the final look, however early it stopped: what reports show) and its samples.
struct JudgedControl {
  verdict::ControlInterval interval;
  BenchmarkSamples samples;
};

/// The job's controls, and the shift they show under the rule at each look.
/// A row judged at a look is held to the controls' intervals at that look's
/// confidence: a bound from a laxer level, looked at again after every block,
/// lets a control's chance low reading pass a row that only its shift explains.
struct JobControls {
  std::vector<JudgedControl> controls;  ///< at the final look (what reports show)
  /// The shift the controls show at each look's confidence, indexed by verdict::Look.
  std::array<verdict::ControlShift, 3> shift_by_look;

  /// The shift the controls show at `look`'s confidence (the final look's is what reports show).
  const verdict::ControlShift& shift_at(verdict::Look look) const {
    return shift_by_look[static_cast<size_t>(look)];
  }
};

/// Every benchmark of the control targets in `records` judged as a control;
/// `kinds` maps each control target to "machine" or "layout".
JobControls judge_controls(const std::vector<RunRecord>& records, const std::map<std::string, std::string>& kinds,
                           const TimeRule& rule);

/// The row's ratio net of a control's: the paired interval, at `confidence`,
/// of (row head/base) / (control head/base) over the run indices both have a
/// complete pair for; nullopt when they share none.
std::optional<stats::RatioEstimate> net_of(const BenchmarkSamples& row, const BenchmarkSamples& control,
                                           double confidence);

/// What the control rule makes of one judged row.
struct ControlOutcome {
  bool regression_stands = true;
  bool faster_stands = true;
  std::optional<stats::RatioEstimate> net;  ///< the row net of the control it was judged against, when one was
  std::optional<verdict::ControlInterval> net_against;  ///< that control
};

/// The control rule on one row judged at `look` (verdict::claim_stands), with
/// the net interval it took against the control showing the largest shift.
/// The schedule and the reports both judge through this.
ControlOutcome apply_control_rule(const verdict::TimeJudgement& row, const BenchmarkSamples& samples, double budget,
                                  const JobControls& controls, const TimeRule& rule, verdict::Look look);

/// Where one benchmark's run-to-run noise comes from, on the log scale.
struct VarianceSplit {
  double within = 0;            ///< σ between repetitions inside one process, pooled over its runs (0: one repetition only)
  double between = 0;           ///< σ of a process's own offset: what only more processes average away
  double repetitions = 1;       ///< repetitions per process in the runs measured (median)
  double rep_seconds = 0;       ///< one repetition's duration
  double process_seconds = 0;   ///< a process's cost besides its repetitions (start, iteration-count search), per benchmark
  bool known = false;           ///< enough runs to tell (two pairs with repetitions)
};

/// Variance of the median of k standard normal draws (the per-process statistic
/// with k repetitions): 1, 0.5, 0.449, 0.298, … ≈ π / 2k.
double median_variance_factor(int k);

/// The split for `name` of `target` from its successful timing runs of
/// `metric_key`: within is the pooled unbiased variance of the repetitions
/// of every run, Σ(k-1)s² / Σ(k-1); a pair's difference of two process
/// medians has variance 2 (between² + c_k within²), c_k =
/// median_variance_factor(k), which gives between.
VarianceSplit variance_split(const std::vector<RunRecord>& records, const std::string& target, const std::string& name,
                             const std::string& metric_key);

/// One split for several benchmarks of a target (one process runs them all):
/// their variances averaged, their costs' medians. Not known when none is.
VarianceSplit pooled_split(const std::vector<VarianceSplit>& splits);

/// The repetitions per process that make the interval narrowest per second of
/// machine time, from the classic two-stage allocation
/// k* = sqrt((process cost / repetition cost) · (π/2 · σ²_within / σ²_between))
/// (π/2: a median of k repetitions is that much noisier than their mean), with
/// σ²_between at least σ²_within / 16 (an offset too small to measure is not
/// zero: k grows with the cost ratio, not to the cap), rounded and kept within
/// [1, most]; nullopt when the split is not known.
std::optional<int> best_repetitions(const VarianceSplit& split, int most);

}  // namespace cobench::results
