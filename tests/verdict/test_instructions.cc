// Instructions per iteration judged without rank statistics: the ratio of the
// medians, the observed extremes widened by the tolerance, the same budget
// as time; the cycle estimate; and how the instruction verdict folds into a
// row's verdict beside time.
#include <gtest/gtest.h>

#include <cmath>

#include "report/report.h"
#include "verdict/instructions.h"
#include "verdict/judge.h"

namespace cobench::verdict {
namespace {

using verdict::Verdict;

CacheEvents instructions(double ir) {
  CacheEvents events;
  events.ir = ir;
  return events;
}

std::vector<CacheEvents> runs(std::initializer_list<double> counts) {
  std::vector<CacheEvents> out;
  for (double count : counts) out.push_back(instructions(count));
  return out;
}

TEST(EstimatedCycles, IsL1HitsPlusFiveLastLevelHitsPlusThirtyFiveRamAccesses) {
  CacheEvents e;
  e.ir = 1000;
  e.dr = 300;
  e.dw = 200;     // 1500 accesses
  e.i1mr = 10;
  e.d1mr = 30;
  e.d1mw = 20;    // 60 L1 misses: 1440 L1 hits
  e.ilmr = 1;
  e.dlmr = 4;
  e.dlmw = 5;     // 10 LL misses: 50 LL hits, 10 RAM accesses
  EXPECT_DOUBLE_EQ(e.accesses(), 1500);
  EXPECT_DOUBLE_EQ(e.l1_misses(), 60);
  EXPECT_DOUBLE_EQ(e.ll_misses(), 10);
  EXPECT_DOUBLE_EQ(estimated_cycles(e), 1440 + 5 * 50 + 35 * 10);
  EXPECT_DOUBLE_EQ(estimated_cycles(instructions(1000)), 1000);  // everything hits L1: one cycle each
}

TEST(JudgeInstructions, TwiceTheWorkIsARegressionWithTheRatioOfMedians) {
  const auto base = runs({1000, 1000, 1002});
  const auto head = runs({2000, 2001, 2000});
  const auto j = judge_instructions(base, head, 0.05, 0.005);
  ASSERT_TRUE(j.compared);
  EXPECT_DOUBLE_EQ(j.ratio, 2.0);
  EXPECT_DOUBLE_EQ(j.low, 2000.0 / 1002 * 0.995);
  EXPECT_DOUBLE_EQ(j.high, 2001.0 / 1000 * 1.005);
  EXPECT_EQ(j.verdict, Verdict::Regression);
  EXPECT_FALSE(j.faster);
  EXPECT_DOUBLE_EQ(j.base_spread, 2.0 / 1000);
  EXPECT_DOUBLE_EQ(j.head_spread, 1.0 / 2000);
  EXPECT_EQ(j.n_base, 3);
  EXPECT_EQ(j.n_head, 3);
  EXPECT_EQ(format_instruction_ratio(j, 2), "2.00× [1.99, 2.01]");
}

TEST(JudgeInstructions, TheToleranceDecidesNearTheBudget) {
  // Identical counts: [0.995, 1.005] passes a 5% budget, and a 0.4% budget is straddled.
  EXPECT_EQ(judge_instructions(runs({500, 500}), runs({500, 500}), 0.05, 0.005).verdict, Verdict::Pass);
  EXPECT_EQ(judge_instructions(runs({500, 500}), runs({500, 500}), 0.004, 0.005).verdict, Verdict::Inconclusive);
  // 1.06 exactly: a 5% budget with 0.5% tolerance calls it (1.06 * 0.995 > 1.05); 1% tolerance does not.
  EXPECT_EQ(judge_instructions(runs({1000}), runs({1060}), 0.05, 0.005).verdict, Verdict::Regression);
  EXPECT_EQ(judge_instructions(runs({1000}), runs({1060}), 0.05, 0.01).verdict, Verdict::Inconclusive);
  // The observed spread widens the range too: one base run far off makes it straddle.
  EXPECT_EQ(judge_instructions(runs({1000, 1040}), runs({1080, 1080}), 0.05, 0).verdict, Verdict::Inconclusive);
}

TEST(JudgeInstructions, FasterWhenTheWholeRangeIsBelowOne) {
  const auto j = judge_instructions(runs({1000, 1000}), runs({500, 500}), 0.05, 0.005);
  EXPECT_EQ(j.verdict, Verdict::Pass);
  EXPECT_TRUE(j.faster);
  EXPECT_FALSE(judge_instructions(runs({1000}), runs({997}), 0.05, 0.005).faster);  // 0.997 * 1.005 > 1
}

TEST(JudgeInstructions, NotComparedWithoutCountsOrWithANonPositiveOne) {
  const auto none = judge_instructions({}, runs({100}), 0.05, 0.005);
  EXPECT_FALSE(none.compared);
  EXPECT_EQ(none.verdict, Verdict::Inconclusive);
  EXPECT_EQ(none.note, "no instruction counts on the base side");
  EXPECT_EQ(judge_instructions(runs({100}), {}, 0.05, 0.005).note, "no instruction counts on the head side");
  const auto empty_loop = judge_instructions(runs({0, 2}), runs({1}), 0.05, 0.005);
  EXPECT_FALSE(empty_loop.compared);
  EXPECT_NE(empty_loop.note.find("≤ 0"), std::string::npos) << empty_loop.note;
  EXPECT_EQ(format_instruction_ratio(empty_loop, 2), "–");
  EXPECT_TRUE(std::isnan(empty_loop.cycles_ratio()));
}

TEST(JudgeInstructions, EachEventIsTheMedianOfItsOwn) {
  std::vector<CacheEvents> base(3), head(3);
  for (int i = 0; i < 3; ++i) {
    base[i].ir = head[i].ir = 100;
    base[i].d1mr = i;              // 0, 1, 2: median 1
    head[i].dlmr = 10 * (2 - i);   // 20, 10, 0: median 10
  }
  const auto j = judge_instructions(base, head, 0.05, 0);
  EXPECT_DOUBLE_EQ(j.base.d1mr, 1);
  EXPECT_DOUBLE_EQ(j.head.dlmr, 10);
  // Same instructions, 10 more RAM accesses per iteration on head: the cycles show what the count does not.
  EXPECT_DOUBLE_EQ(j.ratio, 1);
  EXPECT_GT(j.cycles_ratio(), 2);
}

TEST(Governing, NamesRoundTrip) {
  for (auto g : {Governing::Time, Governing::Instructions, Governing::Worst})
    EXPECT_EQ(governing_from_string(to_string(g)), g);
  EXPECT_FALSE(governing_from_string("cycles"));
}

/// A row with a time verdict and instructions judged at `instruction_ratio`.
report::BenchmarkRow row(Verdict time, double instruction_ratio, Governing governing, bool time_measured = true) {
  report::BenchmarkRow r;
  r.time.verdict = time;
  r.time.compared = time_measured;
  r.time_measured = time_measured;
  r.instructions = judge_instructions(runs({1000}), runs({1000 * instruction_ratio}), 0.05, 0.005);
  r.governing = governing;
  report::settle_verdict(r);
  return r;
}

TEST(FoldWithInstructions, TimeGovernsByDefaultAndTheNoteSaysWhatInstructionsSaid) {
  const auto r = row(Verdict::Pass, 2.0, Governing::Time);
  EXPECT_EQ(r.verdict, Verdict::Pass);
  EXPECT_EQ(r.decided_by, "time");
  EXPECT_NE(r.note.find("instructions regression 2.000×"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("time governs"), std::string::npos) << r.note;
  // When both agree the note stays quiet.
  EXPECT_EQ(row(Verdict::Pass, 1.0, Governing::Time).note, "");
}

TEST(FoldWithInstructions, InstructionsGovernWhenConfiguredOrAlone) {
  const auto governed = row(Verdict::Pass, 2.0, Governing::Instructions);
  EXPECT_EQ(governed.verdict, Verdict::Regression);
  EXPECT_EQ(governed.decided_by, "instructions");
  const auto alone = row(Verdict::Inconclusive, 1.0, Governing::Time, false);
  EXPECT_EQ(alone.verdict, Verdict::Pass);
  EXPECT_EQ(alone.decided_by, "instructions");
  EXPECT_FALSE(report::is_faster(alone));
  EXPECT_TRUE(report::is_faster(row(Verdict::Inconclusive, 0.5, Governing::Time, false)));
}

TEST(FoldWithInstructions, WorstTakesTheWorseOfTheTwo) {
  EXPECT_EQ(row(Verdict::Pass, 2.0, Governing::Worst).verdict, Verdict::Regression);
  EXPECT_EQ(row(Verdict::Pass, 2.0, Governing::Worst).decided_by, "instructions");
  EXPECT_EQ(row(Verdict::Regression, 1.0, Governing::Worst).verdict, Verdict::Regression);
  EXPECT_EQ(row(Verdict::Regression, 1.0, Governing::Worst).decided_by, "time");
  EXPECT_EQ(row(Verdict::Inconclusive, 1.0, Governing::Worst).verdict, Verdict::Inconclusive);
}

TEST(FoldWithInstructions, AllocationBudgetsStillOnlyMakeItWorse) {
  report::BenchmarkRow r;
  r.time_measured = false;
  r.instructions = judge_instructions(runs({1000}), runs({1000}), 0.05, 0.005);
  r.allocs = judge_medians(std::vector<double>{0}, std::vector<double>{1}, config::parse_threshold("0"));
  report::settle_verdict(r);
  EXPECT_EQ(r.verdict, Verdict::Regression);
  EXPECT_EQ(r.decided_by, "allocs/op");
}

}  // namespace
}  // namespace cobench::verdict
