#include <gtest/gtest.h>

#include "core/errors.h"
#include "report/report.h"
#include "verdict/judge.h"

namespace cobench::verdict {
namespace {

using report::BenchmarkRow;
using verdict::Verdict;

/// The old spelling: "" reports without judging, anything else is a threshold.
std::optional<MedianJudgement> compare_medians(std::vector<double> base, std::vector<double> head,
                                               const std::string& budget) {
  return judge_medians(base, head, budget.empty() ? std::nullopt : std::optional(config::parse_threshold(budget)));
}

void fold_metric_verdicts(BenchmarkRow& row) { report::settle_verdict(row); }

TEST(CompareMedians, NulloptWhenASideHasNoValues) {
  EXPECT_FALSE(compare_medians({}, {1, 2}, "0"));
  EXPECT_FALSE(compare_medians({1}, {}, "0"));
}

TEST(CompareMedians, UsesMediansNotMeans) {
  auto metric = compare_medians({1, 1, 100}, {2, 2, 2, 3}, "");
  ASSERT_TRUE(metric);
  EXPECT_DOUBLE_EQ(metric->base_median, 1);
  EXPECT_DOUBLE_EQ(metric->head_median, 2);
}

TEST(CompareMedians, EmptyBudgetIsReportedNotJudged) {
  auto metric = compare_medians({0}, {50}, "");
  ASSERT_TRUE(metric);
  EXPECT_FALSE(metric->judged());
  EXPECT_EQ(metric->verdict, Verdict::Pass);
}

TEST(CompareMedians, ZeroBudgetFailsOneExtraAllocation) {
  auto metric = compare_medians({0, 0, 0}, {1, 1, 1}, "0");
  ASSERT_TRUE(metric);
  EXPECT_TRUE(metric->judged());
  EXPECT_EQ(metric->verdict, Verdict::Regression);
  EXPECT_EQ(compare_medians({3, 3, 3}, {3, 3, 3}, "0")->verdict, Verdict::Pass);
  EXPECT_EQ(compare_medians({3}, {2}, "0")->verdict, Verdict::Pass);  // fewer is never a regression
}

TEST(CompareMedians, ZeroBudgetToleratesFloatingErrorOnly) {
  EXPECT_EQ(compare_medians({1.0 / 3 * 3}, {1.0}, "0")->verdict, Verdict::Pass);
  EXPECT_EQ(compare_medians({1.0}, {1.0625}, "0")->verdict, Verdict::Regression);  // one alloc per 16 iterations
}

TEST(CompareMedians, AbsoluteBudgetIsAnAllowedIncrease) {
  EXPECT_EQ(compare_medians({100}, {164}, "64")->verdict, Verdict::Pass);
  EXPECT_EQ(compare_medians({100}, {165}, "64")->verdict, Verdict::Regression);
}

TEST(CompareMedians, RelativeBudgetScalesWithBase) {
  EXPECT_EQ(compare_medians({1000}, {1050}, "5%")->verdict, Verdict::Pass);
  EXPECT_EQ(compare_medians({1000}, {1051}, "5%")->verdict, Verdict::Regression);
  // From zero any increase is an unbounded relative change.
  EXPECT_EQ(compare_medians({0}, {8}, "5%")->verdict, Verdict::Regression);
  EXPECT_EQ(compare_medians({0}, {0}, "5%")->verdict, Verdict::Pass);
}

TEST(CompareMedians, MalformedBudgetIsAnInputError) {
  EXPECT_THROW(compare_medians({1}, {1}, "lots"), InputError);
  EXPECT_THROW(compare_medians({1}, {1}, "-1"), InputError);
  EXPECT_THROW(compare_medians({1}, {1}, "x%"), InputError);
}

BenchmarkRow row_with(Verdict time_verdict) {
  BenchmarkRow row;
  row.verdict = row.time.verdict = time_verdict;
  return row;
}

TEST(FoldMetricVerdicts, RegressionInAllocsWinsAndIsNamed) {
  auto row = row_with(Verdict::Pass);
  row.allocs = compare_medians({0, 0, 0}, {1, 1, 1}, "0");
  fold_metric_verdicts(row);
  EXPECT_EQ(row.verdict, Verdict::Regression);
  EXPECT_EQ(row.decided_by, "allocs/op");
  EXPECT_EQ(row.time.verdict, Verdict::Pass);  // each metric keeps its own verdict
  EXPECT_NE(row.note.find("allocs/op 0 → 1"), std::string::npos) << row.note;
}

TEST(FoldMetricVerdicts, KeepsExistingNoteAndNamesBothMetrics) {
  auto row = row_with(Verdict::Inconclusive);
  row.note = "needs >= 4 runs per side";
  row.allocs = compare_medians({2}, {2.5}, "0");
  row.bytes = compare_medians({64}, {128}, "10%");
  fold_metric_verdicts(row);
  EXPECT_EQ(row.verdict, Verdict::Regression);
  EXPECT_EQ(row.note.rfind("needs >= 4 runs per side", 0), 0u) << row.note;
  EXPECT_NE(row.note.find("allocs/op 2 → 2.5"), std::string::npos) << row.note;
  EXPECT_NE(row.note.find("bytes/op 64 → 128"), std::string::npos) << row.note;
}

TEST(FoldMetricVerdicts, UnjudgedOrPassingMetricsLeaveTheTimeVerdict) {
  auto row = row_with(Verdict::Inconclusive);
  row.allocs = compare_medians({0}, {5}, "");
  row.bytes = compare_medians({64}, {64}, "0");
  fold_metric_verdicts(row);
  EXPECT_EQ(row.verdict, Verdict::Inconclusive);
  EXPECT_TRUE(row.note.empty());

  auto timed_regression = row_with(Verdict::Regression);
  timed_regression.allocs = compare_medians({1}, {1}, "0");
  fold_metric_verdicts(timed_regression);
  EXPECT_EQ(timed_regression.verdict, Verdict::Regression);
  EXPECT_EQ(timed_regression.decided_by, "time");
}

ChangeReach reach_of(ChangeReach::Status status, int changed, int executed) {
  ChangeReach reach;
  reach.status = status;
  reach.changed_lines = changed;
  reach.executed_changed_lines = executed;
  return reach;
}

TEST(FoldMetricVerdicts, ABudgetWithNoCountsCannotPassButARegressionStands) {
  const UncountedBudget uncounted{"allocs/op", "0",
                                  "not collected: measuring budget 60.0 s exhausted after 0 allocation runs per side"};
  auto row = row_with(Verdict::Pass);
  row.uncounted_budgets = {uncounted};
  fold_metric_verdicts(row);
  EXPECT_EQ(row.verdict, Verdict::Inconclusive);
  EXPECT_EQ(row.decided_by, "allocs/op");
  EXPECT_EQ(row.time.verdict, Verdict::Pass);
  EXPECT_NE(row.note.find("allocs/op budget +0 not judged: not collected: measuring budget 60.0 s exhausted"),
            std::string::npos)
      << row.note;

  auto timed_regression = row_with(Verdict::Regression);
  timed_regression.uncounted_budgets = {uncounted, {"bytes/op", "64", "not collected: base run failed"}};
  fold_metric_verdicts(timed_regression);
  EXPECT_EQ(timed_regression.verdict, Verdict::Regression);
  EXPECT_EQ(timed_regression.decided_by, "time");
  EXPECT_NE(timed_regression.note.find("bytes/op budget +64 not judged: not collected: base run failed"),
            std::string::npos)
      << timed_regression.note;

  auto unreached = row_with(Verdict::Pass);
  unreached.uncounted_budgets = {uncounted};
  unreached.reach = reach_of(ChangeReach::Status::NotReached, 1, 0);
  fold_metric_verdicts(unreached);
  EXPECT_EQ(unreached.verdict, Verdict::Unrelated);
}

TEST(FoldReach, ABenchmarkThatDoesNotExecuteTheChangeIsAtMostUnrelated) {
  for (Verdict time_verdict : {Verdict::Regression, Verdict::Inconclusive}) {
    auto row = row_with(time_verdict);
    row.reach = reach_of(ChangeReach::Status::NotReached, 3, 0);
    fold_metric_verdicts(row);
    EXPECT_EQ(row.verdict, Verdict::Unrelated);
    EXPECT_EQ(row.time.verdict, time_verdict);  // the time verdict itself is kept, for the record
    EXPECT_EQ(row.note.rfind("does not execute the change (0 of 3 changed lines ran); by time alone: ", 0), 0u)
        << row.note;
  }
  // An allocation regression is no different: the change's code did not run.
  auto allocs = row_with(Verdict::Pass);
  allocs.allocs = compare_medians({0}, {1}, "0");
  allocs.reach = reach_of(ChangeReach::Status::NotReached, 1, 0);
  fold_metric_verdicts(allocs);
  EXPECT_EQ(allocs.verdict, Verdict::Unrelated);
  EXPECT_NE(allocs.note.find("by allocs/op alone: regression"), std::string::npos) << allocs.note;
  // A pass stays a pass, and still carries the mark.
  auto pass = row_with(Verdict::Pass);
  pass.reach = reach_of(ChangeReach::Status::NotReached, 1, 0);
  fold_metric_verdicts(pass);
  EXPECT_EQ(pass.verdict, Verdict::Pass);
  EXPECT_EQ(pass.note, "does not execute the change (0 of 1 changed line ran)");
}

TEST(FoldReach, ReachedOrUnknownLeaveTheVerdictAlone) {
  for (auto status : {ChangeReach::Status::Reached, ChangeReach::Status::Unknown}) {
    auto row = row_with(Verdict::Regression);
    row.reach = reach_of(status, 3, status == ChangeReach::Status::Reached ? 2 : 0);
    fold_metric_verdicts(row);
    EXPECT_EQ(row.verdict, Verdict::Regression);
    EXPECT_TRUE(row.note.empty()) << row.note;
  }
}

TEST(FoldReach, StatusNamesRoundTrip) {
  for (auto status : {ChangeReach::Status::Reached, ChangeReach::Status::NotReached, ChangeReach::Status::Unknown})
    EXPECT_EQ(change_reach_status_from_string(to_string(status)), status);
  EXPECT_EQ(to_string(ChangeReach::Status::NotReached), "not_reached");
  EXPECT_FALSE(change_reach_status_from_string("maybe"));
  EXPECT_EQ(verdict::verdict_from_string("unrelated change"), Verdict::Unrelated);
}

TEST(JudgeTime, EmptySidesAreNotComparedAndSayWhich) {
  EXPECT_EQ(judge_time({}, {}, 0.05, 0.95).note, "no samples on either side");
  const TimeJudgement base_only = judge_time(std::vector<double>{1, 2}, {}, 0.05, 0.95);
  EXPECT_FALSE(base_only.compared);
  EXPECT_EQ(base_only.verdict, Verdict::Inconclusive);
  EXPECT_EQ(base_only.note, "no samples on the head side");
}

}  // namespace
}  // namespace cobench::verdict

