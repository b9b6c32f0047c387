// Allocation budgets end to end: head adds exactly one allocation per
// iteration to one Google Benchmark benchmark. `cobench run` must call it a
// regression under allocs = "0" and leave the control alone; then the same two
// builds go through 20 more independent allocation comparisons (measure under
// the preload, judge) with the same outcome every time.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "aggregate/alloc_metrics.h"
#include "run/alloc_runs.h"
#include "run_fixture.h"
#include "support/testing.h"
#include "verdict/budget.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

std::string bench_source(bool extra_allocation) {
  return std::string(R"(#include <benchmark/benchmark.h>
#include <cstdlib>
#include <memory>
void* volatile sink;
static void BM_hot(benchmark::State& state) {
  for (auto _ : state) {
    int x = 1;
    benchmark::DoNotOptimize(x);
)") + (extra_allocation ? "    auto p = std::make_unique<int>(x);\n    sink = p.get();\n" : "") + R"(  }
}
BENCHMARK(BM_hot);
static void BM_control(benchmark::State& state) {
  for (auto _ : state) {
    void* p = std::malloc(32);
    sink = p;
    std::free(p);
  }
}
BENCHMARK(BM_control);
BENCHMARK_MAIN();
)";
}

fs::path find_executable(const fs::path& dir, const std::string& name) {
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() == name) return entry.path();
  return {};
}

/// main: no allocation in BM_hot; feature (checked out): one per iteration.
void commit_base_and_head(GitRepo& repo) {
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_alloc", "bench.cc"}}));
  repo.write("bench.cc", bench_source(false));
  repo.commit("base");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("bench.cc", bench_source(true));
  repo.commit("head allocates in BM_hot");
}

