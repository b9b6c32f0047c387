#include "aggregate/aggregate.h"

#include <unistd.h>

#include <cmath>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "results/log.h"
#include "results/samples.h"
#include "verdict/budget.h"
#include "run/fake_runner.h"
#include "run/schedule.h"
#include "stats/stats.h"

namespace cobench::aggregate {
namespace {

using run::testing::FakeRunner;

/// Results as a run would log them: fake runs of `runner`'s targets.
results::ResultsFile results_of(FakeRunner& runner, int runs, verdict::Budgets budgets = {}) {
  results::ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.budgets = std::move(budgets);
  for (const auto& pair : run::testing::fake_pairs(runner))
    for (int run = 0; run < runs; ++run)
      for (results::Side side : {results::Side::Base, results::Side::Head}) file.runs.push_back(runner.run_once(pair.base, side, "x", run, {}));
  return file;
}

const report::BenchmarkRow& row(const report::Report& report, const std::string& name) {
  for (const auto& r : report.benchmarks)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

/// A timing run of `target` that gave `samples`.
results::RunRecord timing_run(const std::string& target, results::Side side, int run, std::map<std::string, results::Sample> samples) {
  results::RunRecord r;
  r.target = target;
  r.side = side;
  r.run = run;
  r.samples = std::move(samples);
  return r;
}

TEST(Aggregate, RowsCarryVerdictsRunsAndRegressionsFirst) {
  FakeRunner runner;
  runner.targets["fast"] = {1.0, 0.01, {"BM_same"}};
  runner.targets["slow"] = {2.0, 0.01, {"BM_slow"}};
  auto report = report_of(results_of(runner, 6), "results.jsonl");
  EXPECT_EQ(report.tool, "run");
  EXPECT_EQ(report.base, "b");
  EXPECT_EQ(report.head, "h");
  ASSERT_EQ(report.benchmarks.size(), 2u);
  EXPECT_EQ(report.benchmarks[0].name, "BM_slow");
  EXPECT_EQ(report.benchmarks[0].verdict, verdict::Verdict::Regression);
  EXPECT_EQ(report.benchmarks[0].target, "slow");
  EXPECT_EQ(report.benchmarks[0].runs_base, 6);
  EXPECT_EQ(report.benchmarks[0].runs_head, 6);
  EXPECT_NEAR(report.benchmarks[0].time.estimate.ratio, 2.0, 0.05);
  EXPECT_EQ(row(report, "BM_same").verdict, verdict::Verdict::Pass);
}

TEST(Aggregate, TheJobsTimeIsSplitIntoItsPhasesWithTheMachineControlApart) {
  results::ResultsFile file;
  file.settings.machine_control = "machine:ctl";
  for (int run = 1; run <= 2; ++run) {
    results::RunRecord control = timing_run("machine:ctl", results::Side::Base, run, {});
    control.wall_seconds = 0.5;
    file.runs.push_back(control);
    results::RunRecord measured = timing_run("bench", results::Side::Head, run, {});
    measured.wall_seconds = 3;
    file.runs.push_back(measured);
  }
  file.phases = {{"configure", 2}, {"build", 5}, {"measuring", 8}, {"job", 16}};
  const auto phases = phases_of(file);
  ASSERT_EQ(phases.size(), 5u);
  const std::vector<std::pair<std::string, double>> expected = {
      {"configure", 2}, {"build", 5}, {"runs", 7}, {"machine control", 1}, {"other", 1}};
  for (size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(phases[i].name, expected[i].first);
    EXPECT_DOUBLE_EQ(phases[i].seconds, expected[i].second) << phases[i].name;
  }
  EXPECT_TRUE(phases_of(results::ResultsFile{}).empty()) << "a log without phases (an older cobench) has none";
}

TEST(Aggregate, TheRunLengthEachTargetGotIsSaidWithTheRuleThatChoseIt) {
  FakeRunner runner;
  runner.targets["bench_join"] = {1.0, 0.01, {"BM_join"}};
  runner.targets["bench_sum"] = {1.0, 0.01, {"BM_sum"}};
  auto file = results_of(runner, 6);
  auto fixed = report_of(file, "results.jsonl");
  EXPECT_EQ(fixed.run_length_rule, "");  // a fixed length (and every file before run length auto) says nothing
  file.settings.run_length = "auto";
  file.settings.min_time = 0.05;
  file.run_lengths["bench_join"] = {"bench_join", 0.01, 0.04, 0.12, 0.02};
  const auto report = report_of(file, "results.jsonl");
  EXPECT_EQ(report.run_length_rule,
            "auto from --min-time 0.05 s: each target's first 6 pairs ran two repetitions of half of it (the same "
            "measuring as one whole run, and a noise split), then one repetition, shortened where the split said its "
            "noise was between processes, to no less than 0.01 s (a target whose every benchmark sets its own "
            "iterations or min time kept the whole length, one repetition, from its second pair on)");
  file.settings.first_pairs_share = 0.5;  // jobs since kFirstPairsShare: the first pairs measured half
  EXPECT_EQ(report_of(file, "results.jsonl").run_length_rule,
            "auto from --min-time 0.05 s: each target's first 6 pairs ran two repetitions of 0.0125 s (0.5 of one "
            "whole run's measuring, and a noise split), then one repetition, up to the whole length where the split "
            "said its noise was inside the process, shorter where it was between processes, to no less than 0.01 s "
            "(a target whose every benchmark sets its own iterations or min time kept the whole length, one "
            "repetition, from its second pair on)");
  std::map<std::string, std::string> lengths;
  for (const auto& target : report.targets) lengths[target.name] = target.run_length;
  EXPECT_EQ(lengths["bench_join"], "--benchmark_min_time=0.01: noise 4.0% within a process, 12.0% between processes, "
                                   "0.020 s per process besides measuring");
  EXPECT_EQ(lengths["bench_sum"], "");  // decided before its first look: no length was chosen
  const auto again = report::from_json(report::to_json(report));
  EXPECT_EQ(again.run_length_rule, report.run_length_rule);
  ASSERT_EQ(again.targets.size(), report.targets.size());
  for (size_t i = 0; i < again.targets.size(); ++i) EXPECT_EQ(again.targets[i].run_length, report.targets[i].run_length);
}

TEST(Aggregate, HostFactsOfAnotherTypeAreNoFacts) {
  // fuzz_merge_reports: a host line whose cpu_count was a string threw nlohmann's type_error out of aggregate.
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x"}};
  results::ResultsFile file = results_of(runner, 6);
  for (const nlohmann::json& host : {nlohmann::json{{"cpu_count", "2"}, {"load_average", "high"}},
                                     nlohmann::json{{"cpu_count", 1e300}, {"load_average", {"x"}}},
                                     nlohmann::json{{"cpu_count", -4}, {"load_average", nlohmann::json::object()}}}) {
    file.host = host;
    EXPECT_NO_THROW(report_of(file, "r")) << host.dump();
  }
}

TEST(Aggregate, ABaseThatAlwaysFailedIsNoRegressionOfTheChange) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x"}};
  runner.targets["t"].failure = [](results::Side side, int) { return side == results::Side::Base ? "SIGSEGV" : ""; };
  const auto& r = row(report_of(results_of(runner, 6), "r"), "BM_x");
  EXPECT_EQ(r.verdict, verdict::Verdict::Inconclusive);  // the change fixed a crash, or both sides are in doubt
  EXPECT_EQ(r.note.find("broken by the change"), std::string::npos) << r.note;
}

/// `file` with `name`'s samples taken out of every head run (or every run) and an error in their place,
/// as Google Benchmark reports a benchmark that called SkipWithError.
void error_instead_of_samples(results::ResultsFile& file, const std::string& name, bool head_only) {
  for (auto& record : file.runs) {
    if (head_only && record.side != results::Side::Head) continue;
    record.samples.erase(name);
    record.errors[name] = "the input file is missing";
  }
}

TEST(Aggregate, AHeadThatReportsAnErrorInEveryRunIsBrokenByTheChange) {
  // As a head that crashes in every run: a regression naming the error, not an inconclusive row that passes --gate.
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x", "BM_y"}};
  results::ResultsFile file = results_of(runner, 6);
  error_instead_of_samples(file, "BM_x", true);
  const auto report = report_of(file, "r");
  const auto& r = row(report, "BM_x");
  EXPECT_EQ(r.verdict, verdict::Verdict::Regression);
  EXPECT_EQ(r.note.rfind("broken by the change: the head reported an error in every run, the base did not", 0), 0u)
      << r.note;
  EXPECT_NE(r.note.find("the input file is missing"), std::string::npos) << r.note;
  EXPECT_NE(row(report, "BM_y").verdict, verdict::Verdict::Regression);
}

TEST(Aggregate, ABenchmarkThatReportsAnErrorInEveryRunOnBothSidesIsARowWithoutSamples) {
  // It threw "unknown metric ''": a row without samples has no metric to split the variance of.
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x", "BM_y"}};
  results::ResultsFile file = results_of(runner, 6);
  error_instead_of_samples(file, "BM_x", false);
  const auto report = report_of(file, "r");
  const auto& r = row(report, "BM_x");
  EXPECT_TRUE(r.base_samples.empty() && r.head_samples.empty());
  EXPECT_NE(r.verdict, verdict::Verdict::Regression);  // nothing of the change's doing: both sides report it
  EXPECT_NE(r.note.find("the input file is missing"), std::string::npos) << r.note;
}

TEST(Aggregate, FailedRunsAreCountedAndNamedInTheNote) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x"}};
  runner.targets["t"].failure = [](results::Side side, int run) { return side == results::Side::Head && run < 2 ? "SIGSEGV" : ""; };
  auto report = report_of(results_of(runner, 6), "r");
  const auto& r = row(report, "BM_x");
  EXPECT_EQ(r.failed_runs.size(), 2u);
  EXPECT_EQ(r.failed_runs[0].side, "head");
  EXPECT_EQ(r.failed_runs[0].cause, "SIGSEGV");
  EXPECT_NE(r.note.find("head crashed (SIGSEGV) in 2/6 runs"), std::string::npos) << r.note;
  EXPECT_EQ(r.head_samples.size(), 4u);
}

TEST(Aggregate, ASideThatAlwaysFailedGivesAnUncomparedRow) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x"}};
  runner.targets["t"].failure = [](results::Side side, int) { return side == results::Side::Head ? "timeout" : ""; };
  auto report = report_of(results_of(runner, 6), "r");
  const auto& r = row(report, "BM_x");
  EXPECT_FALSE(r.time.compared);
  // The head failing every run where its base ran: the change broke it, a regression naming the failure.
  EXPECT_EQ(r.verdict, verdict::Verdict::Regression);
  EXPECT_EQ(r.note.rfind("broken by the change: the head failed in every run, the base did not", 0), 0u) << r.note;
  EXPECT_NE(r.note.find("head timed out in 6/6 runs"), std::string::npos) << r.note;
  EXPECT_TRUE(report.removed.empty());
  // Undefined numbers are null and "-", never 0.
  EXPECT_TRUE(std::isnan(r.head_median));
  EXPECT_FALSE(std::isnan(r.base_median));
  const auto json = report::to_json(report)["benchmarks"][0];
  EXPECT_TRUE(json["head_median"].is_null()) << json.dump();
  EXPECT_TRUE(json["ratio"].is_null()) << json.dump();
  const std::string table = report::render_table(report, false);
  EXPECT_EQ(table.find("0.00 ns"), std::string::npos) << table;
  EXPECT_NE(table.find(" - "), std::string::npos) << table;
}

