// estimate_ratio and estimate_paired_ratio at benchmark-sized samples: 1k, 5k
// and 20k per side or pairs. Before the selection on the implicit matrix of
// differences, 20k per side sorted 4e8 differences (6.3 GB, over a minute);
// run one size at a time under /usr/bin/time -v to see the peak memory of
// that size alone:
//   stats_perftest --benchmark_filter='BM_EstimateRatio/20000$'
#include <cmath>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "stats/stats.h"

namespace {

/// Timings as a benchmark produces them: log-normal around `center`.
std::vector<double> lognormal(size_t n, double center, unsigned seed) {
  std::mt19937 rng(seed);
  std::lognormal_distribution<double> dist(std::log(center), 0.05);
  std::vector<double> out(n);
  for (auto& v : out) v = dist(rng);
  return out;
}

void BM_EstimateRatio(benchmark::State& state) {
  auto n = static_cast<size_t>(state.range(0));
  std::vector<double> base = lognormal(n, 1000, 1), head = lognormal(n, 1020, 2);
  for (auto _ : state) benchmark::DoNotOptimize(cobench::stats::estimate_ratio(base, head));
}
BENCHMARK(BM_EstimateRatio)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);

void BM_EstimatePairedRatio(benchmark::State& state) {
  auto n = static_cast<size_t>(state.range(0));
  std::vector<double> base = lognormal(n, 1000, 3), head = lognormal(n, 1.02, 4);
  for (size_t i = 0; i < n; ++i) head[i] *= base[i];  // paired: head follows its base run
  for (auto _ : state) benchmark::DoNotOptimize(cobench::stats::estimate_paired_ratio(base, head));
}
BENCHMARK(BM_EstimatePairedRatio)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
