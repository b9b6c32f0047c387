// What the log tells about a benchmark's noise and metric: the
// within/between-process noise split behind --repetitions auto, and the
// metric --metric auto chooses from every run of both sides.
#include "results/noise_split.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "results/samples.h"

namespace cobench::results {
namespace {

/// Runs whose samples carry k repetitions with a within-process spread, one offset per process,
/// as sample_from_entry records them.
std::vector<RunRecord> records(double within, double between, int k, int pairs, double process_seconds,
                               double rep_seconds, unsigned seed = 11) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> offset(0, between), scatter(0, within);
  std::vector<RunRecord> out;
  for (int run = 0; run < pairs; ++run)
    for (Side side : {Side::Base, Side::Head}) {
      const double process = offset(rng);
      formats::Entry entry;
      entry.name = "BM";
      entry.threads = 1;
      for (int r = 0; r < k; ++r) {
        entry.cpu_ns.push_back(1000 * std::exp(process + scatter(rng)));
        entry.real_ns.push_back(entry.cpu_ns.back());
        entry.iterations.push_back(rep_seconds * 1e9 / entry.cpu_ns.back());
      }
      RunRecord record;
      record.target = "t";
      record.side = side;
      record.run = run;
      record.wall_seconds = process_seconds + k * rep_seconds;
      record.samples["BM"] = sample_from_entry(entry);
      out.push_back(record);
    }
  return out;
}

TEST(NoiseSplit, TheNoiseSplitTellsWithinFromBetweenProcesses) {
  const auto compute = variance_split(records(0.02, 0.002, 9, 40, 0.5, 0.05), "t", "BM", "cpu_ns");
  ASSERT_TRUE(compute.known);
  EXPECT_NEAR(compute.within, 0.02, 0.003);  // pooled over 80 runs of 9: tight
  EXPECT_LT(compute.between, 0.008);
  EXPECT_DOUBLE_EQ(compute.repetitions, 9);
  EXPECT_NEAR(compute.process_seconds, 0.5, 1e-6);
  const auto memory = variance_split(records(0.005, 0.05, 5, 40, 0.5, 0.5), "t", "BM", "cpu_ns");
  ASSERT_TRUE(memory.known);
  EXPECT_NEAR(memory.between, 0.05, 0.02);
  EXPECT_NEAR(memory.within, 0.005, 0.001);
}

// The issue this answers: with k = 3 the median of 1.4826·MAD estimated
// 0.54σ, so "within" came out about half its size and a job whose noise is
// all within the process was told to run one repetition. Over many
// simulated jobs the pooled estimate is unbiased to a few percent, and the
// choice is not one repetition.
TEST(NoiseSplit, TheSplitIsUnbiasedWhereAllNoiseIsWithinTheProcess) {
  double within = 0, between = 0;
  int ones = 0;
  constexpr int kJobs = 200;
  for (unsigned job = 0; job < kJobs; ++job) {
    const auto split = variance_split(records(0.04, 0.0, 3, 6, 0.5, 0.5, 100 + job), "t", "BM", "cpu_ns");
    ASSERT_TRUE(split.known);
    within += split.within / kJobs;
    between += split.between / kJobs;
    ones += best_repetitions(split, 10) == 1;
  }
  EXPECT_NEAR(within, 0.04, 0.004) << "unbiased within (stated margin ±10%)";
  EXPECT_LT(between, 0.02);
  EXPECT_LT(ones, kJobs / 10) << "one repetition chosen in " << ones << " of " << kJobs << " jobs";
}

/// A known split of `repetitions` repetitions of `rep_seconds` per process.
VarianceSplit known_split(double within, double between, double repetitions, double rep_seconds,
                          double process_seconds) {
  return {.within = within, .between = between, .repetitions = repetitions, .rep_seconds = rep_seconds,
          .process_seconds = process_seconds, .known = true};
}

TEST(NoiseSplit, RepetitionsBalanceTheCostsAgainstTheSplitWithoutJumpingToTheCap) {
  VarianceSplit split = known_split(0.02, 0.002, 1, 0.05, 0.5);
  EXPECT_EQ(best_repetitions(split, 10), 10);  // √(10 · π/2 · 16) = 15.9, at most 10
  split.between = 0.08;
  EXPECT_EQ(best_repetitions(split, 10), 1);   // √(10 · π/2 · 1/16) = 0.99: a process's own offset, only more processes help
  split.rep_seconds = split.process_seconds = 0.5;
  split.between = 0;                           // too small to measure: taken as within / 4
  EXPECT_EQ(best_repetitions(split, 10), 5);   // √(1 · π/2 · 16) = 5.0, not the cap
  split.within = 0;
  EXPECT_EQ(best_repetitions(split, 6), 1);
  EXPECT_FALSE(best_repetitions(VarianceSplit{}, 10));
}

TEST(NoiseSplit, TheRunLengthShrinksOnlyWhereTheNoiseIsBetweenProcesses) {
  // Two half-length repetitions per process, as --run-length auto's first pairs measure; the noise of
  // the demo's string joins on the development VM.
  VarianceSplit split = known_split(0.04, 0.10, 2, 0.025, 0.03);
  // √(0.03 · 0.0016 / (0.01 · 4 · 0.025)) = 0.22
  EXPECT_NEAR(best_length_fraction(split, 0.125, 1.0), 0.219, 0.001);
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.5, 1.0), 0.5);  // never below the shortest
  split.between = 0.005;  // within-dominated: the whole length (√(0.03·16/0.1) = 2.2, at most 1)
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.125, 1.0), 1.0);
  split.between = 0;      // an offset too small to measure is taken as within / 4, as for repetitions
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.125, 1.0), 1.0);
  split.process_seconds = 0.3;  // a costly process start (a benchmark's setup) makes long runs cheaper
  split.between = 0.10;
  EXPECT_NEAR(best_length_fraction(split, 0.125, 1.0), 0.693, 0.001);
  split.within = 0;       // no within noise measured: nothing tells that a shorter run is as good
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.125, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(best_length_fraction(VarianceSplit{}, 0.125, 1.0), 1.0);
}