TEST(Aggregate, ATargetWhoseEveryRunFailedIsAnInfrastructureFailureExplainedFirst) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_x"}};
  runner.targets["ok"] = {1.0, 0.01, {"BM_y"}};
  runner.targets["t"].failure = [](results::Side, int) { return "exit 1"; };
  results::ResultsFile file = results_of(runner, 1);
  for (auto& r : file.runs) {
    if (r.target != "t") continue;
    r.detail = "exit status 1";
    r.command = "bench_t --benchmark_min_tim=0.01";
    r.output_tail = "error: unrecognized command-line flag: --benchmark_min_tim=0.01\n";
  }
  auto report = report_of(file, "r");
  ASSERT_EQ(report.targets.size(), 2u);
  const auto& failed = report.targets[0].name == "t" ? report.targets[0] : report.targets[1];
  EXPECT_EQ(failed.failure,
            "every run failed (base 1/1, head 1/1); first: base run 0: exit status 1; command: bench_t "
            "--benchmark_min_tim=0.01; output: error: unrecognized command-line flag: --benchmark_min_tim=0.01");
  EXPECT_EQ(report::infrastructure_failures(report), std::vector<std::string>{"t: " + failed.failure});
  ASSERT_FALSE(report.notes.empty());
  EXPECT_EQ(report.notes[0], "t: " + failed.failure);
  // A target that measured on one side is not one: its rows say what failed.
  runner.targets["t"].failure = [](results::Side side, int) { return side == results::Side::Head ? "exit 1" : ""; };
  EXPECT_TRUE(report::infrastructure_failures(report_of(results_of(runner, 2), "r")).empty());
}

TEST(Aggregate, OneSidedBenchmarksAreAddedOrRemoved) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_both"}};
  auto file = results_of(runner, 6);
  for (auto& run : file.runs) {
    if (run.side == results::Side::Head) run.samples["BM_new"] = {{"real_ns", 5.0}};
    else run.samples["BM_gone"] = {{"real_ns", 5.0}};
  }
  file.one_sided.push_back({"bench_new", results::Side::Head, {"BM_n1"}});
  auto report = report_of(file, "r");
  ASSERT_EQ(report.benchmarks.size(), 1u);
  ASSERT_EQ(report.added.size(), 2u);
  EXPECT_EQ(report.added[0].name, "BM_new");
  EXPECT_EQ(report.added[1].target, "bench_new");
  ASSERT_EQ(report.removed.size(), 1u);
  EXPECT_EQ(report.removed[0].name, "BM_gone");
}

TEST(Aggregate, OverridesSetPerBenchmarkBudgets) {
  FakeRunner runner;
  runner.targets["t"] = {1.3, 0.01, {"BM_loose", "BM_strict"}};
  const verdict::Budgets budgets({}, {{"t/BM_loose", 0.5, {}, {}}});
  auto report = report_of(results_of(runner, 6, budgets), "r");
  EXPECT_EQ(row(report, "BM_loose").verdict, verdict::Verdict::Pass);
  EXPECT_DOUBLE_EQ(row(report, "BM_loose").budget, 0.5);
  EXPECT_EQ(row(report, "BM_strict").verdict, verdict::Verdict::Regression);
}

TEST(Aggregate, AllocationStatusAndUncountedBudgetsFollowTheSettingsNotTheRunnersName) {
  // Allocation budgets, and no counts: a job whose settings can give counts is
  // missing them (the row cannot pass on its budget); one whose settings give
  // none says why and judges time alone, whatever its runner is called.
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_a"}};
  const verdict::Budgets budgets({0.05, config::parse_threshold("0"), std::nullopt}, {});
  auto countable = results_of(runner, 6, budgets);
  countable.settings.runner = "a-new-framework";
  const auto missing = report_of(countable, "r");
  EXPECT_EQ(missing.targets[0].alloc_status, "not collected: no allocation counts reported");
  EXPECT_EQ(row(missing, "BM_a").verdict, verdict::Verdict::Inconclusive);

  auto none = countable;
  none.settings.no_allocation_counts = "not applicable: this framework reports no allocation counts";
  const auto said = report_of(none, "r");
  EXPECT_EQ(said.targets[0].alloc_status, "not applicable: this framework reports no allocation counts");
  EXPECT_EQ(row(said, "BM_a").verdict, verdict::Verdict::Pass);
}

