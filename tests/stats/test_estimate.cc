// estimate_ratio: hand-computed cases, symmetry, scale, reachability, bad input.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stats.h"

using namespace cobench::stats;
using Samples = std::vector<double>;

static Samples lognormal(size_t n, double center, double sigma, unsigned seed) {
  std::mt19937 rng(seed);
  std::lognormal_distribution<double> dist(std::log(center), sigma);
  Samples out(n);
  for (auto& v : out) v = dist(rng);
  return out;
}

TEST(EstimateRatio, FourByFourByHand) {
  // head is exactly twice base. The 16 ratios y/x sorted run from 20/13 to
  // 26/10; the middle two are both 2. qwilcox(0.025, 4, 4) = 1 because
  // P(U <= 1) = 2/70 >= 0.025, so the interval is [d(1), d(16)].
  Samples base = {10, 11, 12, 13}, head = {20, 22, 24, 26};
  RatioEstimate e = estimate_ratio(base, head, 0.95);
  EXPECT_EQ(e.method, Method::Exact);
  EXPECT_TRUE(e.ci_reachable);
  EXPECT_NEAR(e.ratio, 2.0, 1e-12);
  EXPECT_NEAR(e.ci_low, 20.0 / 13, 1e-12);
  EXPECT_NEAR(e.ci_high, 26.0 / 10, 1e-12);
  EXPECT_NEAR(e.p_value, 2.0 / 70, 1e-15);  // every head above every base: W = 16
}

TEST(EstimateRatio, FiveByFiveAt90ByHand) {
  // 5x5: the cumulative counts of U are 1, 2, 4, 7, 12, 19 of 252, so
  // P(U<=4) = 12/252 < 0.05 <= P(U<=5) = 19/252: qu = 5 and the interval is
  // [d(5), d(21)] of the 25 sorted differences (R: 0.9757282, 1.0194175).
  Samples base = {100, 101, 102, 103, 104}, head = {99, 100.5, 101.5, 102.5, 105};
  RatioEstimate e = estimate_ratio(base, head, 0.90);
  std::vector<double> ratios;
  for (double y : head)
    for (double x : base) ratios.push_back(y / x);
  std::sort(ratios.begin(), ratios.end());
  EXPECT_NEAR(e.ratio, ratios[12], 1e-12);
  EXPECT_NEAR(e.ci_low, ratios[4], 1e-12);
  EXPECT_NEAR(e.ci_high, ratios[20], 1e-12);
  // W = pairs with head slower: 99->0, 100.5->1, 101.5->2, 102.5->3, 105->5.
  // W = 11 < 12.5, so p = 2 P(U <= 11) = 2 * 106/252 (R: 0.8412698).
  EXPECT_NEAR(e.p_value, 2 * 106.0 / 252, 1e-12);
}

TEST(EstimateRatio, TwoPerSideCannotReach95Percent) {
  Samples base = {100, 101}, head = {150, 151};
  RatioEstimate e = estimate_ratio(base, head, 0.95);
  EXPECT_FALSE(e.ci_reachable);
  EXPECT_EQ(e.runs_needed, 4);
  EXPECT_TRUE(std::isnan(e.ci_low));
  EXPECT_TRUE(std::isnan(e.ci_high));
  EXPECT_NEAR(e.ratio, std::exp((std::log(150.0 / 101) + std::log(151.0 / 100)) / 2), 1e-12);
}

TEST(EstimateRatio, HigherConfidenceNeedsMoreRuns) {
  Samples base = lognormal(4, 100, 0.01, 1), head = lognormal(4, 100, 0.01, 2);
  EXPECT_TRUE(estimate_ratio(base, head, 0.95).ci_reachable);
  RatioEstimate e = estimate_ratio(base, head, 0.99);
  EXPECT_FALSE(e.ci_reachable);
  EXPECT_EQ(e.runs_needed, 5);
}

/// Swapping base and head must give the reciprocal ratio and interval; returns the method used.
static Method expect_reciprocal_when_swapped(const Samples& base, const Samples& head, double ci_tolerance) {
  RatioEstimate ab = estimate_ratio(base, head), ba = estimate_ratio(head, base);
  EXPECT_NEAR(ab.ratio * ba.ratio, 1.0, 1e-12);
  EXPECT_NEAR(ab.ci_low * ba.ci_high, 1.0, ci_tolerance);
  EXPECT_NEAR(ab.ci_high * ba.ci_low, 1.0, ci_tolerance);
  EXPECT_NEAR(ab.p_value, ba.p_value, 1e-12);
  EXPECT_EQ(ab.method, ba.method);
  return ab.method;
}

