// Builds a real Google Benchmark project through CMake and checks that the
// counting allocator reports exactly k allocations per iteration for every
// allocation family, both preloaded and linked in (cobench_alloc_counter).
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace cobench::testing {
namespace {

constexpr int kBytes = 48;

// Each family allocates K blocks of kBytes per iteration and frees them.
constexpr std::string_view kSource = R"(
#include <benchmark/benchmark.h>
#include <array>
#include <cstdlib>
#include <malloc.h>
#include <new>
#include <thread>
#include <vector>

constexpr int kBytes = 48;
// A volatile sink keeps every block alive to the compiler (GB 1.7's "+m,r"
// DoNotOptimize on a freshly written pointer can make GCC 12 free garbage).
void* volatile sink;
template <int K, typename Alloc, typename Free>
void each(benchmark::State& state, Alloc alloc, Free release) {
  for (auto _ : state) {
    void* blocks[K > 0 ? K : 1];
    for (int i = 0; i < K; ++i) sink = blocks[i] = alloc();
    for (int i = 0; i < K; ++i) release(blocks[i]);
  }
}
void release_free(void* p) { free(p); }
#define FAMILY(NAME, ALLOC, FREE) \
  template <int K> void BM_##NAME(benchmark::State& s) { each<K>(s, [] { return (void*)(ALLOC); }, FREE); } \
  BENCHMARK_TEMPLATE(BM_##NAME, 0); BENCHMARK_TEMPLATE(BM_##NAME, 1); BENCHMARK_TEMPLATE(BM_##NAME, 3);

FAMILY(malloc, malloc(kBytes), release_free)
FAMILY(calloc, calloc(kBytes / 8, 8), release_free)
FAMILY(realloc, realloc(nullptr, kBytes), release_free)
FAMILY(aligned_alloc, aligned_alloc(64, 64 * ((kBytes + 63) / 64)), release_free)
// noinline: inlined into the unrolled loop, GCC 12 -O2 freed a garbage pointer here.
__attribute__((noinline)) void* via_posix_memalign() {
  void* p = nullptr;
  if (posix_memalign(&p, 32, kBytes) != 0) std::abort();
  return p;
}
FAMILY(posix_memalign, via_posix_memalign(), release_free)
FAMILY(memalign, memalign(32, kBytes), release_free)
FAMILY(new, new char[kBytes], [](void* p) { delete[] static_cast<char*>(p); })
using Block = std::array<char, kBytes>;
FAMILY(new_scalar, new Block, [](void* p) { delete static_cast<Block*>(p); })
FAMILY(new_nothrow, new (std::nothrow) char[kBytes], [](void* p) { delete[] static_cast<char*>(p); })
struct alignas(64) Wide { char bytes[kBytes]; };
FAMILY(new_aligned, new Wide, [](void* p) { delete static_cast<Wide*>(p); })

// Growing in place or moving, a realloc to a new size is one allocation.
void BM_realloc_grow(benchmark::State& state) {
  for (auto _ : state) {
    void* p = malloc(16);
    p = realloc(p, 4096);
    benchmark::DoNotOptimize(p);
    free(p);
  }
}
BENCHMARK(BM_realloc_grow);

// Three blocks of 1000 bytes alive at once: the peak rises by at least 3000.
void BM_peak(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<void*> held;
    held.reserve(3);
    for (int i = 0; i < 3; ++i) held.push_back(malloc(1000));
    benchmark::DoNotOptimize(held.data());
    for (void* p : held) free(p);
  }
}
BENCHMARK(BM_peak);

// Setup that allocates and loops, and a body with exactly two allocations per iteration.
void BM_setup_allocates(benchmark::State& state) {
  std::vector<void*> setup;
  for (int i = 0; i < 100; ++i) setup.push_back(malloc(kBytes));
  for (int round = 0; round < 3; ++round)
    for (void* p : setup) benchmark::DoNotOptimize(p);
  for (auto _ : state) {
    void* a = malloc(kBytes);
    sink = a;
    void* b = malloc(kBytes);
    sink = b;
    free(a);
    free(b);
  }
  for (void* p : setup) free(p);
}
BENCHMARK(BM_setup_allocates);

// A paused stretch is not the measured code: its allocation is not counted.
void BM_paused_allocation(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    void* hidden = malloc(kBytes);
    sink = hidden;
    free(hidden);
    state.ResumeTiming();
    void* counted = malloc(kBytes);
    sink = counted;
    free(counted);
  }
}
BENCHMARK(BM_paused_allocation);

// Counting stays exact across threads.
void BM_threads(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([] {
        for (int i = 0; i < 1000; ++i) { void* p = malloc(8); benchmark::DoNotOptimize(p); free(p); }
      });
    for (auto& t : threads) t.join();
  }
}
BENCHMARK(BM_threads);
BENCHMARK_MAIN();
)";