TEST(Aggregate, AllocationStatusSaysWhenFewerRunsThanAskedEndedBecauseBothSidesCountedAlike) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_a"}};
  auto file = results_of(runner, 6);
  file.settings.alloc_runs = 3;
  auto counted = [&](results::Side side, int run, const std::string& status = "ok") {
    results::RunRecord r = timing_run("t", side, run, {{"BM_a", {{"allocs_per_iter", 2}, {"bytes_per_iter", 64}}}});
    r.kind = "alloc";
    r.status = status;
    if (status != "ok") r.detail = "time budget 1.0 min exhausted after 1 allocation runs per side";
    return r;
  };
  auto one_pair = file;
  one_pair.runs.push_back(counted(results::Side::Base, 0));
  one_pair.runs.push_back(counted(results::Side::Head, 0));
  auto alike = one_pair;
  results::RunRecord ended = timing_run("t", results::Side::Base, 1, {});
  ended.kind = "alloc";
  ended.status = results::kCountedAlikeStatus;
  alike.runs.push_back(ended);
  EXPECT_EQ(report_of(alike, "r").targets[0].alloc_status,
            "measured (1 run per side: both sides counted alike, counting allocator)");
  // One pair and no record of why no more ran (a job interrupted there): the reports do not guess.
  EXPECT_EQ(report_of(one_pair, "r").targets[0].alloc_status, "measured (1 run per side, counting allocator)");
  auto refused = one_pair;  // one pair, then the time budget refused the next: not because they agreed
  refused.runs.push_back(counted(results::Side::Base, 1, "skipped"));
  EXPECT_EQ(report_of(refused, "r").targets[0].alloc_status, "measured (1 run per side, counting allocator)");
  auto all = one_pair;
  for (int run = 1; run < 3; ++run) {
    all.runs.push_back(counted(results::Side::Base, run));
    all.runs.push_back(counted(results::Side::Head, run));
  }
  EXPECT_EQ(report_of(all, "r").targets[0].alloc_status, "measured (3 runs per side, counting allocator)");
}

TEST(Aggregate, ALoadedRunnerIsNotedInEveryReportWithWhatHelps) {
  // Eigen's bench_fft on 2 cores at load 9: 93.8 us real, 9.3 us CPU.
  results::ResultsFile file;
  file.settings.metric = "real_time";
  file.host = {{"cpu_count", 2}, {"load_average", {9.6, 9.1, 8.7}}};
  for (int run = 0; run < 4; ++run)
    for (results::Side side : {results::Side::Base, results::Side::Head})
      file.runs.push_back(timing_run("bench_fft", side, run, {{"BM_FFT/1024", {{"real_ns", 93831.0 + run}, {"cpu_ns", 9342.0}}}}));
  auto notes = report_of(file, "results.jsonl").notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "the runner was loaded: load average 9.6 on 2 CPUs at the start, benchmark processes got 10% of "
                      "a CPU (median cpu_time/real_time); 1 of 1 rows are judged on real_time, which counts the time "
                      "a run waited for a CPU: their intervals are wider. What helps: a quieter runner (fewer parallel "
                      "jobs on it), --metric auto (cpu_time for single-threaded benchmarks), more runs (--max-runs), "
                      "a looser budget");
  EXPECT_EQ(notes[0].find("--metric auto", 0) != std::string::npos, true);
  // Loaded by load average alone: still said, whatever the metric.
  file.settings.metric = "cpu_time";
  for (auto& r : file.runs) r.samples["BM_FFT/1024"]["cpu_ns"] = 93000;
  notes = report_of(file, "results.jsonl").notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("the runner was loaded: load average 9.6 on 2 CPUs at the start, benchmark processes got 99%",
                           0), 0u) << notes[0];
  // A quiet runner: nothing to say.
  file.host["load_average"] = {0.5, 0.4, 0.3};
  EXPECT_TRUE(report_of(file, "results.jsonl").notes.empty());
}

// An empty loop beside a CPU hog: the neighbour keeps it off the CPU, so its
// real_time per iteration (what it is judged on) is well above 1 ns while its
// cpu_time, the loop's own work, stays at a third of one.
TEST(Aggregate, LikelyOptimisedAwayReadsTheLoopsOwnWorkNotTheTimeANeighbourAdded) {
  results::ResultsFile file;
  file.settings.metric = "real_time";
  for (int run = 0; run < 6; ++run)
    for (results::Side side : {results::Side::Base, results::Side::Head})
      file.runs.push_back(timing_run("bench", side, run, {{"BM_Empty", {{"real_ns", 2.4 + 0.1 * run}, {"cpu_ns", 0.31}}},
                                                          {"BM_Work", {{"real_ns", 240.0 + run}, {"cpu_ns", 120.0}}}}));
  auto report = report_of(file, "results.jsonl");
  EXPECT_EQ(row(report, "BM_Empty").optimised_away, "head: 0.31 ns per iteration; base: 0.31 ns per iteration");
  EXPECT_EQ(row(report, "BM_Empty").metric, "real_time");
  EXPECT_NEAR(row(report, "BM_Empty").base_median, 2.65, 1e-9);  // judged on what was asked
  EXPECT_EQ(row(report, "BM_Work").optimised_away, "");
  // Only one clock measured (Go, plain commands): it is the work.
  for (auto& r : file.runs) r.samples["BM_Empty"].erase("cpu_ns");
  EXPECT_EQ(row(report_of(file, "results.jsonl"), "BM_Empty").optimised_away, "");
  for (auto& r : file.runs) r.samples["BM_Empty"]["real_ns"] = 0.5;
  EXPECT_EQ(row(report_of(file, "results.jsonl"), "BM_Empty").optimised_away,
            "head: 0.5 ns per iteration; base: 0.5 ns per iteration");
  // Two runs a side, one of them hit by a neighbour on both clocks (a CPU hog beside the e2e tests):
  // the loop's own work is the less, not the mean of the two.
  results::ResultsFile two;
  two.settings.metric = "cpu_time";
  for (int run = 0; run < 2; ++run)
    for (results::Side side : {results::Side::Base, results::Side::Head}) {
      const double ns = run == (side == results::Side::Base ? 0 : 1) ? 2.1 : 0.3;
      two.runs.push_back(timing_run("bench", side, run, {{"BM_Empty", {{"real_ns", ns}, {"cpu_ns", ns}}}}));
    }
  EXPECT_EQ(row(report_of(two, "results.jsonl"), "BM_Empty").optimised_away,
            "head: 0.3 ns per iteration; base: 0.3 ns per iteration");
}

TEST(Aggregate, ARowTheScheduleLeftAsNotWorthMoreRunsSaysWhy) {
  // A slowdown sitting on the budget (1.05, ±0.3% per pair) whose runs stopped after 20 of 30
  // pairs: the schedule's projection (verdict::not_worth_more_runs) is the row's note.
  results::ResultsFile file;
  file.settings.metric = "cpu_time";
  file.settings.min_runs = 6;
  file.settings.max_runs = 30;
  auto sample = [](double ns) { return results::Sample{{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}}; };
  for (int run = 0; run < 20; ++run) {
    const double jitter = 1 + 0.003 * ((run * 7) % 5 - 2);
    file.runs.push_back(timing_run("bench_at_budget", results::Side::Base, run, {{"BM_AtBudget", sample(100)}}));
    file.runs.push_back(
        timing_run("bench_at_budget", results::Side::Head, run, {{"BM_AtBudget", sample(105 * jitter)}}));
  }
  const report::Report report = report_of(file, "results.jsonl");
  const auto& at_budget = row(report, "BM_AtBudget");
  EXPECT_EQ(at_budget.verdict, verdict::Verdict::Inconclusive) << at_budget.note;
  EXPECT_NE(at_budget.note.find("not measured further: after 20 pairs a "), std::string::npos) << at_budget.note;
  EXPECT_NE(at_budget.note.find("chance to be decided by max_runs = 30"), std::string::npos) << at_budget.note;
}

TEST(Aggregate, StopReasonsAndTruncationBecomeNotes) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.5, {"BM_noisy"}};
  auto file = results_of(runner, 3);
  file.stops["t"] = "time budget 1 min exhausted after 3 runs per side";
  file.truncated = true;
  auto report = report_of(file, "res.jsonl");
  EXPECT_NE(row(report, "BM_noisy").note.find("time budget"), std::string::npos);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("res.jsonl"), std::string::npos);
}

