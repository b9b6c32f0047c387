#include "verdict/control.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cobench::verdict {
namespace {

stats::RatioEstimate interval(double low, double high) {
  stats::RatioEstimate e;
  e.ratio = std::sqrt(low * high);
  e.ci_low = low;
  e.ci_high = high;
  return e;
}

stats::RatioEstimate unreachable() {
  stats::RatioEstimate e;
  e.ratio = 1.2;
  e.ci_low = e.ci_high = std::nan("");
  e.ci_reachable = false;
  return e;
}

TimeJudgement judged(stats::Verdict verdict, const stats::RatioEstimate& estimate) {
  TimeJudgement j;
  j.compared = true;
  j.verdict = verdict;
  j.estimate = estimate;
  return j;
}

TEST(ControlSpread, IsTheFartherEndOfTheIntervalFromOne) {
  EXPECT_NEAR(*spread_of(interval(0.97, 1.01)), 0.03, 1e-12);
  EXPECT_NEAR(*spread_of(interval(0.99, 1.05)), 0.05, 1e-12);
  EXPECT_NEAR(*spread_of(interval(1.02, 1.04)), 0.04, 1e-12);  // a control off 1 spreads as far as it reaches
  EXPECT_FALSE(spread_of(unreachable()).has_value());
}

TEST(ControlSpread, AnIntervalClearsItOnlyWhollyOutside) {
  EXPECT_TRUE(clears(interval(1.11, 1.30), 0.10));
  EXPECT_FALSE(clears(interval(1.09, 1.30), 0.10));
  EXPECT_TRUE(clears(interval(0.70, 0.89), 0.10));
  EXPECT_FALSE(clears(interval(0.70, 0.91), 0.10));
  EXPECT_FALSE(clears(interval(1.10, 1.30), 0.10));  // touching is not clearing
  EXPECT_FALSE(clears(unreachable(), 0.0));
}

TEST(ControlSpread, ARegressionStandsWhenItClearsTheSpreadOrThereIsNone) {
  const auto clear = judged(stats::Verdict::Regression, interval(1.20, 1.28));
  const auto within = judged(stats::Verdict::Regression, interval(1.08, 1.28));
  EXPECT_TRUE(regression_stands(clear, 0.10));
  EXPECT_FALSE(regression_stands(within, 0.10));
  EXPECT_TRUE(regression_stands(within, std::nullopt));  // no control has an interval yet
  EXPECT_TRUE(regression_stands(within, 0.05));
}

TEST(ControlSpread, OnlyARegressionCanFallToIt) {
  // A pass or an inconclusive row keeps its verdict whatever the spread; a
  // "faster" pass is a pass (the reports drop only its "faster" mark).
  EXPECT_TRUE(regression_stands(judged(stats::Verdict::Pass, interval(0.80, 1.02)), 0.30));
  EXPECT_TRUE(regression_stands(judged(stats::Verdict::Inconclusive, interval(0.95, 1.30)), 0.30));
  EXPECT_TRUE(regression_stands(judged(stats::Verdict::Regression, unreachable()), 0.30));
}

TEST(ControlSpread, TheWidestOfEachKindInTheOrderMachineThenLayout) {
  const std::vector<ControlSpread> controls = {
      {"layout:a", "layout", 1, 0.98, 1.02, 0.02},
      {"machine:x", "machine", 1, 0.99, 1.01, 0.01},
      {"layout:b", "layout", 1, 0.95, 1.03, 0.05},
  };
  const auto widest = widest_per_kind(controls);
  ASSERT_EQ(widest.size(), 2u);
  EXPECT_EQ(widest[0].name, "machine:x");
  EXPECT_EQ(widest[1].name, "layout:b");
  EXPECT_TRUE(widest_per_kind({}).empty());
}

}  // namespace
}  // namespace cobench::verdict
