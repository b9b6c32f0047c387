// --time-budget over the whole job: the build is planned from the history or
// from the builds so far, the lowest-ranked targets that will not fit are
// dropped before they are built, and measuring gets what is left.
#include <gtest/gtest.h>

#include "plan/plan.h"

namespace cobench::plan {
namespace {

std::vector<PlannedTarget> ranked(std::vector<std::string> names) {
  std::vector<PlannedTarget> out;
  for (auto& name : names) out.push_back({name, 2, false});
  return out;
}

CostHistory history_of(std::map<std::string, PastCost> targets) {
  CostHistory history;
  history.targets = std::move(targets);
  history.files = {"prev/results.jsonl"};
  return history;
}

TEST(BuildPlan, WithAHistoryTheDropIsKnownBeforeAnythingIsBuilt) {
  // 100 s per side for c and d; runs of 1 s: 6 pairs = 12 s of measuring per target.
  const auto history = history_of({{"a", {5, 2, 1, 12, 12}}, {"b", {5, 2, 1, 12, 12}}, {"c", {100, 2, 1, 12, 12}},
                                   {"d", {100, 2, 1, 12, 12}}});
  BuildPlan plan(180, std::nullopt, 6, history);
  const Fit fit = plan.fit(ranked({"a", "b", "c", "d"}), {}, 20);
  // a and b: 20 s of builds + 24 s of measuring fit in 160 s; c alone needs 200 s more.
  EXPECT_EQ(fit.keep, 2u);
  EXPECT_NE(fit.why.find("the 2 lowest-ranked of the selected targets not built nor measured (c, d)"), std::string::npos)
      << fit.why;
  EXPECT_NE(fit.why.find("prev/results.jsonl"), std::string::npos) << fit.why;
  EXPECT_NE(plan.describe(ranked({"a", "b", "c", "d"}), 20).find("estimated at 7.0 min"), std::string::npos)
      << plan.describe(ranked({"a", "b", "c", "d"}), 20);
}

TEST(BuildPlan, TheLowestRankedGoEvenWhenALowerOneWouldFit) {
  const auto history = history_of({{"a", {5, 2, 1, 12, 12}}, {"big", {500, 2, 1, 12, 12}}, {"z", {1, 2, 1, 12, 12}}});
  BuildPlan plan(120, std::nullopt, 6, history);
  const Fit fit = plan.fit(ranked({"a", "big", "z"}), {}, 0);
  EXPECT_EQ(fit.keep, 1u);  // z would fit, but it ranks below big
}

TEST(BuildPlan, WithoutAHistoryTheFirstBuildIsTheFirstEstimate) {
  BuildPlan plan(100, std::nullopt, 6, {});
  EXPECT_FALSE(plan.build_estimate("a", 2));
  EXPECT_EQ(plan.fit(ranked({"a", "b", "c", "d"}), {}, 10).keep, 4u);  // nothing to judge by yet
  EXPECT_NE(plan.describe(ranked({"a", "b"}), 10).find("not known yet"), std::string::npos);
  plan.learn("a", 9);
  plan.learn("a", 11);
  EXPECT_DOUBLE_EQ(*plan.build_estimate("b", 2), 20);  // the mean per side, times the sides
  // 100 s budget, 30 s gone, 25 s kept for measuring: 45 s left for builds of 20 s each.
  const Fit fit = plan.fit(ranked({"b", "c", "d"}), {"a"}, 30);
  EXPECT_EQ(fit.keep, 2u);
  EXPECT_NE(fit.why.find("(d)"), std::string::npos) << fit.why;
  EXPECT_NE(fit.why.find("the mean of the 2 builds so far"), std::string::npos) << fit.why;
}

TEST(BuildPlan, ThisMachineCorrectsTheHistory) {
  const auto history = history_of({{"a", {10, 2, 0, 0, 0}}, {"b", {10, 2, 0, 0, 0}}});
  BuildPlan plan(1000, std::nullopt, 6, history);
  EXPECT_DOUBLE_EQ(*plan.build_estimate("b", 2), 20);
  plan.learn("a", 30);  // three times slower than recorded
  plan.learn("a", 30);
  EXPECT_DOUBLE_EQ(*plan.build_estimate("b", 2), 60);
}

TEST(BuildPlan, NoTimeLeftDropsEverythingControlsToo) {
  BuildPlan plan(60, std::nullopt, 6, {});
  std::vector<PlannedTarget> order = {{"control", 2, true}, {"a", 2, false}};
  const Fit fit = plan.fit(order, {}, 75);  // configure alone took longer than the budget
  EXPECT_EQ(fit.keep, 0u);
  EXPECT_NE(fit.why.find("(a)"), std::string::npos) << fit.why;
}

TEST(BuildPlan, AControlIsKeptWhenATargetFits) {
  const auto history = history_of({{"control", {50, 2, 1, 12, 12}}, {"a", {5, 2, 1, 12, 12}}});
  BuildPlan plan(200, std::nullopt, 6, history);
  std::vector<PlannedTarget> order = {{"control", 2, true}, {"a", 2, false}};
  EXPECT_EQ(plan.fit(order, {}, 0).keep, 2u);
  BuildPlan tight(100, std::nullopt, 6, history);  // the control's 100 s leave nothing for a
  EXPECT_EQ(tight.fit(order, {}, 0).keep, 0u);
}

TEST(BuildPlan, TheMeasuringReserveIsAtMostTheMeasuringBudget) {
  BuildPlan shared(400, std::nullopt, 6, {});
  EXPECT_DOUBLE_EQ(shared.measuring_reserve({"a"}), 100);  // a quarter without recorded runs
  BuildPlan bounded(400, 30, 6, {});
  EXPECT_DOUBLE_EQ(bounded.measuring_reserve({"a"}), 30);
  BuildPlan recorded(400, std::nullopt, 10, history_of({{"a", {1, 2, 0.5, 20, 10}}}));
  EXPECT_DOUBLE_EQ(recorded.measuring_reserve({"a", "unknown"}), 2 * (10 * 2 * 0.5));  // the mean for the unknown one
}

TEST(BuildPlan, TheReachPassRanksInHalfTheBudgetAndThenLeavesMeasuringItsReserve) {
  // Runs of 1 s: 6 pairs of each target = 12 s of measuring reserve.
  const auto history = history_of({{"a", {5, 2, 1, 12, 12}}, {"b", {5, 2, 1, 12, 12}}});
  BuildPlan plan(100, std::nullopt, 6, history);
  EXPECT_EQ(plan.ranking_stop(49.9), "");
  const std::string ranking = plan.ranking_stop(50);
  EXPECT_NE(ranking.find("time budget 100.0 s: the reach pass stopped after 50.0 s of the job"), std::string::npos)
      << ranking;
  EXPECT_NE(ranking.find("half of the budget"), std::string::npos) << ranking;
  // After the build: 100 - 75 = 25 s left holds a and b's 24 s; at 76 s it does not.
  EXPECT_EQ(plan.coverage_stop({"a", "b"}, 75), "");
  const std::string coverage = plan.coverage_stop({"a", "b"}, 76);
  EXPECT_NE(coverage.find("the reach pass stopped with 24.0 s of the budget left after 76.0 s of the job; "
                          "measuring needs 24.0 s"),
            std::string::npos)
      << coverage;
  EXPECT_EQ(plan.coverage_stop({"a"}, 87), "") << "one target needs only 12 s";
  // Without recorded runs a quarter of the budget stays for measuring.
  BuildPlan fresh(100, std::nullopt, 6, {});
  EXPECT_EQ(fresh.coverage_stop({"a"}, 74), "");
  EXPECT_NE(fresh.coverage_stop({"a"}, 75), "");
}

TEST(MeasuringBound, TheSmallerOfWhatIsLeftAndTheMeasuringBudget) {
  EXPECT_FALSE(measuring_bound(std::nullopt, std::nullopt, 10));
  auto only_measure = measuring_bound(std::nullopt, 120, 500);
  ASSERT_TRUE(only_measure);
  EXPECT_DOUBLE_EQ(only_measure->seconds, 120);
  EXPECT_EQ(only_measure->phrase, "measuring budget 2.0 min");
  auto left = measuring_bound(600, 300, 400);
  ASSERT_TRUE(left);
  EXPECT_DOUBLE_EQ(left->seconds, 200);
  EXPECT_EQ(left->phrase, "time budget 10.0 min (3.3 min left for measuring)");
  EXPECT_DOUBLE_EQ(measuring_bound(600, 100, 400)->seconds, 100);
  EXPECT_DOUBLE_EQ(measuring_bound(600, std::nullopt, 700)->seconds, 0);
}

}  // namespace
}  // namespace cobench::plan
