#pragma once
// `cobench run` end to end: resolve both sides, check them out in two
// worktrees, build the benchmark targets, run them interleaved and adaptively,
// log every run, and write the reports. Returns the process exit code.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"

namespace cobench::job {

/// Every setting of one `cobench run`, after layering defaults < cobench.toml
/// < environment < flags.
struct RunOptions {
  std::filesystem::path repo;               ///< any folder inside the repository (empty: cwd)
  std::string head = "HEAD";
  std::string base;                         ///< empty: git::default_base from `env`
  std::filesystem::path work_dir;           ///< empty: <repo>/.cobench
  std::filesystem::path out_dir;            ///< empty: <work_dir>/report
  bool keep = false;                        ///< keep worktrees and build folders
  std::vector<std::string> cmake_args;
  std::string build_type = "Release";
  std::string source_dir;                   ///< CMake project inside the repo ("" = root)
  std::vector<std::string> target_patterns; ///< name regexes that also count as benchmark targets
  std::string target_regex;                 ///< --target (else COBENCH_TARGETS): narrows the selection
  std::string filter;                       ///< --filter (else COBENCH_FILTER): --benchmark_filter for the binaries
  bool all = false;                         ///< --all: every benchmark target, no diff selection
  config::SelectConfig select;              ///< [select] with --max-targets / --strict-layout applied
  std::vector<std::string> bench_args;      ///< passed to every benchmark run
  std::optional<int> cpu;                   ///< nullopt: last online CPU
  int min_runs = 6;
  int max_runs = 30;
  double run_timeout = 300;                 ///< seconds per run
  std::optional<double> time_budget;        ///< seconds for the measuring phase
  std::string metric = "real_time";         ///< "real_time" | "cpu_time"
  double budget = 0.05;                     ///< allowed slowdown as a fraction
  std::vector<config::BudgetOverride> overrides;
  double confidence = 0.95;
  bool gate = false;                        ///< exit 1 on any regression
  bool fail_on_inconclusive = false;        ///< with gate: inconclusive fails too
  std::string runner = "gbench";            ///< "gbench" | "go" | "command"
  std::vector<std::string> commands;        ///< --command: each one benchmark (runner "command")
  std::vector<std::string> prepare;         ///< --prepare: run once per worktree before measuring
  int alloc_runs = 3;
  std::optional<std::string> allocs_budget;
  std::optional<std::string> bytes_budget;
  std::map<std::string, std::string> env;   ///< environment snapshot (default base, CI variables)
};

/// Fills options from a loaded config (the file layer); flags are applied after.
RunOptions options_from_config(const config::Config& config);

/// Runs the whole pipeline. Throws InputError (exit 2) and InfraError (exit 3);
/// returns 0, 1 (gate) or 130 (interrupted, after writing the report).
int run_pipeline(const RunOptions& options);

/// `cobench report`: rebuilds every report in `out_dir` from a results.jsonl
/// (also a partial one), prints the table, returns the exit code for `gate`.
int report_results(const std::filesystem::path& results, const std::filesystem::path& out_dir, bool gate,
                   bool fail_on_inconclusive);

}  // namespace cobench::job
