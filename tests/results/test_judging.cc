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

/// Eight pairs of runs whose shares scatter by ±0.5% around `base` and `head`.
CpuShare share(double base, double head, double threads = 1) {
  CpuShare out;
  for (int run = 0; run < 8; ++run) {
    const double jitter = 1 + 0.005 * ((run * 3) % 5 - 2) / 2;
    out.add(Side::Base, run, {{"real_ns", 100}, {"cpu_ns", 100 * base * jitter}, {"threads", threads}});
    out.add(Side::Head, run, {{"real_ns", 100}, {"cpu_ns", 100 * head / jitter}, {"threads", threads}});
  }
  return out;
}

TEST(Judging, AutoMetricIsCpuTimeOnlyForSingleThreadedCodeOnItsOwnClockThatKeepsTheCpuBusy) {
  EXPECT_EQ(metric_for("auto", "BM_a/64", share(0.99, 1.0)).metric, "cpu_time");
  EXPECT_TRUE(metric_for("auto", "BM_a/64", share(0.99, 1.0)).note.empty());
  EXPECT_EQ(metric_for("auto", "BM_a/64/real_time", share(1, 1)).metric, "real_time");
  EXPECT_EQ(metric_for("auto", "BM_a/64/manual_time", share(1, 1)).metric, "real_time");
  EXPECT_EQ(metric_for("auto", "BM_a/threads:4", share(1, 1, 4)).metric, "real_time");
  CpuShare go;  // no threads reported
  go.add(Side::Base, 0, {{"real_ns", 10}});
  go.add(Side::Head, 0, {{"real_ns", 10}});
  EXPECT_EQ(metric_for("auto", "BenchmarkGo-8", go).metric, "real_time");
  EXPECT_EQ(metric_for("real_time", "BM_a", share(1, 1)).metric, "real_time");
  EXPECT_EQ(metric_for("cpu_time", "BM_a", share(0.4, 0.4)).metric, "cpu_time") << "asked for, not chosen";
}

TEST(Judging, AutoMetricIsRealTimeWhereTheCodeWaitsOrTheChangeMovedTimeOffTheCpu) {
  // A helper thread or a sleep: the main thread is on the CPU 40% of the time.
  const auto waits = metric_for("auto", "BM_a", share(0.4, 0.4));
  EXPECT_EQ(waits.metric, "real_time");
  EXPECT_NE(waits.note.find("at most 40%"), std::string::npos) << waits.note;
  // The head sleeps 10% more: cpu_time is unchanged and would pass it.
  const auto moved = metric_for("auto", "BM_a", share(1.0, 1 / 1.1));
  EXPECT_EQ(moved.metric, "real_time");
  EXPECT_NE(moved.note.find("the change moved time off"), std::string::npos) << moved.note;
  // A neighbour's load lowers the share of runs on either side, at random: no evidence of a change.
  CpuShare loaded;
  for (int run = 0; run < 10; ++run) {
    const double base = run % 3 == 0 ? 0.55 : 0.85, head = run % 3 == 1 ? 0.6 : 0.95;
    loaded.add(Side::Base, run, {{"real_ns", 100}, {"cpu_ns", 100 * base}, {"threads", 1}});
    loaded.add(Side::Head, run, {{"real_ns", 100}, {"cpu_ns", 100 * head}, {"threads", 1}});
  }
  EXPECT_EQ(metric_for("auto", "BM_a", loaded).metric, "cpu_time") << metric_for("auto", "BM_a", loaded).note;
  // cpu_time a little above real_time (clock granularity) is a share of 1.
  EXPECT_EQ(metric_for("auto", "BM_a", share(1.02, 1.0)).metric, "cpu_time");
}

TEST(Judging, AutoMetricLooksAtEveryRunOfBothSidesBeforeItChooses) {
  std::vector<RunRecord> records;
  for (int run = 0; run < 8; ++run)
    for (Side side : {Side::Base, Side::Head}) {
      RunRecord r;
      r.target = "t";
      r.kind = "time";
      r.side = side;
      r.run = run;
      const double real = (side == Side::Head ? 110 : 100) + run % 3;  // the head waits 10 more, same CPU time
      r.samples["BM_wait"] = {{"real_ns", real}, {"cpu_ns", 99}, {"threads", 1}};
      records.push_back(r);
    }
  const auto samples = collect_samples(records, "t", "auto");
  EXPECT_EQ(samples.at("BM_wait").metric, "real_time");
  EXPECT_FALSE(samples.at("BM_wait").metric_note.empty());
  EXPECT_DOUBLE_EQ(samples.at("BM_wait").head.front(), 110) << "its real times";
}

}  // namespace
}  // namespace cobench::results
