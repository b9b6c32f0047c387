// When an undecided row is not worth more runs: its projected chance to be
// decided (a regression or a pass) by max_runs.
#include "verdict/futility.h"

#include <cmath>

#include <gtest/gtest.h>

namespace cobench::verdict {
namespace {

/// An inconclusive row reading `ratio` whose pairs scatter by `noise` (robust σ of a pair's log ratio).
TimeJudgement undecided(double ratio, double noise) {
  TimeJudgement row;
  row.compared = true;
  row.verdict = Verdict::Inconclusive;
  row.estimate.ratio = ratio;
  row.noise = noise;
  return row;
}

constexpr double kFinal = 0.955;

TEST(Futility, ASlowdownAtTheBudgetMeasuredPreciselyIsNotWorthMoreRuns) {
  // 1.050, ±0.8% per pair: the last interval will still hold 1.05. After 20 of 30 pairs its chance
  // to be decided is gone; after 16 a chance low reading could still move it (a few percent).
  const TimeJudgement row = undecided(1.05, 0.008);
  EXPECT_LT(chance_to_decide(row, 0.05, 20, 30, kFinal), kLeastChanceToDecide);
  const auto why = not_worth_more_runs(row, 0.05, 20, 30, kFinal);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("not measured further: after 20 pairs a "), std::string::npos) << *why;
  const double at_16 = chance_to_decide(row, 0.05, 16, 30, kFinal);
  EXPECT_GT(at_16, kLeastChanceToDecide);
  EXPECT_LT(at_16, 0.05);
  EXPECT_FALSE(not_worth_more_runs(row, 0.05, 16, 30, kFinal));
}

TEST(Futility, NeverBeforeTenPairsNorAtMaxRunsNorForADecidedRow) {
  const TimeJudgement row = undecided(1.05, 0.008);
  EXPECT_FALSE(not_worth_more_runs(row, 0.05, kFutilityFromPairs - 1, 30, kFinal)) << "too few pairs to project";
  EXPECT_TRUE(std::isnan(chance_to_decide(row, 0.05, 30, 30, kFinal))) << "no pairs left";
  TimeJudgement decided = row;
  decided.verdict = Verdict::Regression;
  EXPECT_FALSE(not_worth_more_runs(decided, 0.05, 16, 30, kFinal));
  TimeJudgement unknown = row;
  unknown.noise = std::nan("");
  EXPECT_FALSE(not_worth_more_runs(unknown, 0.05, 16, 30, kFinal));
}

TEST(Futility, ARowThatMoreRunsWouldLikelyDecideRunsOn) {
  // An unchanged row, ±3% per pair after 10 pairs: by 30 pairs its interval is about ±1.1%: a pass.
  EXPECT_GT(chance_to_decide(undecided(1.0, 0.03), 0.05, 10, 30, kFinal), 0.5);
  // A 9% slowdown, ±5% per pair after 10 pairs: the lower end will clear 1.05.
  EXPECT_GT(chance_to_decide(undecided(1.09, 0.05), 0.05, 10, 30, kFinal), 0.5);
  // Early on the same at-the-budget row still may move: 10 of 30 pairs.
  EXPECT_GT(chance_to_decide(undecided(1.05, 0.008), 0.05, 10, 30, kFinal), kLeastChanceToDecide);
}

TEST(Futility, ARowFarNoisierThanTheBudgetStopsOnceItsChanceIsGone) {
  // Unchanged code, ±35% per pair after 24 of 30 pairs (a pointer chase on a shared VM): the last
  // interval (about ±13%) can hold neither a pass nor a regression unless the estimate runs off.
  EXPECT_LT(chance_to_decide(undecided(1.0, 0.35), 0.05, 24, 30, kFinal), kLeastChanceToDecide);
  // After 10 pairs it still runs on: a chance low reading could yet pass it.
  EXPECT_GT(chance_to_decide(undecided(0.93, 0.25), 0.05, 10, 30, kFinal), kLeastChanceToDecide);
}

}  // namespace
}  // namespace cobench::verdict
