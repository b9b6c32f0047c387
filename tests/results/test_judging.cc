// One judging function for the schedule and the reports: pairing, looks, and
// the within/between-process noise split behind --repetitions auto.
#include "results/judging.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace cobench::results {
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
  const auto judged = judge_samples(s, 0.05, paired, verdict::Look::Final);
  EXPECT_EQ(stats::to_string(judged.estimate.method).rfind("signed-rank", 0), 0u);
  EXPECT_NEAR(judged.estimate.ratio, 1.03, 0.005);
  EXPECT_EQ(judged.verdict, stats::Verdict::Pass);
  EXPECT_NE(judged.note.find("2 runs without a partner dropped"), std::string::npos) << judged.note;
  TimeRule unpaired;
  unpaired.pairing = verdict::Pairing::Unpaired;
  EXPECT_EQ(judge_samples(s, 0.05, unpaired, verdict::Look::Final).verdict, stats::Verdict::Inconclusive);
}

TEST(Judging, AnInterimLookAsksForTheStricterInterval) {
  std::vector<double> base, head;
  for (int i = 0; i < 12; ++i) {
    base.push_back(1000 + i);
    head.push_back(1080 + i * 1.5);
  }
  TimeRule rule;
  const auto interim = judge_samples(samples(base, head), 0.05, rule, verdict::Look::Interim);
  const auto last = judge_samples(samples(base, head), 0.05, rule, verdict::Look::Final);
  EXPECT_DOUBLE_EQ(interim.estimate.confidence, 0.9973);
  EXPECT_DOUBLE_EQ(last.estimate.confidence, 0.955);
  EXPECT_LE(interim.estimate.ci_low, last.estimate.ci_low);
  EXPECT_GE(interim.estimate.ci_high, last.estimate.ci_high);
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
  const auto judged = judge_samples(samples(base, head), 0.05, rule, verdict::Look::Interim);
  ASSERT_EQ(judged.verdict, stats::Verdict::Inconclusive);
  EXPECT_GT(judged.noise, 0.01);
  EXPECT_LT(judged.noise, 0.06);
  EXPECT_GT(judged.detectable, 0.05);  // only slowdowns above the budget can be told from it
  EXPECT_GT(judged.runs_to_decide, 10);
}

/// Runs whose samples carry k repetitions with a within-process spread, one offset per process.
std::vector<RunRecord> records(double within, double between, int k, int pairs, double process_seconds,
                               double rep_seconds) {
  std::mt19937 rng(11);
  std::normal_distribution<double> offset(0, between), scatter(0, within);
  std::vector<RunRecord> out;
  for (int run = 0; run < pairs; ++run)
    for (Side side : {Side::Base, Side::Head}) {
      const double process = offset(rng);
      std::vector<double> logs;
      for (int r = 0; r < k; ++r) logs.push_back(process + scatter(rng));
      std::sort(logs.begin(), logs.end());
      RunRecord record;
      record.target = "t";
      record.side = side;
      record.run = run;
      record.wall_seconds = process_seconds + k * rep_seconds;
      std::vector<double> deviations;
      const double mid = logs[k / 2];
      for (double l : logs) deviations.push_back(std::abs(l - mid));
      std::sort(deviations.begin(), deviations.end());
      record.samples["BM"] = {{"cpu_ns", 1000 * std::exp(mid)}, {"reps", k}, {"cpu_log_sd", 1.4826 * deviations[k / 2]},
                              {"rep_seconds", rep_seconds}};
      out.push_back(record);
    }
  return out;
}

TEST(Judging, TheNoiseSplitTellsWithinFromBetweenProcesses) {
  const auto compute = variance_split(records(0.02, 0.002, 9, 40, 0.5, 0.05), "t", "BM", "cpu_ns");
  ASSERT_TRUE(compute.known);
  EXPECT_NEAR(compute.within, 0.02, 0.008);  // wide margins: 40 pairs of robust estimates
  EXPECT_LT(compute.between, 0.012);
  EXPECT_DOUBLE_EQ(compute.repetitions, 9);
  EXPECT_NEAR(compute.process_seconds, 0.5, 1e-9);
  const auto memory = variance_split(records(0.005, 0.05, 5, 40, 0.5, 0.5), "t", "BM", "cpu_ns");
  ASSERT_TRUE(memory.known);
  EXPECT_NEAR(memory.between, 0.05, 0.02);
  EXPECT_LT(memory.within, 0.01);
}

TEST(Judging, RepetitionsPayWhereNoiseIsInsideTheProcessAndProcessesAreDear) {
  VarianceSplit split;
  split.known = true;
  split.rep_seconds = 0.05;
  split.process_seconds = 0.5;
  split.within = 0.02;
  split.between = 0.002;
  EXPECT_EQ(best_repetitions(split, 10), 10);  // √(10 · 100) = 31.6, at most 10
  split.between = 0.05;
  EXPECT_EQ(best_repetitions(split, 10), 1);   // a process's own offset: only more processes help
  split.between = 0;
  EXPECT_EQ(best_repetitions(split, 6), 6);
  split.within = 0;
  EXPECT_EQ(best_repetitions(split, 6), 1);
  EXPECT_FALSE(best_repetitions(VarianceSplit{}, 10));
}

TEST(Judging, AutoMetricIsCpuTimeOnlyForSingleThreadedCodeOnItsOwnClock) {
  const Sample single = {{"real_ns", 10}, {"cpu_ns", 9}, {"threads", 1}};
  EXPECT_EQ(metric_for("auto", "BM_a/64", single), "cpu_time");
  EXPECT_EQ(metric_for("auto", "BM_a/64/real_time", single), "real_time");
  EXPECT_EQ(metric_for("auto", "BM_a/64/manual_time", single), "real_time");
  EXPECT_EQ(metric_for("auto", "BM_a/threads:4", {{"real_ns", 10}, {"cpu_ns", 9}, {"threads", 4}}), "real_time");
  EXPECT_EQ(metric_for("auto", "BenchmarkGo-8", {{"real_ns", 10}}), "real_time");  // no threads reported
  EXPECT_EQ(metric_for("real_time", "BM_a", single), "real_time");
}

}  // namespace
}  // namespace cobench::results
