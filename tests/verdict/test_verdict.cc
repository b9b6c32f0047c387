// The threshold rule (judge_interval), is_faster and the verdicts' names, at their edges.
#include <cmath>

#include <gtest/gtest.h>

#include "verdict/verdict.h"

using namespace cobench::verdict;
using cobench::stats::RatioEstimate;

static RatioEstimate interval(double low, double high) {
  RatioEstimate e;
  e.ratio = (low + high) / 2;
  e.ci_low = low;
  e.ci_high = high;
  return e;
}

TEST(Judge, RegressionOnlyWhenWholeIntervalAboveThreshold) {
  EXPECT_EQ(judge_interval(interval(1.06, 1.2), 0.05), Verdict::Regression);
  EXPECT_EQ(judge_interval(interval(1.05, 1.2), 0.05), Verdict::Inconclusive);  // ci_low must exceed 1.05
  EXPECT_EQ(judge_interval(interval(1.04, 1.2), 0.05), Verdict::Inconclusive);
}

TEST(Judge, PassWhenIntervalWithinBudget) {
  EXPECT_EQ(judge_interval(interval(0.9, 1.05), 0.05), Verdict::Pass);  // ci_high <= 1.05 passes
  EXPECT_EQ(judge_interval(interval(1.01, 1.04), 0.05), Verdict::Pass); // slower but within budget
  EXPECT_EQ(judge_interval(interval(0.9, 1.051), 0.05), Verdict::Inconclusive);
  EXPECT_EQ(judge_interval(interval(0.99, 1.01), 0.0), Verdict::Inconclusive);
  EXPECT_EQ(judge_interval(interval(0.98, 0.99), 0.0), Verdict::Pass);
}

TEST(Judge, UnreachableIsAlwaysInconclusive) {
  RatioEstimate e = interval(2, 3);
  e.ci_reachable = false;
  EXPECT_EQ(judge_interval(e, 0.05), Verdict::Inconclusive);
  EXPECT_FALSE(is_faster(e));
  EXPECT_EQ(judge_interval(interval(std::nan(""), std::nan("")), 0.05), Verdict::Inconclusive);
}

TEST(Faster, WholeIntervalBelowOne) {
  EXPECT_TRUE(is_faster(interval(0.8, 0.99)));
  EXPECT_FALSE(is_faster(interval(0.8, 1.0)));
}

TEST(BudgetLine, IsOnePlusTheBudgetAndItsMirror) {
  EXPECT_DOUBLE_EQ(budget_line(0.05), 1.05);
  EXPECT_DOUBLE_EQ(faster_line(0.05), 1 / 1.05);
  EXPECT_DOUBLE_EQ(budget_line(0), 1);
}

TEST(VerdictNames, RoundTrip) {
  for (Verdict v : {Verdict::Pass, Verdict::Regression, Verdict::Inconclusive, Verdict::Unrelated, Verdict::LayoutSensitive})
    EXPECT_EQ(verdict_from_string(to_string(v)), v);
  EXPECT_EQ(to_string(Verdict::Unrelated), "unrelated change");
  EXPECT_EQ(verdict_from_string("faster"), std::nullopt);
}
