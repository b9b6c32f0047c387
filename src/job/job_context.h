#pragma once
// What every step of one `cobench run` shares once both sides are checked
// out: decided in run_pipeline, carried by the steps after it.
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/measure_step.h"
#include "job/pipeline.h"
#include "job/settings_step.h"
#include "job/workspace.h"
#include "plan/plan.h"
#include "run/progress.h"

namespace cobench::job {

struct JobContext {
  const RunOptions& options;
  const config::Config& settings;            ///< options.settings
  const DecidedSettings& decided;            ///< the framework, narrowing and layouts, decided once
  std::filesystem::path repo;                ///< the repository's top folder
  std::filesystem::path work_dir;            ///< .cobench or --work-dir
  std::filesystem::path out_dir;             ///< the report folder
  Revisions revs;
  Workspace& workspace;                      ///< both sides' worktrees and build folders
  std::vector<std::string> bench_args;       ///< the user's benchmark arguments with the job's --filter
  int cpu = 0;                               ///< where every measured process is pinned
  const plan::CostHistory& history;          ///< earlier jobs' build and run times
  run::Progress& progress;
  Prepared& prepared;                        ///< what the steps before measuring did

  /// What the settings line is made of besides the targets.
  JobBasis basis() const { return {settings, decided, revs, cpu}; }
};

}  // namespace cobench::job
