// One family per translation unit: BM_Checksum over two buffer sizes.
#include <benchmark/benchmark.h>

#include <vector>

#include "demo/checksum.h"

static void BM_Checksum(benchmark::State& state) {
  std::vector<unsigned char> buffer(static_cast<std::size_t>(state.range(0)));
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<unsigned char>(i * 31 + 7);
  for (auto _ : state) benchmark::DoNotOptimize(demo::checksum(buffer.data(), buffer.size()));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Checksum)->Arg(4 << 10)->Arg(16 << 10);

BENCHMARK_MAIN();
