// Allocation runs under --time-budget: they come after the timing rounds (or
// before them, with an allocation budget) and must not overrun the measuring phase (on Eigen's bench_fft three pairs of
// allocation runs took as long again as the whole budgeted timing phase).
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/files.h"
#include "run/alloc_runs.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

run::RunRecord timing_run(const std::string& target, double wall_seconds) {
  run::RunRecord r;
  r.target = target;
  r.wall_seconds = wall_seconds;
  return r;
}

TEST(PairTimeGate, NoBudgetNoGate) {
  const std::vector<run::RunRecord> timing = {timing_run("t", 50)};
  EXPECT_FALSE(run::pair_time_gate(std::nullopt, timing, "time", [] { return 1e9; }));
}

TEST(PairTimeGate, APairFitsWhenTwiceTheMeanTimingRunFitsInWhatIsLeft) {
  std::vector<run::RunRecord> timing = {timing_run("t", 40), timing_run("t", 60), timing_run("other", 500)};
  run::RunRecord alloc = timing_run("t", 1000);
  alloc.kind = "alloc";  // allocation runs are not what the estimate uses
  timing.push_back(alloc);
  double now = 0;
  const auto gate = run::pair_time_gate(300, timing, "time", [&] { return now; });
  ASSERT_TRUE(gate);
  now = 200;  // 200 + 2 * 50 = 300: fits exactly
  EXPECT_EQ(gate("t"), "");
  now = 201;
  const std::string why = gate("t");
  EXPECT_NE(why.find("time budget 5.0 min"), std::string::npos) << why;
  EXPECT_EQ(gate("never-timed"), "");  // nothing to estimate from: only the clock counts
  now = 301;
  EXPECT_NE(gate("never-timed"), "");
}

/// A pair of /bin/true units, with a preload library that is found but never loaded.
struct FakeAllocSetup {
  TempDir dir;
  run::UnitPair pair;
  run::ProcessSettings settings{{}, 0, 60, {}, dir / "out"};

  FakeAllocSetup() {
    write_file_atomic(dir / "fake_preload.so", "");  // no run gets as far as loading it
    ::setenv("COBENCH_ALLOC_PRELOAD", (dir / "fake_preload.so").c_str(), 1);
    pair.target = "bench_fft";
    pair.base = {"bench_fft", {"/bin/true"}, dir.path()};
    pair.head = pair.base;
    pair.base_sha = "b";
    pair.head_sha = "h";
  }
  ~FakeAllocSetup() { ::unsetenv("COBENCH_ALLOC_PRELOAD"); }
};

TEST(AllocRuns, ARefusedPairEndsThatTargetsAllocationRunsWithOneSkippedRecord) {
  FakeAllocSetup setup;
  int asked = 0;
  std::vector<run::RunRecord> records;
  std::vector<std::string> said;
  ASSERT_TRUE(run::run_alloc_rounds(
      {setup.pair}, setup.settings, 3, run::AllocStop::AfterAllRuns, [&](const run::RunRecord& r) { records.push_back(r); },
      [&](const std::string& target) -> std::string {
        EXPECT_EQ(target, "bench_fft");
        return ++asked == 1 ? "" : "time budget 5m exhausted";
      },
      [&](const std::string& line) { said.push_back(line); }));
  EXPECT_EQ(said, (std::vector<std::string>{
                      "allocation runs: up to 3 per side, under the counting allocator",
                      "allocation runs: bench_fft: time budget 5m exhausted after 1 allocation runs per side"}));
  EXPECT_EQ(asked, 2);  // asked before each pair, never again once refused
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].side, run::Side::Base);
  EXPECT_EQ(records[1].side, run::Side::Head);
  EXPECT_EQ(records[2].kind, "alloc");
  EXPECT_EQ(records[2].status, "skipped");
  EXPECT_EQ(records[2].run, 1);
  EXPECT_EQ(records[2].detail, "time budget 5m exhausted after 1 allocation runs per side");
  EXPECT_TRUE(records[2].samples.empty());
}

// Eigen's bench_fft under a 5 min budget: no pair fitted, yet the log said "3 per side".
TEST(AllocRuns, WhenTheBudgetRefusesEveryPairNothingSaysTheyRan) {
  FakeAllocSetup setup;
  std::vector<std::string> said;
  ASSERT_TRUE(run::run_alloc_rounds(
      {setup.pair}, setup.settings, 3, run::AllocStop::AfterAllRuns, [](const run::RunRecord&) {},
      [](const std::string&) -> std::string { return "time budget 5m exhausted"; },
      [&](const std::string& line) { said.push_back(line); }));
  EXPECT_EQ(said, (std::vector<std::string>{
                      "allocation runs: bench_fft: time budget 5m exhausted after 0 allocation runs per side"}));
}

