// 20,000 samples per side and 20,000 pairs: both estimates finish without
// holding their 4e8 differences or 2e8 Walsh averages (3.2 GB and 1.6 GB as
// doubles). Peak memory is read from the kernel; no timing is asserted.
#include <sys/resource.h>

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stats.h"

using namespace cobench::stats;
using Samples = std::vector<double>;

namespace {

constexpr size_t kSize = 20000;
// The inputs, their logs and a few sorted copies: well under a megabyte
// each. Anything quadratic would be gigabytes.
constexpr long kAllowedGrowthKb = 64 * 1024;

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // kilobytes on Linux
}

Samples lognormal(size_t n, double center, unsigned seed) {
  std::mt19937 rng(seed);
  std::lognormal_distribution<double> dist(std::log(center), 0.05);
  Samples out(n);
  for (auto& v : out) v = dist(rng);
  return out;
}

}  // namespace

TEST(LinearMemory, TwentyThousandPerSide) {
  Samples base = lognormal(kSize, 1000, 1), head = lognormal(kSize, 1020, 2);
  long before = peak_rss_kb();
  RatioEstimate e = estimate_ratio(base, head);
  EXPECT_LT(peak_rss_kb() - before, kAllowedGrowthKb);
  EXPECT_EQ(e.method, Method::Normal);
  EXPECT_NEAR(e.ratio, 1.02, 0.01);
  EXPECT_LT(e.ci_low, e.ratio);
  EXPECT_GT(e.ci_high, e.ratio);
}

TEST(LinearMemory, TwentyThousandPairs) {
  Samples base = lognormal(kSize, 1000, 3), head = base, noise = lognormal(kSize, 1.02, 4);
  for (size_t i = 0; i < kSize; ++i) head[i] *= noise[i];
  long before = peak_rss_kb();
  RatioEstimate e = estimate_paired_ratio(base, head);
  EXPECT_LT(peak_rss_kb() - before, kAllowedGrowthKb);
  EXPECT_EQ(e.method, Method::SignedRankNormal);
  EXPECT_NEAR(e.ratio, 1.02, 0.01);
  EXPECT_LT(e.ci_low, e.ratio);
  EXPECT_GT(e.ci_high, e.ratio);
}
