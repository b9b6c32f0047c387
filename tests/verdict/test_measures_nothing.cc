// likely_optimised_away: below a nanosecond, or flat in a growing argument.
#include "verdict/measures_nothing.h"

#include <cmath>

#include <gtest/gtest.h>

namespace cobench::verdict {
namespace {

TEST(MeasuresNothing, BelowOneNanosecondPerIteration) {
  auto reasons = likely_optimised_away({{"BM_Rotation2DSlerp", 0.32}, {"BM_Copy", 3.5}, {"BM_Gone", std::nan("")}});
  EXPECT_EQ(reasons[0], "0.32 ns per iteration");
  EXPECT_EQ(reasons[1], "");
  EXPECT_EQ(reasons[2], "");
}

TEST(MeasuresNothing, AFamilyFlatWhileItsArgumentGrows) {
  auto reasons = likely_optimised_away(
      {{"BM_Sum/8", 2.0}, {"BM_Sum/64", 2.01}, {"BM_Sum/4096", 2.02}, {"BM_Work/8", 5}, {"BM_Work/4096", 900}});
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(reasons[i], "time flat (×1.01) while the argument grows ×512, 8 → 4096") << i;
  EXPECT_EQ(reasons[3], "");
  EXPECT_EQ(reasons[4], "");
}

TEST(MeasuresNothing, OnlyArgumentsThatVaryCountAndRunOptionsDoNot) {
  // A small span is no evidence; threads: is how it runs, not what it works on.
  auto reasons = likely_optimised_away({{"BM_A/8", 10}, {"BM_A/64", 10}, {"BM_T/threads:1", 10},
                                         {"BM_T/threads:32", 10}, {"BM_N/n:2/m:7", 40}, {"BM_N/n:256/m:7", 40.5},
                                         {"BM_N/n:2/m:9", 40}});
  EXPECT_EQ(reasons[0], "");
  EXPECT_EQ(reasons[2], "");
  EXPECT_EQ(reasons[3], "");
  EXPECT_EQ(reasons[4], "time flat (×1.01) while the argument grows ×128, n:2 → n:256");
  EXPECT_EQ(reasons[5], reasons[4]);
  EXPECT_EQ(reasons[6], "");  // m:9 has no sweep of n
}

TEST(MeasuresNothing, BothReasonsAreSaidOnce) {
  auto reasons = likely_optimised_away({{"BM_Z/1", 0.3}, {"BM_Z/1024", 0.31}});
  EXPECT_EQ(reasons[0], "0.3 ns per iteration; time flat (×1.03) while the argument grows ×1024, 1 → 1024");
}

TEST(MeasuresNothing, NoMoreRunsOnlyWhenFlaggedOnBothSidesAndTheSidesAgree) {
  EXPECT_TRUE(worth_no_more_runs(true, true, 110, 112, 0.05));
  EXPECT_TRUE(worth_no_more_runs(true, true, 110, 110 / 1.05, 0.05));  // the faster line is within
  EXPECT_FALSE(worth_no_more_runs(true, true, 110, 875, 0.05));       // 8x: it measures something
  EXPECT_FALSE(worth_no_more_runs(true, true, 110, 100, 0.05));       // faster past the budget
  EXPECT_FALSE(worth_no_more_runs(true, false, 0.3, 0.3, 0.05));
  EXPECT_FALSE(worth_no_more_runs(false, true, 0.3, 0.3, 0.05));
  EXPECT_FALSE(worth_no_more_runs(true, true, std::nan(""), 0.3, 0.05));
}

}  // namespace
}  // namespace cobench::verdict
