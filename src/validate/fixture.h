#pragma once
// The project `cobench validate` measures: a CMake + Google Benchmark project
// in a fresh git repository with a base and a head commit, where the truth is
// known by construction. A/A benchmarks are the same code on both sides; the
// slowdowns are chains of dependent multiply-adds whose length the head
// multiplies by exactly 1 + s; one benchmark's head adds heap allocations.
// One benchmark family per source file and per executable target. Its
// cobench.toml names an unchanged target as the layout control, as a project
// would, so every job carries a layout control and a machine control.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cobench::validate {

/// The true effect of the head on a benchmark: one row of the validation table.
struct Truth {
  enum class Kind { Unchanged, Slower, MoreAllocations };
  Kind kind = Kind::Unchanged;
  int slowdown_percent = 0;   ///< Slower: the true head/base time ratio is 1 + slowdown_percent/100
  int extra_allocations = 0;  ///< MoreAllocations: heap allocations the head adds per iteration

  /// "0% (A/A)", "3%", "+1 allocation per iteration": the row's name in tables.
  std::string label() const;
  /// "aa", "slowdown_3", "allocs_1": the row's key in the JSON summary.
  std::string key() const;
};

/// One benchmark target of the fixture (one source file, one family).
struct FixtureTarget {
  /// The kind of work an iteration does.
  enum class Work {
    Chain,         ///< dependent multiply-adds (compute-bound)
    PointerChase,  ///< dependent loads through one cycle over 128 MB (DRAM-bound)
    JoinStrings,   ///< copies and joins 256 short strings (allocator-bound)
  };
  std::string target;     ///< "bench_slowdown_10"
  std::string benchmark;  ///< "BM_Slowdown10"
  Work work = Work::Chain;
  std::uint64_t steps = 0;  ///< per iteration in the base: multiply-adds or chase steps (0: JoinStrings)
  std::string what;       ///< what it does, for people: "compute-bound: 4000 → 4400 dependent multiply-adds"
  int row = 0;            ///< index into Fixture::rows
};

/// The knobs of the fixture.
struct FixtureSpec {
  std::vector<int> slowdown_percents = {3, 5, 10, 20, 50};  ///< one compute-bound benchmark each
  int extra_allocations = 1;                                ///< k: the allocation benchmark's head adds k per iteration
};

/// The fixture: its rows and targets, and once written its two commits.
struct Fixture {
  std::vector<Truth> rows;             ///< A/A first, then the slowdowns ascending, then the allocations
  std::vector<FixtureTarget> targets;  ///< in the order the project lists them
  /// The unchanged target the project's cobench.toml names as its layout control
  /// (`[run] control`); also one of `targets`, in the A/A row, judged only when a job turns the control off.
  std::string control;
  std::string base;                    ///< full SHA of the base commit (write_fixture)
  std::string head;                    ///< full SHA of the head commit
  /// A user's repository (`validate --repo`): one commit as both sides, so
  /// every benchmark it has is in the one A/A row, whatever its target.
  std::filesystem::path repository;

  /// The row of `target`; -1 when the fixture has no such target.
  int row_of(const std::string& target) const;
};

/// A user's repository at commit `sha` measured against itself: one A/A row,
/// no targets known beforehand (every benchmark its jobs judge is unchanged).
Fixture repository_fixture(const std::filesystem::path& repository, const std::string& sha);

/// Dependent steps per iteration of every slowdown benchmark's base.
inline constexpr std::uint64_t kSlowdownBaseSteps = 4000;

/// The head's steps for a true slowdown of `percent`%: round(steps × (1 + percent/100)), exactly.
std::uint64_t slowed_steps(std::uint64_t steps, int percent);

/// The fixture `spec` describes, nothing written. Throws InputError for a
/// slowdown outside 1..1000% or twice, or fewer than one extra allocation.
Fixture plan_fixture(const FixtureSpec& spec);

/// Writes the fixture project into `repo` (a new folder), makes it a git
/// repository and commits the base, then the head; returns the fixture with both SHAs.
Fixture write_fixture(const std::filesystem::path& repo, const FixtureSpec& spec);

}  // namespace cobench::validate
