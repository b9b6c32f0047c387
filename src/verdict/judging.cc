#include "verdict/judging.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/note.h"
#include "stats/stats.h"

namespace cobench::verdict {

namespace {

/// The level of an early look that judges its runs as two samples: the later interim looks' at least
/// (judge_samples says why).
double two_samples_confidence(const TimeRule& rule, Look look) {
  return std::max(rule.looks.confidence(look), rule.looks.confidence(Look::Interim));
}

}  // namespace

std::string describe(const TimeRule& rule) {
  std::string text = rule.looks.describe();
  if (rule.pairing == Pairing::Paired)
    text += fmt::format("; an early look with too few pairs for a signed-rank interval at its level judges the runs "
                        "as two samples (rank-sum) at {:g}%",
                        two_samples_confidence(rule, Look::Early) * 100);
  return text;
}

TimeJudgement judge_samples(const BenchmarkSamples& samples, double budget, const TimeRule& rule, Look look) {
  const double confidence = rule.looks.confidence(look);
  const double final_confidence = rule.looks.confidence(Look::Final);
  const Pairs pairs = pairs_of(samples);
  const SidesSamples sides = {samples.base, samples.head, pairs.base, pairs.head, static_cast<size_t>(pairs.incomplete),
                              "runs"};
  TimeJudgement judged = judge_sides(sides, budget, confidence, rule.pairing, final_confidence);
  if (look == Look::Early && rule.pairing == Pairing::Paired && judged.compared && !judged.estimate.ci_reachable) {
    // The first look (6 pairs) has too few pairs for a signed-rank interval at the early looks'
    // 99% (6 give at most 96.9%, 8 are needed), while the same runs as two samples have a
    // rank-sum one (6 per side reach 99.8%): a clear row is decided two rounds sooner. ABBA order
    // has balanced a linear drift between the sides by then, so the runs need not be paired to be
    // compared; the simulation's error at exactly the budget stays within 3% (docs/validation.md).
    // At the later interim looks' 3 sigma, not the early 99%: a look this early, on runs not
    // paired, would otherwise spend a share of the error that the simulation saw lift the false
    // regressions at exactly the budget above 3% (3.4%) with a 4%-noise row.
    TimeJudgement unpaired =
        judge_sides(sides, budget, two_samples_confidence(rule, look), Pairing::Unpaired, final_confidence);
    // Only an exact interval: with tied runs the rank-sum falls back on its normal approximation,
    // which a handful of runs do not support.
    if (unpaired.compared && unpaired.estimate.ci_reachable && unpaired.estimate.method == stats::Method::Exact) {
      prepend_note(unpaired.note, kUnpairedFirstLook);
      judged = std::move(unpaired);
    }
  }
  return judged;
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
          if (look == Look::Final) out.controls.push_back(*interval);
        } else {
          unbounded[look] = true;
        }
      }
    }
  // Whether each control's shift also shows at the early looks' level (99%): beyond what chance readings
  // of a noisy control give (control.h, ControlInterval::clear_shift).
  std::map<std::string, int> clear;
  for (const auto& c : by_look[Look::Early]) clear[c.name] = c.ci_low > 1 ? 1 : c.ci_high < 1 ? -1 : 0;
  for (auto& [look, intervals] : by_look)
    for (auto& c : intervals) c.clear_shift = clear[c.name];
  for (auto& c : out.controls) c.clear_shift = clear[c.name];
  for (const Look look : {Look::Early, Look::Interim, Look::Final}) {
    ControlShift& shift = out.shift_by_look[static_cast<size_t>(look)];
    shift = shift_of(by_look[look], rule.controls);
    shift.unbounded = unbounded[look];
  }
  return out;
}

std::optional<stats::RatioEstimate> net_of(const stats::RatioEstimate& row, const ControlInterval& control) {
  if (!row.ci_reachable || !(row.ci_low > 0) || !(row.ratio > 0) || !(control.ci_low > 0) || !(control.ratio > 0))
    return std::nullopt;
  // On the log scale the net is the difference of two estimates from different runs, so their
  // errors add as independent ones: each end reaches out by the root sum of squares of the row's
  // and the control's reaches that way. Pairing the two run by run instead added each one's
  // outlying runs to every net pair (a burst in either spoils the pair) and caught 5 points fewer
  // simulated +10% slowdowns beside a biased 4%-noise control, with more false claims, not fewer.
  const double center = std::log(row.ratio) - std::log(control.ratio);
  const double down = std::hypot(std::log(row.ratio / row.ci_low), std::log(control.ci_high / control.ratio));
  const double up = std::hypot(std::log(row.ci_high / row.ratio), std::log(control.ratio / control.ci_low));
  stats::RatioEstimate net = row;  // the row's confidence and method (its p-value stays the row's: unread)
  net.ratio = std::exp(center);
  net.ci_low = std::exp(center - down);
  net.ci_high = std::exp(center + up);
  return net;
}

ControlOutcome apply_control_rule(const TimeJudgement& row, double budget,
                                  const JobControls& controls, const TimeRule& rule, Look look) {
  ControlOutcome out;
  const auto& shift = controls.shift_at(look);
  auto judge = [&](Claim claim) {
    std::optional<stats::RatioEstimate> net;
    if (const auto against = net_against(claim, shift, budget)) {
      net = net_of(row.estimate, *against);
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
