// `cobench run --metric instructions` end to end: real Google Benchmark
// binaries of a real temporary git repository, counted under valgrind's
// callgrind. Twice the work reads 1.9-2.1 and is a regression; an unchanged
// benchmark reads within 0.5% of 1 and passes; a benchmark whose setup
// allocates and loops differently on each side still reads its loop body's
// instructions and allocations; two jobs count the same within 0.5%; beside
// time, one row carries both verdicts; a benchmark that hangs under valgrind
// is reported as timed out and the time budget ends the runs.
#include <cmath>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "process/process.h"
#include "run_fixture.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;
using job::testing::find_row;

/// A benchmark with `setup` before its loop and `work` dependent multiply-adds per iteration.
std::string bench_source(const std::string& name, int work, const std::string& setup = "") {
  return "#include <benchmark/benchmark.h>\n#include <memory>\n#include <unistd.h>\n#include <vector>\n"
         "static void " + name + "(benchmark::State& state) {\n" + setup +
         "  for (auto _ : state) {\n    unsigned x = 1;\n"
         "    for (int i = 0; i < " + std::to_string(work) + "; ++i) { x = x * 1664525u + 1013904223u; "
         "benchmark::DoNotOptimize(x); }\n  }\n}\nBENCHMARK(" + name + ");\nBENCHMARK_MAIN();\n";
}

/// Setup that allocates `blocks` blocks and loops over them: nothing the loop body does.
std::string allocating_setup(int blocks) {
  return "  std::vector<std::unique_ptr<int>> blocks;\n"
         "  for (int i = 0; i < " + std::to_string(blocks) + "; ++i) blocks.push_back(std::make_unique<int>(i));\n"
         "  unsigned long sum = 0;\n  for (const auto& b : blocks) sum += *b;\n  benchmark::DoNotOptimize(sum);\n";
}

report::Report report_in(const fs::path& out) {
  return report::from_json(nlohmann::json::parse(read_text(out / "report.json")));
}

bool within(double value, double expected, double fraction) { return std::abs(value / expected - 1) <= fraction; }

class InstructionsE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!process::find_on_path("valgrind")) GTEST_SKIP() << "valgrind is not installed (make deps installs it)";
  }
};

TEST_F(InstructionsE2E, ReadsTheLoopBodyNotTheSetupAndCountsTheSameInEveryJob) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("CMakeLists.txt",
             gbench_cmakelists({{"bench_work", "work.cc"}, {"bench_same", "same.cc"}, {"bench_setup", "setup.cc"}}));
  repo.write("work.cc", bench_source("BM_Work", 2000));
  repo.write("same.cc", bench_source("BM_Same", 2000));
  repo.write("setup.cc", bench_source("BM_Setup", 2000, allocating_setup(10)));
  const std::string base = repo.commit("base");
  repo.write("work.cc", bench_source("BM_Work", 4000));
  repo.write("setup.cc", bench_source("BM_Setup", 2000, allocating_setup(3000)));  // the setup alone changes
  repo.commit("head: twice the work, a heavier setup");

  const std::vector<std::string> common = {"run", "--repo", repo.path().string(), "--base", base, "--all",
                                           "--instruction-runs", "2", "--no-machine-control"};
  auto args = [&](std::vector<std::string> more) {
    std::vector<std::string> argv = common;
    argv.insert(argv.end(), more.begin(), more.end());
    return argv;
  };
  const fs::path out1 = dir / "out1";
  auto first = run_cobench(args({"--metric", "instructions", "--alloc-runs", "1", "--out", out1.string()}));
  ASSERT_EQ(first.exit_code, 0) << explain(first);
  const report::Report one = report_in(out1);

  const auto* work = find_row(one, "BM_Work");
  const auto* same = find_row(one, "BM_Same");
  const auto* setup = find_row(one, "BM_Setup");
  ASSERT_TRUE(work && same && setup);
  for (const auto* row : {work, same, setup}) {
    ASSERT_TRUE(row->instructions && row->instructions->compared) << row->name << ": " << row->note;
    EXPECT_FALSE(row->time_measured);
    EXPECT_EQ(row->decided_by, "instructions");
    EXPECT_EQ(row->instructions->n_base, 2);
    EXPECT_EQ(row->instructions->n_head, 2);
  }
  EXPECT_GE(work->instructions->ratio, 1.9) << work->note;
  EXPECT_LE(work->instructions->ratio, 2.1);
  EXPECT_EQ(work->verdict, verdict::Verdict::Regression);
  EXPECT_TRUE(within(same->instructions->ratio, 1, 0.005)) << same->instructions->ratio;
  EXPECT_EQ(same->verdict, verdict::Verdict::Pass);
  // The setup grew 300-fold on head and loops over its blocks: the loop body is what is read.
  EXPECT_TRUE(within(setup->instructions->ratio, 1, 0.005)) << setup->instructions->ratio;
  EXPECT_EQ(setup->verdict, verdict::Verdict::Pass) << setup->note;
  EXPECT_TRUE(within(setup->instructions->base.ir, same->instructions->base.ir, 0.005))
      << setup->instructions->base.ir << " vs the same body without setup " << same->instructions->base.ir;
  EXPECT_TRUE(within(setup->instructions->head.ir, same->instructions->head.ir, 0.005));
  // ... and so are its allocations: none in the body, 10 or 3000 in the setup.
  ASSERT_TRUE(setup->allocs) << setup->note;
  EXPECT_DOUBLE_EQ(setup->allocs->base_median, 0);
  EXPECT_DOUBLE_EQ(setup->allocs->head_median, 0);
  for (const auto& target : one.targets) {
    EXPECT_EQ(target.instruction_runs, 2) << target.name;
    EXPECT_NE(target.instructions_status.find("inside the benchmark loop only"), std::string::npos)
        << target.instructions_status;
  }
  EXPECT_NE(read_text(out1 / "report.md").find("Instructions head/base"), std::string::npos);

  // A second job, timing beside counting: one row per benchmark with both verdicts, time governing.
  const fs::path out2 = dir / "out2";
  auto second = run_cobench(args({"--metric", "cpu_time,instructions", "--min-runs", "2", "--max-runs", "2",
                                  "--alloc-runs", "0", "--bench-arg=--benchmark_min_time=0.01", "--out", out2.string()}));
  ASSERT_EQ(second.exit_code, 0) << explain(second);
  const report::Report two = report_in(out2);
  EXPECT_EQ(two.benchmarks.size(), 3u);
  for (const auto* row : {work, same, setup}) {
    SCOPED_TRACE(row->name);
    const auto* again = find_row(two, row->name);
    ASSERT_TRUE(again && again->instructions && again->instructions->compared);
    EXPECT_TRUE(again->time_measured);
    EXPECT_EQ(again->base_samples.size(), 2u);
    EXPECT_EQ(again->decided_by, "time");
    EXPECT_TRUE(within(again->instructions->base.ir, row->instructions->base.ir, 0.005));
    EXPECT_TRUE(within(again->instructions->head.ir, row->instructions->head.ir, 0.005));
  }
  const auto* work_again = find_row(two, "BM_Work");
  ASSERT_TRUE(work_again);
  EXPECT_EQ(work_again->instructions->verdict, verdict::Verdict::Regression);
  if (work_again->verdict != verdict::Verdict::Regression) {  // two timing runs rarely decide; the note says what counting did
    EXPECT_NE(work_again->note.find("instructions regression"), std::string::npos) << work_again->note;
  }
}

