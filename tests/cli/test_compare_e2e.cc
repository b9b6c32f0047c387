// `cobench compare` on the outputs of real Google Benchmark binaries built
// against Debian's libbenchmark: the reader meets the installed version's
// real JSON, repetitions, aggregates and the memory-manager-free shape.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace t = cobench::testing;

namespace {

/// BM_Work does `work` dependent steps per iteration; BM_Same is identical on both sides.
std::string bench_source(int work) {
  return fmt::format(R"(#include <benchmark/benchmark.h>
static void BM_Work(benchmark::State& state) {{
  unsigned x = 1;
  for (auto _ : state) {{
    for (int i = 0; i < {}; ++i) x = x * 1664525u + 1013904223u;
    benchmark::DoNotOptimize(x);
  }}
}}
BENCHMARK(BM_Work);
static void BM_Same(benchmark::State& state) {{
  unsigned x = 1;
  for (auto _ : state) {{ x = x * 22695477u + 1u; benchmark::DoNotOptimize(x); }}
}}
BENCHMARK(BM_Same);
BENCHMARK_MAIN();
)",
                     work);
}

std::string build_and_run(const t::TempDir& dir, const std::string& side, int work) {
  t::write_file(dir / (side + ".cc"), bench_source(work));
  std::string exe = (dir / side).string(), out = (dir / (side + ".json")).string();
  t::run_checked({"c++", "-O2", "-std=c++17", (dir / (side + ".cc")).string(), "-o", exe, "-lbenchmark", "-lpthread"});
  t::run_checked({exe, "--benchmark_repetitions=8", "--benchmark_min_time=0.01", "--benchmark_out=" + out,
                  "--benchmark_out_format=json"});
  return out;
}

}  // namespace

TEST(CompareE2E, FourTimesTheWorkIsARegression) {
  t::TempDir dir;
  std::string base = build_and_run(dir, "base", 100), head = build_and_run(dir, "head", 400);
  auto r = t::run_cobench({"compare", base, "--vs", head, "--metric", "cpu_time", "--format", "json", "--gate"});
  EXPECT_EQ(r.exit_code, 1) << t::explain(r);  // the gate fails on BM_Work
  auto report = nlohmann::json::parse(r.out);
  ASSERT_EQ(report["benchmarks"].size(), 2u);
  const auto& work = report["benchmarks"][0];  // regressions first
  EXPECT_EQ(work["name"], "BM_Work");
  EXPECT_EQ(work["n_base"], 8);  // the mean/median/stddev/cv aggregates are not samples
  EXPECT_EQ(work["verdict"], "regression");
  // 4x the dependent steps; a wide margin for a shared, noisy machine.
  EXPECT_GT(work["ratio"].get<double>(), 2.0);
  EXPECT_LT(work["ratio"].get<double>(), 8.0);
  EXPECT_EQ(report["host"]["num_cpus"].is_number(), true);
  auto text = t::run_cobench({"compare", base, "--vs", head});
  EXPECT_EQ(text.exit_code, 0) << t::explain(text);
  EXPECT_NE(text.out.find("BM_Same"), std::string::npos);
}
