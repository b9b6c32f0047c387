// One family per translation unit: BM_TopK, the 16 smallest of n values.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "demo/topk.h"

static void BM_TopK(benchmark::State& state) {
  std::mt19937 random(42);  // fixed seed: both sides sort the same input
  std::vector<int> values(static_cast<std::size_t>(state.range(0)));
  for (int& v : values) v = static_cast<int>(random() % 1000000);
  for (auto _ : state) benchmark::DoNotOptimize(demo::top_k(values, 16));
}
BENCHMARK(BM_TopK)->Arg(1 << 10)->Arg(8 << 10);

BENCHMARK_MAIN();