TEST(NoiseSplit, FirstPairsMeasuringPartOfTheLengthCanBeLengthenedUpToTheWhole) {
  // First pairs measuring half of the whole length: fractions of what they measured, up to 2.
  VarianceSplit split = known_split(0.04, 0.10, 2, 0.0125, 0.03);
  split.between = 0.005;  // within-dominated: √(0.03·16/0.05) = 3.1, at most 2 (the whole)
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.25, 2.0), 2.0);
  split.between = 0.02;   // √(0.03·0.0016/(0.0004·4·0.0125)) = 1.55: longer than measured, short of the whole
  EXPECT_NEAR(best_length_fraction(split, 0.25, 2.0), 1.549, 0.001);
  split.between = 0.10;   // between-dominated: √(0.03·0.0016/(0.01·4·0.0125)) = 0.31, shortened as before
  EXPECT_NEAR(best_length_fraction(split, 0.25, 2.0), 0.310, 0.001);
  EXPECT_DOUBLE_EQ(best_length_fraction(split, 0.9, 2.0), 0.9);
  EXPECT_DOUBLE_EQ(best_length_fraction(VarianceSplit{}, 0.25, 2.0), 2.0);  // not known: the whole length
}

TEST(NoiseSplit, ALengthCostsItsMeasuringScaledAndTheProcessStartAsBefore) {
  // Two repetitions of 0.0125 s measured, 0.075 s of start and search per benchmark besides.
  const VarianceSplit split = known_split(0.04, 0.01, 2, 0.0125, 0.075);
  EXPECT_DOUBLE_EQ(length_cost_ratio(split, 1.0), 1.0);
  EXPECT_NEAR(length_cost_ratio(split, 2.0), 1.25, 1e-12);  // (0.075 + 0.05) / (0.075 + 0.025)
  EXPECT_NEAR(length_cost_ratio(split, 0.4), 0.85, 1e-12);  // (0.075 + 0.01) / 0.1
  EXPECT_DOUBLE_EQ(length_cost_ratio(VarianceSplit{}, 2.0), 2.0);  // not known: the measuring alone
}

