// median / robust_sigma / method names: the small helpers beside the estimates.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stats.h"

using namespace cobench::stats;

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
}
