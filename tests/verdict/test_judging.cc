// One judging function for the schedule and the reports: pairing, looks, and
// the control rule held at the row's own look.
#include "verdict/judging.h"

#include <random>

#include <gtest/gtest.h>

#include "stats/stats.h"

namespace cobench::verdict {
namespace {

BenchmarkSamples samples(std::vector<double> base, std::vector<double> head) {
  BenchmarkSamples s;
  s.metric = "cpu_time";
  for (size_t i = 0; i < base.size(); ++i) s.base_runs.push_back(static_cast<int>(i));
  for (size_t i = 0; i < head.size(); ++i) s.head_runs.push_back(static_cast<int>(i));
  s.base = std::move(base);
  s.head = std::move(head);
  return s;
}

TEST(Judging, PairsRunsOfOneIndexAndSaysWhatItDropped) {
  // A drift that both sides share: paired it cancels, unpaired it swamps a 3% slowdown.
  std::vector<double> base, head;
  for (int i = 0; i < 12; ++i) {
    const double drift = 1 + 0.04 * i;
    base.push_back(1000 * drift * (1 + 0.001 * (i % 3)));
    head.push_back(1030 * drift * (1 + 0.001 * ((i + 1) % 3)));
  }
  auto s = samples(base, head);
  s.base_runs[11] = 99;  // run 11's base has no head partner, head 11 none either
  TimeRule paired;
  const auto judged = judge_samples(s, 0.05, paired, Look::Final);
  EXPECT_EQ(stats::to_string(judged.estimate.method).rfind("signed-rank", 0), 0u);
  EXPECT_NEAR(judged.estimate.ratio, 1.03, 0.005);
  EXPECT_EQ(judged.verdict, Verdict::Pass);
  EXPECT_NE(judged.note.find("2 runs without a partner dropped"), std::string::npos) << judged.note;
  TimeRule unpaired;
  unpaired.pairing = Pairing::Unpaired;
  EXPECT_EQ(judge_samples(s, 0.05, unpaired, Look::Final).verdict, Verdict::Inconclusive);
}

TEST(Judging, AnInterimLookAsksForTheStricterInterval) {
  std::vector<double> base, head;
  for (int i = 0; i < 12; ++i) {
    base.push_back(1000 + i);
    head.push_back(1080 + i * 1.5);
  }
  TimeRule rule;
  const auto interim = judge_samples(samples(base, head), 0.05, rule, Look::Interim);
  const auto last = judge_samples(samples(base, head), 0.05, rule, Look::Final);
  EXPECT_DOUBLE_EQ(interim.estimate.confidence, 0.9973);
  EXPECT_DOUBLE_EQ(last.estimate.confidence, 0.955);
  EXPECT_LE(interim.estimate.ci_low, last.estimate.ci_low);
  EXPECT_GE(interim.estimate.ci_high, last.estimate.ci_high);
}

TEST(Judging, AnEarlyLookWithTooFewPairsJudgesTheRunsAsTwoSamples) {
  // 6 pairs: a signed-rank interval reaches at most 96.9%, the rank-sum one 99.8%; judged as
  // two samples, the look asks for 3 sigma (99.73%), not the early looks' 99%.
  std::vector<double> base, head;
  for (int i = 0; i < 6; ++i) {
    base.push_back(1000 + 3 * i);
    head.push_back(1002 + 3 * ((i * 5) % 6));  // no head run ties a base run: an exact interval
  }
  const TimeRule rule;
  const auto early = judge_samples(samples(base, head), 0.05, rule, Look::Early);
  EXPECT_EQ(early.estimate.method, stats::Method::Exact) << "the rank-sum (Mann-Whitney) interval";
  EXPECT_DOUBLE_EQ(early.estimate.confidence, 0.9973);
  EXPECT_EQ(early.verdict, Verdict::Pass);
  EXPECT_NE(early.note.find(kUnpairedFirstLook), std::string::npos) << early.note;
  // A later look stays paired: at 99.73% 6 pairs give no interval, and nothing is decided.
  const auto interim = judge_samples(samples(base, head), 0.05, rule, Look::Interim);
  EXPECT_EQ(interim.estimate.method, stats::Method::SignedRankExact);
  EXPECT_FALSE(interim.estimate.ci_reachable);
  EXPECT_EQ(interim.verdict, Verdict::Inconclusive);
  // 8 pairs reach 99% paired: the early look keeps the signed-rank interval.
  base.insert(base.end(), {1001, 1004});
  head.insert(head.end(), {1003, 1005});
  const auto paired = judge_samples(samples(base, head), 0.05, rule, Look::Early);
  EXPECT_EQ(paired.estimate.method, stats::Method::SignedRankExact);
  EXPECT_EQ(paired.note.find(kUnpairedFirstLook), std::string::npos) << paired.note;
  // A head run that ties a base run: the rank-sum interval would be the normal approximation's,
  // not an exact one, so the look stays paired and waits.
  std::vector<double> tied_head(head.begin(), head.begin() + 6);
  tied_head[5] = base[2];
  const auto tied = judge_samples(samples({base.begin(), base.begin() + 6}, tied_head), 0.05, rule, Look::Early);
  EXPECT_EQ(tied.estimate.method, stats::Method::SignedRankExact);
  EXPECT_FALSE(tied.estimate.ci_reachable);
  // Too few runs for either (4 per side: the rank-sum reaches 97.1%): no interval, no verdict.
  const auto four = judge_samples(samples({1000, 1001, 1002, 1003}, {1001, 1002, 1003, 1004}), 0.05, rule, Look::Early);
  EXPECT_FALSE(four.estimate.ci_reachable);
  EXPECT_EQ(four.verdict, Verdict::Inconclusive);
}

TEST(Judging, TheRuleInReportsSaysHowAnEarlyLookWithTooFewPairsJudgesItsRuns) {
  const TimeRule paired;
  EXPECT_EQ(describe(paired),
            "looks at up to 8 pairs at 99%, later interim looks at 99.73%, the last (at max_runs) at 95.5% "
            "(Haybittle-Peto with early looks: about 95% overall); an early look with too few pairs for a "
            "signed-rank interval at its level judges the runs as two samples (rank-sum) at 99.73%");
  // Every look at the stated level: the fallback asks for that level too.
  TimeRule fixed;
  fixed.looks = LookRule(0.95, /*fixed=*/true);
  EXPECT_NE(describe(fixed).find("as two samples (rank-sum) at 95%"), std::string::npos) << describe(fixed);
  // Runs judged unpaired have nothing to fall back from.
  TimeRule unpaired;
  unpaired.pairing = Pairing::Unpaired;
  EXPECT_EQ(describe(unpaired), unpaired.looks.describe());
}

TEST(Judging, AnUndecidedRowSaysItsNoiseReachAndRunsToDecide) {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0, 0.02);
  std::vector<double> base, head;
  for (int i = 0; i < 10; ++i) {
    base.push_back(1000 * std::exp(noise(rng)));
    head.push_back(1040 * std::exp(noise(rng)));
  }
  const TimeRule rule;
  const auto judged = judge_samples(samples(base, head), 0.05, rule, Look::Interim);
  ASSERT_EQ(judged.verdict, Verdict::Inconclusive);
  EXPECT_GT(judged.noise, 0.01);
  EXPECT_LT(judged.noise, 0.06);
  EXPECT_GT(judged.detectable, 0.05);  // only slowdowns above the budget can be told from it
  EXPECT_GT(judged.runs_to_decide, 10);
}

/// A benchmark whose base runs take 100 and whose head runs take 100 × each run's ratio.
BenchmarkSamples ratio_samples(const std::vector<double>& ratios) {
  std::vector<double> head;
  for (double ratio : ratios) head.push_back(100 * ratio);
  return samples(std::vector<double>(ratios.size(), 100), head);
}

/// One layout control "ctl" with one benchmark "BM" reading `ratios`, run by run.
std::map<std::string, ControlTarget> layout_control(const std::vector<double>& ratios) {
  return {{"ctl", {"layout", {{"BM", ratio_samples(ratios)}}}}};
}

TEST(Judging, ARowIsHeldToTheControlsIntervalsAtItsOwnLook) {
  // A wide control around 1.01: at an early look (99%) it still allows a larger
  // shift than at the last (95.5%). A row judged early must clear the early
  // bound: the last look's narrower one, looked at after every block, would let
  // a control's chance low reading pass a row only its shift explains.
  TimeRule rule;
  const auto controls = judge_controls(layout_control({0.90, 0.95, 0.98, 1.01, 1.02, 1.04, 1.07, 1.12}), rule);
  const double early = controls.shift_at(Look::Early).slower_bound;
  const double last = controls.shift_at(Look::Final).slower_bound;
  ASSERT_GT(early, last);
  EXPECT_DOUBLE_EQ(controls.shift_at(Look::Final).slower_bound, last) << "reports show the last look's intervals";
  // A row whose whole interval lies above 1.05 × the last look's bound but not the early one's.
  const double row_low = 1.05 * (early + last) / 2;
  TimeJudgement row;
  row.compared = true;
  row.verdict = Verdict::Regression;
  row.estimate.ratio = row_low * 1.01;
  row.estimate.ci_low = row_low;
  row.estimate.ci_high = row_low * 1.02;
  EXPECT_FALSE(apply_control_rule(row, 0.05, controls, rule, Look::Early).regression_stands);
  EXPECT_TRUE(apply_control_rule(row, 0.05, controls, rule, Look::Final).regression_stands);

  // One tied pair leaves 7, too few for an interval at 99% paired, and the base runs tie one
  // another, so the rank-sum interval is not exact either: early, the control rules out no
  // shift at all, and the row waits for it.
  const auto tied = judge_controls(layout_control({0.90, 0.95, 0.98, 1.00, 1.02, 1.04, 1.07, 1.12}), rule);
  EXPECT_TRUE(tied.shift_at(Look::Early).unbounded);
  EXPECT_FALSE(tied.shift_at(Look::Final).unbounded);
  row.estimate.ci_low = 1.5;
  row.estimate.ci_high = 1.6;
  EXPECT_FALSE(apply_control_rule(row, 0.05, tied, rule, Look::Early).regression_stands);
}

TEST(Judging, TheNetOfAControlTakesItsShiftOutAndAddsTheTwoErrors) {
  stats::RatioEstimate row;
  row.ratio = 1.144;
  row.ci_low = 1.144 / std::exp(0.005);
  row.ci_high = 1.144 * std::exp(0.005);
  row.confidence = 0.9973;
  const ControlInterval control{"layout:ctl/BM", "layout", 1.04, 1.04 / std::exp(0.03), 1.04 * std::exp(0.012), 0.052};
  const auto net = net_of(row, control);
  ASSERT_TRUE(net);
  EXPECT_NEAR(net->ratio, 1.1, 1e-12);
  // Down: the row's 0.5% and the control's reach up (1.2%), which would explain more of the row.
  EXPECT_NEAR(std::log(net->ratio / net->ci_low), std::hypot(0.005, 0.012), 1e-12);
  // Up: the row's 0.5% and the control's reach down (3%).
  EXPECT_NEAR(std::log(net->ci_high / net->ratio), std::hypot(0.005, 0.03), 1e-12);
  EXPECT_EQ(net->confidence, 0.9973) << "the row's look";

  // A row with no interval yet has no net either.
  row.ci_reachable = false;
  EXPECT_FALSE(net_of(row, control));
}

TEST(Judging, ABiasedControlWithdrawsTheShareOfARegressionItExplainsAndNoMore) {
  // The control reads a +4% shift of the head side, ±1%. A row reading 1.08 is
  // that shift and +4% of its own: under the budget, not a regression. A row
  // reading 1.144 is +10% of its own: it stands though 1.05 x the control's
  // upper end (1.103) would not hold it back by itself.
  TimeRule rule;
  std::vector<double> shifted;
  for (int i = 0; i < 12; ++i) shifted.push_back(1.04 * (1 + 0.004 * ((i * 7) % 5 - 2)));
  const auto controls = judge_controls(layout_control(shifted), rule);
  ASSERT_GT(controls.shift_at(Look::Final).slower, 1.02);
  TimeJudgement row;
  row.compared = true;
  row.verdict = Verdict::Regression;
  for (const auto& [reads, stands] : {std::pair{1.08, false}, std::pair{1.144, true}}) {
    row.estimate.ratio = reads;
    row.estimate.ci_low = reads * 0.995;
    row.estimate.ci_high = reads * 1.005;
    const auto outcome = apply_control_rule(row, 0.05, controls, rule, Look::Final);
    EXPECT_EQ(outcome.regression_stands, stands) << reads;
    ASSERT_TRUE(outcome.net) << reads;
    EXPECT_NEAR(outcome.net->ratio, reads / controls.shift_at(Look::Final).controls.front().ratio, 1e-12);
  }
}

}  // namespace
}  // namespace cobench::verdict
