// cobench's machine control: the program cobench runs as both sides of every
// Google Benchmark job, beside the targets it measures. Being one binary, its
// head/base ratio can only move with the machine (drift, a neighbour's load,
// a side's slot): the job's own A/A. It is built to be a witness worth the
// name: quiet by construction (fixed work, no allocation, no system call, no
// branch that depends on data in the loop), cheap (each benchmark runs a fixed
// number of iterations, about 7 ms on a 2020s x86 core, whatever
// --benchmark_min_time says: no iteration ramp-up, which cost more than the
// measurement when it measured for a time), and never optimised away.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace {

constexpr int kStepsPerIteration = 4096;
// Fixed counts, not a minimum time: Google Benchmark finds a count for a time
// by running the benchmark again with more iterations until one run is long
// enough, which cost 0.22 s of wall time per process for 0.14 s measured; a
// fixed count is run once. ~4.5 us and ~15.6 us per iteration measured on the
// development VM (AMD EPYC): about 7 ms each. It runs in every round of a job
// beside whatever is measured, so its cost is paid 60 times in a job of 30
// pairs: a third of the 20 ms each it ran for until 2026-12-06 took the
// process from 45 to 18 ms of wall time for 0.45-0.55% of noise per pair
// instead of 0.2-0.3% (80 pairs each, taking turns on the development VM);
// without the untimed warm-up below, a quarter of the count read 0.9-1.4%.
// Both sides run the same binary, so only the ratio matters, never how long
// an iteration takes.
constexpr int kComputeIterations = 1500;
constexpr int kMemoryIterations = 430;
// Untimed work before the timed loop: a cold start (caches, predictors) is a
// fixed cost per process that a short measurement would read as noise.
constexpr int kWarmUpSteps = kStepsPerIteration * 64;

/// One step of the compute chain: a 64-bit linear congruential generator.
std::uint64_t chain_step(std::uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }

/// Compute-bound: a dependent chain of 64-bit multiply-adds (a linear
/// congruential generator) held in a register; each step waits for the last.
void BM_MachineCompute(benchmark::State& state) {
  std::uint64_t x = 1;
  for (int i = 0; i < kWarmUpSteps; ++i) x = chain_step(x);
  for (auto _ : state) {
    for (int i = 0; i < kStepsPerIteration; ++i) x = chain_step(x);
    benchmark::DoNotOptimize(x);
  }
}

/// Memory-bound: a pointer chase through one random cycle over 256 KiB, so
/// every step is a dependent load that misses L1 and stays within L2.
void BM_MachineMemory(benchmark::State& state) {
  constexpr std::size_t kSlots = 256 * 1024 / sizeof(std::uint32_t);
  std::vector<std::uint32_t> next(kSlots);
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937 rng(20261204);  // a fixed cycle: the same walk on every run and both sides
  // Sattolo's shuffle makes one cycle through every slot.
  for (std::size_t i = kSlots - 1; i > 0; --i) std::swap(next[i], next[rng() % i]);
  std::uint32_t at = 0;
  for (std::size_t i = 0; i < kSlots; ++i) at = next[at];  // the ring into L2 once, untimed
  for (auto _ : state) {
    for (int i = 0; i < kStepsPerIteration; ++i) at = next[at];
    benchmark::DoNotOptimize(at);
  }
}

BENCHMARK(BM_MachineCompute)->Iterations(kComputeIterations);
BENCHMARK(BM_MachineMemory)->Iterations(kMemoryIterations);

}  // namespace

BENCHMARK_MAIN();