namespace cobench::verdict {
namespace {

/// n pairs of base 100 and a head of `ratio` with a deterministic ±`spread` scatter.
std::pair<std::vector<double>, std::vector<double>> scattered_pairs(int n, double ratio, double spread) {
  std::vector<double> base, head;
  for (int i = 0; i < n; ++i) {
    base.push_back(100);
    head.push_back(100 * ratio * (1 + spread * (((i * 7) % n) - n / 2.0) / n));
  }
  return {base, head};
}

TEST(JudgeTime, CouldCatchIsTheSlowdownCaughtNineTimesInTenNotTheCoinToss) {
  const auto [base, head] = scattered_pairs(12, 1.03, 0.06);
  const auto judged = judge_time(base, head, 0.05, 0.95, Pairing::Paired);
  ASSERT_TRUE(judged.estimate.ci_reachable);
  const double half_width = (std::log(judged.estimate.ci_high) - std::log(judged.estimate.ci_low)) / 2;
  const double coin_toss = 1.05 * std::exp(half_width) - 1;  // what the old figure said
  const double sigma = half_width / 1.959964;
  EXPECT_NEAR(judged.detectable, 1.05 * std::exp(half_width + 1.281552 * sigma) - 1, 1e-4);
  EXPECT_GT(judged.detectable, coin_toss);
}

TEST(JudgeTime, RunsToDecideAreCountedAtTheLastLooksLevel) {
  const auto [base, head] = scattered_pairs(10, 1.04, 0.08);
  const auto interim = judge_time(base, head, 0.05, 0.9973, Pairing::Paired, 0.9973);
  const auto counted_at_final = judge_time(base, head, 0.05, 0.9973, Pairing::Paired, 0.955);
  ASSERT_EQ(interim.verdict, verdict::Verdict::Inconclusive);
  EXPECT_GT(interim.runs_to_decide, counted_at_final.runs_to_decide);
  EXPECT_GT(counted_at_final.runs_to_decide, 0);
}

TEST(JudgeTime, MostlyEqualTimesAreTheTimersResolutionNotAVerdict) {
  // 10 ns per iteration on a 1 ns clock: 4 of 10 pairs read the same, and the rest decide the ranks.
  const std::vector<double> base = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
  const std::vector<double> head = {10, 12, 10, 12, 10, 12, 10, 12, 12, 12};
  const auto judged = judge_time(base, head, 0.05, 0.95, Pairing::Paired);
  EXPECT_EQ(judged.verdict, verdict::Verdict::Inconclusive);
  EXPECT_DOUBLE_EQ(judged.tied_share, 0.4);
  EXPECT_NE(judged.note.find("timer resolution"), std::string::npos) << judged.note;
  // One tie in ten is the clock's chance, not its resolution.
  std::vector<double> head_apart = {11, 12, 13, 12, 11, 12, 10, 12, 12, 12};
  const auto apart = judge_time(base, head_apart, 0.05, 0.95, Pairing::Paired);
  EXPECT_DOUBLE_EQ(apart.tied_share, 0.1);
  EXPECT_EQ(apart.note.find("timer resolution"), std::string::npos);
}

}  // namespace
}  // namespace cobench::verdict

