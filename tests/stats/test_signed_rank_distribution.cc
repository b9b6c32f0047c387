// The exact signed-rank null distribution against hand counts and R.
#include "stats/signed_rank_distribution.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"

using namespace cobench::stats;

TEST(SignedRankDistribution, ThreeByHand) {
  // 8 sign patterns of ranks 1, 2, 3: V = 0, 1, 2, 3, 3, 4, 5, 6.
  SignedRankDistribution d(3);
  EXPECT_EQ(d.max_v(), 6);
  double expected[] = {1, 2, 3, 5, 6, 7, 8};
  for (int v = 0; v <= 6; ++v) EXPECT_DOUBLE_EQ(d.cdf(v), expected[v] / 8) << v;
  EXPECT_EQ(d.cdf(-1), 0.0);
  EXPECT_EQ(d.quantile(0.125), 0);  // exactly 1/8 counts as reached (R's fuzz)
  EXPECT_EQ(d.quantile(0.2), 1);
  EXPECT_EQ(d.quantile(0.875), 5);
}

TEST(SignedRankDistribution, SymmetricAroundHalfTheMaximum) {
  SignedRankDistribution d(12);
  for (int v = 0; v < d.max_v(); ++v) EXPECT_NEAR(d.cdf(v), 1 - d.cdf(d.max_v() - v - 1), 1e-15) << v;
}

TEST(SignedRankDistribution, AgreesWithR) {
  auto cases =
      nlohmann::json::parse(cobench::read_file(COBENCH_TESTDATA_DIR "/wilcox/signed_rank_distribution.json"));
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    SignedRankDistribution d(c["n"]);
    for (size_t i = 0; i < c["v"].size(); ++i) {
      double r = c["cdf"][i];
      EXPECT_NEAR(d.cdf(c["v"][i]), r, 1e-12 * r) << c.dump();
    }
    for (size_t i = 0; i < c["p"].size(); ++i) EXPECT_EQ(d.quantile(c["p"][i]), c["quantile"][i]) << c.dump();
  }
}

TEST(SignedRankReachability, TwoOverTwoToTheNAgainstAlpha) {
  EXPECT_FALSE(signed_rank_reachable(5, 0.05));  // 2/32 = 0.0625
  EXPECT_TRUE(signed_rank_reachable(6, 0.05));   // 2/64 = 0.03125
  EXPECT_FALSE(signed_rank_reachable(4, 0.125)); // 2/16 = 0.125 is not below 0.125
  EXPECT_EQ(pairs_needed(0.05), 6);
  EXPECT_EQ(pairs_needed(0.045), 6);
  EXPECT_EQ(pairs_needed(1 - 0.9973), 10);       // 2/1024 < 0.0027 < 2/512
  EXPECT_EQ(pairs_needed(0.01), 8);              // 2/256 < 0.01 < 2/128
  EXPECT_FALSE(signed_rank_reachable(0, 0.5));
}
