#pragma once
// `cobench run` end to end: resolve both sides, check them out in two
// worktrees, build the benchmark targets, run them interleaved and adaptively,
// log every run, and write the reports. Returns the process exit code.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
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

/// The gate policy of a job's settings.
verdict::GatePolicy gate_policy(const config::Config& settings);

/// What only the pipeline can check before anything is built: the commands
/// parse, the budgets' regexes compile, the benchmark arguments leave cobench
/// its own flags, the CPU can be pinned. Throws InputError naming the origin.
void check_settings(const config::Config& settings);

/// Runs the whole pipeline. Throws InputError (exit 2) and InfraError (exit 3);
/// returns 0, 1 (gate) or 130 (interrupted, after writing the report).
int run_pipeline(const RunOptions& options);

}  // namespace cobench::job
