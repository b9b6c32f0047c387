#pragma once
// The jobs of a validation: real `cobench run` processes of the built binary
// on the fixture, one after another, methods alternating so that a machine
// that drifts during the campaign hits every method alike. Each job's report
// is read back through the report model (report.json) and its run log
// (results.jsonl), never parsed by hand.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "stats/stats.h"
#include "verdict/control.h"

namespace cobench::validate {

/// A named set of extra `cobench run` flags, tallied as one table.
struct Method {
  std::string name;               ///< "now"
  std::vector<std::string> args;  ///< "--pairing", "unpaired", ...; empty: cobench run's defaults
};

/// Parses `--method NAME=ARGS`: ARGS is split at whitespace (no quoting).
/// Throws InputError naming the flag when NAME is empty or has no '='.
Method parse_method(const std::string& text);

/// Which method each job uses, in run order, for `jobs` jobs per method:
/// A B, B A, A B, ... (each round of one job per method reversed from the
/// last), so a linear drift lands on every method alike. One method: all 0.
std::vector<int> job_order(int methods, int jobs);

/// The verdict a job gave on one benchmark.
struct JobVerdict {
  std::string target;  ///< "bench_slowdown_10"
  std::string name;    ///< the benchmark: "BM_Slowdown10"
  verdict::Verdict verdict = verdict::Verdict::Inconclusive;
  double ratio = 0;    ///< head/base estimate; NaN when not compared
  int runs_base = 0;   ///< runs attempted per side
  int runs_head = 0;
  bool faster = false; ///< a pass whose interval lies below 1: a claim too
};

/// What one finished job gave.
struct JobResult {
  int index = 0;                  ///< 1-based, in run order
  int method = 0;                 ///< index into the methods
  int exit_code = 0;              ///< of `cobench run`
  double wall_seconds = 0;        ///< the whole job: checkout, configure, build, measuring, reports
  double measuring_seconds = 0;   ///< its runs' wall times added up (timing and allocation runs)
  std::vector<JobVerdict> verdicts;  ///< one per judged benchmark row of its report (controls are not judged)
  std::vector<verdict::ControlInterval> controls;  ///< the widest control of each kind that ran (report.json)
  /// Empty for a finished job; else how it ended and the last line it printed
  /// ("cobench run exited 3: cobench: error: build of target 'x' failed ...").
  std::string failure;

  /// Checkout, configure, build and reports: the wall time outside the runs.
  double build_seconds() const { return wall_seconds - measuring_seconds; }
  /// Verdicts that decided: pass or regression.
  int decided() const;
  /// The spread the control rule held this job's rows to (the widest control's); NaN without a control.
  double control_spread() const;
};

/// The verdicts, controls and run times of a finished job's report folder
/// (report.json, results.jsonl); the controls' own rows give no verdict.
/// Throws InputError naming the file when one is missing or malformed.
JobResult read_job(const std::filesystem::path& report_dir);

/// How every job is started.
struct JobSpec {
  std::filesystem::path cobench;     ///< the binary (this very one)
  std::filesystem::path repo;        ///< the fixture
  std::string base;                  ///< the fixture's base commit
  std::string head;                  ///< the fixture's head commit
  std::vector<std::string> args;     ///< after the job's own: defaults, then every --run-arg
  std::filesystem::path cwd;         ///< where jobs start (relative paths in the arguments)
  std::vector<std::pair<std::string, std::string>> env;  ///< set in the job's environment
};

/// `cobench run` for one job writing its reports to `out`: the repository,
/// both commits, --all and --out, then `spec.args`, then the method's flags
/// (given twice, a flag's last value wins, so a method overrides the defaults).
std::vector<std::string> job_argv(const JobSpec& spec, const Method& method, const std::filesystem::path& out);

/// Runs one job as a child process, its output going to `log`, and reads
/// its report folder `out`. A job that exits other than 0 or 1 (1: a --gate
/// among the flags failed; still a finished job) comes back with `failure`
/// set and no verdicts. A cancellation (SIGINT/SIGTERM) stops the child and
/// throws Interrupted.
JobResult run_job(const JobSpec& spec, const Method& method, int index, const std::filesystem::path& out,
                  const std::filesystem::path& log);

}  // namespace cobench::validate
