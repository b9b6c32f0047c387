// --metric auto on a real CMake + Google Benchmark project in a real git
// repository: a head that adds time off the CPU (a sleep in the measured
// loop) leaves cpu_time unchanged, so auto must judge that row on real_time,
// say why, and call it a regression under the defaults; the unchanged row
// beside it keeps cpu_time.
#include <gtest/gtest.h>

#include "job/run_fixture.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
using testing::find_row;
namespace fs = std::filesystem;

/// About 1 ms of dependent multiply-adds per iteration, then `sleep_us` off the CPU.
std::string spin_then_sleep(const std::string& name, int sleep_us) {
  std::string sleep = sleep_us > 0 ? "    std::this_thread::sleep_for(std::chrono::microseconds(" +
                                         std::to_string(sleep_us) + "));\n"
                                   : "";
  return "#include <benchmark/benchmark.h>\n#include <chrono>\n#include <thread>\n"
         "static void " + name + "(benchmark::State& state) {\n"
         "  for (auto _ : state) {\n    unsigned x = 1;\n"
         "    for (int i = 0; i < 600000; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }\n" +
         sleep + "  }\n}\nBENCHMARK(" + name + ");\nBENCHMARK_MAIN();\n";
}

TEST(MetricAutoE2E, AHeadThatWaitsOffTheCpuIsJudgedOnRealTimeAndIsARegression) {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_wait", "wait.cc"}, {"bench_busy", "busy.cc"}}));
  repo.write("wait.cc", spin_then_sleep("BM_Wait", 0));
  repo.write("busy.cc", spin_then_sleep("BM_Busy", 0));
  const std::string base = repo.commit("base");
  // A sleep of a quarter of the spin (with the kernel's timer slack, more): the
  // same CPU time per iteration, ~25-30% more wall time.
  repo.write("wait.cc", spin_then_sleep("BM_Wait", 250));
  repo.write("busy.cc", spin_then_sleep("BM_Busy", 0) + "// touched, unchanged code\n");
  repo.commit("head");

  // The defaults but for a short job: --metric auto, paired, the look rule.
  const auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--min-runs", "8",
                                   "--max-runs", "12", "--bench-arg=--benchmark_min_time=0.05", "--alloc-runs", "0"},
                                  repo.path());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto r = report::from_json(nlohmann::json::parse(read_file(repo.path() / ".cobench/report/report.json")));
  const auto* wait = find_row(r, "BM_Wait");
  const auto* busy = find_row(r, "BM_Busy");
  ASSERT_TRUE(wait && busy);
  EXPECT_EQ(wait->metric, "real_time");
  EXPECT_NE(wait->note.find("the change moved time off or onto the CPU"), std::string::npos) << wait->note;
  EXPECT_EQ(wait->verdict, verdict::Verdict::Regression) << wait->note;
  // The unchanged row: the change moved no time off the CPU. On a quiet CPU it keeps cpu_time; beside
  // a CPU hog on the pinned CPU (the adversity run) both of its sides are off the CPU half the
  // time, and auto rightly judges it on real_time, saying why, never blaming the change.
  EXPECT_EQ(busy->note.find("the change moved time off or onto the CPU"), std::string::npos) << busy->note;
  if (busy->metric != "cpu_time") {
    EXPECT_EQ(busy->metric, "real_time") << busy->note;
    EXPECT_NE(busy->note.find("a neighbour kept it off the CPU"), std::string::npos) << busy->note;
  }
}

}  // namespace
}  // namespace cobench::job