std::string cmakelists() {
  return std::string("cmake_minimum_required(VERSION 3.25)\nproject(allocs CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
                     "find_package(benchmark REQUIRED)\n"
                     "add_subdirectory(") +
         COBENCH_SOURCE_DIR + "/src/alloc cobench_alloc)\n" +
         "add_executable(shared_bench bench.cc)\n"
         "target_link_libraries(shared_bench PRIVATE benchmark::benchmark)\n"
         "add_executable(linked_bench bench.cc)\n"
         "target_link_libraries(linked_bench PRIVATE cobench_alloc_counter benchmark::benchmark)\n";
}

struct Counts {
  double allocs_per_iter = -1;
  double bytes_total = -1;
  double peak = -1;
  double iterations = 0;
};

std::map<std::string, Counts> run_bench(const std::filesystem::path& exe, bool preload) {
  process::Command command;
  command.argv = {exe.string(), "--benchmark_min_time=0.01", "--benchmark_format=json",
                  "--benchmark_filter=-BM_threads"};
  if (preload) command.env_overrides.push_back({"LD_PRELOAD", COBENCH_ALLOC_PRELOAD});
  auto result = process::run(command);
  EXPECT_TRUE(result.ok()) << explain(result);
  std::map<std::string, Counts> counts;
  const auto json = nlohmann::json::parse(result.out);
  for (const auto& b : json.at("benchmarks")) {
    Counts c;
    c.iterations = b.at("iterations").get<double>();
    if (b.contains("allocs_per_iter")) c.allocs_per_iter = b["allocs_per_iter"].get<double>();
    if (b.contains("total_allocated_bytes")) c.bytes_total = b["total_allocated_bytes"].get<double>();
    if (b.contains("max_bytes_used")) c.peak = b["max_bytes_used"].get<double>();
    counts[b.at("name").get<std::string>()] = c;
  }
  EXPECT_FALSE(counts.empty()) << explain(result);
  return counts;
}

const Counts& get(const std::map<std::string, Counts>& counts, const std::string& name) {
  static const Counts missing;
  auto it = counts.find(name);
  if (it != counts.end()) return it->second;
  std::string names;
  for (const auto& [known, ignored] : counts) names += " " + known;
  ADD_FAILURE() << "no benchmark " << name << " in the output, only:" << names;
  return missing;
}

class AllocCounts : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    write_file(*dir_ / "src/bench.cc", kSource);
    write_file(*dir_ / "src/CMakeLists.txt", cmakelists());
    run_checked({"cmake", "-S", (*dir_ / "src").string(), "-B", (*dir_ / "build").string(), "-DCMAKE_BUILD_TYPE=Release"});
    run_checked({"cmake", "--build", (*dir_ / "build").string(), "-j2"});
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::filesystem::path exe(const std::string& name) { return *dir_ / "build" / name; }

  // Google Benchmark's memory pass runs min(16, iterations) iterations.
  // Preloaded, only the benchmark loop counts: K allocations read exactly K.
  // Linked in, the loop cannot be seen and the pass's own bookkeeping (one
  // ThreadManager) lands in the count: differences to the K=0 benchmark of
  // the same shape are exact.
  static void expect_exact(const std::map<std::string, Counts>& counts) {
    for (std::string family : {"malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "memalign", "new",
                               "new_scalar", "new_nothrow", "new_aligned"}) {
      SCOPED_TRACE(family);
      const Counts& none = get(counts, "BM_" + family + "<0>");
      ASSERT_GE(none.allocs_per_iter, 0) << "no allocs_per_iter: the MemoryManager was not registered";
      EXPECT_LT(none.allocs_per_iter, 1);
      ASSERT_GE(none.iterations, 16);
      for (int k : {1, 3}) {
        const Counts& some = get(counts, "BM_" + family + "<" + std::to_string(k) + ">");
        EXPECT_DOUBLE_EQ(some.allocs_per_iter - none.allocs_per_iter, k);
        double bytes_per_iter = (some.bytes_total - none.bytes_total) / 16;
        // Both round the block up to their 64-byte alignment: sizeof(Wide) is 64.
        double expected = family == "aligned_alloc" || family == "new_aligned" ? 64 : kBytes;
        EXPECT_DOUBLE_EQ(bytes_per_iter, k * expected);
      }
    }
    EXPECT_DOUBLE_EQ(get(counts, "BM_realloc_grow").allocs_per_iter - get(counts, "BM_malloc<0>").allocs_per_iter, 2);
    EXPECT_GE(get(counts, "BM_peak").peak - get(counts, "BM_malloc<0>").peak, 3000);
  }

  static TempDir* dir_;
};

