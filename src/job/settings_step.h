#pragma once
// What a job checks of its settings before anything is built, and the
// settings line it records in results.jsonl: each value decided here once
// and carried by the steps after.
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "results/job_settings.h"
#include "run/runner_kinds.h"
#include "run/schedule.h"
#include "select/narrowing.h"
#include "verdict/gate.h"

namespace cobench::job {

/// The job's framework (run::runner_kinds), named where the setting came from.
const run::RunnerKind& runner_of(const config::Config& settings);

/// What a job decides from its settings once, before anything is built; the
/// steps after read it from here (JobContext::decided), never from the settings again.
struct DecidedSettings {
  const run::RunnerKind& runner;   ///< the job's framework
  select::Narrowing narrowing;     ///< --target / --filter as selection and the runs apply them
  int layouts = 1;                 ///< code layouts a claim must hold in (layouts_of)
  /// "auto" where cobench chooses each target's run length (run::RunLengthPolicy): run.run_length
  /// auto, Google Benchmark targets, one repetition, no length or repetitions in the user's
  /// --bench-arg; otherwise "fixed"
  std::string run_length = "fixed";
};

/// What only the pipeline can check before anything is built: the commands
/// parse, the budgets' regexes compile, the runner can do what is asked of it,
/// the benchmark arguments leave cobench its own flags, the CPU can be pinned.
/// Throws InputError naming the origin. Returns what it decided on the way.
DecidedSettings check_settings(const config::Config& settings);

/// The gate policy of a job's settings.
verdict::GatePolicy gate_policy(const config::Config& settings);

/// "auto", or a count; one repetition is the runner's own default, so a
/// user's --benchmark_repetitions in --bench-arg still counts.
run::RepetitionPolicy repetition_policy(const std::string& text);

/// The compiler named in the CMake arguments, for the host context.
std::string compiler_of(const std::vector<std::string>& cmake_args);

/// What a job's settings line is made of besides its targets: the settings,
/// what was decided from them, the sides and the CPU.
struct JobBasis {
  const config::Config& settings;
  const DecidedSettings& decided;
  const Revisions& revs;
  int cpu = 0;
};

/// The settings line of results.jsonl: what this job measures and how, the
/// targets of `choice`, measured with `bench_args`.
results::JobSettings job_settings(const JobBasis& job, const TargetChoice& choice,
                                  const std::vector<std::string>& bench_args,
                                  std::optional<results::SharedParent> shared_parent = std::nullopt);

}  // namespace cobench::job
