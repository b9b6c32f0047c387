// judged_row and sort_rows: the statistics core applied per benchmark.
#include <cmath>

#include <gtest/gtest.h>

#include "report/report.h"
#include "report/summary.h"

using namespace cobench;
using report::BenchmarkRow;
using verdict::Verdict;

static std::vector<double> around(double center, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(center * (1 + 0.002 * ((i * 7) % n - n / 2)));
  return out;
}

TEST(JudgedRow, ClearRegression) {
  BenchmarkRow row = report::judged_row("t", "BM_A", around(100, 10), around(120, 10), 0.05, 0.95);
  EXPECT_TRUE(row.time.compared);
  EXPECT_EQ(row.verdict, Verdict::Regression);
  EXPECT_FALSE(row.time.faster);
  EXPECT_EQ(row.note, "");
  EXPECT_NEAR(row.time.estimate.ratio, 1.2, 1e-9);
  EXPECT_NEAR(row.base_median, stats::median(around(100, 10)), 1e-12);
  EXPECT_EQ(row.target, "t");
  EXPECT_EQ(row.base_samples.size(), 10u);
  EXPECT_EQ(row.budget, 0.05);
}

TEST(JudgedRow, FasterPasses) {
  BenchmarkRow row = report::judged_row("", "BM_A", around(100, 8), around(80, 8), 0.05, 0.95);
  EXPECT_EQ(row.verdict, Verdict::Pass);
  EXPECT_TRUE(row.time.faster);
}

TEST(JudgedRow, WithinNoiseOfBudgetIsInconclusive) {
  BenchmarkRow row = report::judged_row("", "BM_A", around(100, 8), around(105, 8), 0.05, 0.95);
  EXPECT_EQ(row.verdict, Verdict::Inconclusive);
  EXPECT_LT(row.time.estimate.ci_low, 1.05);
  EXPECT_GT(row.time.estimate.ci_high, 1.05);
}

TEST(JudgedRow, UnreachableConfidenceSaysHowManyRuns) {
  BenchmarkRow row = report::judged_row("", "BM_A", {100, 101}, {200, 201}, 0.05, 0.95);
  EXPECT_TRUE(row.time.compared);
  EXPECT_FALSE(row.time.estimate.ci_reachable);
  EXPECT_EQ(row.verdict, Verdict::Inconclusive);
  EXPECT_EQ(row.note, "needs ≥ 4 runs per side for 95% confidence (has 2/2)");
  row = report::judged_row("", "BM_A", around(100, 4), around(100, 4), 0.05, 0.99);
  EXPECT_EQ(row.note, "needs ≥ 5 runs per side for 99% confidence (has 4/4)");
}

TEST(JudgedRow, MissingOrInvalidSamplesAreNotCompared) {
  BenchmarkRow row = report::judged_row("", "BM_A", {}, {1, 2, 3}, 0.05, 0.95);
  EXPECT_FALSE(row.time.compared);
  EXPECT_EQ(row.verdict, Verdict::Inconclusive);
  EXPECT_EQ(row.note, "no samples on the base side");
  EXPECT_TRUE(std::isnan(row.time.estimate.ratio));
  EXPECT_EQ(report::judged_row("", "BM_A", {1}, {}, 0.05, 0.95).note, "no samples on the head side");
  row = report::judged_row("", "BM_A", {1, -2, 3}, {1, 2, 3}, 0.05, 0.95);
  EXPECT_FALSE(row.time.compared);
  EXPECT_NE(row.note.find("not a positive finite time"), std::string::npos);
}

TEST(SortRows, RegressionsThenInconclusiveThenFasterThenPass) {
  auto make = [](std::string target, std::string name, Verdict v, bool faster) {
    BenchmarkRow row;
    row.target = std::move(target);
    row.name = std::move(name);
    row.verdict = v;
    row.time.faster = faster;
    return row;
  };
  std::vector<BenchmarkRow> rows = {make("a", "p", Verdict::Pass, false), make("a", "f", Verdict::Pass, true),
                                    make("b", "i", Verdict::Inconclusive, false),
                                    make("b", "r2", Verdict::Regression, false),
                                    make("a", "r1", Verdict::Regression, false),
                                    make("a", "i", Verdict::Inconclusive, false)};
  report::sort_rows(rows);
  std::vector<std::string> order;
  for (const auto& r : rows) order.push_back(r.target + "/" + r.name);
  EXPECT_EQ(order, (std::vector<std::string>{"a/r1", "b/r2", "a/i", "b/i", "a/f", "a/p"}));
}

// The projected runs are at the last look's level: a row that already has them says at which level.
TEST(ReachPhrase, ARowWithTheRunsTheLastLookNeedsSaysTheProjectionIsAtTheLastLooksLevel) {
  BenchmarkRow row;
  row.verdict = Verdict::Inconclusive;
  row.time.compared = true;
  row.time.noise = 0.009;
  row.time.detectable = 0.117;
  row.runs_base = row.runs_head = 6;
  row.time.runs_to_decide = 24;
  EXPECT_EQ(report::reach_phrase(row),
            "noise ±0.9% per pair; could catch ≥ 11.7% 9 times in 10; ~24 runs per side to decide");
  row.time.runs_to_decide = 6;
  EXPECT_EQ(report::reach_phrase(row), "noise ±0.9% per pair; could catch ≥ 11.7% 9 times in 10; ~6 runs per side to "
                                       "decide at the last look's level");
  row.time.runs_to_decide = 2000;
  EXPECT_NE(report::reach_phrase(row).find("more than 1000 runs per side to decide"), std::string::npos);
}
