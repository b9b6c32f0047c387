// Registrations spaced as real code spaces them; test_layout.cc checks that
// count_families names each family exactly as this binary lists it.
#include <benchmark/benchmark.h>

#include <complex>

template <class T, bool Inverse>
void BM_FFT(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(T{});
}
template <class T, int N>
void BM_Fn(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(T{N});
}
template <class T>
void BM_One(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(T{});
}
void BM_Plain(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}

template <class T, int N>
class Fix : public benchmark::Fixture {};
template <class T>
class Fix1 : public benchmark::Fixture {};
class Plain : public benchmark::Fixture {};

BENCHMARK(BM_Plain);
BENCHMARK(BM_Fn<unsigned   int,  3>);
BENCHMARK_TEMPLATE(BM_FFT, std::complex<float>, true);
BENCHMARK_TEMPLATE(BM_FFT, std::complex<float>,false);
BENCHMARK_TEMPLATE2(BM_FFT, std::complex<double>, true);
BENCHMARK_TEMPLATE2(BM_Fn, unsigned  long, 4);
BENCHMARK_TEMPLATE1(BM_One, long  double);

BENCHMARK_F(Plain, Run)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_DEFINE_F(Plain, Later)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_REGISTER_F(Plain, Later);
BENCHMARK_TEMPLATE_F(Fix, Run, int, 4)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_TEMPLATE2_F(Fix, Go, int, 4)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_TEMPLATE1_F(Fix1, Run, std::complex< double >)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_TEMPLATE_DEFINE_F(Fix, Defined, short, 2)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(0);
}
BENCHMARK_REGISTER_F(Fix, Defined);

BENCHMARK_MAIN();