TempDir* AllocCounts::dir_ = nullptr;

TEST_F(AllocCounts, PreloadedIntoASharedLibbenchmarkBinary) {
  expect_exact(run_bench(exe("shared_bench"), true));
}

TEST_F(AllocCounts, PreloadedTheLoopBodyAloneCounts) {
  const auto counts = run_bench(exe("shared_bench"), true);
  for (std::string family : {"malloc", "new", "new_aligned"})
    for (int k : {0, 1, 3}) {
      const Counts& c = get(counts, "BM_" + family + "<" + std::to_string(k) + ">");
      EXPECT_DOUBLE_EQ(c.allocs_per_iter, k) << family << " " << k;  // no 1/16 of bookkeeping any more
    }
  // A hundred allocations in the setup, two in the body: the body's two.
  EXPECT_DOUBLE_EQ(get(counts, "BM_setup_allocates").allocs_per_iter, 2);
  EXPECT_DOUBLE_EQ(get(counts, "BM_setup_allocates").bytes_total, 2.0 * kBytes * 16);
  // One allocation while paused, one measured.
  EXPECT_DOUBLE_EQ(get(counts, "BM_paused_allocation").allocs_per_iter, 1);
}

TEST_F(AllocCounts, LinkedInWithoutPreload) {
  const auto counts = run_bench(exe("linked_bench"), false);
  expect_exact(counts);
  // The loop is not visible from inside the executable: the setup's hundred land in the pass's 16 iterations.
  EXPECT_GT(get(counts, "BM_setup_allocates").allocs_per_iter, 2 + 100.0 / 16 - 1e-9);
}

TEST_F(AllocCounts, WithoutTheCounterNoFieldsAppear) {
  auto counts = run_bench(exe("shared_bench"), false);
  EXPECT_LT(get(counts, "BM_malloc<1>").allocs_per_iter, 0);
}

TEST_F(AllocCounts, ThreadsAllocatingConcurrentlyAreAllCounted) {
  process::Command command;
  command.argv = {exe("shared_bench").string(), "--benchmark_filter=BM_threads", "--benchmark_min_time=0.01",
                  "--benchmark_format=json"};
  command.env_overrides.push_back({"LD_PRELOAD", COBENCH_ALLOC_PRELOAD});
  auto result = process::run(command);
  ASSERT_TRUE(result.ok()) << explain(result);
  auto bench = nlohmann::json::parse(result.out).at("benchmarks").at(0);
  EXPECT_GE(bench.at("allocs_per_iter").get<double>(), 4000);
}

TEST(AllocPreload, HarmlessInProcessesWithoutBenchmark) {
  process::Command command;
  command.argv = {"sh", "-c", "ls / >/dev/null && echo ok"};
  command.env_overrides.push_back({"LD_PRELOAD", COBENCH_ALLOC_PRELOAD});
  auto result = process::run(command);
  ASSERT_TRUE(result.ok()) << explain(result);
  EXPECT_EQ(result.out, "ok\n");
  EXPECT_EQ(result.err, "");
}

}  // namespace
}  // namespace cobench::testing
