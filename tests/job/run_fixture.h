#pragma once
// A tiny CMake + Google Benchmark project in a temporary git repository, one
// benchmark family per target: base, a head that makes `bench_slow` 2x slower,
// crashes `bench_crash`, hangs `bench_hang` and leaves `bench_same` alone, and
// a child of head where `bench_same` no longer compiles.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/files.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job::testing {

struct RunFixture {
  cobench::testing::TempDir dir;
  cobench::testing::GitRepo repo{dir / "repo"};
  std::string base;
  std::string head;
  std::string broken;

  RunFixture();
  /// The arguments of `cobench run` on this repo with small run counts and the given extra args.
  std::vector<std::string> run_args(std::vector<std::string> args) const;
  /// `cobench run` with run_args(args).
  process::Result run(std::vector<std::string> args) const { return cobench::testing::run_cobench(run_args(args)); }
  /// The report.json of the default output folder, through the report model.
  report::Report report() const;
  std::filesystem::path out_dir() const { return repo.path() / ".cobench/report"; }
};

/// A repository without a build whose base and head differ in a README: for
/// jobs of the command runner (`--runner command`), which finish in seconds.
struct CommandFixture : ::testing::Test {
  cobench::testing::TempDir dir;
  cobench::testing::GitRepo repo{dir / "repo"};
  std::string base;  ///< the first commit; the head is HEAD
  void SetUp() override {
    repo.write("README", "base\n");
    base = repo.commit("base");
    repo.write("README", "head\n");
    repo.commit("head");
  }
};

namespace detail {

/// A benchmark whose work is `iterations` rounds of a dependent multiply-add.
/// `main`: the program's main, Google Benchmark's own unless a test needs one that reads arguments.
inline std::string loop_benchmark(const std::string& name, int iterations, const std::string& extra = "",
                                  const std::string& main = "BENCHMARK_MAIN();\n") {
  return "#include <benchmark/benchmark.h>\n#include <csignal>\n#include <unistd.h>\n"
         "static void " + name + "(benchmark::State& state) {\n" + extra +
         "  for (auto _ : state) {\n    unsigned x = 1;\n"
         "    for (int i = 0; i < " + std::to_string(iterations) + "; ++i) { x = x * 1664525u + 1013904223u; "
         "benchmark::DoNotOptimize(x); }\n  }\n}\nBENCHMARK(" + name + ");\n" + main;
}

}  // namespace detail

inline RunFixture::RunFixture() {
  repo.write("CMakeLists.txt", cobench::testing::gbench_cmakelists({{"bench_slow", "slow.cc"},
                                                                    {"bench_same", "same.cc"},
                                                                    {"bench_crash", "crash.cc"},
                                                                    {"bench_hang", "hang.cc"}}));
  repo.write("slow.cc", detail::loop_benchmark("BM_Slow", 2000));
  repo.write("same.cc", detail::loop_benchmark("BM_Same", 2000));
  repo.write("crash.cc", detail::loop_benchmark("BM_Crash", 200));
  repo.write("hang.cc", detail::loop_benchmark("BM_Hang", 200));
  base = repo.commit("base");
  repo.write("slow.cc", detail::loop_benchmark("BM_Slow", 4000));
  repo.write("crash.cc", detail::loop_benchmark("BM_Crash", 200, "  std::raise(SIGSEGV);\n"));
  repo.write("hang.cc", detail::loop_benchmark("BM_Hang", 200, "  for (;;) pause();\n"));
  head = repo.commit("head");
  repo.write("same.cc", "this is not C++\n");
  broken = repo.commit("broken");
  repo.git({"checkout", "-q", head});
}

inline std::vector<std::string> RunFixture::run_args(std::vector<std::string> args) const {
  // CPU time: the test machine runs many jobs at once, and preemption makes real time swing by 2x.
  // --all: these tests need bench_same measured although the diff does not reach it.
  std::vector<std::string> argv = {"run", "--repo", repo.path().string(), "--base", base, "--all", "--min-runs", "6",
                                   "--max-runs", "8", "--metric", "cpu_time", "--bench-arg=--benchmark_min_time=0.01"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

inline report::Report RunFixture::report() const {
  return report::from_json(nlohmann::json::parse(read_file(out_dir() / "report.json")));
}

/// The row of `name`; fails the test when it is absent.
inline const report::BenchmarkRow* find_row(const report::Report& report, const std::string& name) {
  for (const auto& row : report.benchmarks)
    if (row.name == name) return &row;
  ADD_FAILURE() << "no row for " << name;
  return nullptr;
}

}  // namespace cobench::job::testing
