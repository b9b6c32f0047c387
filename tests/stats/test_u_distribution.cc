// The exact Mann-Whitney null distribution against hand counts and R.
#include "stats/u_distribution.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "stats/normal_distribution.h"

using namespace cobench::stats;

TEST(UDistribution, TwoByTwoByHand) {
  // C(4,2) = 6 arrangements; U = 0,1,2,2,3,4.
  UDistribution d(2, 2);
  EXPECT_EQ(d.max_u(), 4);
  EXPECT_DOUBLE_EQ(d.cdf(0), 1.0 / 6);
  EXPECT_DOUBLE_EQ(d.cdf(1), 2.0 / 6);
  EXPECT_DOUBLE_EQ(d.cdf(2), 4.0 / 6);
  EXPECT_DOUBLE_EQ(d.cdf(3), 5.0 / 6);
  EXPECT_DOUBLE_EQ(d.cdf(4), 1.0);
  EXPECT_DOUBLE_EQ(d.cdf(-1), 0.0);
}

TEST(UDistribution, ThreeByTwoByHand) {
  // Partitions of u into <= 2 parts each <= 3: counts 1,1,2,2,2,1,1 over C(5,2)=10.
  UDistribution d(3, 2);
  double expected[] = {1, 2, 4, 6, 8, 9, 10};
  for (int u = 0; u <= 6; ++u) EXPECT_DOUBLE_EQ(d.cdf(u), expected[u] / 10) << u;
  EXPECT_EQ(d.quantile(0.1), 0);
  EXPECT_EQ(d.quantile(0.15), 1);
  EXPECT_EQ(d.quantile(0.2), 1);  // exactly 0.2 counts as reached (R's fuzz)
}

TEST(UDistribution, SymmetricInSides) {
  UDistribution a(7, 4), b(4, 7);
  for (int u = 0; u <= 28; ++u) EXPECT_DOUBLE_EQ(a.cdf(u), b.cdf(u));
}

TEST(UDistribution, AgreesWithR) {
  auto cases = nlohmann::json::parse(cobench::read_file(COBENCH_TESTDATA_DIR "/wilcox/u_distribution.json"));
  ASSERT_GT(cases.size(), 20u);
  for (const auto& c : cases) {
    UDistribution d(c["m"], c["n"]);
    for (size_t i = 0; i < c["u"].size(); ++i) {
      double r = c["cdf"][i];
      EXPECT_NEAR(d.cdf(c["u"][i]), r, 1e-12 * std::max(r, 1e-300) + 1e-300) << c.dump();
    }
    for (size_t i = 0; i < c["p"].size(); ++i) EXPECT_EQ(d.quantile(c["p"][i]), c["quantile"][i]) << c.dump();
  }
}

TEST(Reachability, TwoPerSideCannotReach95) {
  EXPECT_FALSE(confidence_reachable(2, 2, 0.05));  // 2/6 > 0.05
  EXPECT_FALSE(confidence_reachable(3, 3, 0.05));  // 2/20 = 0.1
  EXPECT_TRUE(confidence_reachable(4, 4, 0.05));   // 2/70 < 0.05
  EXPECT_EQ(runs_needed_per_side(0.05), 4);
  EXPECT_EQ(runs_needed_per_side(0.10), 4);        // 2/20 = 0.1 is not below 0.1
  EXPECT_EQ(runs_needed_per_side(0.01), 5);        // 2/252 < 0.01 < 2/70
  EXPECT_TRUE(confidence_reachable(1, 60, 0.05));  // 2/61
  EXPECT_FALSE(confidence_reachable(1, 30, 0.05)); // 2/31
}

TEST(NormalDistribution, KnownQuantiles) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-13);
  EXPECT_NEAR(normal_quantile(0.025), -1.959963984540054, 1e-13);
  EXPECT_NEAR(normal_quantile(0.995), 2.5758293035489, 1e-12);
  EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-10);
  EXPECT_EQ(normal_quantile(0.5), 0);
  EXPECT_NEAR(normal_upper_tail(1.959963984540054), 0.025, 1e-15);
}