TEST(Aggregate, ARowDecidedBeforeItsTargetWasStoppedKeepsTheLookThatDecidedIt) {
  // The clear row was decided at the first look (6 runs per side, as two samples) and measured no
  // more; its neighbour ran on until max_runs stopped the target undecided. The stop is the
  // neighbour's: the clear row is judged at its own look, with the test and level that decided it,
  // and carries no stop note.
  results::ResultsFile file;
  file.settings.looks = "haybittle-peto";
  file.settings.pairing = "paired";
  file.settings.max_runs = 10;
  auto sample = [](double ns) { return results::Sample{{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}}; };
  for (int run = 0; run < 10; ++run) {
    const double base = 100 * (1 + 0.002 * run);  // no two runs tie
    const double wobble = 1 + 0.08 * ((run * 3) % 5 - 2);  // ±16%: no decision in 10 pairs
    std::map<std::string, results::Sample> on_base = {{"BM_Open", sample(base)}};
    std::map<std::string, results::Sample> on_head = {{"BM_Open", sample(base * 1.04 * wobble)}};
    if (run < 6) {
      on_base["BM_Clear"] = sample(base);
      on_head["BM_Clear"] = sample(base * 2 * (1 + 0.001 * run));
    }
    file.runs.push_back(timing_run("t", results::Side::Base, run, on_base));
    file.runs.push_back(timing_run("t", results::Side::Head, run, on_head));
  }
  file.stops["t"] = "still inconclusive after max_runs = 10 runs per side";
  const report::Report report = report_of(file, "results.jsonl");
  const auto& clear = row(report, "BM_Clear");
  EXPECT_EQ(clear.verdict, verdict::Verdict::Regression) << clear.note;
  EXPECT_EQ(clear.time.estimate.method, stats::Method::Exact) << "the first look's rank-sum interval";
  EXPECT_DOUBLE_EQ(clear.time.estimate.confidence, 0.9973);
  EXPECT_EQ(clear.note.find("max_runs"), std::string::npos) << clear.note;
  const auto& open = row(report, "BM_Open");
  EXPECT_EQ(open.verdict, verdict::Verdict::Inconclusive) << open.note;
  EXPECT_LT(open.time.estimate.confidence, 0.99) << "the final look's level";
  EXPECT_NE(open.note.find("still inconclusive after max_runs = 10"), std::string::npos) << open.note;
}

TEST(Aggregate, AStoppedTargetWithoutRowsSaysWhyInTheNotes) {
  FakeRunner runner;
  runner.targets["bench_fft"] = {1.0, 0.01, {}};
  runner.targets["t"] = {1.0, 0.5, {"BM_noisy"}};
  auto file = results_of(runner, 1);
  file.stops["bench_fft"] = "--benchmark_filter 'BM_nope' matches no benchmark";
  file.stops["t"] = "time budget 1 min exhausted after 1 runs per side";
  auto report = report_of(file, "res.jsonl");
  EXPECT_EQ(report.notes, (std::vector<std::string>{"bench_fft: --benchmark_filter 'BM_nope' matches no benchmark"}));
  EXPECT_NE(row(report, "BM_noisy").note.find("time budget"), std::string::npos);  // on its row, not in the notes
}

// A layout control that stopped at an interim look (decided early, as any
// untouched benchmark does) still bounds "no change" at the stated level: one
// wild pair among 10 must not make the control's spread the whole interim
// 99.73% interval, which for 10 pairs is the extremes of the Walsh averages
// (here ±40%); at the final level the 10 Walsh averages the wild pair is part
// of still reach about half of it.
TEST(AggregateControls, AControlStoppedAtAnInterimLookSpreadsAtTheStatedLevel) {
  results::ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.metric = "cpu_time";
  file.settings.pairing = "paired";
  file.settings.looks = "haybittle-peto";
  file.settings.stopping = "benchmark";
  file.settings.min_runs = 10;
  file.settings.max_runs = 30;
  file.settings.layout_controls = {"bench_ctl"};
  for (int run = 0; run < 10; ++run) {
    const double base = 100 * (1 + 0.003 * ((run * 7) % 5 - 2));
    const double jitter = 1 + 0.002 * ((run * 3) % 5 - 2);
    const double wild = run == 3 ? 1.4 : 1.0;  // one pair a neighbour's burst hit
    auto sample = [](double ns) { return results::Sample{{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}}; };
    file.runs.push_back(timing_run("bench_ctl", results::Side::Base, run, {{"BM_Ctl", sample(base)}}));
    file.runs.push_back(timing_run("bench_ctl", results::Side::Head, run, {{"BM_Ctl", sample(base * jitter * wild)}}));
    file.runs.push_back(timing_run("bench_work", results::Side::Base, run, {{"BM_Work", sample(base)}}));
    file.runs.push_back(timing_run("bench_work", results::Side::Head, run, {{"BM_Work", sample(base * 1.3 * jitter)}}));
  }
  const report::Report report = report_of(file, "results.jsonl");
  ASSERT_EQ(report.controls.size(), 1u);
  EXPECT_EQ(report.controls[0].kind, "layout");
  EXPECT_LT(report.controls[0].spread, 0.25) << "the stated level, not the interim extremes (0.40)";
  EXPECT_GT(report.controls[0].ci_high, 1.0);
  const auto& control = row(report, "BM_Ctl");
  EXPECT_LT(control.time.estimate.confidence, 0.99) << "judged at the final look's level (about 95.5%), not 99.73%";
  const auto& work = row(report, "BM_Work");
  EXPECT_EQ(work.verdict, verdict::Verdict::Regression) << work.note;
  ASSERT_TRUE(work.clears_control);
  EXPECT_TRUE(*work.clears_control);
}

/// A paired job of 12 runs per side under the shift rule with bench_ctl as its layout control: runs to be added.
results::ResultsFile shift_rule_job() {
  results::ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.metric = "cpu_time";
  file.settings.pairing = "paired";
  file.settings.looks = "haybittle-peto";
  file.settings.control_rule = "shift";
  file.settings.min_runs = 12;
  file.settings.max_runs = 12;
  file.settings.layout_controls = {"bench_ctl"};
  return file;
}

/// One benchmark's sample of `ns` on both clocks, single-threaded.
results::Sample timed(double ns) { return results::Sample{{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}}; }

/// A small deterministic spread of the head's runs around its factor.
double jitter(int run) { return 1 + 0.002 * ((run * 3) % 5 - 2); }

/// Run `run` of both sides: bench_ctl's BM_Ctl with its head at `control` times its base, and each
/// bench_work benchmark with its head at its factor times the base, jittered.
void add_round(results::ResultsFile& file, int run, double control, const std::map<std::string, double>& work) {
  const double base = 100 * (1 + 0.003 * ((run * 7) % 5 - 2));
  file.runs.push_back(timing_run("bench_ctl", results::Side::Base, run, {{"BM_Ctl", timed(base)}}));
  file.runs.push_back(timing_run("bench_ctl", results::Side::Head, run, {{"BM_Ctl", timed(base * control)}}));
  std::map<std::string, results::Sample> base_samples, head_samples;
  for (const auto& [name, factor] : work) {
    base_samples[name] = timed(base);
    head_samples[name] = timed(base * factor * jitter(run));
  }
  file.runs.push_back(timing_run("bench_work", results::Side::Base, run, base_samples));
  file.runs.push_back(timing_run("bench_work", results::Side::Head, run, head_samples));
}

// The control rule in the reports: a layout control that reads a precise +4%
// (the head side is slower with no change) withdraws a regression that clears
// the budget only by that much, keeps one that clears it on top of the shift,
// and says in the note which control showed what.
TEST(AggregateControls, AShiftTheControlShowsWithdrawsOnlyTheRegressionsWithinIt) {
  results::ResultsFile file = shift_rule_job();
  for (int run = 0; run < 12; ++run) add_round(file, run, 1.04 * jitter(run), {{"BM_Shifted", 1.08}, {"BM_Slower", 1.25}});
  const report::Report report = report_of(file, "results.jsonl");
  ASSERT_EQ(report.controls.size(), 1u);
  EXPECT_GT(report.controls[0].ci_low, 1.03);
  EXPECT_FALSE(report.control_rule.empty());
  const auto& shifted = row(report, "BM_Shifted");
  EXPECT_EQ(shifted.verdict, verdict::Verdict::Inconclusive) << shifted.note;
  EXPECT_GT(shifted.time.estimate.ci_low, 1.05) << "a regression on its own interval";
  EXPECT_NE(shifted.note.find("the controls show the head side +"), std::string::npos) << shifted.note;
  EXPECT_NE(shifted.note.find("layout control bench_ctl/BM_Ctl"), std::string::npos) << shifted.note;
  const auto& slower = row(report, "BM_Slower");
  EXPECT_EQ(slower.verdict, verdict::Verdict::Regression) << slower.note;
  EXPECT_EQ(slower.note.find("controls show"), std::string::npos) << slower.note;
}

