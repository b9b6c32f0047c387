// Instruction records -> report rows: rows for a job that counted
// instructions only, both verdicts beside each other when time was measured
// too, failures and timeouts under callgrind in the notes, the target's
// status with how it was counted, and a target of which nothing was counted.
#include <gtest/gtest.h>

#include "core/errors.h"

#include "report/report.h"
#include "results/aggregate.h"
#include "results/log.h"

namespace cobench::results {
namespace {

RunRecord counted(const std::string& target, Side side, int run, std::map<std::string, double> instructions) {
  RunRecord r;
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

ResultsFile instructions_only() {
  ResultsFile file;
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.metric = "instructions";
  file.settings.instructions = InstructionSettings{2, 0.005, verdict::Governing::Time};
  for (int run = 0; run < 2; ++run) {
    file.runs.push_back(counted("bench_a", Side::Base, run, {{"BM_work", 8000}, {"BM_same", 4000}}));
    file.runs.push_back(counted("bench_a", Side::Head, run, {{"BM_work", 16000}, {"BM_same", 4000}}));
  }
  return file;
}

const report::BenchmarkRow& row(const report::Report& report, const std::string& name) {
  for (const auto& r : report.benchmarks)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

TEST(InstructionMetrics, AJobCountingInstructionsOnlyGetsItsRowsFromThem) {
  const report::Report report = aggregate(instructions_only(), "results.jsonl");
  ASSERT_EQ(report.benchmarks.size(), 2u);
  const auto& work = row(report, "BM_work");
  EXPECT_FALSE(work.time_measured);
  ASSERT_TRUE(work.instructions && work.instructions->compared);
  EXPECT_DOUBLE_EQ(work.instructions->ratio, 2);
  EXPECT_EQ(work.verdict, stats::Verdict::Regression);
  EXPECT_EQ(work.decided_by, "instructions");
  EXPECT_EQ(work.note, "");
  EXPECT_DOUBLE_EQ(work.instructions->slowdown, 0.6 / 0.005);
  EXPECT_EQ(row(report, "BM_same").verdict, stats::Verdict::Pass);
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
  ResultsFile file = instructions_only();
  for (auto& r : file.runs)
    if (r.side == Side::Head) {
      r.samples.erase("BM_work");
      r.errors["BM_work"] = "timed out after 300 s under callgrind (1 iteration)";
    }
  const report::Report report = aggregate(file, "r");
  const auto& work = row(report, "BM_work");
  ASSERT_TRUE(work.instructions);
  EXPECT_FALSE(work.instructions->compared);
  EXPECT_EQ(work.verdict, stats::Verdict::Inconclusive);
  EXPECT_NE(work.note.find("head: timed out after 300 s under callgrind (1 iteration) in 2/2 runs"), std::string::npos)
      << work.note;
}

TEST(InstructionMetrics, ATargetOfWhichNothingWasCountedIsAnInfrastructureFailure) {
  ResultsFile file = instructions_only();
  for (auto& r : file.runs) {
    for (const auto& [name, sample] : r.samples) r.errors[name] = "exit status 1 under callgrind (1 iteration)";
    r.samples.clear();
    r.status = "exit 1";
    r.detail = "exit status 1 under callgrind (1 iteration)";
    r.command = "valgrind --tool=callgrind ./bench_a";
  }
  const report::Report report = aggregate(file, "r");
  const auto failures = report::infrastructure_failures(report);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].rfind("bench_a: every instruction run failed; first: base run 0: exit status 1", 0), 0u)
      << failures[0];
  EXPECT_EQ(report.targets[0].instructions_status.rfind("not collected: base run 0: exit status 1", 0), 0u);
}

TEST(InstructionMetrics, BesideTimeBothVerdictsStandAndTimeGoverns) {
  ResultsFile file = instructions_only();
  file.settings.metric = "cpu_time";
  for (int run = 0; run < 6; ++run)
    for (Side side : {Side::Base, Side::Head}) {
      RunRecord timed;
      timed.target = "bench_a";
      timed.side = side;
      timed.run = run;
      timed.samples["BM_work"] = {{"real_ns", 100.0 + run}, {"cpu_ns", 100.0 + run}, {"threads", 1}};
      timed.samples["BM_same"] = {{"real_ns", 50.0 + run}, {"cpu_ns", 50.0 + run}, {"threads", 1}};
      file.runs.push_back(timed);
    }
  const report::Report report = aggregate(file, "r");
  ASSERT_EQ(report.benchmarks.size(), 2u);  // one row per benchmark, not one per metric
  const auto& work = row(report, "BM_work");
  EXPECT_TRUE(work.time_measured);
  EXPECT_EQ(work.base_samples.size(), 6u);
  ASSERT_TRUE(work.instructions);
  EXPECT_EQ(work.instructions->verdict, stats::Verdict::Regression);
  EXPECT_EQ(work.decided_by, "time");
  EXPECT_EQ(work.verdict, work.time.verdict);
  EXPECT_NE(work.note.find("instructions regression"), std::string::npos) << work.note;
  // And the same records judged with instructions governing.
  file.settings.instructions->governing = verdict::Governing::Instructions;
  EXPECT_EQ(row(aggregate(file, "r"), "BM_work").verdict, stats::Verdict::Regression);
}

TEST(InstructionMetrics, ATimeBudgetThatStoppedTheRunsIsSaid) {
  ResultsFile file = instructions_only();
  file.runs.resize(2);  // run 0 only
  RunRecord skipped;
  skipped.target = "bench_a";
  skipped.kind = "instructions";
  skipped.status = "skipped";
  skipped.run = 1;
  skipped.detail = "time budget 1.0 min exhausted after 1 instruction runs per side";
  file.runs.push_back(skipped);
  const report::Report report = aggregate(file, "r");
  EXPECT_EQ(report.targets[0].instruction_runs, 1);
  EXPECT_NE(report.targets[0].instructions_status.find(
                "measured (1 run per side under callgrind, then time budget 1.0 min exhausted after 1 instruction runs"),
            std::string::npos)
      << report.targets[0].instructions_status;
}

TEST(InstructionMetrics, SettingsRoundTripThroughResultsJsonl) {
  JobSettings settings = instructions_only().settings;
  settings.instructions->governing = verdict::Governing::Worst;
  auto line = to_json(settings);
  line["type"] = "settings";
  const JobSettings back = job_settings_from_json(line, "results.jsonl:2");
  EXPECT_EQ(back.metric, "instructions");
  ASSERT_TRUE(back.instructions);
  EXPECT_EQ(back.instructions->runs, 2);
  EXPECT_DOUBLE_EQ(back.instructions->tolerance, 0.005);
  EXPECT_EQ(back.instructions->governing, verdict::Governing::Worst);
  line["instructions"] = nullptr;
  EXPECT_THROW(job_settings_from_json(line, "results.jsonl:2"), InputError);  // metric instructions without them
}

}  // namespace
}  // namespace cobench::results
