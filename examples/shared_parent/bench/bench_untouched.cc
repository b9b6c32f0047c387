// BM_Untouched: the `untouched` routine over 4 Ki words. It is checked once against
// `touched`, which computes the same checksum, so a wrong result is never timed.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "routines.h"

static void BM_Untouched(benchmark::State& state) {
  std::vector<std::uint32_t> data(static_cast<std::size_t>(state.range(0)));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint32_t>(i * 2654435761u);
  if (routines::untouched(data.data(), data.size()) != routines::touched(data.data(), data.size())) {
    state.SkipWithError("untouched and touched disagree");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(routines::untouched(data.data(), data.size()));
}
BENCHMARK(BM_Untouched)->Arg(4096);

BENCHMARK_MAIN();