TEST(AllocBudget, OneExtraAllocationIsARegressionEveryTimeAndTheControlNever) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  commit_base_and_head(repo);

  const fs::path work = dir / "work";
  auto result = run_cobench({"run", "--base", "main", "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "3",
                             "--allocs-budget", "0", "--bench-arg=--benchmark_min_time=0.001", "--no-machine-control", "--keep", "--work-dir",
                             work.string(), "--out", (dir / "out").string()},
                            repo.path());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = report::from_json(nlohmann::json::parse(read_text(dir / "out/report.json")));
  const auto* hot = job::testing::find_row(report, "BM_hot");
  const auto* control = job::testing::find_row(report, "BM_control");
  ASSERT_TRUE(hot && control && hot->allocs && control->allocs);
  EXPECT_EQ(hot->verdict, verdict::Verdict::Regression) << hot->note;
  EXPECT_DOUBLE_EQ(hot->allocs->head_median - hot->allocs->base_median, 1);
  EXPECT_NE(hot->note.find("allocs/op"), std::string::npos) << hot->note;
  EXPECT_EQ(control->allocs->verdict, verdict::Verdict::Pass);
  EXPECT_NE(control->verdict, verdict::Verdict::Regression) << control->note;
  ASSERT_EQ(report.targets.size(), 1u);
  EXPECT_EQ(report.targets[0].alloc_runs, 3);
  EXPECT_EQ(report.targets[0].alloc_status, "measured (3 runs per side, counting allocator)");

  // 20 more comparisons of the kept builds: measure under the preload, then judge.
  fs::path job;  // --keep left the job's own folder, <work>/job-XXXXXX
  for (const auto& entry : fs::directory_iterator(work))
    if (entry.path().filename().string().rfind("job-", 0) == 0) job = entry.path();
  ASSERT_FALSE(job.empty());
  run::UnitPair pair;
  pair.target = "bench_alloc";
  pair.base = {"bench_alloc", {find_executable(job / "base/build", "bench_alloc").string()}, job / "base/build"};
  pair.head = {"bench_alloc", {find_executable(job / "head/build", "bench_alloc").string()}, job / "head/build"};
  ASSERT_FALSE(pair.base.argv[0].empty());
  ASSERT_FALSE(pair.head.argv[0].empty());
  run::ProcessSettings settings{{"--benchmark_min_time=0.001"}, 0, 60, {}, dir / "again"};
  for (const char* keep : {"PATH", "HOME", "LD_LIBRARY_PATH"})
    if (const char* value = std::getenv(keep)) settings.env.push_back(std::string(keep) + "=" + value);
  for (int comparison = 0; comparison < 20; ++comparison) {
    SCOPED_TRACE("comparison " + std::to_string(comparison));
    results::ResultsFile results;
    results.settings.runner = "gbench";
    results.settings.budgets = verdict::Budgets({0.05, config::parse_threshold("0"), std::nullopt}, {});
    ASSERT_TRUE(run::run_alloc_rounds({pair}, settings, 3, run::AllocStop::AfterAllRuns, [&](const results::RunRecord& r) { results.runs.push_back(r); }));
    report::Report judged;
    judged.targets.push_back({"bench_alloc", {}, {}, 0});
    for (const char* name : {"BM_hot", "BM_control"}) {
      report::BenchmarkRow r;
      r.target = "bench_alloc";
      r.name = name;
      r.verdict = r.time.verdict = verdict::Verdict::Pass;  // the time verdict is not under test here
      judged.benchmarks.push_back(r);
    }
    aggregate::apply_alloc_metrics(judged, results);
    ASSERT_TRUE(judged.benchmarks[0].allocs.has_value());
    ASSERT_TRUE(judged.benchmarks[1].allocs.has_value());
    EXPECT_EQ(judged.benchmarks[0].verdict, verdict::Verdict::Regression);
    EXPECT_EQ(judged.benchmarks[1].verdict, verdict::Verdict::Pass);
    EXPECT_EQ(judged.targets[0].alloc_runs, 3);
  }

  // Counts that only inform: the changed builds count BM_hot differently in their first pair and get
  // every run; the base against itself counts alike and stops after one pair.
  auto runs_until_alike = [&](const run::UnitPair& compared, const std::string& out) {
    run::ProcessSettings informing = settings;
    informing.out_dir = dir / out;
    std::vector<results::RunRecord> records;
    std::vector<std::string> said;
    EXPECT_TRUE(run::run_alloc_rounds({compared}, informing, 3, run::AllocStop::OnceTheSidesAgree,
                                      [&](const results::RunRecord& r) { records.push_back(r); }, {},
                                      [&](const std::string& line) { said.push_back(line); }));
    std::vector<std::string> statuses;
    for (const auto& r : records) statuses.push_back(r.status);
    return std::pair{statuses, said.empty() ? std::string() : said.back()};
  };
  const auto [changed_statuses, changed_said] = runs_until_alike(pair, "informing-changed");
  EXPECT_EQ(changed_statuses, std::vector<std::string>(6, "ok"));
  EXPECT_EQ(changed_said, "allocation runs: 3 per side, under the counting allocator");
  run::UnitPair same = pair;
  same.head = pair.base;
  const auto [same_statuses, same_said] = runs_until_alike(same, "informing-same");
  // One pair, and the record of why no more ran, which the reports read.
  EXPECT_EQ(same_statuses, (std::vector<std::string>{"ok", "ok", results::kCountedAlikeStatus}));
  EXPECT_EQ(same_said, "allocation runs: 1 per side, both sides counted alike, under the counting allocator");
}

TEST(AllocBudget, TimingRoundsThatSpendTheBudgetCannotLeaveTheAllocationBudgetUnjudged) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  commit_base_and_head(repo);
  // Each timing run takes about 1 s (two benchmarks at 0.5 s): a 4 s measuring
  // budget is spent by the first timing pairs, so the allocation runs, which a
  // budget makes verdicts, must come before them. The allocation runs are
  // short (0.05 s per benchmark) but slow down on a loaded machine; 4 s leaves
  // them room beside a CPU hog (1 s did not: they spent it all, no timing
  // run was left to make the row).
  auto result = run_cobench({"run", "--base", "main", "--min-runs", "6", "--max-runs", "30", "--alloc-runs", "3",
                             "--allocs-budget", "0", "--measure-budget", "4s", "--bench-arg=--benchmark_min_time=0.5",
                             "--no-machine-control", "--out", (dir / "out").string()},
                            repo.path());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = report::from_json(nlohmann::json::parse(read_text(dir / "out/report.json")));
  const auto* hot = job::testing::find_row(report, "BM_hot");
  ASSERT_TRUE(hot);
  ASSERT_TRUE(hot->allocs) << hot->note;
  EXPECT_EQ(hot->verdict, verdict::Verdict::Regression) << hot->note;
  EXPECT_EQ(hot->decided_by, "allocs/op");
  ASSERT_EQ(report.targets.size(), 1u);
  EXPECT_GE(report.targets[0].alloc_runs, 1) << report.targets[0].alloc_status;
  EXPECT_LT(hot->runs_base, 6) << "the timing rounds were meant to run out of budget";
}

}  // namespace
}  // namespace cobench::testing