TEST(EstimateRatio, SwappingSidesGivesReciprocals) {
  for (unsigned seed : {1u, 2u, 3u})
    EXPECT_EQ(expect_reciprocal_when_swapped(lognormal(9, 1000, 0.05, seed), lognormal(13, 1030, 0.05, seed + 100),
                                             1e-12),
              Method::Exact);
}

TEST(EstimateRatio, SwappingSidesGivesReciprocalsUnderNormalApproximation) {
  Samples head = lognormal(70, 1030, 0.05, 8);
  for (auto& v : head) v = std::round(v);  // ties as well
  EXPECT_EQ(expect_reciprocal_when_swapped(lognormal(60, 1000, 0.05, 7), head, 1e-9), Method::Normal);
}

TEST(EstimateRatio, InvariantToCommonScale) {
  Samples base = lognormal(11, 1000, 0.05, 4), head = lognormal(11, 1100, 0.05, 5);
  RatioEstimate ref = estimate_ratio(base, head);
  for (double scale : {1e-6, 1e3, 7.5}) {
    Samples b = base, h = head;
    for (auto& v : b) v *= scale;
    for (auto& v : h) v *= scale;
    RatioEstimate e = estimate_ratio(b, h);
    EXPECT_NEAR(e.ratio / ref.ratio, 1.0, 1e-12) << scale;
    EXPECT_NEAR(e.ci_low / ref.ci_low, 1.0, 1e-12) << scale;
    EXPECT_NEAR(e.ci_high / ref.ci_high, 1.0, 1e-12) << scale;
    EXPECT_NEAR(e.p_value, ref.p_value, 1e-12) << scale;
  }
}

TEST(EstimateRatio, ScalingHeadScalesTheRatio) {
  Samples base = lognormal(10, 1000, 0.05, 9), head = lognormal(10, 1000, 0.05, 10);
  RatioEstimate ref = estimate_ratio(base, head);
  for (auto& v : head) v *= 1.5;
  RatioEstimate e = estimate_ratio(base, head);
  EXPECT_NEAR(e.ratio / ref.ratio, 1.5, 1e-12);
  EXPECT_NEAR(e.ci_low / ref.ci_low, 1.5, 1e-12);
  EXPECT_NEAR(e.ci_high / ref.ci_high, 1.5, 1e-12);
}

TEST(EstimateRatio, TiesSwitchToNormalAndSayItsName) {
  Samples base = {100, 100, 101, 102, 103, 104}, head = {104, 105, 105, 106, 107, 108};
  RatioEstimate e = estimate_ratio(base, head);
  EXPECT_EQ(e.method, Method::Normal);
  EXPECT_TRUE(e.ci_reachable);
  EXPECT_LE(e.ci_low, e.ratio);
  EXPECT_GE(e.ci_high, e.ratio);
  EXPECT_GT(e.ci_low, 1.0);
}

TEST(EstimateRatio, FiftyPerSideUsesNormal) {
  Samples base = lognormal(50, 1000, 0.05, 11), head = lognormal(10, 1000, 0.05, 12);
  EXPECT_EQ(estimate_ratio(base, head).method, Method::Normal);
  EXPECT_EQ(estimate_ratio(lognormal(49, 1000, 0.05, 11), head).method, Method::Exact);
}

TEST(EstimateRatio, AllTiedWithinEachSideGivesAPointInterval) {
  Samples base(8, 100.0), head(8, 110.0);
  RatioEstimate e = estimate_ratio(base, head);
  EXPECT_EQ(e.method, Method::Normal);
  EXPECT_NEAR(e.ratio, 1.1, 1e-12);
  EXPECT_NEAR(e.ci_low, 1.1, 1e-12);
  EXPECT_NEAR(e.ci_high, 1.1, 1e-12);
  RatioEstimate same = estimate_ratio(base, base);
  EXPECT_EQ(same.p_value, 1.0);
  EXPECT_NEAR(same.ci_low, 1.0, 1e-15);
}

TEST(EstimateRatio, RejectsInvalidInput) {
  Samples ok = {1, 2, 3};
  EXPECT_THROW(estimate_ratio(Samples{}, ok), std::invalid_argument);
  EXPECT_THROW(estimate_ratio(ok, Samples{}), std::invalid_argument);
  for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    Samples with_bad = {1, bad, 3};
    EXPECT_THROW(estimate_ratio(with_bad, ok), std::invalid_argument) << bad;
    EXPECT_THROW(estimate_ratio(ok, with_bad), std::invalid_argument) << bad;
  }
  for (double confidence : {0.0, 1.0, 1.5, -0.5, std::nan("")})
    EXPECT_THROW(estimate_ratio(ok, ok, confidence), std::invalid_argument) << confidence;
}
