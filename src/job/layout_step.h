#pragma once
// Layout confirmation, the building and measuring (verdict/layouts.h decides):
// after the measuring stage, every claimed row (a regression or faster verdict
// of a measured benchmark, never a control) is measured again in layout 2,
// both sides rebuilt in build folders of their own beside their first ones,
// layout-stable (cmake::layout_stable_flags: every function the change leaves
// alone keeps its alignment) with all the project's code moved at link time
// (cmake::layout_shift_flags), so the first layout's binaries stay as they
// are; in a job built layout-stable the compile cache serves every object.
// Where the second layout was inconclusive and the job allows three, layout 3
// follows. Only targets holding claims are rebuilt and only the
// claimed benchmarks run, interleaved as the main runs, judged by the same look
// rule; their runs go into results.jsonl with their layout index, so the
// reports (`cobench report` too) decide from the log alone.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/side_build.h"
#include "job/workspace.h"
#include "results/log.h"
#include "run/progress.h"
#include "run/runner_kinds.h"
#include "run/schedule.h"

namespace cobench::job {

/// The code layouts this job's claims must hold in: run.layouts for Google
/// Benchmark targets cobench builds with CMake; 1 (no confirmation) for the
/// other runners (their programs take no Google Benchmark filter, or their
/// builds are not cobench's), and with a shared parent library, which another
/// layout's executables would not link. Decided once (DecidedSettings::layouts).
int layouts_of(const config::Config& settings, const run::RunnerKind& runner);

/// The claimed benchmarks a layout has to measure, by target.
using Claims = std::map<std::string, std::vector<std::string>>;

/// The rows of `results` whose claim waits for layout `layout`: checked
/// (a regression or faster verdict of a measured row) with layouts 1 to
/// layout - 1 read and no outcome yet.
Claims claims_needing(const results::ResultsFile& results, int layout);

/// The step of one job: built once the sides are configured, run after the measuring stage.
class LayoutStep {
 public:
  /// `base` and `head` are the settings each side was configured with (the
  /// probe perturbs the head's); `process` how the main runs were started.
  LayoutStep(const config::Config& settings, int layouts, const Workspace& workspace, const Revisions& revisions,
             SharedBuildSettings base, SharedBuildSettings head, run::ProcessSettings process, run::Progress& progress);

  /// Measures each layout the claims in `log` still need (none with
  /// run.layouts 1), logging every run with its layout index and a note per
  /// layout (what it rebuilt, its compile cache, why a layout could not be
  /// measured). `schedule` is the main runs' plan; `job_elapsed` the job's
  /// clock, for what the time budget leaves. Returns false when interrupted.
  bool run(results::ResultsLog& log, const run::ScheduleSettings& schedule, const std::function<double()>& job_elapsed);

 private:
  /// Rebuilds `claims`' targets on both sides in layout `layout`, measures
  /// their claimed benchmarks within what the time budget leaves after the
  /// build, and logs the runs. False when interrupted.
  bool measure_layout(int layout, const Claims& claims, results::ResultsLog& log, run::ScheduleSettings schedule,
                      const std::function<double()>& job_elapsed);

  /// Bounds `schedule` by what the job's time budget leaves after `job_elapsed` seconds; false, with a
  /// note that layout `layout` is not measured (`when`: " after its build", or ""), when it is spent.
  bool fit_to_budget(int layout, const std::string& when, results::ResultsLog& log, double job_elapsed,
                     run::ScheduleSettings& schedule) const;

  const config::Config& settings_;
  int layouts_;  ///< the job's code layouts (DecidedSettings::layouts)
  const Workspace& workspace_;
  Revisions revisions_;
  SharedBuildSettings base_;
  SharedBuildSettings head_;
  run::ProcessSettings process_;
  run::Progress& progress_;
};

}  // namespace cobench::job
