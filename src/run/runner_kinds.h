#pragma once
// The benchmark frameworks cobench runs, one row each: the name --runner
// takes, how a CMake job recognises the framework's programs, what its runs
// can measure beside time, and how its runner is made. A new framework is its
// runner's file and one row in runner_kinds.cc.
#include <memory>
#include <string>
#include <vector>

#include "cmake/cmake.h"
#include "run/runner.h"

namespace cobench::run {

/// What a job gives a runner when it makes one.
struct RunnerSetup {
  ProcessSettings process;
  std::vector<std::string> commands;  ///< --command values, as given (the command runner's benchmarks)
  std::vector<std::string> prepare;   ///< --prepare values, as given (run once per worktree first)
};

/// One framework.
struct RunnerKind {
  std::string name;                   ///< what --runner / run.runner takes
  std::string framework;              ///< for people: "Google Benchmark", "Catch2"
  /// Its benchmarks are CMake executables it recognises (selection over the
  /// include graph, builds, shards); null: it runs in the worktrees as they are.
  cmake::Recognises recognises;
  /// Its programs take Google Benchmark's flags and write its JSON: allocation
  /// and instruction counts, the reach pass, other layouts and a shared parent
  /// library run them with a filter per benchmark.
  bool google_benchmark_flags = false;
  bool takes_commands = false;        ///< --command and --prepare are its benchmarks
  /// Why its rows never have allocation counts ("not applicable: ..."); "" when its
  /// runs report them (Google Benchmark through its counting runs, Go through -benchmem).
  std::string no_allocation_counts;
  std::unique_ptr<Runner> (*make)(const RunnerSetup&) = nullptr;
};

/// Every framework, the default (gbench) first.
const std::vector<RunnerKind>& runner_kinds();

/// The row named `name`; InputError naming `origin` and the known names when none is.
const RunnerKind& runner_kind(const std::string& name, const std::string& origin);

/// Whether any of a target's link fragments, or the names of the targets it
/// depends on, matches `library` (a regex on one fragment or name, searched).
bool links_library(const cmake::TargetFacts& facts, const std::string& library);

/// Whether any of a target's sources includes a header whose path matches
/// `header` (a regex searched in the #include line; empty: no header asked
/// for) and uses one of `macros`
/// ("BENCHMARK" finds `BENCHMARK(` and `BENCHMARK (`). Sources are read up to
/// 1 MiB each; unreadable ones are skipped.
bool sources_use(const cmake::TargetFacts& facts, const std::string& header, const std::vector<std::string>& macros);

}  // namespace cobench::run
