// estimate_paired_ratio: R's paired wilcox.test on the committed reference
// cases, hand-computed cases, brute force, symmetry, scale, zeros, bad input.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "stats/signed_rank_distribution.h"
#include "stats/stats.h"

using namespace cobench::stats;
using Samples = std::vector<double>;

namespace {

/// `n` base times around 1000 and head times `factor` times them with a
/// small per-pair noise: runs of both back to back on one machine state.
void paired_runs(size_t n, double factor, unsigned seed, Samples& base, Samples& head) {
  std::mt19937 rng(seed);
  std::lognormal_distribution<double> level(std::log(1000), 0.1), noise(0, 0.02);
  base.resize(n);
  head.resize(n);
  for (size_t i = 0; i < n; ++i) {
    base[i] = level(rng);
    head[i] = factor * base[i] * noise(rng);
  }
}

/// Every Walsh average of d = log head - log base, sorted: the brute force.
Samples walsh_averages(const Samples& base, const Samples& head) {
  Samples d, out;
  for (size_t i = 0; i < base.size(); ++i) d.push_back(std::log(head[i]) - std::log(base[i]));
  for (size_t i = 0; i < d.size(); ++i)
    for (size_t j = i; j < d.size(); ++j) out.push_back((d[i] + d[j]) / 2);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(PairedRAgreement, EveryReferenceCase) {
  auto cases = nlohmann::json::parse(cobench::read_file(COBENCH_TESTDATA_DIR "/wilcox/paired_cases.json"));
  int exact = 0, normal = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c["label"].get<std::string>());
    auto base = c["base"].get<Samples>(), head = c["head"].get<Samples>();
    RatioEstimate e = estimate_paired_ratio(base, head, c["confidence"]);
    ASSERT_TRUE(e.ci_reachable);
    EXPECT_EQ(to_string(e.method), c["method"]);
    EXPECT_NEAR(std::log(e.ratio), c["log_hl"].get<double>(), 1e-12);
    double p = c["p_value"];
    EXPECT_NEAR(e.p_value, p, 1e-9 * p + 1e-300);
    // R finds the normal interval's ends with uniroot(tol = 1e-4) on the log
    // scale; cobench finds the same step exactly.
    double tolerance = e.method == Method::SignedRankExact ? 1e-12 : 2e-4;
    EXPECT_NEAR(std::log(e.ci_low), c["log_ci_low"].get<double>(), tolerance);
    EXPECT_NEAR(std::log(e.ci_high), c["log_ci_high"].get<double>(), tolerance);
    (e.method == Method::SignedRankExact ? exact : normal)++;
  }
  EXPECT_GE(exact, 12);
  EXPECT_GE(normal, 10);
}

TEST(EstimatePairedRatio, EightPairsAllSlowerByHand) {
  // Head is 1%..8% slower in pair 1..8: every difference is positive, so
  // V = 1+...+8 = 36 = n(n+1)/2 and p = 2 P(V >= 36) = 2/256. The counts of
  // V = 0..4 are 1, 1, 1, 2, 2: P(V <= 3) = 5/256 < 0.025 <= 7/256 = P(V <= 4),
  // so qsignrank(0.025, 8) = 4 and the interval is [w(4), w(33)] of the 36
  // sorted Walsh averages.
  Samples base = {100, 120, 140, 160, 180, 200, 220, 240}, head;
  for (size_t i = 0; i < base.size(); ++i) head.push_back(base[i] * (1 + (i + 1) / 100.0));
  RatioEstimate e = estimate_paired_ratio(base, head, 0.95);
  Samples w = walsh_averages(base, head);
  ASSERT_EQ(w.size(), 36u);
  EXPECT_EQ(e.method, Method::SignedRankExact);
  EXPECT_TRUE(e.ci_reachable);
  EXPECT_NEAR(e.p_value, 2.0 / 256, 1e-15);
  EXPECT_EQ(e.ratio, std::exp((w[17] + w[18]) / 2));
  EXPECT_EQ(e.ci_low, std::exp(w[3]));
  EXPECT_EQ(e.ci_high, std::exp(w[32]));
}

