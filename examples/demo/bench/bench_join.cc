// One family per translation unit: BM_Join, n short words joined by ", ".
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "demo/join.h"

static void BM_Join(benchmark::State& state) {
  std::vector<std::string> words;
  for (int i = 0; i < state.range(0); ++i) words.push_back("word" + std::to_string(i % 97));
  for (auto _ : state) benchmark::DoNotOptimize(demo::join(words, ", "));
}
BENCHMARK(BM_Join)->Arg(64)->Arg(512);

BENCHMARK_MAIN();
