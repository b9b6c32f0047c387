#pragma once
// When more runs are not worth their time. An undecided row whose estimate
// sits where the pairs left until max_runs would almost never decide it, by
// projection (a slowdown at the budget, measured precisely; a row far noisier
// than the budget), stops being measured and stays inconclusive, saying so.
// It never makes a claim: it only spends less time on a row that ends open.
#include <optional>
#include <string>

#include "verdict/judge.h"

namespace cobench::verdict {

/// Below this projected chance of a decision at the last look, a row stops. At 5% the
/// simulation lost 1.5-3 points of A/A passes and of 10% catches for 7-32% fewer runs; at 1%
/// the loss stays within about a point (bench/verdict_simulation).
inline constexpr double kLeastChanceToDecide = 0.01;
/// Not before this many pairs: a spread estimated from fewer is too rough to project from.
inline constexpr int kFutilityFromPairs = 10;

/// The chance that an undecided row's interval after max_runs pairs, at the
/// last look's confidence, lies wholly above the budget line or wholly below
/// it, projected from its estimate and noise after `pairs` pairs: the
/// estimate moves by a normal step of c·σ·sqrt(1/pairs - 1/max_runs) (σ the
/// robust spread of a pair, TimeJudgement::noise; c = sqrt(π/3) for the
/// Hodges-Lehmann estimate) and the last interval is z·c·σ/sqrt(max_runs)
/// wide each way. NaN without an estimate or a spread.
double chance_to_decide(const TimeJudgement& row, double budget, int pairs, int max_runs, double final_confidence);

/// Why an inconclusive row is not worth more runs, when it is not: at least
/// kFutilityFromPairs pairs and fewer than max_runs, with a chance to decide
/// below kLeastChanceToDecide. The note says so: "not measured further: after
/// 20 pairs a 0.5% chance to be decided by max_runs = 30 (projected)". The
/// schedule stops such a row; the reports give the note. nullopt otherwise.
std::optional<std::string> not_worth_more_runs(const TimeJudgement& row, double budget, int pairs, int max_runs,
                                               double final_confidence);

}  // namespace cobench::verdict
