#pragma once
// The per-run plumbing every process runner shares (Google Benchmark, Go,
// plain commands): the record, the log file, the measured process, and how
// its end is written into the record, with what a failure needs to be
// explained later (the command line and the last lines it printed).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "process/process.h"
#include "run/runner.h"

namespace cobench::run {

/// A record for run `run_index` of `target` on `side`, status ok.
RunRecord new_record(const std::string& target, Side side, const std::string& sha, int run_index);

/// OUT/logs/<target>-<side>-<run>.log: {absolute path, path relative to OUT}.
std::pair<std::filesystem::path, std::string> run_log_path(const std::filesystem::path& out_dir,
                                                           const std::string& target, Side side, int run_index);

/// A measured run's process: argv in cwd, the job's environment, pinned, in a
/// cgroup of its own where possible, under the per-run timeout, stderr merged
/// into stdout.
process::Command measured_command(const ProcessSettings& settings, std::vector<std::string> argv,
                                  const std::filesystem::path& cwd);

/// Copies how `command` ended into `record` (status, exit code, signal,
/// interrupted, detail; for a failure also the command line and the last
/// lines of its output, from `command.stdout_path` or the captured output).
/// Returns true when it exited 0.
bool record_outcome(const process::Command& command, const process::Result& result, RunRecord& record);

/// One unit per built executable of a side, each run from the side's build
/// folder (the executable's own folder when nothing was built).
std::vector<Unit> executable_units(const SideContext& side);

/// A file-name-safe form of a target name: letters, digits, '-', '.' kept, the rest '_'.
std::string safe_stem(const std::string& text);

}  // namespace cobench::run
