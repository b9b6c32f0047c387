// `cobench validate` end to end: the fixture built on both sides by real
// `cobench run` jobs, every row of the table printed, and the summary JSON
// counting every verdict of every job (counts, never timings); the controls
// every job carries give no verdict.
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "report/report.h"
#include "support/testing.h"

namespace t = cobench::testing;
namespace fs = std::filesystem;

namespace {

TEST(ValidateE2E, AShortRunPrintsEveryRowAndCountsEveryVerdict) {
  t::TempDir dir;
  fs::create_directories(dir / "tmp");
  const fs::path out = dir / "out";
  // Small: one job, at most 8 runs per side, short runs, one allocation run per side.
  auto result = t::run_cobench({"validate", "--short", "--jobs", "1", "--out", out.string(), "--min-time", "0.01",
                                "--run-arg=--max-runs=8", "--run-arg=--alloc-runs=1"},
                               dir.path(), {{"TMPDIR", (dir / "tmp").string()}}, 600);
  ASSERT_EQ(result.exit_code, 0) << t::explain(result);

  // The machine context first, then a row per true effect.
  for (const char* expected : {"- command: `", "validate --short --jobs 1", "load average (1 / 5 / 15 min): ",
                               "### Method `default`: cobench run's defaults", "| 0% (A/A) | 4 |", "| 3% | 1 |",
                               "| 5% | 1 |", "| 10% | 1 |", "| 20% | 1 |", "| 50% | 1 |",
                               "| +1 allocation per iteration | 1 |", "measuring seconds per decided verdict"})
    EXPECT_NE(result.out.find(expected), std::string::npos) << expected << "\n" << result.out;
  EXPECT_LT(result.out.find("load average"), result.out.find("| 0% (A/A) |"));

  const auto summary = nlohmann::json::parse(cobench::read_file(out / "summary.json"));
  EXPECT_EQ(summary.at("jobs_per_method"), 1);
  ASSERT_EQ(summary.at("methods").size(), 1u);
  const auto& method = summary.at("methods").at(0);
  EXPECT_EQ(method.at("name"), "default");
  std::map<std::string, int> verdicts;
  for (const auto& row : method.at("rows")) {
    SCOPED_TRACE(row.dump());
    verdicts[row.at("row")] = row.at("verdicts");
    EXPECT_EQ(row.at("regression").get<int>() + row.at("pass").get<int>() + row.at("inconclusive").get<int>(),
              row.at("verdicts").get<int>());
  }
  EXPECT_EQ(verdicts, (std::map<std::string, int>{{"aa", 4},
                                                  {"slowdown_3", 1},
                                                  {"slowdown_5", 1},
                                                  {"slowdown_10", 1},
                                                  {"slowdown_20", 1},
                                                  {"slowdown_50", 1},
                                                  {"allocs_1", 1}}));
  EXPECT_EQ(method.at("verdicts_at_10_or_more"), 3);
  ASSERT_EQ(method.at("jobs").size(), 1u);
  const auto& job = method.at("jobs").at(0);
  EXPECT_EQ(job.at("exit_code"), 0);
  EXPECT_EQ(job.at("verdicts").size(), 10u);

  // Every job's report is kept, readable through the report model: the ten
  // verdicts, the layout control the fixture's cobench.toml names and the two
  // rows of the machine control cobench ships (a compute and a memory loop).
  const auto report =
      cobench::report::from_json(nlohmann::json::parse(cobench::read_file(out / "jobs/001/report.json")));
  EXPECT_EQ(report.benchmarks.size(), 13u);
  std::map<std::string, std::string> controls;
  for (const auto& row : report.benchmarks)
    if (row.is_control) controls[row.target] = row.control_kind;
  EXPECT_EQ(controls, (std::map<std::string, std::string>{{"bench_control", "layout"},
                                                          {"machine:cobench_machine_control", "machine"}}));
  EXPECT_EQ(job.at("controls").size(), report.controls.size());
  EXPECT_TRUE(fs::exists(out / "jobs/001/results.jsonl"));
  EXPECT_TRUE(fs::exists(out / "summary.md"));
  EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "the temporary fixture, its worktrees and builds must be removed";
}

}  // namespace
