// Google Benchmark reads a default for each of its flags from the environment
// (BENCHMARK_FILTER, BENCHMARK_REPETITIONS, ...). One left in a CI job's
// environment must not narrow or repeat the job's runs, or the machine
// control's, behind its own flags: the job leaves them out and says so.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using namespace cobench::testing;

TEST(BenchmarkEnvironmentE2E, FlagVariablesInTheEnvironmentChangeNoRunAndTheJobSaysItLeftThemOut) {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  const std::string source =
      "#include <benchmark/benchmark.h>\n"
      "static void BM_kept(benchmark::State& s) { unsigned x = 1; for (auto _ : s) benchmark::DoNotOptimize(x *= 3); }\n"
      "static void BM_other(benchmark::State& s) { unsigned x = 1; for (auto _ : s) benchmark::DoNotOptimize(x *= 5); }\n"
      "BENCHMARK(BM_kept);\nBENCHMARK(BM_other);\nBENCHMARK_MAIN();\n";
  const std::string base = commit_one_target_and_a_comment(repo, "bench_pair", "pair.cc", source);
  const fs::path out = dir / "out";
  const auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--out", out.string(), "--all",
                                   "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "0", "--layouts", "1",
                                   "--bench-arg=--benchmark_min_time=0.001"},
                                  repo.path(),
                                  {{"BENCHMARK_FILTER", "BM_kept"}, {"BENCHMARK_REPETITIONS", "3"},
                                   {"BENCHMARK_FORMAT", "csv"}},
                                  600);
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_NE((result.out + result.err).find("BENCHMARK_FILTER, BENCHMARK_FORMAT, BENCHMARK_REPETITIONS"), std::string::npos)
      << explain(result);
  const auto report = nlohmann::json::parse(read_file(out / "report.json"));
  bool other = false, machine_control = false;
  for (const auto& row : report.at("benchmarks")) {
    other = other || row.at("name") == "BM_other";
    machine_control = machine_control || row.value("is_control", false);
  }
  EXPECT_TRUE(other) << "BENCHMARK_FILTER narrowed the job's runs";
  EXPECT_TRUE(machine_control) << "BENCHMARK_FILTER filtered the machine control's benchmarks out";
  // One repetition per run, as the job's flags say (BENCHMARK_REPETITIONS=3 would have made 3), in
  // Google Benchmark's JSON (BENCHMARK_FORMAT=csv changes only its console output, which cobench logs).
  const auto runs = nlohmann::json::parse(read_file(out / "runs" / "bench_pair-base-0.json"));
  ASSERT_FALSE(runs.at("benchmarks").empty());
  for (const auto& entry : runs.at("benchmarks")) EXPECT_EQ(entry.at("repetitions"), 1) << entry.dump();
}

}  // namespace
}  // namespace cobench::job