TEST(AggregateControls, AWideControlShowingAShiftBindsByItsNearEndAndIsNotNettedAgainst) {
  // A control with ±12% per run that happens to read slower: its whole interval lies above 1 but it is
  // far wider than the budget. A row must clear the budget on top of its near end; netting rows
  // against it would only have added its noise to each.
  results::ResultsFile file = shift_rule_job();
  for (int run = 0; run < 12; ++run) {
    const double wide = 1 + 0.06 * ((run * 5) % 7 - 3);
    add_round(file, run, 1.13 * wide, {{"BM_Near", 1.07}, {"BM_Far", 1.20}});
  }
  const report::Report report = report_of(file, "results.jsonl");
  ASSERT_EQ(report.controls.size(), 1u);
  const auto& control = report.controls[0];
  ASSERT_GT(control.ci_low, 1.0) << "the control shows a shift";
  ASSERT_GT((control.ci_high - control.ci_low) / 2, 0.05) << "wider than the budget";
  ASSERT_EQ(control.clear_shift, 0) << "off 1 at the final look's level, not at the early looks' 99%";
  const auto& near = row(report, "BM_Near");
  ASSERT_GT(near.time.estimate.ci_low, 1.05) << "a regression on its own interval";
  ASSERT_LT(near.time.estimate.ci_low, 1.05 * control.ci_low);
  EXPECT_EQ(near.verdict, verdict::Verdict::Inconclusive) << near.note;
  EXPECT_NE(near.note.find("this interval does not clear the budget on top of that"), std::string::npos) << near.note;
  const auto& far = row(report, "BM_Far");
  ASSERT_LT(far.time.estimate.ci_low, 1.05 * control.ci_high) << "within the largest shift the control allows";
  EXPECT_EQ(far.verdict, verdict::Verdict::Regression) << far.note;
  EXPECT_EQ(far.note.find("net of that control"), std::string::npos) << far.note;

  // The same control reading +30%: a shift that shows at 99% too is no chance reading, and the rows are
  // judged net of it however wide it is: a row reading 1.26 clears the budget on top of its near end
  // (1.18) but not net of it.
  results::ResultsFile shifted = shift_rule_job();
  for (int run = 0; run < 12; ++run) add_round(shifted, run, 1.30 * (1 + 0.06 * ((run * 5) % 7 - 3)), {{"BM_Far", 1.26}});
  const report::Report clear = report_of(shifted, "results.jsonl");
  ASSERT_EQ(clear.controls.size(), 1u);
  ASSERT_EQ(clear.controls[0].clear_shift, 1);
  ASSERT_GT((clear.controls[0].ci_high - clear.controls[0].ci_low) / 2, 0.05) << "wider than the budget";
  const auto& explained = row(clear, "BM_Far");
  EXPECT_EQ(explained.verdict, verdict::Verdict::Inconclusive) << explained.note;
  EXPECT_NE(explained.note.find("net of that control"), std::string::npos) << explained.note;
}

/// Whether the schedule, looking at `target` after `pairs` pairs of a validate job (its layout control
/// bench_aa_join_strings and its machine control), found nothing left to decide: its view from the
/// runs before that look, the controls' included.
bool schedule_saw_decided(const results::ResultsFile& file, const std::string& target, int pairs) {
  std::vector<results::RunRecord> before;
  std::copy_if(file.runs.begin(), file.runs.end(), std::back_inserter(before),
               [&](const results::RunRecord& r) { return r.run < pairs; });
  run::ScheduleSettings schedule;
  schedule.min_runs = file.settings.min_runs;
  schedule.max_runs = file.settings.max_runs;
  schedule.rule = results::time_rule(file.settings);
  const auto controls = verdict::judge_controls(
      results::control_samples(before, {{"bench_aa_join_strings", "layout"}, {file.settings.machine_control, "machine"}},
                               schedule.rule.metric),
      schedule.rule);
  return run::undecided_benchmarks(target, before, schedule, verdict::LookRule::look_at(pairs, schedule.max_runs), controls)
      .empty();
}

// Recorded from a real `cobench validate` job (the fixture's 10% row, its
// string-join layout control and the machine control; the other targets' runs
// left out, one layout): the schedule stopped the row at 8 pairs, a regression
// net of the machine control's memory benchmark, which read a small shift
// then. By pair 30 that control read none, and the noisy join control had
// become narrow enough to be netted against over the row's 8 pairs: judged
// against the controls' 30 pairs, the report withdrew what the schedule had
// decided, and the row, measured no further, was inconclusive.
TEST(AggregateControls, ARowDecidedAtAnInterimLookIsJudgedAgainstTheControlsRunsUntilThen) {
  const results::ResultsFile file =
      results::read_results(COBENCH_TESTDATA_DIR "/aggregate/interim-look-controls.jsonl");
  const report::Report report = report_of(file, "interim-look-controls.jsonl");
  const auto& slow = row(report, "BM_Slowdown10");
  ASSERT_EQ(slow.base_samples.size(), 8u) << "decided at an interim look";
  EXPECT_EQ(slow.verdict, verdict::Verdict::Regression) << slow.note;
  EXPECT_TRUE(schedule_saw_decided(file, "bench_slowdown_10", 8)) << "the schedule's view at that look";
}

// cobench validate, job 5 of 50 at b9a6165, with a neighbour on the benchmarks' CPU for part of it: the
// schedule stopped BM_Slowdown50 (1.49) after 6 pairs as a regression. Over all 30 runs, the machine
// control's head runs had spent less of their time on the CPU (0.865 [0.768, 0.972]), `auto` judged it
// on real_time, and its first 6 runs on real_time read 1.021 [0.426, 2.341]: the report withdrew the
// row to "inconclusive" with 6 runs, a verdict no more runs could change. One binary runs as both
// sides of the machine control, so a difference of CPU share between them is the neighbour's.
TEST(AggregateControls, TheMachineControlIsNotTurnedToRealTimeByANeighbourAndTheReportAgreesWithTheSchedule) {
  const results::ResultsFile file = results::read_results(COBENCH_TESTDATA_DIR "/aggregate/machine-control-metric.jsonl");
  const report::Report report = report_of(file, "machine-control-metric.jsonl");
  const auto& compute = row(report, "BM_MachineCompute/iterations:1500");
  EXPECT_EQ(compute.metric, "cpu_time") << compute.note;
  EXPECT_EQ(compute.note.find("moved time"), std::string::npos) << compute.note;
  const auto& slow = row(report, "BM_Slowdown50");
  ASSERT_EQ(slow.base_samples.size(), 6u) << "decided at the first look";
  EXPECT_EQ(slow.verdict, verdict::Verdict::Regression) << slow.note;
  EXPECT_TRUE(schedule_saw_decided(file, "bench_slowdown_50", 6)) << "the schedule's view at that look";
}

// A layout control that keeps the CPU busy in its first 8 runs (judged on cpu_time there: ±0.3%), and
// whose head side spends half its time off the CPU from then on (`auto` turns it to real_time over all
// its runs, where its first 8 pairs swing 0.5-2x). A row the schedule decided at 8 pairs is judged
// against the control as the schedule saw it then, metric included.
TEST(AggregateControls, ARowDecidedAtAnInterimLookMeetsTheControlOnTheMetricChosenFromItsRunsUntilThen) {
  results::ResultsFile file = shift_rule_job();
  file.settings.metric = "auto";
  file.settings.min_runs = 6;
  file.settings.max_runs = 30;
  auto busy = [](double cpu, double share) {
    return results::Sample{{"real_ns", cpu / share}, {"cpu_ns", cpu}, {"threads", 1}};
  };
  for (int run = 0; run < 30; ++run) {
    const double cpu = 100.1 * jitter(run);  // no pair of exactly equal runs: every look has its interval
    const bool early = run < 8;
    const double base_share = early && run % 2 ? 0.5 : 1, head_share = early ? (run % 2 ? 1 : 0.5) : 0.5;
    file.runs.push_back(timing_run("bench_ctl", results::Side::Base, run, {{"BM_Ctl", busy(100, base_share)}}));
    file.runs.push_back(timing_run("bench_ctl", results::Side::Head, run, {{"BM_Ctl", busy(cpu, head_share)}}));
    if (!early) continue;
    file.runs.push_back(timing_run("bench_work", results::Side::Base, run, {{"BM_Work", busy(100, 1)}}));
    file.runs.push_back(timing_run("bench_work", results::Side::Head, run, {{"BM_Work", busy(150 * jitter(run), 1)}}));
  }
  const report::Report report = report_of(file, "results.jsonl");
  ASSERT_EQ(row(report, "BM_Ctl").metric, "real_time") << "over all 30 runs the control's head side moved off the CPU";
  const auto& work = row(report, "BM_Work");
  ASSERT_EQ(work.base_samples.size(), 8u);
  EXPECT_EQ(work.verdict, verdict::Verdict::Regression) << work.note;
}

