// `cobench run --runner catch2`: a real CMake + Catch2 (Debian's 2.13,
// header-only) project in a temporary git repository. Catch2 names benchmarks
// in prose inside test cases; the head makes one benchmark 10x slower (Catch2 has
// only a wall clock: beside a neighbour on the CPU its means spread by ±50%), leaves
// another alone, and a test program without benchmarks is no target.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_fixture.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

using job::testing::find_row;
using verdict::Verdict;

/// A Catch2 program: the benchmarks' work is `rounds` dependent multiply-adds.
std::string catch2_program(int rounds) {
  return "#define CATCH_CONFIG_MAIN\n#define CATCH_CONFIG_ENABLE_BENCHMARKING\n#include <catch2/catch.hpp>\n"
         "static unsigned mix(int rounds, unsigned x) {\n"
         "  for (int i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;\n  return x;\n}\n"
         "TEST_CASE(\"hashing, \\\"the [slow] one\\\" / part 1\", \"[!benchmark]\") {\n"
         "  BENCHMARK(\"mix rounds [hot]\") { return mix(" + std::to_string(rounds) + ", 7u); };\n}\n"
         "TEST_CASE(\"steady work\") {\n"
         "  BENCHMARK_ADVANCED(\"mix 2000 rounds, advanced\")(Catch::Benchmark::Chronometer meter) {\n"
         "    meter.measure([] { return mix(2000, 3u); });\n  };\n  REQUIRE(mix(1, 0u) == 1013904223u);\n}\n";
}

TEST(Catch2E2E, ASlowerBenchmarkIsARegressionItsNeighbourPassesAndNamesKeepTheirProse) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(fixture CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
             "find_package(Catch2 REQUIRED)\n"
             "add_executable(bench_mix bench_mix.cc)\ntarget_link_libraries(bench_mix PRIVATE Catch2::Catch2)\n"
             "add_executable(unit_tests unit_tests.cc)\ntarget_link_libraries(unit_tests PRIVATE Catch2::Catch2)\n");
  repo.write("bench_mix.cc", catch2_program(2000));
  repo.write("unit_tests.cc", "#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\nTEST_CASE(\"t\") { REQUIRE(1 == 1); }\n");
  repo.commit("base");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("bench_mix.cc", catch2_program(20000));
  repo.commit("head: ten times the rounds");

  const auto result = run_cobench({"run", "--base", "main", "--runner", "catch2", "--all", "--min-runs", "6",
                                   "--max-runs", "8", "--out", (dir / "out").string()},
                                  repo.path());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = report::from_json(nlohmann::json::parse(read_text(dir / "out" / "report.json")));
  const auto* hot = find_row(report, "hashing, \"the [slow] one\" / part 1 / mix rounds [hot]");
  ASSERT_TRUE(hot) << explain(result);
  EXPECT_EQ(hot->verdict, Verdict::Regression) << hot->note;
  EXPECT_GT(hot->time.estimate.ratio, 2.0);  // ten times the rounds
  const auto* steady = find_row(report, "steady work / mix 2000 rounds, advanced");
  ASSERT_TRUE(steady) << explain(result);
  EXPECT_EQ(steady->target, "bench_mix");
  EXPECT_EQ(steady->metric, "real_time");  // Catch2 has one clock
  // The first look (6 runs per side, judged as two samples) decides ten times the rounds (at 8
  // if a loaded machine's control held it back); runs after a look ask only for the open
  // benchmarks' test cases by name (escaped test specs): each measured every run until decided.
  const auto six_or_eight = [](size_t n) { return n == 6u || n == 8u; };
  EXPECT_TRUE(six_or_eight(hot->base_samples.size())) << hot->base_samples.size() << " " << hot->note;
  EXPECT_TRUE(six_or_eight(steady->base_samples.size())) << steady->base_samples.size() << " " << steady->note;
  EXPECT_EQ(hot->base_samples.size(), hot->head_samples.size());
  EXPECT_EQ(steady->base_samples.size(), steady->head_samples.size());
  EXPECT_NE(steady->verdict, Verdict::Regression) << steady->note;
  // The test program without benchmarks is no target; the machine control is cobench's own program.
  std::vector<std::string> targets;
  for (const auto& target : report.targets) targets.push_back(target.name);
  EXPECT_EQ(targets, (std::vector<std::string>{"bench_mix", "machine:cobench_machine_control"}));
}

}  // namespace
}  // namespace cobench::testing
