// `cobench run` and `cobench report` on a real CMake + Google Benchmark project.
#include <signal.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "job/run_fixture.h"

namespace cobench::job {
namespace {

using cobench::testing::explain;
using testing::find_row;
using testing::RunFixture;

TEST(RunE2E, ReportsRegressionPassCrashAndTimeoutThenRebuildsFromATruncatedLog) {
  RunFixture fx;
  auto result = fx.run({"--run-timeout", "2", "--budget", "10%"});
  ASSERT_EQ(result.exit_code, 0) << explain(result);  // report mode: exit 0 whatever the verdicts
  EXPECT_NE(result.out.find("base: " + fx.base), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("head: " + fx.head), std::string::npos) << result.out;

  auto report = fx.report();
  EXPECT_EQ(report.base, fx.base);
  EXPECT_EQ(report.head, fx.head);
  if (auto* slow = find_row(report, "BM_Slow")) {
    EXPECT_EQ(slow->verdict, verdict::Verdict::Regression) << slow->note;
    EXPECT_EQ(slow->target, "bench_slow");
    EXPECT_GE(slow->runs_head, 6);
  }
  if (auto* same = find_row(report, "BM_Same")) {
    EXPECT_EQ(same->verdict, verdict::Verdict::Pass) << same->note;
  }
  if (auto* crash = find_row(report, "BM_Crash")) {
    EXPECT_NE(crash->note.find("head crashed (SIGSEGV) in 6/6 runs"), std::string::npos) << crash->note;
    EXPECT_EQ(crash->failed_runs.size(), 6u);
  }
  if (auto* hang = find_row(report, "BM_Hang")) {
    EXPECT_NE(hang->note.find("head timed out in 6/6 runs"), std::string::npos) << hang->note;
  }
  EXPECT_TRUE(std::filesystem::exists(fx.out_dir() / "report.md"));
  EXPECT_EQ(fx.repo.git({"worktree", "list", "--porcelain"}).find("worktree " + fx.repo.path().string() + "/.cobench"),
            std::string::npos);

  // A killed job leaves a half-written last line: `cobench report` still rebuilds everything.
  const auto results = fx.out_dir() / "results.jsonl";
  std::string text = read_file(results);
  const auto copy = fx.dir / "partial/results.jsonl";
  std::filesystem::create_directories(copy.parent_path());
  write_file_atomic(copy, text.substr(0, text.size() - 40));
  auto rebuilt = cobench::testing::run_cobench({"report", copy.string()});
  ASSERT_EQ(rebuilt.exit_code, 0) << explain(rebuilt);
  EXPECT_NE(rebuilt.out.find("BM_Slow"), std::string::npos) << rebuilt.out;
  auto partial = report::from_json(nlohmann::json::parse(read_file(copy.parent_path() / "report.json")));
  EXPECT_EQ(partial.head, fx.head);
  EXPECT_FALSE(partial.notes.empty());
  EXPECT_TRUE(std::filesystem::exists(copy.parent_path() / "report.md"));

  // A damaged line in the middle is an input error naming the file and line.
  const auto pos = text.find('\n', text.find('\n') + 1);
  write_file_atomic(copy, text.substr(0, pos + 1) + "{not json\n" + text.substr(pos + 1));
  auto damaged = cobench::testing::run_cobench({"report", copy.string()});
  EXPECT_EQ(damaged.exit_code, 2) << explain(damaged);
  EXPECT_NE(damaged.err.find(copy.string() + ":3:"), std::string::npos) << damaged.err;
}

TEST(RunE2E, GateExitsOneOnRegressionAndZeroWithout) {
  RunFixture fx;
  auto gated = fx.run({"--target", "^bench_(slow|same)$", "--gate", "--budget", "10%"});
  EXPECT_EQ(gated.exit_code, 1) << explain(gated);
  auto clean = fx.run({"--target", "^bench_same$", "--gate", "--budget", "10%"});
  EXPECT_EQ(clean.exit_code, 0) << explain(clean);
  // A head that always crashes where its base does not: the change broke it, which fails the gate.
  auto crash = fx.run({"--target", "^bench_crash$", "--gate"});
  EXPECT_EQ(crash.exit_code, 1) << explain(crash);
  auto report_mode = fx.run({"--target", "^bench_crash$"});
  EXPECT_EQ(report_mode.exit_code, 0) << explain(report_mode);
}

TEST(RunE2E, HeadThatFailsToBuildExitsThreeNamingTheTarget) {
  RunFixture fx;
  auto result = fx.run({"--head", fx.broken, "--target", "bench_same"});
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  EXPECT_NE(result.err.find("head"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("bench_same"), std::string::npos) << result.err;
  EXPECT_EQ(fx.repo.git({"worktree", "list"}).find(".cobench"), std::string::npos);
}

TEST(RunE2E, SigtermMidRunLeavesNoWorktreeAndAReportOfTheRunsDone) {
  RunFixture fx;
  const auto pid_file = fx.dir / "cobench.pid";
  process::Result result;
  std::thread job([&] {
    std::vector<std::string> script = {"sh", "-c", "echo $$ > \"$0\"; exec \"$@\"", pid_file.string(), COBENCH_EXE,
                                       "run", "--repo", fx.repo.path().string(), "--base", fx.base, "--target",
                                       "bench_hang", "--run-timeout", "2", "--min-runs", "6",
                                       "--bench-arg=--benchmark_min_time=0.01"};
    result = process::run_capture(script);
  });
  // Wait for the first finished run, then cancel the way CI does.
  const auto results = fx.out_dir() / "results.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  bool ran = false;
  while (!ran && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::error_code ec;
    ran = std::filesystem::exists(results, ec) && read_file(results).find("\"type\":\"run\"") != std::string::npos;
  }
  ASSERT_TRUE(ran) << "no run was logged";
  ::kill(std::stoi(read_file(pid_file)), SIGTERM);
  job.join();
  EXPECT_EQ(result.exit_code, 130) << explain(result);
  EXPECT_EQ(fx.repo.git({"worktree", "list"}).find(".cobench"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(fx.repo.path() / ".cobench/head"));
  auto report = fx.report();
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes.back().find("interrupted by SIGTERM"), std::string::npos) << report.notes.back();
  EXPECT_FALSE(report.benchmarks.empty());
}

}  // namespace
}  // namespace cobench::job