// Instruction records -> report rows: rows for a job that counted
// instructions only, both verdicts beside each other when time was measured
// too, failures and timeouts under callgrind in the notes, the target's
// status with how it was counted, and a target of which nothing was counted.
results::RunRecord counted(const std::string& target, results::Side side, int run, std::map<std::string, double> instructions) {
  results::RunRecord r;
  r.target = target;
  r.side = side;
  r.run = run;
  r.kind = "instructions";
  r.wall_seconds = 2;
  r.detail = "iterations fixed by --benchmark_min_time=1x and 5x";
  for (const auto& [name, ir] : instructions)
    r.samples[name] = {{"Ir", ir}, {"Dr", ir / 4}, {"D1mr", 1},   {"loop_only", 1},
                       {"iterations", 4}, {"callgrind_cpu_seconds", 0.6}, {"native_cpu_seconds", run == 0 ? 0.005 : 0}};
  return r;
}

results::ResultsFile instructions_only() {
  results::ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.metric = "instructions";
  file.settings.instructions = results::InstructionSettings{2, 0.005, verdict::Governing::Time};
  for (int run = 0; run < 2; ++run) {
    file.runs.push_back(counted("bench_a", results::Side::Base, run, {{"BM_work", 8000}, {"BM_same", 4000}}));
    file.runs.push_back(counted("bench_a", results::Side::Head, run, {{"BM_work", 16000}, {"BM_same", 4000}}));
  }
  return file;
}

/// A paired cpu_time job that allows `layouts` code layouts, every look final at 8 pairs.
results::ResultsFile layout_job(int layouts) {
  results::ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.metric = "cpu_time";
  file.settings.pairing = "paired";
  file.settings.looks = "haybittle-peto";
  file.settings.min_runs = 8;
  file.settings.max_runs = 8;
  file.settings.layouts = layouts;
  return file;
}

/// 8 pairs of `name` in `target` reading head/base `ratio` in `layout`, with a little noise.
void add_layout_runs(results::ResultsFile& file, const std::string& target, const std::string& name, int layout, double ratio) {
  auto sample = [](double ns) { return results::Sample{{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}}; };
  for (int run = 0; run < 8; ++run) {
    const double base = 100 * (1 + 0.004 * ((run * 7) % 5 - 2));
    const double jitter = 1 + 0.003 * ((run * 3) % 5 - 2);
    for (results::Side side : {results::Side::Base, results::Side::Head}) {
      results::RunRecord r = timing_run(target, side, run, {{name, sample(side == results::Side::Base ? base : base * ratio * jitter)}});
      r.layout = layout;
      (layout == 1 ? file.runs : file.layout_runs).push_back(r);
    }
  }
}

TEST(AggregateLayouts, AClaimTheSecondLayoutReadsAlikeIsConfirmedWithBothLayoutsListed) {
  results::ResultsFile file = layout_job(2);
  add_layout_runs(file, "bench_slow", "BM_Slow", 1, 2.0);
  add_layout_runs(file, "bench_slow", "BM_Slow", 2, 1.9);
  add_layout_runs(file, "bench_fast", "BM_Fast", 1, 0.5);
  add_layout_runs(file, "bench_fast", "BM_Fast", 2, 0.55);
  const report::Report report = report_of(file, "results.jsonl");
  EXPECT_NE(report.layout_rule.find("second code layout"), std::string::npos) << report.layout_rule;
  const auto& slow = row(report, "BM_Slow");
  EXPECT_EQ(slow.verdict, verdict::Verdict::Regression);
  EXPECT_EQ(slow.layout_outcome, std::optional(verdict::LayoutOutcome::Confirmed));
  ASSERT_EQ(slow.layouts.size(), 2u);
  EXPECT_EQ(slow.layouts[0].layout, 1);
  EXPECT_EQ(slow.layouts[1].layout, 2);
  EXPECT_NEAR(slow.layouts[1].ratio, 1.9, 0.02);
  EXPECT_GT(slow.layouts[1].ci_low, 1.05);
  EXPECT_EQ(slow.layouts[1].verdict, verdict::LayoutVerdict::Regression);
  EXPECT_NEAR(slow.time.estimate.ratio, 2.0, 0.02) << "the row's own ratio is layout 1's";
  const auto& fast = row(report, "BM_Fast");
  EXPECT_EQ(fast.verdict, verdict::Verdict::Pass);
  EXPECT_TRUE(fast.time.faster);
  EXPECT_EQ(fast.layout_outcome, std::optional(verdict::LayoutOutcome::Confirmed));
}

// kokkos/mdspan's sum_3d_right under a change its timed loops do not use: of 7 rows that moved
// 0.73-1.39x, the 48-byte layout overturned 5 and confirmed 2, which layout-stable builds read as passes.
// Results files from before layout 2 was built layout-stable point at it; today's layouts are that.
TEST(AggregateLayouts, AConfirmedClaimBesideOverturnedOnesOfItsTargetSaysWhatTellsALayoutEffect) {
  auto job = [](bool layout_stable, bool layouts_aligned = false) {
    results::ResultsFile file = layout_job(2);
    file.settings.layout_stable = layout_stable;
    file.settings.layouts_aligned = layouts_aligned;
    add_layout_runs(file, "sum_3d_right", "BM_Sum/right_fixed_20_20_20", 1, 1.27);
    add_layout_runs(file, "sum_3d_right", "BM_Sum/right_fixed_20_20_20", 2, 1.30);
    add_layout_runs(file, "sum_3d_right", "BM_Sum/right_dyn_20_20_d20", 1, 0.73);
    add_layout_runs(file, "sum_3d_right", "BM_Sum/right_dyn_20_20_d20", 2, 1.39);
    add_layout_runs(file, "copy", "BM_Copy", 1, 2.0);  // no claim of its target was overturned
    add_layout_runs(file, "copy", "BM_Copy", 2, 2.0);
    return report_of(file, "results.jsonl");
  };
  const report::Report plain = job(false);
  const auto& confirmed = row(plain, "BM_Sum/right_fixed_20_20_20");
  EXPECT_EQ(confirmed.verdict, verdict::Verdict::Regression) << "a note, not a verdict: real changes have neighbours too";
  EXPECT_NE(confirmed.note.find("1 other claim of sum_3d_right read otherwise in another layout"), std::string::npos)
      << confirmed.note;
  EXPECT_NE(confirmed.note.find("--layout-stable"), std::string::npos) << confirmed.note;
  EXPECT_EQ(row(plain, "BM_Sum/right_dyn_20_20_d20").verdict, verdict::Verdict::LayoutSensitive);
  EXPECT_EQ(row(plain, "BM_Copy").note.find("--layout-stable"), std::string::npos) << row(plain, "BM_Copy").note;
  EXPECT_EQ(plain.layout_rule.find("layout-stable"), std::string::npos) << "a file from before: " << plain.layout_rule;
  const report::Report stable = job(true);
  EXPECT_EQ(row(stable, "BM_Sum/right_fixed_20_20_20").note.find("--layout-stable"), std::string::npos);
  const report::Report aligned = job(false, true);
  EXPECT_EQ(row(aligned, "BM_Sum/right_fixed_20_20_20").note.find("--layout-stable"), std::string::npos);
  EXPECT_NE(aligned.layout_rule.find("rebuilt layout-stable"), std::string::npos) << aligned.layout_rule;
}

