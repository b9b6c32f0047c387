#pragma once
// The runner seam: how one side's built benchmarks are turned into measurable
// units and how one run of a unit becomes a RunRecord. Google Benchmark is the
// first runner; Go (`go test -bench`) and plain commands plug in beside it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/record.h"

namespace cobench::run {

using results::RunRecord;
using results::Sample;
using results::Side;

/// Everything a runner may need about one prepared (checked out and built) side.
struct SideContext {
  Side side = Side::Base;
  std::string sha;                          ///< full commit SHA of the side
  std::filesystem::path worktree;           ///< the side's checkout
  std::filesystem::path build_dir;          ///< its build folder (empty when nothing is built)
  /// Built executables by target name (Google Benchmark: the discovered targets).
  std::map<std::string, std::filesystem::path> executables;
};

/// One measurable thing on one side: a benchmark executable, a Go package, a command.
struct Unit {
  std::string name;                         ///< target name; the same on both sides
  std::vector<std::string> argv;            ///< what one run executes (before per-run output flags)
  std::filesystem::path cwd;                ///< where it runs
  /// false for cobench's own machine control program: the user's
  /// --benchmark_filter (--filter) chooses among their benchmarks, and one that
  /// matches none of the control's would leave the job without a control.
  bool narrowed_by_filter = true;
};

/// How every benchmark process is started; identical for both sides.
struct ProcessSettings {
  std::vector<std::string> bench_args;     ///< user --bench-arg values, appended last
  int cpu = 0;                             ///< pinned with sched_setaffinity in the child
  double run_timeout = 300;                ///< seconds; kills the run's cgroup or process group
  std::vector<std::string> env;            ///< the one environment every run gets
  std::filesystem::path out_dir;           ///< OUT: runs/ and logs/ go below it
};

/// What one run covers.
struct RunScope {
  std::vector<std::string> benchmarks;  ///< only these, by exact name; empty: all (a decided benchmark stops running)
  int repetitions = 0;                  ///< repetitions per benchmark in the one process; 0: the runner's default
  double min_time = 0;                  ///< seconds each benchmark measures per repetition; 0: as the process settings say
};

/// Runs units of one kind. Implementations never throw for a benchmark's own
/// failure (crash, exit status, timeout, bad output): that is a failed RunRecord.
class Runner {
 public:
  virtual ~Runner() = default;
  /// The measurable units of one built side.
  virtual std::vector<Unit> prepare(const SideContext& side) = 0;
  /// Runs `unit` once as run `run_index` of `side`, covering `scope`; `sha` is
  /// stamped on the record. A runner that cannot narrow or repeat runs all, once.
  virtual RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                             const RunScope& scope) = 0;
  /// Benchmark names a unit would run, without measuring (for one-sided targets); may be empty.
  virtual std::vector<std::string> list(const Unit& unit) { return {}; }
};

}  // namespace cobench::run
