#include "verdict/judging.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "stats/stats.h"

namespace cobench::verdict {

TimeJudgement judge_samples(const BenchmarkSamples& samples, double budget, const TimeRule& rule, Look look) {
  const double confidence = rule.looks.confidence(look);
  const double final_confidence = rule.looks.confidence(Look::Final);
  const Pairs pairs = pairs_of(samples);
  return judge_sides({samples.base, samples.head, pairs.base, pairs.head, static_cast<size_t>(pairs.incomplete), "runs"},
                     budget, confidence, rule.pairing, final_confidence);
}

JobControls judge_controls(const std::map<std::string, ControlTarget>& targets, const TimeRule& rule) {
  JobControls out;
  std::map<Look, std::vector<ControlInterval>> by_look;
  std::map<Look, bool> unbounded;
  for (const auto& [target, control] : targets)
    for (const auto& [name, samples] : control.benchmarks) {
      if (samples.base.empty() || samples.head.empty()) continue;
      for (const Look look : {Look::Early, Look::Interim, Look::Final}) {
        // The budget plays no part in a control's interval.
        const auto judged = judge_samples(samples, 0.05, rule, look);
        if (auto interval = control_interval(target + "/" + name, control.kind, judged.estimate)) {
          by_look[look].push_back(*interval);
          if (look == Look::Final) out.controls.push_back({*interval, samples});
        } else {
          unbounded[look] = true;
        }
      }
    }
  for (const Look look : {Look::Early, Look::Interim, Look::Final}) {
    ControlShift& shift = out.shift_by_look[static_cast<size_t>(look)];
    shift = shift_of(by_look[look], rule.controls);
    shift.unbounded = unbounded[look];
  }
  return out;
}

namespace {

/// head/base of each run index with both sides.
std::map<int, double> ratios_by_run(const BenchmarkSamples& samples) {
  const Pairs pairs = pairs_of(samples);
  std::map<int, double> out;
  for (size_t i = 0; i < pairs.runs.size(); ++i) out[pairs.runs[i]] = pairs.head[i] / pairs.base[i];
  return out;
}

const BenchmarkSamples* samples_of(const JobControls& controls, const std::optional<ControlInterval>& control) {
  if (!control) return nullptr;
  for (const auto& judged : controls.controls)
    if (judged.interval.name == control->name) return &judged.samples;
  return nullptr;
}

}  // namespace

std::optional<stats::RatioEstimate> net_of(const BenchmarkSamples& row, const BenchmarkSamples& control,
                                           double confidence) {
  const auto control_ratios = ratios_by_run(control);
  std::vector<double> control_side, row_side;
  for (const auto& [run, ratio] : ratios_by_run(row))
    if (auto it = control_ratios.find(run); it != control_ratios.end()) {
      control_side.push_back(it->second);
      row_side.push_back(ratio);
    }
  if (row_side.empty()) return std::nullopt;
  try {
    return stats::estimate_paired_ratio(control_side, row_side, confidence);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

ControlOutcome apply_control_rule(const TimeJudgement& row, const BenchmarkSamples& samples, double budget,
                                  const JobControls& controls, const TimeRule& rule, Look look) {
  ControlOutcome out;
  const auto& shift = controls.shift_at(look);
  auto judge = [&](Claim claim) {
    std::optional<stats::RatioEstimate> net;
    if (const auto against = net_against(claim, shift, budget))
      if (const BenchmarkSamples* control = samples_of(controls, against)) {
        net = net_of(samples, *control, rule.looks.confidence(look));
        out.net_against = against;
      }
    const bool stands = claim_stands(claim, row, budget, shift, net, look);
    if (net) out.net = net;
    return stands;
  };
  if (row.verdict == Verdict::Regression) out.regression_stands = judge(Claim::Regression);
  if (row.faster) out.faster_stands = judge(Claim::Faster);
  return out;
}

}  // namespace cobench::verdict