TEST(AggregateLayouts, AClaimAnotherLayoutReadsOtherwiseIsLayoutSensitive) {
  results::ResultsFile file = layout_job(2);
  add_layout_runs(file, "bench_topk", "BM_TopK", 1, 0.77);  // the demo probe's false speed-up ...
  add_layout_runs(file, "bench_topk", "BM_TopK", 2, 1.30);  // ... read the other way in layout 2
  add_layout_runs(file, "bench_same", "BM_Same", 1, 1.0);
  const report::Report report = report_of(file, "results.jsonl");
  const auto& topk = row(report, "BM_TopK");
  EXPECT_EQ(topk.verdict, verdict::Verdict::LayoutSensitive);
  EXPECT_EQ(topk.layout_outcome, std::optional(verdict::LayoutOutcome::LayoutSensitive));
  ASSERT_EQ(topk.layouts.size(), 2u);
  EXPECT_EQ(topk.layouts[0].verdict, verdict::LayoutVerdict::Faster);
  EXPECT_EQ(topk.layouts[1].verdict, verdict::LayoutVerdict::Regression);
  // A row that makes no claim is not checked.
  const auto& same = row(report, "BM_Same");
  EXPECT_EQ(same.verdict, verdict::Verdict::Pass);
  EXPECT_FALSE(same.layout_outcome.has_value());
  EXPECT_TRUE(same.layouts.empty());
  // The JSON says it, and reads back.
  const nlohmann::json json = report::to_json(report);
  for (const auto& entry : json.at("benchmarks")) {
    if (entry.at("name") == "BM_TopK") {
      EXPECT_EQ(entry.at("verdict"), "layout-sensitive");
      EXPECT_EQ(entry.at("layout_outcome"), "layout-sensitive");
      EXPECT_EQ(entry.at("layouts").size(), 2u);
      EXPECT_EQ(entry.at("layouts")[1].at("verdict"), "regression");
    }
    if (entry.at("name") == "BM_Same") {
      EXPECT_TRUE(entry.at("layout_outcome").is_null());
    }
  }
  EXPECT_FALSE(json.at("layout_rule").is_null());
  const report::Report back = report::from_json(json);
  EXPECT_EQ(row(back, "BM_TopK").layout_outcome, topk.layout_outcome);
  EXPECT_EQ(row(back, "BM_TopK").layouts.size(), 2u);
  EXPECT_EQ(back.layout_rule, report.layout_rule);
}

TEST(AggregateLayouts, AnUndecidedSecondLayoutWaitsForTheThirdWhichDecides) {
  results::ResultsFile file = layout_job(3);
  add_layout_runs(file, "bench_slow", "BM_Slow", 1, 1.3);
  add_layout_runs(file, "bench_slow", "BM_Slow", 2, 1.05);  // straddles the 5% budget
  {
    const report::Report waiting = report_of(file, "results.jsonl");
    const auto& slow = row(waiting, "BM_Slow");
    ASSERT_EQ(slow.layouts.size(), 2u);
    EXPECT_EQ(slow.layouts[1].verdict, verdict::LayoutVerdict::Inconclusive);
    EXPECT_EQ(slow.layout_outcome, std::optional(verdict::LayoutOutcome::NeedsLayout));
    EXPECT_EQ(slow.verdict, verdict::Verdict::Regression) << "an unfinished check keeps the claim";
    EXPECT_NE(slow.note.find("layout 3 was not measured"), std::string::npos) << slow.note;
    EXPECT_TRUE(report::to_json(waiting).at("benchmarks")[0].at("layout_outcome").is_null());
  }
  add_layout_runs(file, "bench_slow", "BM_Slow", 3, 1.3);
  const report::Report decided = report_of(file, "results.jsonl");
  const auto& slow = row(decided, "BM_Slow");
  EXPECT_EQ(slow.layout_outcome, std::optional(verdict::LayoutOutcome::Confirmed));
  EXPECT_EQ(slow.layouts.size(), 3u);
  EXPECT_EQ(slow.verdict, verdict::Verdict::Regression);
}

TEST(AggregateLayouts, ControlsAndJobsWithoutConfirmationAreNeverChecked) {
  results::ResultsFile file = layout_job(2);
  file.settings.layout_controls = {"bench_ctl"};
  add_layout_runs(file, "bench_ctl", "BM_Ctl", 1, 1.5);
  add_layout_runs(file, "bench_slow", "BM_Slow", 1, 2.0);  // a claim whose layout 2 never ran
  const report::Report report = report_of(file, "results.jsonl");
  const auto& control = row(report, "BM_Ctl");
  EXPECT_TRUE(control.is_control);
  EXPECT_FALSE(control.layout_outcome.has_value());
  EXPECT_TRUE(control.layouts.empty());
  const auto& slow = row(report, "BM_Slow");
  EXPECT_EQ(slow.layout_outcome, std::optional(verdict::LayoutOutcome::NeedsLayout));
  EXPECT_NE(slow.note.find("layout 2 was not measured"), std::string::npos) << slow.note;

  results::ResultsFile off = layout_job(1);
  add_layout_runs(off, "bench_slow", "BM_Slow", 1, 2.0);
  const report::Report plain = report_of(off, "results.jsonl");
  EXPECT_EQ(plain.layout_rule, "");
  EXPECT_FALSE(row(plain, "BM_Slow").layout_outcome.has_value());
  EXPECT_EQ(row(plain, "BM_Slow").verdict, verdict::Verdict::Regression);
}

TEST(InstructionMetrics, AJobCountingInstructionsOnlyGetsItsRowsFromThem) {
  const report::Report report = report_of(instructions_only(), "results.jsonl");
  ASSERT_EQ(report.benchmarks.size(), 2u);
  const auto& work = row(report, "BM_work");
  EXPECT_FALSE(work.time_measured);
  ASSERT_TRUE(work.instructions && work.instructions->compared);
  EXPECT_DOUBLE_EQ(work.instructions->ratio, 2);
  EXPECT_EQ(work.verdict, verdict::Verdict::Regression);
  EXPECT_EQ(work.decided_by, "instructions");
  EXPECT_EQ(work.note, "");
  EXPECT_DOUBLE_EQ(work.instructions->slowdown, 0.6 / 0.005);
  EXPECT_EQ(row(report, "BM_same").verdict, verdict::Verdict::Pass);
  EXPECT_EQ(report.benchmarks[0].name, "BM_work");  // regressions first
  ASSERT_EQ(report.targets.size(), 1u);
  EXPECT_EQ(report.targets[0].instruction_runs, 2);
  const std::string& status = report.targets[0].instructions_status;
  EXPECT_EQ(status.rfind("measured (2 runs per side under callgrind); iterations fixed by --benchmark_min_time=1x", 0), 0u)
      << status;
  EXPECT_NE(status.find("inside the benchmark loop only"), std::string::npos) << status;
  EXPECT_NE(status.find("120× the CPU time"), std::string::npos) << status;
  EXPECT_TRUE(report::infrastructure_failures(report).empty());
  // Nothing was timed: no loaded-runner warning, whatever the load.
  EXPECT_TRUE(report.notes.empty());
}

TEST(InstructionMetrics, TimeoutsUnderCallgrindAreNamedOnTheRow) {
  results::ResultsFile file = instructions_only();
  for (auto& r : file.runs)
    if (r.side == results::Side::Head) {
      r.samples.erase("BM_work");
      r.errors["BM_work"] = "timed out after 300 s under callgrind (1 iteration)";
    }
  const report::Report report = report_of(file, "r");
  const auto& work = row(report, "BM_work");
  ASSERT_TRUE(work.instructions);
  EXPECT_FALSE(work.instructions->compared);
  EXPECT_EQ(work.verdict, verdict::Verdict::Inconclusive);
  EXPECT_NE(work.note.find("head: timed out after 300 s under callgrind (1 iteration) in 2/2 runs"), std::string::npos)
      << work.note;
}

TEST(InstructionMetrics, ATargetOfWhichNothingWasCountedIsAnInfrastructureFailure) {
  results::ResultsFile file = instructions_only();
  for (auto& r : file.runs) {
    for (const auto& [name, sample] : r.samples) r.errors[name] = "exit status 1 under callgrind (1 iteration)";
    r.samples.clear();
    r.status = "exit 1";
    r.detail = "exit status 1 under callgrind (1 iteration)";
    r.command = "valgrind --tool=callgrind ./bench_a";
  }
  const report::Report report = report_of(file, "r");
  const auto failures = report::infrastructure_failures(report);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].rfind("bench_a: every instruction run failed; first: base run 0: exit status 1", 0), 0u)
      << failures[0];
  EXPECT_EQ(report.targets[0].instructions_status.rfind("not collected: base run 0: exit status 1", 0), 0u);
}

