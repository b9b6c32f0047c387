// judge / is_faster / median / robust_sigma / names: the verdict rules of the
// issue, at their edges, and the small helpers beside them.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stats.h"

using namespace cobench::stats;

static RatioEstimate interval(double low, double high) {
  RatioEstimate e;
  e.ratio = (low + high) / 2;
  e.ci_low = low;
  e.ci_high = high;
  return e;
}

TEST(Judge, RegressionOnlyWhenWholeIntervalAboveThreshold) {
  EXPECT_EQ(judge(interval(1.06, 1.2), 0.05), Verdict::Regression);
  EXPECT_EQ(judge(interval(1.05, 1.2), 0.05), Verdict::Inconclusive);  // ci_low must exceed 1.05
  EXPECT_EQ(judge(interval(1.04, 1.2), 0.05), Verdict::Inconclusive);
}

TEST(Judge, PassWhenIntervalWithinBudget) {
  EXPECT_EQ(judge(interval(0.9, 1.05), 0.05), Verdict::Pass);  // ci_high <= 1.05 passes
  EXPECT_EQ(judge(interval(1.01, 1.04), 0.05), Verdict::Pass); // slower but within budget
  EXPECT_EQ(judge(interval(0.9, 1.051), 0.05), Verdict::Inconclusive);
  EXPECT_EQ(judge(interval(0.99, 1.01), 0.0), Verdict::Inconclusive);
  EXPECT_EQ(judge(interval(0.98, 0.99), 0.0), Verdict::Pass);
}

TEST(Judge, UnreachableIsAlwaysInconclusive) {
  RatioEstimate e = interval(2, 3);
  e.ci_reachable = false;
  EXPECT_EQ(judge(e, 0.05), Verdict::Inconclusive);
  EXPECT_FALSE(is_faster(e));
  EXPECT_EQ(judge(interval(std::nan(""), std::nan("")), 0.05), Verdict::Inconclusive);
}

TEST(Faster, WholeIntervalBelowOne) {
  EXPECT_TRUE(is_faster(interval(0.8, 0.99)));
  EXPECT_FALSE(is_faster(interval(0.8, 1.0)));
}

TEST(Median, OddEvenAndEmpty) {
  double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
  EXPECT_EQ(median(odd), 2);
  EXPECT_EQ(median(even), 2.5);
  EXPECT_TRUE(std::isnan(median(std::span<const double>())));
}

TEST(RobustSigma, ScaledMedianAbsoluteDeviation) {
  double with_outlier[] = {1, 2, 3, 4, 100}, even[] = {1, 2, 3, 4}, same[] = {5, 5, 5}, one[] = {7};
  EXPECT_DOUBLE_EQ(robust_sigma(with_outlier), 1.4826);  // deviations 2 1 0 1 97 (R: mad() = 1.4826)
  EXPECT_DOUBLE_EQ(robust_sigma(even), 1.4826);          // deviations from 2.5: 1.5 0.5 0.5 1.5
  EXPECT_EQ(robust_sigma(same), 0);
  EXPECT_EQ(robust_sigma(one), 0);
  EXPECT_EQ(robust_sigma(std::span<const double>()), 0);
}

TEST(RobustSigma, EstimatesTheStandardDeviationOfNormalData) {
  std::mt19937 rng(1);
  std::normal_distribution<double> normal(50, 3);
  std::vector<double> values(20000);
  for (auto& v : values) v = normal(rng);
  EXPECT_NEAR(robust_sigma(values), 3.0, 0.1);
  values[0] = 1e9;  // one wild outlier barely moves it
  EXPECT_NEAR(robust_sigma(values), 3.0, 0.1);
}

TEST(Names, RoundTrip) {
  EXPECT_EQ(to_string(Method::Exact), "exact");
  EXPECT_EQ(to_string(Method::Normal), "normal");
  EXPECT_EQ(to_string(Method::SignedRankExact), "signed-rank exact");
  EXPECT_EQ(to_string(Method::SignedRankNormal), "signed-rank normal");
  for (Method m : {Method::Exact, Method::Normal, Method::SignedRankExact, Method::SignedRankNormal})
    EXPECT_EQ(method_from_string(to_string(m)), m);
  EXPECT_EQ(method_from_string("signed-rank"), std::nullopt);
  for (Verdict v : {Verdict::Pass, Verdict::Regression, Verdict::Inconclusive})
    EXPECT_EQ(verdict_from_string(to_string(v)), v);
  EXPECT_EQ(verdict_from_string("faster"), std::nullopt);
}