// Over simulated jobs of 6 pairs with two repetitions each, the fraction
// follows the split: runs are shortened where the noise is between processes
// and mostly kept whole where it is within. Six pairs tell the between part
// roughly (a robust σ of six differences), so some jobs of the second kind
// are shortened too: that costs them runs, never a wrong verdict (margins
// stated below; 89 and 10 of 100 with these seeds).
TEST(NoiseSplit, TheRunLengthFromSixPairsFollowsTheSplit) {
  int shortened_between = 0, shortened_within = 0;
  constexpr int kJobs = 100;
  for (unsigned job = 0; job < kJobs; ++job) {
    const auto between = variance_split(records(0.03, 0.10, 2, 6, 0.02, 0.025, 300 + job), "t", "BM", "cpu_ns");
    const auto within = variance_split(records(0.06, 0.0, 2, 6, 0.02, 0.025, 500 + job), "t", "BM", "cpu_ns");
    shortened_between += best_length_fraction(between, 0.125, 1.0) < 0.5;
    shortened_within += best_length_fraction(within, 0.125, 1.0) < 0.5;
  }
  EXPECT_GE(shortened_between, 80) << "between-process noise: shortened in " << shortened_between << " of 100";
  EXPECT_LE(shortened_within, 20) << "within-process noise: shortened in " << shortened_within << " of 100";
}

TEST(NoiseSplit, PooledSplitAveragesTheVariancesOfTheKnownOnes) {
  VarianceSplit a, b;
  a.known = b.known = true;
  a.within = 0.03, b.within = 0.04;
  a.between = 0.0, b.between = 0.02;
  a.rep_seconds = b.rep_seconds = 0.5;
  const auto pooled = pooled_split({a, b, VarianceSplit{}});
  ASSERT_TRUE(pooled.known);
  EXPECT_NEAR(pooled.within, std::sqrt((0.0009 + 0.0016) / 2), 1e-12);
  EXPECT_NEAR(pooled.between, std::sqrt(0.0004 / 2), 1e-12);
  EXPECT_FALSE(pooled_split({VarianceSplit{}}).known);
  EXPECT_NEAR(median_variance_factor(3), 0.4487, 1e-9);
  EXPECT_NEAR(median_variance_factor(40), std::numbers::pi / 80, 1e-12);
}

CpuShare share(double base, double head, double threads = 1) {
  CpuShare out;
  for (int run = 0; run < 8; ++run) {
    const double jitter = 1 + 0.005 * ((run * 3) % 5 - 2) / 2;
    out.add(Side::Base, run, {{"real_ns", 100}, {"cpu_ns", 100 * base * jitter}, {"threads", threads}});
    out.add(Side::Head, run, {{"real_ns", 100}, {"cpu_ns", 100 * head / jitter}, {"threads", threads}});
  }
  return out;
}

TEST(AutoMetric, IsCpuTimeOnlyForSingleThreadedCodeOnItsOwnClockThatKeepsTheCpuBusy) {
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

TEST(AutoMetric, IsRealTimeWhereTheCodeWaitsOrTheChangeMovedTimeOffTheCpu) {
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

TEST(AutoMetric, OneBinaryAsBothSidesKeepsCpuTimeWhenTheSidesSharesDiffer) {
  // The machine control: no change exists between its sides, so a difference of share is a neighbour's.
  EXPECT_EQ(metric_for("auto", "BM_MachineCompute", share(1.0, 1 / 1.1), /*one_binary=*/true).metric, "cpu_time");
  EXPECT_TRUE(metric_for("auto", "BM_MachineCompute", share(1.0, 1 / 1.1), true).note.empty());
  // It still waits when it waits, and threads are still threads.
  EXPECT_EQ(metric_for("auto", "BM_MachineCompute", share(0.4, 0.4), true).metric, "real_time");
  EXPECT_EQ(metric_for("auto", "BM_MachineCompute/threads:2", share(1, 1, 2), true).metric, "real_time");
}

TEST(AutoMetric, LooksAtEveryRunOfBothSidesBeforeItChooses) {
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