TEST(AllocRuns, DescribeSaysRunsPerSideWhenAllRanElseEachTarget) {
  auto alloc = [](const std::string& target, run::Side side, const std::string& status = "ok") {
    run::RunRecord r;
    r.target = target;
    r.side = side;
    r.kind = "alloc";
    r.status = status;
    return r;
  };
  using run::Side;
  std::vector<run::RunRecord> records = {timing_run("a", 1), alloc("a", Side::Base), alloc("a", Side::Head),
                                         alloc("b", Side::Head), alloc("b", Side::Base, "no counts")};
  EXPECT_EQ(run::describe_alloc_rounds(records, 1), "allocation runs: 1 per side, under the counting allocator");
  EXPECT_EQ(run::describe_alloc_rounds(records, 2), "allocation runs: a: 1 per side; b: 1 per side");
  auto unavailable = alloc("a", Side::Base, "unavailable");
  unavailable.detail = "no libcobench_alloc_preload.so";
  EXPECT_EQ(run::describe_alloc_rounds({unavailable}, 3), "allocation runs: none, no libcobench_alloc_preload.so");
  EXPECT_EQ(run::describe_alloc_rounds({timing_run("a", 1)}, 3), "");
  std::vector<run::RunRecord> one_pair = {alloc("a", Side::Base), alloc("a", Side::Head), alloc("b", Side::Base),
                                          alloc("b", Side::Head)};
  EXPECT_EQ(run::describe_alloc_rounds(one_pair, 3), "allocation runs: a: 1 per side; b: 1 per side");  // e.g. interrupted
  one_pair.push_back(alloc("a", Side::Base, results::kCountedAlikeStatus));
  EXPECT_EQ(run::describe_alloc_rounds(one_pair, 3),
            "allocation runs: a: 1 per side, both sides counted alike; b: 1 per side");
  one_pair.push_back(alloc("b", Side::Base, results::kCountedAlikeStatus));
  EXPECT_EQ(run::describe_alloc_rounds(one_pair, 3),
            "allocation runs: 1 per side, both sides counted alike, under the counting allocator");
}

TEST(AllocRuns, SidesCountAlikeOnlyWhenBothRanAndEveryCountOfEveryBenchmarkIsEqual) {
  auto alloc = [](run::Side side, std::map<std::string, run::Sample> samples, const std::string& status = "ok") {
    run::RunRecord r;
    r.side = side;
    r.kind = "alloc";
    r.status = status;
    r.samples = std::move(samples);
    return r;
  };
  const run::Sample one = {{"allocs_per_iter", 1}, {"bytes_per_iter", 32}, {"peak_bytes", 64}};
  run::Sample two = one;
  two["allocs_per_iter"] = 2;
  run::Sample bigger_peak = one;
  bigger_peak["peak_bytes"] = 128;
  using run::Side;
  EXPECT_TRUE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}, {"BM_b", two}}),
                                 alloc(Side::Head, {{"BM_a", one}, {"BM_b", two}})));
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}}), alloc(Side::Head, {{"BM_a", two}})));
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}}), alloc(Side::Head, {{"BM_a", bigger_peak}})));
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}}), alloc(Side::Head, {{"BM_a", one}, {"BM_b", one}})));
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}}), alloc(Side::Head, {{"BM_c", one}})));
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {}), alloc(Side::Head, {}))) << "nothing counted is not alike";
  EXPECT_FALSE(run::counted_alike(alloc(Side::Base, {{"BM_a", one}}), alloc(Side::Head, {{"BM_a", one}}, "no counts")));
}

/// The arguments a unit received, one per line, written by the unit itself.
std::vector<std::string> received_args(const std::filesystem::path& file) {
  std::vector<std::string> args;
  std::istringstream lines(read_text(file));
  for (std::string line; std::getline(lines, line);) args.push_back(line);
  return args;
}

/// What the allocation run of `bench_args` passed its process, and what a timing run passed.
struct SeenArgs {
  std::vector<std::string> alloc, timing;
};

SeenArgs args_seen(const std::vector<std::string>& bench_args) {
  FakeAllocSetup setup;
  const auto file = setup.dir / "args.txt";
  setup.pair.base = {"bench_fft", {"/bin/sh", "-c", "printf '%s\\n' \"$@\" > \"$0\"", file.string()}, setup.dir.path()};
  setup.settings.bench_args = bench_args;
  EXPECT_TRUE(run::run_alloc_rounds({setup.pair}, setup.settings, 1, run::AllocStop::AfterAllRuns, [](const run::RunRecord&) {}));
  SeenArgs seen;
  seen.alloc = received_args(file);
  run::GoogleBenchmarkRunner(setup.settings).run_once(setup.pair.base, run::Side::Base, "b", 0, {});
  seen.timing = received_args(file);
  return seen;
}

std::vector<std::string> min_times(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args)
    if (a.rfind("--benchmark_min_time", 0) == 0) out.push_back(a);
  return out;
}

// On Eigen, allocation runs with the user's min_time took as long as timing runs;
// the memory pass needs at most 16 iterations. GB 1.7 takes seconds, 1.8+ also "s" and "x".
TEST(AllocRuns, MinTimeIsMadeSmallInTheUsersSyntaxOnlyForAllocationRuns) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"2s", "0.05s"}, {"0.5", "0.05"}, {"1000x", "16x"}, {"4x", "4x"}, {"0.01s", "0.01s"}, {"soon", "soon"}};
  for (const auto& [given, expected] : cases) {
    const std::string flag = "--benchmark_min_time=" + given;
    const SeenArgs seen = args_seen({"--benchmark_filter=BM_a", flag});
    EXPECT_EQ(min_times(seen.alloc), (std::vector<std::string>{"--benchmark_min_time=" + expected})) << given;
    EXPECT_EQ(min_times(seen.timing), (std::vector<std::string>{flag})) << given;
    EXPECT_NE(std::find(seen.alloc.begin(), seen.alloc.end(), "--benchmark_filter=BM_a"), seen.alloc.end());
    ASSERT_FALSE(seen.alloc.empty());
    EXPECT_EQ(seen.alloc.back(), "--benchmark_repetitions=1");
  }
  const SeenArgs none = args_seen({});
  EXPECT_EQ(min_times(none.alloc), (std::vector<std::string>{"--benchmark_min_time=0.05"}));
  EXPECT_TRUE(min_times(none.timing).empty());
}

}  // namespace
}  // namespace cobench::testing
