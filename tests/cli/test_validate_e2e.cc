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

namespace {

TEST(ValidateRepoE2E, AUsersRepositoryAgainstItselfIsTalliedPerBenchmarkAndLeftAsItWas) {
  t::TempDir dir;
  fs::create_directories(dir / "tmp");
  // A project in a subfolder, as Eigen's benchmarks/ is, with one benchmark
  // registered at run time under a name full of spaces, brackets and slashes.
  t::GitRepo repo(dir / "repo");
  repo.write("bench/CMakeLists.txt", t::gbench_cmakelists({{"bench_mix", "mix.cc"}}));
  repo.write("bench/mix.cc", R"(#include <benchmark/benchmark.h>
static void BM_Mix(benchmark::State& state) {
  for (auto _ : state) {
    unsigned x = 7u;
    for (int i = 0; i < 300; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }
  }
}
BENCHMARK(BM_Mix);
int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("odd name [a/b] {1}", [](benchmark::State& state) {
    for (auto _ : state) {
      unsigned x = 9u;
      for (int i = 0; i < 300; ++i) { x = x * 22695477u + 1u; benchmark::DoNotOptimize(x); }
    }
  });
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
}
)");
  const std::string sha = repo.commit("suite");
  const fs::path out = dir / "out";
  auto result = t::run_cobench({"validate", "--repo", repo.path().string(), "--source-dir", "bench", "--jobs", "2",
                                "--min-time", "0.01", "--run-arg=--max-runs=8", "--run-arg=--alloc-runs=0", "--out",
                                out.string()},
                               dir.path(), {{"TMPDIR", (dir / "tmp").string()}}, 600);
  ASSERT_EQ(result.exit_code, 0) << t::explain(result);
  EXPECT_NE(result.out.find("- repository: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("measured against itself"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Per benchmark, method `default`"), std::string::npos) << result.out;

  const auto summary = nlohmann::json::parse(cobench::read_file(out / "summary.json"));
  EXPECT_EQ(summary.at("repository"), repo.path().string());
  const auto& method = summary.at("methods").at(0);
  ASSERT_EQ(method.at("rows").size(), 1u);
  const auto& aa = method.at("rows").at(0);
  EXPECT_EQ(aa.at("row"), "aa");
  EXPECT_EQ(aa.at("verdicts"), 4) << "2 jobs x 2 benchmarks; the controls give none";
  std::map<std::string, int> per_benchmark;
  for (const auto& b : method.at("benchmarks")) {
    SCOPED_TRACE(b.dump());
    EXPECT_EQ(b.at("target"), "bench_mix");
    per_benchmark[b.at("name")] = b.at("verdicts");
    EXPECT_EQ(b.at("regression").get<int>() + b.at("pass").get<int>() + b.at("inconclusive").get<int>(),
              b.at("verdicts").get<int>());
    EXPECT_LE(b.at("faster").get<int>(), b.at("pass").get<int>());
  }
  EXPECT_EQ(per_benchmark, (std::map<std::string, int>{{"BM_Mix", 2}, {"odd name [a/b] {1}", 2}}));
  for (const auto& job : method.at("jobs")) {
    const auto report = cobench::report::from_json(
        nlohmann::json::parse(cobench::read_file(out / job.at("report").get<std::string>())));
    EXPECT_EQ(report.base, sha);
    EXPECT_EQ(report.head, sha);
  }
  // Worktrees and builds went to the temporary folder, which is gone; the repository is as it was.
  EXPECT_FALSE(fs::exists(repo.path() / ".cobench"));
  EXPECT_EQ(repo.git({"status", "--porcelain"}), "");
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));
}