TEST(EstimatePairedRatio, MatchesBruteForceOnTheExactPath) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    Samples base, head;
    paired_runs(6 + seed, seed % 2 ? 1.0 : 1.03, seed, base, head);
    double confidence = seed % 3 ? 0.9 : 0.955;
    RatioEstimate e = estimate_paired_ratio(base, head, confidence);
    ASSERT_EQ(e.method, Method::SignedRankExact) << seed;
    Samples w = walsh_averages(base, head);
    int qu = SignedRankDistribution(static_cast<int>(base.size())).quantile((1 - confidence) / 2);
    EXPECT_EQ(e.ratio, std::exp(median(w))) << seed;
    EXPECT_EQ(e.ci_low, std::exp(w[qu - 1])) << seed;
    EXPECT_EQ(e.ci_high, std::exp(w[w.size() - qu])) << seed;
  }
}

TEST(EstimatePairedRatio, TooFewPairsCannotReachTheConfidence) {
  Samples base, head;
  paired_runs(5, 1.5, 3, base, head);
  RatioEstimate e = estimate_paired_ratio(base, head, 0.95);  // 2/32 > 0.05
  EXPECT_FALSE(e.ci_reachable);
  EXPECT_EQ(e.runs_needed, 6);
  EXPECT_TRUE(std::isnan(e.ci_low));
  EXPECT_TRUE(std::isnan(e.ci_high));
  EXPECT_NEAR(e.ratio, 1.5, 0.1);
  paired_runs(9, 1.5, 3, base, head);
  EXPECT_FALSE(estimate_paired_ratio(base, head, 0.9973).ci_reachable);
  EXPECT_EQ(estimate_paired_ratio(base, head, 0.9973).runs_needed, 10);
  paired_runs(10, 1.5, 3, base, head);
  EXPECT_TRUE(estimate_paired_ratio(base, head, 0.9973).ci_reachable);
}

TEST(EstimatePairedRatio, EqualPairsAreDroppedAsRDropsZeros) {
  Samples base, head;
  paired_runs(12, 1.02, 4, base, head);
  RatioEstimate without = estimate_paired_ratio(base, head);
  EXPECT_EQ(without.method, Method::SignedRankExact);
  // Pairs with equal times carry no sign: the interval and estimate stay on
  // the other pairs, but the exact distribution no longer applies.
  for (double t : {500.0, 700.0}) {
    base.push_back(t);
    head.push_back(t);
  }
  RatioEstimate with = estimate_paired_ratio(base, head);
  EXPECT_EQ(with.method, Method::SignedRankNormal);
  EXPECT_EQ(with.ratio, without.ratio);
  // Five informative pairs do not reach 95%, however many equal ones there are.
  Samples few_base(base.end() - 7, base.end()), few_head(head.end() - 7, head.end());
  RatioEstimate few = estimate_paired_ratio(few_base, few_head);
  EXPECT_FALSE(few.ci_reachable);
  EXPECT_EQ(few.runs_needed, 6);
}

TEST(EstimatePairedRatio, AllPairsEqualIsRatioOneWithoutInterval) {
  Samples same = {100, 200, 300, 400, 500, 600, 700, 800, 900, 1000};
  RatioEstimate e = estimate_paired_ratio(same, same);
  EXPECT_EQ(e.ratio, 1.0);
  EXPECT_EQ(e.p_value, 1.0);
  EXPECT_EQ(e.method, Method::SignedRankNormal);
  EXPECT_FALSE(e.ci_reachable);
}

TEST(EstimatePairedRatio, EveryPairTheSameRatioGivesAPointInterval) {
  // R cannot compute this interval (every |d - d_i| is 0 at d = d_i); the
  // interval of a step function that never moves is its one value.
  Samples base = {100, 200, 400, 800, 1600, 3200, 6400, 12800}, head;
  for (double b : base) head.push_back(2 * b);
  RatioEstimate e = estimate_paired_ratio(base, head);
  EXPECT_EQ(e.method, Method::SignedRankNormal);  // tied |d|
  EXPECT_NEAR(e.ratio, 2.0, 1e-12);
  EXPECT_NEAR(e.ci_low, 2.0, 1e-12);
  EXPECT_NEAR(e.ci_high, 2.0, 1e-12);
}