TEST(InstructionMetrics, BesideTimeBothVerdictsStandAndTimeGoverns) {
  results::ResultsFile file = instructions_only();
  file.settings.metric = "cpu_time";
  for (int run = 0; run < 6; ++run)
    for (results::Side side : {results::Side::Base, results::Side::Head})
      file.runs.push_back(timing_run("bench_a", side, run,
                                     {{"BM_work", {{"real_ns", 100.0 + run}, {"cpu_ns", 100.0 + run}, {"threads", 1}}},
                                      {"BM_same", {{"real_ns", 50.0 + run}, {"cpu_ns", 50.0 + run}, {"threads", 1}}}}));
  const report::Report report = report_of(file, "r");
  ASSERT_EQ(report.benchmarks.size(), 2u);  // one row per benchmark, not one per metric
  const auto& work = row(report, "BM_work");
  EXPECT_TRUE(work.time_measured);
  EXPECT_EQ(work.base_samples.size(), 6u);
  ASSERT_TRUE(work.instructions);
  EXPECT_EQ(work.instructions->verdict, verdict::Verdict::Regression);
  EXPECT_EQ(work.decided_by, "time");
  EXPECT_EQ(work.verdict, work.time.verdict);
  EXPECT_NE(work.note.find("instructions regression"), std::string::npos) << work.note;
  // And the same records judged with instructions governing.
  file.settings.instructions->governing = verdict::Governing::Instructions;
  EXPECT_EQ(row(report_of(file, "r"), "BM_work").verdict, verdict::Verdict::Regression);
}

TEST(InstructionMetrics, ATimeBudgetThatStoppedTheRunsIsSaid) {
  results::ResultsFile file = instructions_only();
  file.runs.resize(2);  // run 0 only
  results::RunRecord skipped;
  skipped.target = "bench_a";
  skipped.kind = "instructions";
  skipped.status = "skipped";
  skipped.run = 1;
  skipped.detail = "time budget 1.0 min exhausted after 1 instruction runs per side";
  file.runs.push_back(skipped);
  const report::Report report = report_of(file, "r");
  EXPECT_EQ(report.targets[0].instruction_runs, 1);
  EXPECT_NE(report.targets[0].instructions_status.find(
                "measured (1 run per side under callgrind, then time budget 1.0 min exhausted after 1 instruction runs"),
            std::string::npos)
      << report.targets[0].instructions_status;
}

TEST(InstructionMetrics, SettingsRoundTripThroughResultsJsonl) {
  results::JobSettings settings = instructions_only().settings;
  settings.instructions->governing = verdict::Governing::Worst;
  auto line = to_json(settings);
  line["type"] = "settings";
  const results::JobSettings back = results::job_settings_from_json(line, "results.jsonl:2");
  EXPECT_EQ(back.metric, "instructions");
  ASSERT_TRUE(back.instructions);
  EXPECT_EQ(back.instructions->runs, 2);
  EXPECT_DOUBLE_EQ(back.instructions->tolerance, 0.005);
  EXPECT_EQ(back.instructions->governing, verdict::Governing::Worst);
  line["instructions"] = nullptr;
  EXPECT_THROW(results::job_settings_from_json(line, "results.jsonl:2"), InputError);  // metric instructions without them
}

}  // namespace
}  // namespace cobench::aggregate

namespace cobench::aggregate {
namespace {

using Status = verdict::ChangeReach::Status;

TEST(AggregateReach, RowsTakeTheirInstanceThenTheirTargetThenTheJobAndTheFoldCapsTheVerdict) {
  FakeRunner runner;
  runner.targets["grid"] = {2.0, 0.01, {"BM_Work/8", "BM_Work/4096", "BM_Work/65536"}};
  runner.targets["other"] = {2.0, 0.01, {"BM_Other"}};
  runner.targets["lone"] = {1.0, 0.01, {"BM_Lone"}};
  results::ResultsFile file = results_of(runner, 8);
  file.settings.reach = true;
  file.settings.reach_method = "head coverage build";
  file.reach.push_back({"grid",
                        {Status::Unknown, 3, 0, ""},
                        {{"BM_Work/8", {Status::NotReached, 3, 0, ""}}, {"BM_Work/4096", {Status::Reached, 3, 2, ""}}}});
  file.reach.push_back({"other", {Status::Unknown, 3, 0, "head: coverage build failed"}, {}});
  auto report = report_of(file, "r");
  EXPECT_EQ(report.reach_method, "head coverage build");
  const auto& small = row(report, "BM_Work/8");
  EXPECT_EQ(small.reach->status, Status::NotReached);
  EXPECT_EQ(small.time.verdict, verdict::Verdict::Regression) << "2x slower by time";
  EXPECT_EQ(small.verdict, verdict::Verdict::Unrelated) << "but it does not execute the change";
  EXPECT_EQ(row(report, "BM_Work/4096").verdict, verdict::Verdict::Regression);
  EXPECT_EQ(row(report, "BM_Work/65536").reach->reason, "its coverage run did not list this benchmark");
  EXPECT_EQ(row(report, "BM_Other").reach->reason, "head: coverage build failed");
  EXPECT_EQ(row(report, "BM_Lone").reach->reason, "no coverage pass for its target");
  // Regressions first, then the unrelated change.
  EXPECT_EQ(report.benchmarks.back().name, "BM_Lone");

  // A job-wide answer (a runner without coverage) covers every row; without a reach pass rows carry none.
  file.reach = {{"", {Status::Unknown, 0, 0, "runner go: ..."}, {}}};
  EXPECT_EQ(row(report_of(file, "r"), "BM_Work/8").reach->reason, "runner go: ...");
  file.settings.reach = false;
  EXPECT_FALSE(row(report_of(file, "r"), "BM_Work/8").reach);
}

TEST(AggregateSelection, TargetsTheFilterNarrowedAwayAreListed) {
  FakeRunner runner;
  runner.targets["kept"] = {1.0, 0.01, {"BM_Kept"}};
  results::ResultsFile file = results_of(runner, 2);
  file.settings.selection = {{"filter", "BM_Kept"}, {"reason", "2 of 2 benchmark targets reach the change"}};
  file.stops["other"] = "--benchmark_filter 'BM_Kept' matches no benchmark";
  file.stops["slow"] = "time budget exhausted";
  auto report = report_of(file, "r");
  EXPECT_EQ(report.selection["filtered_out"], nlohmann::json{"other"});
  file.settings.selection = {{"filter", nullptr}};
  EXPECT_FALSE(report_of(file, "r").selection.contains("filtered_out"));
}

TEST(AggregateReach, ReachLinesRoundTripThroughResultsJsonl) {
  results::ResultsFile file;
  results::ResultsLog log(std::filesystem::temp_directory_path() / ("cobench-reach-" + std::to_string(::getpid()) + ".jsonl"));
  results::JobSettings settings;
  settings.base = "b";
  settings.head = "h";
  settings.reach = true;
  settings.reach_method = "how";
  log.settings(settings);
  log.reach({"grid", {Status::Unknown, 3, 0, "head: failed"}, {{"BM_W/8", {Status::NotReached, 3, 0, ""}}}});
  log.reach({"", {Status::Unknown, 0, 0, "runner go"}, {}});
  const results::ResultsFile back = results::read_results(log.path());
  // A reach line with a status this cobench does not know is an error naming its line.
  append_line_durable(log.path(), R"({"type":"reach","status":"maybe","changed_lines":1,"executed_changed_lines":0})");
  try {
    results::read_results(log.path());
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(".jsonl:4: $.status: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected reached, not_reached or unknown"), std::string::npos) << e.what();
  }
  std::filesystem::remove(log.path());
  EXPECT_TRUE(back.settings.reach);
  EXPECT_EQ(back.settings.reach_method, "how");
  ASSERT_EQ(back.reach.size(), 2u);
  EXPECT_EQ(back.reach[0].target, "grid");
  EXPECT_EQ(back.reach[0].fallback.reason, "head: failed");
  EXPECT_EQ(back.reach[0].instances.at("BM_W/8").status, Status::NotReached);
  EXPECT_EQ(back.reach[0].instances.at("BM_W/8").changed_lines, 3);
  EXPECT_EQ(back.reach[1].target, "");
}

}  // namespace
}  // namespace cobench::aggregate