namespace cobench::verdict {
namespace {

// The one place run and compare choose how a row is judged: paired over the
// pairs (saying what had no partner), unpaired over every sample, and an
// empty side always unpaired.
TEST(JudgeSides, PairedOverThePairsUnpairedOverEverySampleAndAnEmptySideUnpaired) {
  const std::vector<double> base = {100, 101, 99, 100, 102, 98, 100, 101, 300};
  const std::vector<double> head = {110, 111, 109, 110, 112, 108, 110, 111};
  const SidesSamples sides{base, head, std::span(base.data(), 8), std::span(head.data(), 8), 1, "repetitions"};
  const TimeJudgement paired = judge_sides(sides, 0.05, 0.95, Pairing::Paired);
  EXPECT_TRUE(paired.estimate.method == stats::Method::SignedRankExact ||
              paired.estimate.method == stats::Method::SignedRankNormal);  // normal where pairs tie
  EXPECT_EQ(paired.verdict, Verdict::Regression);
  EXPECT_NE(paired.note.find("1 repetition without a partner dropped"), std::string::npos) << paired.note;
  const TimeJudgement unpaired = judge_sides(sides, 0.05, 0.95, Pairing::Unpaired);
  EXPECT_TRUE(unpaired.estimate.method == stats::Method::Exact || unpaired.estimate.method == stats::Method::Normal);
  EXPECT_EQ(unpaired.note.find("without a partner"), std::string::npos);
  const SidesSamples one_side{base, {}, {}, {}, 9, "runs"};
  EXPECT_EQ(judge_sides(one_side, 0.05, 0.95, Pairing::Paired).note.find("without a partner"), std::string::npos);
}

}  // namespace
}  // namespace cobench::verdict
