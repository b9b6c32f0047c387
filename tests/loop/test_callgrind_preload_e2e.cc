// The callgrind preload in real Google Benchmark processes (Debian's shared
// libbenchmark 1.7): whatever a benchmark does besides its loop body (its
// setup, paused stretches, its threads starting and waiting for each other)
// leaves the instructions per iteration of the same body unchanged, and a
// thread the body starts is counted with it.
#include <gtest/gtest.h>

#include "process/process.h"
#include "run/callgrind.h"
#include "run/process_run.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSource = R"(
#include <benchmark/benchmark.h>
#include <memory>
#include <thread>
#include <vector>

__attribute__((noinline)) void body(int work) {
  unsigned x = 1;
  for (int i = 0; i < work; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }
}
constexpr int kWork = 5000;

static void BM_body(benchmark::State& state) {
  for (auto _ : state) body(kWork);
}
BENCHMARK(BM_body);

// Setup that allocates and loops far more than the body.
static void BM_setup(benchmark::State& state) {
  std::vector<std::unique_ptr<int>> blocks;
  for (int i = 0; i < 20000; ++i) blocks.push_back(std::make_unique<int>(i));
  body(50000);
  for (auto _ : state) body(kWork);
}
BENCHMARK(BM_setup);

// Twice the body's work while paused in every iteration.
static void BM_paused(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    body(2 * kWork);
    state.ResumeTiming();
    body(kWork);
  }
}
BENCHMARK(BM_paused);

// Two benchmark threads, each one body per iteration.
static void BM_threads(benchmark::State& state) {
  for (auto _ : state) body(kWork);
}
BENCHMARK(BM_threads)->Threads(2);

// The body runs in a thread the loop starts.
static void BM_spawns(benchmark::State& state) {
  for (auto _ : state) std::thread([] { body(kWork); }).join();
}
BENCHMARK(BM_spawns);
BENCHMARK_MAIN();
)";

class CallgrindPreload : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    write_file(*dir_ / "src/bench.cc", kSource);
    write_file(*dir_ / "src/CMakeLists.txt", gbench_cmakelists({{"bench", "bench.cc"}}));
    run_checked({"cmake", "-S", (*dir_ / "src").string(), "-B", (*dir_ / "build").string(), "-DCMAKE_BUILD_TYPE=Release"});
    run_checked({"cmake", "--build", (*dir_ / "build").string(), "-j2"});
  }
  static void TearDownTestSuite() { delete dir_; }
  void SetUp() override {
    if (!process::find_on_path("valgrind")) GTEST_SKIP() << "valgrind is not installed (make deps installs it)";
  }

  /// Instructions per iteration of `name`: two processes under callgrind, 1 and 5 repetitions of one iteration
  /// (--benchmark_min_time=0), as cobench runs Google Benchmark 1.7.
  static double per_iteration(const std::string& name, bool* loop_only = nullptr) {
    run::ProcessCounts counts[2];
    const int repetitions[2] = {1, 5};
    for (int i = 0; i < 2; ++i) {
      const fs::path out = *dir_ / (run::safe_stem(name) + "-" + std::to_string(repetitions[i]) + ".callgrind");
      std::vector<std::string> argv = run::callgrind_command(out, true);
      for (const std::string& arg : {(*dir_ / "build/bench").string(), "--benchmark_filter=^" + name + "$",
                                    std::string("--benchmark_min_time=0"),
                                    "--benchmark_repetitions=" + std::to_string(repetitions[i])})
        argv.push_back(arg);
      process::Command command;
      command.argv = argv;
      command.env_overrides.push_back({"LD_PRELOAD", COBENCH_CALLGRIND_PRELOAD});
      command.timeout_seconds = 300;
      const auto result = process::run(command);
      EXPECT_TRUE(result.ok()) << explain(result);
      EXPECT_NE(result.out.find(name), std::string::npos) << "the filter ran nothing: " << explain(result);
      counts[i] = run::read_process_counts(out);
    }
    if (loop_only) *loop_only = counts[0].loop_only && counts[1].loop_only;
    // Threads(2) runs two iterations per repetition, one per thread.
    const double iterations = name.find("threads") != std::string::npos ? 2 : 1;
    return run::per_iteration(counts[0].events, iterations, counts[1].events, 5 * iterations).ir;
  }

  static TempDir* dir_;
};

TempDir* CallgrindPreload::dir_ = nullptr;

TEST_F(CallgrindPreload, OnlyTheLoopBodyIsCountedWhateverSurroundsIt) {
  bool loop_only = false;
  const double body = per_iteration("BM_body", &loop_only);
  EXPECT_TRUE(loop_only);
  EXPECT_GT(body, 5000 * 3);  // a few instructions per step of the body
  // A setup of 20,000 allocations and ten bodies' work: nothing of it.
  EXPECT_NEAR(per_iteration("BM_setup"), body, 0.01 * body);
  // Two bodies' work paused in every iteration: only the edges of the pause.
  EXPECT_NEAR(per_iteration("BM_paused"), body, 0.02 * body);
  // Each of two threads one body per iteration: threads starting and waiting for each other are not counted.
  EXPECT_NEAR(per_iteration("BM_threads/threads:2"), body, 0.02 * body);
}

TEST_F(CallgrindPreload, AThreadTheLoopStartsIsCountedWithIt) {
  const double body = per_iteration("BM_body");
  const double spawns = per_iteration("BM_spawns");
  EXPECT_GT(spawns, body);  // the worker's body, and starting and joining it
  EXPECT_LT(spawns, 3 * body);
}

}  // namespace
}  // namespace cobench::testing
