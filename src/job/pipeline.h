#pragma once
// `cobench run` end to end: resolve both sides, check them out in two
// worktrees, build the benchmark targets, run them interleaved and adaptively,
// log every run, and write the reports. Returns the process exit code.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/settings_step.h"  // check_settings, gate_policy: what commands check before a job
#include "verdict/gate.h"

namespace cobench::job {

/// One `cobench run`: the layered settings and what only this job names.
struct RunOptions {
  config::Config settings;                  ///< defaults < cobench.toml < environment < flags
  std::filesystem::path repo;               ///< any folder inside the repository (empty: cwd)
  std::string head = "HEAD";
  std::string base;                         ///< empty: git::default_base from `env`
  std::filesystem::path work_dir;           ///< empty: <repo>/.cobench
  std::filesystem::path out_dir;            ///< empty: <work_dir>/report
  bool keep = false;                        ///< keep worktrees and build folders
  bool all = false;                         ///< --all: every benchmark target, no diff selection
  std::map<std::string, std::string> env;   ///< environment snapshot (default base, CI variables)
};

/// Runs the whole pipeline. Throws InputError (exit 2) and InfraError (exit 3);
/// returns 0, 1 (gate) or 130 (interrupted, after writing the report).
int run_pipeline(const RunOptions& options);

}  // namespace cobench::job