TEST(ValidateRepoE2E, KnobsOfTheFixtureAndAPathThatIsNoRepositoryAreRefusedBeforeAnyJob) {
  t::TempDir dir;
  fs::create_directories(dir / "plain");
  auto not_a_repo = t::run_cobench({"validate", "--repo", (dir / "plain").string()}, dir.path());
  EXPECT_EQ(not_a_repo.exit_code, 2) << t::explain(not_a_repo);
  EXPECT_NE(not_a_repo.err.find((dir / "plain").string() + "' is not inside a git work tree"), std::string::npos)
      << not_a_repo.err;
  t::GitRepo repo(dir / "repo");
  repo.write("README", "x\n");
  repo.commit("one");
  auto knob = t::run_cobench({"validate", "--repo", repo.path().string(), "--extra-allocs", "2"}, dir.path());
  EXPECT_EQ(knob.exit_code, 2) << t::explain(knob);
  EXPECT_NE(knob.err.find("--extra-allocs: a knob of the bundled fixture"), std::string::npos) << knob.err;
  auto source_dir = t::run_cobench({"validate", "--source-dir", "bench"}, dir.path());
  EXPECT_EQ(source_dir.exit_code, 2) << t::explain(source_dir);
  EXPECT_NE(source_dir.err.find("give --repo too"), std::string::npos) << source_dir.err;
}

TEST(ValidateRepoE2E, AResumedCampaignRunsOnlyTheJobsTheEarlierSittingDidNotFinish) {
  t::TempDir dir;
  fs::create_directories(dir / "tmp");
  t::GitRepo repo(dir / "repo");
  repo.write("CMakeLists.txt", t::gbench_cmakelists({{"bench_hash", "hash.cc"}}));
  repo.write("hash.cc", R"(#include <benchmark/benchmark.h>
#include <functional>
#include <string>
static void BM_Hash(benchmark::State& state) {
  const std::string text(256, 'x');
  for (auto _ : state) benchmark::DoNotOptimize(std::hash<std::string>{}(text));
}
BENCHMARK(BM_Hash);
BENCHMARK_MAIN();
)");
  repo.commit("suite");
  const fs::path out = dir / "out";
  const std::vector<std::string> common = {"validate", "--repo", repo.path().string(), "--min-time", "0.01",
                                           "--run-arg=--max-runs=8", "--run-arg=--alloc-runs=0", "--out", out.string()};
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> argv = common;
    argv.insert(argv.end(), more.begin(), more.end());
    return t::run_cobench(argv, dir.path(), {{"TMPDIR", (dir / "tmp").string()}}, 600);
  };
  auto first = with({"--jobs", "1"});
  ASSERT_EQ(first.exit_code, 0) << t::explain(first);
  const std::string first_report = cobench::read_file(out / "jobs" / "001" / "report.json");

  auto again = with({"--jobs", "2"});  // not over a campaign that is there
  EXPECT_EQ(again.exit_code, 2) << t::explain(again);
  EXPECT_NE(again.err.find("a campaign's summary.json is already there"), std::string::npos) << again.err;
  auto other = with({"--jobs", "2", "--resume", "--run-arg=--max-runs=10"});
  EXPECT_EQ(other.exit_code, 2) << t::explain(other);
  EXPECT_NE(other.err.find((out / "summary.json").string() + ": --resume: every job's flags differ"), std::string::npos)
      << other.err;

  auto resumed = with({"--jobs", "2", "--resume"});
  ASSERT_EQ(resumed.exit_code, 0) << t::explain(resumed);
  EXPECT_NE(resumed.err.find("1 of 2 jobs read back"), std::string::npos) << resumed.err;
  EXPECT_EQ(resumed.err.find("job 1/2"), std::string::npos) << "job 1 ran in the first sitting: " << resumed.err;
  EXPECT_NE(resumed.err.find("job 2/2 (default): running"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.out.find("- resumed (--resume): 1 job from 1 earlier sitting"), std::string::npos) << resumed.out;
  EXPECT_EQ(cobench::read_file(out / "jobs" / "001" / "report.json"), first_report);  // read back, not run again

  const auto summary = nlohmann::json::parse(cobench::read_file(out / "summary.json"));
  const auto& jobs = summary.at("methods").at(0).at("jobs");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs.at(0).at("index"), 1);
  EXPECT_EQ(jobs.at(1).at("index"), 2);
  EXPECT_EQ(summary.at("methods").at(0).at("rows").at(0).at("verdicts"), 2) << "one benchmark, two jobs";
  EXPECT_EQ(summary.at("resumed").at("jobs"), 1);
  ASSERT_EQ(summary.at("resumed").at("commands").size(), 1u);
  EXPECT_NE(summary.at("resumed").at("commands").at(0).get<std::string>().find("--jobs 1"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));
}

}  // namespace