TEST_F(InstructionsE2E, ATimeoutUnderValgrindAndTheTimeBudgetAreReported) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_hang", "hang.cc"}, {"bench_fine", "fine.cc"}}));
  repo.write("hang.cc", bench_source("BM_Hang", 200));
  repo.write("fine.cc", bench_source("BM_Fine", 200));
  const std::string base = repo.commit("base");
  repo.write("hang.cc", bench_source("BM_Hang", 200, "  for (;;) pause();\n"));
  repo.commit("head hangs before its loop");

  const fs::path out = dir / "out";
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--all", "--metric",
                             "instructions", "--instruction-runs", "3", "--run-timeout", "30s", "--time-budget", "30s",
                             "--alloc-runs", "0", "--no-machine-control", "--out", out.string()});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const report::Report report = report_in(out);
  const auto* hang = find_row(report, "BM_Hang");
  ASSERT_TRUE(hang && hang->instructions);
  EXPECT_FALSE(hang->instructions->compared);
  EXPECT_EQ(hang->verdict, verdict::Verdict::Inconclusive);
  EXPECT_NE(hang->note.find("head: timed out after 3"), std::string::npos) << hang->note;  // 30 s, or a little more
  EXPECT_NE(hang->note.find("s under callgrind (1 iteration) in 1/1 runs"), std::string::npos) << hang->note;
  // bench_fine's first pair runs before bench_hang's; the head's hang then takes its 30 s timeout,
  // the whole budget, so whatever the build left for measuring ("time budget 30.0 s (26.1 s left
  // for measuring)") is spent by construction and no target gets a second pair, on an idle
  // machine or a loaded one.
  const auto* fine = find_row(report, "BM_Fine");
  ASSERT_TRUE(fine && fine->instructions);
  EXPECT_TRUE(fine->instructions->compared) << fine->note;
  EXPECT_EQ(fine->instructions->n_base, 1);
  for (const auto& target : report.targets) {
    const std::string& status = target.instructions_status;
    const auto budget = status.find("then time budget 30.0 s");
    EXPECT_NE(budget, std::string::npos) << target.name << ": " << status;
    EXPECT_NE(status.find("exhausted after 1 instruction runs per side", budget), std::string::npos)
        << target.name << ": " << status;
  }
}

}  // namespace
}  // namespace cobench::testing
