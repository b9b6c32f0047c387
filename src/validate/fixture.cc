#include "validate/fixture.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "git/git.h"

namespace cobench::validate {
namespace {

namespace fs = std::filesystem;

// The project's files as templates: every @NAME@ is replaced by fill().

constexpr std::string_view kCMakeLists = R"(# cobench validate's fixture: a Google Benchmark project whose truth is known
# (README.md). One benchmark family per source file and per executable, so a
# change to one cannot move the code of another.
cmake_minimum_required(VERSION 3.16)
project(cobench_validate_fixture CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(benchmark REQUIRED)

foreach(name @TARGETS@)
  add_executable(${name} bench/${name}.cc)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${name} PRIVATE benchmark::benchmark)
endforeach()
)";

constexpr std::string_view kChainHeader = R"(#pragma once
// The compute-bound work: a chain of dependent multiply-adds (a 64-bit LCG).
// Each step needs the result of the one before, so a step costs the latency
// of one multiply and one add, while the loop's counter and branch run beside
// it on other ports: n steps take n times one step, and two step counts take
// times in the ratio of the counts.
#include <cstdint>

#include <benchmark/benchmark.h>

namespace fixture {

inline std::uint64_t chain(std::uint64_t x, std::uint64_t steps) {
  // Hidden from the optimiser, so the machine code is the same whatever the
  // count (no unrolling or peeling chosen per count): a head that changes the
  // count changes nothing else.
  benchmark::DoNotOptimize(steps);
  for (std::uint64_t i = 0; i < steps; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

}  // namespace fixture
)";

constexpr std::string_view kComputeSource = R"(// Unchanged, compute-bound: @STEPS@ dependent multiply-adds per iteration,
// the same code on both sides.
#include "fixture/chain.h"

static void @FAMILY@(benchmark::State& state) {
  std::uint64_t x = 1;
  for (auto _ : state) {
    x = fixture::chain(x, @STEPS@);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
)";

constexpr std::string_view kSettings = R"(# cobench validate's fixture: the settings every job layers its flags over.
# The layout control: an unchanged target rebuilt on both sides. A job's
# --control flag replaces it.
[run]
control = ["@CONTROL@"]
)";

constexpr std::string_view kPointerChaseSource = R"(// Unchanged, memory-bound: @STEPS@ steps per iteration of a pointer chase
// through one cycle over 128 MB, in an order no prefetcher can guess. The same
// code on both sides. Four times a 32 MB last-level cache, so every step goes
// to DRAM: a ring that fits in that cache measures which of its lines the
// neighbours evicted, and was 2-9 times noisier from process to process.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

static void @FAMILY@(benchmark::State& state) {
  constexpr std::uint64_t kSlots = std::uint64_t{1} << 25;  // 4-byte slots: 128 MB
  // Slot s holds the value after s of a full-period linear congruential
  // generator modulo 2^25 (c odd, a - 1 a multiple of 4): one cycle through
  // every slot, written front to back in a tenth of a second where a shuffle
  // of as many slots takes 1.4 s of every process.
  std::vector<std::uint32_t> next(kSlots);
  for (std::uint64_t slot = 0; slot < kSlots; ++slot)
    next[slot] = static_cast<std::uint32_t>((slot * 2862933555777941757u + 3037000493u) & (kSlots - 1));
  std::uint32_t at = 0;
  for (auto _ : state) {
    for (int step = 0; step < @STEPS@; ++step) at = next[at];
    benchmark::DoNotOptimize(at);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
)";

constexpr std::string_view kJoinSource = R"(// Unchanged, allocator-bound: joins 256 short strings per iteration, each
// first copied (every word is longer than the small-string buffer, so every
// copy is a heap allocation). The same code on both sides.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

static void @FAMILY@(benchmark::State& state) {
  std::vector<std::string> words;
  for (int i = 0; i < 256; ++i) words.push_back("validation-word-" + std::to_string(i * 7919 % 100003));
  for (auto _ : state) {
    std::vector<std::string> copies(words.begin(), words.end());
    std::string joined;
    for (const auto& word : copies) {
      joined += word;
      joined += ',';
    }
    benchmark::DoNotOptimize(joined.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
)";

constexpr std::string_view kSlowdownSource = R"(// True slowdown @PERCENT@%: the head commit changes fixture::@CONSTANT@
// (fixture/@HEADER@) from @BASE_STEPS@ to @HEAD_STEPS@ dependent multiply-adds per iteration.
#include "fixture/chain.h"
#include "fixture/@HEADER@"

static void @FAMILY@(benchmark::State& state) {
  std::uint64_t x = 1;
  for (auto _ : state) {
    x = fixture::chain(x, fixture::@CONSTANT@);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
)";

constexpr std::string_view kSlowdownHeader = R"(#pragma once
// The one thing the head commit changes for @TARGET@: @BASE_STEPS@ dependent
// steps per iteration in the base, round(@BASE_STEPS@ × (1 + @PERCENT@%)) = @HEAD_STEPS@ in the head.
#include <cstdint>

namespace fixture {
inline constexpr std::uint64_t @CONSTANT@ = @STEPS@;
}  // namespace fixture
)";

constexpr std::string_view kAllocationsSource = R"(// The allocation knob: @STEPS@ dependent multiply-adds per iteration, like an
// A/A benchmark, plus fixture::kExtraAllocations heap allocations
// (fixture/extra_allocations.h), which the head commit changes from 0 to @EXTRA@.
#include "fixture/chain.h"
#include "fixture/extra_allocations.h"

static void @FAMILY@(benchmark::State& state) {
  std::uint64_t x = 1;
  for (auto _ : state) {
    x = fixture::chain(x, @STEPS@);
    for (int i = 0; i < fixture::kExtraAllocations; ++i) {
      auto* cell = new std::uint64_t(x);
      benchmark::DoNotOptimize(cell);  // the pointer escapes: the allocation cannot be elided
      x += *cell;
      delete cell;
    }
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
)";

constexpr std::string_view kAllocationsHeader = R"(#pragma once
// The one thing the head commit changes for @TARGET@: no extra heap
// allocations per iteration in the base, @EXTRA@ in the head.
namespace fixture {
inline constexpr int kExtraAllocations = @COUNT@;
}  // namespace fixture
)";

// Sizes that make an iteration take 1-20 µs: a step of the chain is 4 cycles (a multiply's
// latency and an add's), a step of the chase a cache and TLB miss.
// Measured on an AMD EPYC VM: a step of the chain 1.12 ns, of the chase 200 ns.
constexpr std::uint64_t kComputeSteps = 3000;       // ≈ 3.5 µs
constexpr std::uint64_t kComputeLongSteps = 10000;  // ≈ 11 µs
constexpr std::uint64_t kPointerChaseSteps = 64;    // ≈ 13 µs
constexpr std::uint64_t kAllocationSteps = 3000;
constexpr std::uint64_t kControlSteps = 1000;       // ≈ 1 µs: the layout control runs it in every block

using Fills = std::vector<std::pair<std::string_view, std::string>>;

std::string fill(std::string_view text, const Fills& fills) {
  std::string out(text);
  for (const auto& [name, value] : fills) {
    const std::string marker = fmt::format("@{}@", name);
    for (size_t at = out.find(marker); at != std::string::npos; at = out.find(marker, at + value.size()))
      out.replace(at, marker.size(), value);
  }
  return out;
}

/// One file of the fixture, as it is in the base and (when it differs) in the head.
struct FixtureFile {
  std::string path;
  std::string base;
  std::string head;  ///< empty: the same as the base
};

/// Every file of the fixture: the project, the shared work, each target's source and header.
std::vector<FixtureFile> fixture_files(const Fixture& fixture) {
  std::vector<FixtureFile> files;
  std::string names, readme;
  for (const auto& target : fixture.targets) {
    names += (names.empty() ? "" : " ") + target.target;
    readme += fmt::format("| `{}` | `{}` | {} | {} |\n", target.target, target.benchmark,
                          fixture.rows[target.row].label(), target.what);
  }
  files.push_back({"CMakeLists.txt", fill(kCMakeLists, {{"TARGETS", names}}), ""});
  files.push_back({"README.md",
                   "# cobench validate's fixture\n\nGenerated by `cobench validate`: the base commit, then a head "
                   "commit whose effect on each benchmark is known.\n\n| target | family | true effect | work |\n"
                   "|---|---|---|---|\n" + readme,
                   ""});
  files.push_back({"cobench.toml", fill(kSettings, {{"CONTROL", fixture.control}}), ""});
  files.push_back({"include/fixture/chain.h", std::string(kChainHeader), ""});
  for (const auto& target : fixture.targets) {
    const Truth& truth = fixture.rows[target.row];
    const std::string source = "bench/" + target.target + ".cc";
    Fills fills = {{"FAMILY", target.benchmark}, {"TARGET", target.target}};
    const std::string steps = std::to_string(target.steps);
    if (truth.kind == Truth::Kind::Slower) {
      const std::string header = fmt::format("slowdown_{}.h", truth.slowdown_percent);
      const std::uint64_t head_steps = slowed_steps(target.steps, truth.slowdown_percent);
      fills.insert(fills.end(), {{"PERCENT", std::to_string(truth.slowdown_percent)},
                                 {"HEADER", header},
                                 {"CONSTANT", fmt::format("kSlowdown{}Steps", truth.slowdown_percent)},
                                 {"BASE_STEPS", steps},
                                 {"HEAD_STEPS", std::to_string(head_steps)}});
      files.push_back({source, fill(kSlowdownSource, fills), ""});
      Fills base_fills = fills, head_fills = fills;
      base_fills.push_back({"STEPS", steps});
      head_fills.push_back({"STEPS", std::to_string(head_steps)});
      files.push_back(
          {"include/fixture/" + header, fill(kSlowdownHeader, base_fills), fill(kSlowdownHeader, head_fills)});
    } else if (truth.kind == Truth::Kind::MoreAllocations) {
      fills.insert(fills.end(), {{"STEPS", steps}, {"EXTRA", std::to_string(truth.extra_allocations)}});
      files.push_back({source, fill(kAllocationsSource, fills), ""});
      Fills base_fills = fills, head_fills = fills;
      base_fills.push_back({"COUNT", "0"});
      head_fills.push_back({"COUNT", std::to_string(truth.extra_allocations)});
      files.push_back({"include/fixture/extra_allocations.h", fill(kAllocationsHeader, base_fills),
                       fill(kAllocationsHeader, head_fills)});
    } else {
      fills.push_back({"STEPS", steps});
      const std::string_view text = target.work == FixtureTarget::Work::PointerChase ? kPointerChaseSource
                                    : target.work == FixtureTarget::Work::JoinStrings ? kJoinSource
                                                                                     : kComputeSource;
      files.push_back({source, fill(text, fills), ""});
    }
  }
  return files;
}

}  // namespace

std::string Truth::label() const {
  switch (kind) {
    case Kind::Unchanged: return "0% (A/A)";
    case Kind::Slower: return fmt::format("{}%", slowdown_percent);
    case Kind::MoreAllocations:
      return fmt::format("+{} allocation{} per iteration", extra_allocations, extra_allocations == 1 ? "" : "s");
  }
  return {};
}

std::string Truth::key() const {
  switch (kind) {
    case Kind::Unchanged: return "aa";
    case Kind::Slower: return fmt::format("slowdown_{}", slowdown_percent);
    case Kind::MoreAllocations: return fmt::format("allocs_{}", extra_allocations);
  }
  return {};
}

int Fixture::row_of(const std::string& target) const {
  if (!repository.empty()) return 0;
  for (const auto& t : targets)
    if (t.target == target) return t.row;
  return -1;
}

Fixture repository_fixture(const std::filesystem::path& repository, const std::string& sha) {
  Fixture fixture;
  fixture.rows = {Truth{}};
  fixture.base = fixture.head = sha;
  fixture.repository = repository;
  return fixture;
}

std::uint64_t slowed_steps(std::uint64_t steps, int percent) {
  // Integer arithmetic: round(steps × (100 + percent) / 100), halves up, with no binary fraction in the way.
  return (steps * static_cast<std::uint64_t>(100 + percent) + 50) / 100;
}

Fixture plan_fixture(const FixtureSpec& spec) {
  std::vector<int> percents = spec.slowdown_percents;
  std::sort(percents.begin(), percents.end());
  for (size_t i = 0; i < percents.size(); ++i) {
    if (percents[i] < 1 || percents[i] > 1000)
      throw InputError(fmt::format("slowdown {}%: the fixture's slowdowns must be 1% to 1000%", percents[i]));
    if (i > 0 && percents[i] == percents[i - 1])
      throw InputError(fmt::format("slowdown {}% is listed twice", percents[i]));
  }
  if (spec.extra_allocations < 1)
    throw InputError(fmt::format("--extra-allocs: must be at least 1, got {}", spec.extra_allocations));

  using Work = FixtureTarget::Work;
  Fixture fixture;
  fixture.rows.push_back({Truth::Kind::Unchanged, 0, 0});
  auto chain_what = [](std::uint64_t steps) { return fmt::format("compute-bound: {} dependent multiply-adds", steps); };
  fixture.targets = {
      {"bench_aa_compute", "BM_Compute", Work::Chain, kComputeSteps, chain_what(kComputeSteps), 0},
      {"bench_aa_compute_long", "BM_ComputeLong", Work::Chain, kComputeLongSteps, chain_what(kComputeLongSteps), 0},
      {"bench_aa_pointer_chase", "BM_PointerChase", Work::PointerChase, kPointerChaseSteps,
       fmt::format("memory-bound: {} steps of a pointer chase through one cycle over 128 MB", kPointerChaseSteps), 0},
      {"bench_aa_join_strings", "BM_JoinStrings", Work::JoinStrings, 0,
       "allocator-bound: copies and joins 256 short strings", 0},
      {"bench_control", "BM_Control", Work::Chain, kControlSteps,
       chain_what(kControlSteps) + "; the layout control (cobench.toml)", 0},
  };
  fixture.control = "bench_control";
  for (int percent : percents) {
    fixture.rows.push_back({Truth::Kind::Slower, percent, 0});
    fixture.targets.push_back({fmt::format("bench_slowdown_{}", percent), fmt::format("BM_Slowdown{}", percent),
                               Work::Chain, kSlowdownBaseSteps,
                               fmt::format("compute-bound: {} → {} dependent multiply-adds", kSlowdownBaseSteps,
                                           slowed_steps(kSlowdownBaseSteps, percent)),
                               static_cast<int>(fixture.rows.size()) - 1});
  }
  fixture.rows.push_back({Truth::Kind::MoreAllocations, 0, spec.extra_allocations});
  fixture.targets.push_back({"bench_extra_allocations", "BM_ExtraAllocations", Work::Chain, kAllocationSteps,
                             fmt::format("{}; the head adds {} heap allocation(s) per iteration",
                                         chain_what(kAllocationSteps), spec.extra_allocations),
                             static_cast<int>(fixture.rows.size()) - 1});
  return fixture;
}

Fixture write_fixture(const fs::path& repo, const FixtureSpec& spec) {
  Fixture fixture = plan_fixture(spec);
  const std::vector<FixtureFile> files = fixture_files(fixture);
  fs::create_directories(repo);
  for (const auto& file : files) write_file_atomic(repo / file.path, file.base);
  git::init_scratch_repository(repo);
  fixture.base = git::commit_all(repo, "fixture: base");
  for (const auto& file : files)
    if (!file.head.empty()) write_file_atomic(repo / file.path, file.head);
  fixture.head = git::commit_all(repo, "fixture: head (slowdowns and extra allocations)");
  return fixture;
}

}  // namespace cobench::validate