/// Swapping base and head must give the reciprocal ratio and interval; returns the method used.
static Method expect_reciprocal_when_swapped(const Samples& base, const Samples& head) {
  RatioEstimate ab = estimate_paired_ratio(base, head), ba = estimate_paired_ratio(head, base);
  EXPECT_NEAR(ab.ratio * ba.ratio, 1.0, 1e-12);
  EXPECT_NEAR(ab.ci_low * ba.ci_high, 1.0, 1e-12);
  EXPECT_NEAR(ab.ci_high * ba.ci_low, 1.0, 1e-12);
  EXPECT_NEAR(ab.p_value, ba.p_value, 1e-12);
  EXPECT_EQ(ab.method, ba.method);
  return ab.method;
}

TEST(EstimatePairedRatio, SwappingSidesGivesReciprocals) {
  Samples base, head;
  for (unsigned seed : {1u, 2u, 3u}) {
    paired_runs(20, 1.02, seed, base, head);
    EXPECT_EQ(expect_reciprocal_when_swapped(base, head), Method::SignedRankExact);
  }
  paired_runs(120, 1.02, 4, base, head);
  EXPECT_EQ(expect_reciprocal_when_swapped(base, head), Method::SignedRankNormal);
  for (auto& v : base) v = std::round(v / 10);  // ties and zeros as well
  for (auto& v : head) v = std::round(v / 10);
  EXPECT_EQ(expect_reciprocal_when_swapped(base, head), Method::SignedRankNormal);
}

TEST(EstimatePairedRatio, InvariantToCommonScale) {
  Samples base, head;
  for (size_t n : {15u, 80u}) {
    paired_runs(n, 1.04, 5, base, head);
    RatioEstimate ref = estimate_paired_ratio(base, head);
    for (double scale : {1e-6, 1e3, 7.5}) {
      Samples b = base, h = head;
      for (auto& v : b) v *= scale;
      for (auto& v : h) v *= scale;
      RatioEstimate e = estimate_paired_ratio(b, h);
      EXPECT_EQ(e.method, ref.method) << scale;
      EXPECT_NEAR(e.ratio / ref.ratio, 1.0, 1e-12) << scale;
      EXPECT_NEAR(e.ci_low / ref.ci_low, 1.0, 1e-12) << scale;
      EXPECT_NEAR(e.ci_high / ref.ci_high, 1.0, 1e-12) << scale;
      EXPECT_NEAR(e.p_value, ref.p_value, 1e-12) << scale;
    }
  }
}

TEST(EstimatePairedRatio, ScalingHeadScalesTheRatio) {
  Samples base, head;
  paired_runs(25, 1.0, 6, base, head);
  RatioEstimate ref = estimate_paired_ratio(base, head);
  for (auto& v : head) v *= 1.5;
  RatioEstimate e = estimate_paired_ratio(base, head);
  EXPECT_NEAR(e.ratio / ref.ratio, 1.5, 1e-12);
  EXPECT_NEAR(e.ci_low / ref.ci_low, 1.5, 1e-12);
  EXPECT_NEAR(e.ci_high / ref.ci_high, 1.5, 1e-12);
}

TEST(EstimatePairedRatio, PairingSeesWhatTwoSamplesMiss) {
  // Machine states vary 10% between pairs, head is 1% slower within each:
  // the paired interval excludes 1, the two-sample one cannot.
  Samples base, head;
  paired_runs(30, 1.01, 7, base, head);
  for (size_t i = 0; i < base.size(); ++i) head[i] = base[i] * (1.01 + 0.001 * std::sin(i));
  EXPECT_GT(estimate_paired_ratio(base, head).ci_low, 1.0);
  EXPECT_LT(estimate_ratio(base, head).ci_low, 1.0);
}

TEST(EstimatePairedRatio, RejectsInvalidInput) {
  Samples ok = {1, 2, 3};
  EXPECT_THROW(estimate_paired_ratio(ok, Samples{1, 2}), std::invalid_argument);
  EXPECT_THROW(estimate_paired_ratio(Samples{}, Samples{}), std::invalid_argument);
  for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    Samples with_bad = {1, bad, 3};
    EXPECT_THROW(estimate_paired_ratio(with_bad, ok), std::invalid_argument) << bad;
    EXPECT_THROW(estimate_paired_ratio(ok, with_bad), std::invalid_argument) << bad;
  }
  for (double confidence : {0.0, 1.0, 1.5, -0.5, std::nan(""), 1 - 1e-16})
    EXPECT_THROW(estimate_paired_ratio(ok, ok, confidence), std::invalid_argument) << confidence;
}
