#include "job/settings_step.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "host/environment.h"
#include "host/host.h"
#include "job/layout_step.h"
#include "process/process.h"
#include "results/run_length.h"
#include "run/command_runner.h"
#include "run/gbench_runner.h"
#include "verdict/budget.h"

namespace cobench::job {

run::RepetitionPolicy repetition_policy(const std::string& text) {
  run::RepetitionPolicy policy;
  if (text == "auto") policy.automatic = true;
  else if (const int count = std::stoi(text); count > 1) policy.fixed = count;
  return policy;
}

std::string compiler_of(const std::vector<std::string>& cmake_args) {
  const std::string key = "-DCMAKE_CXX_COMPILER=";
  for (const auto& arg : cmake_args)
    if (arg.rfind(key, 0) == 0) return arg.substr(key.size());
  return {};
}

namespace {

/// Whether the user's own benchmark arguments give Google Benchmark's --benchmark_repetitions.
bool sets_repetitions(const std::vector<std::string>& bench_args) {
  return std::any_of(bench_args.begin(), bench_args.end(), run::is_repetitions_flag);
}

/// Whether the user's own benchmark arguments say how long a run measures, as run::with_min_time reads them.
bool sets_min_time(const std::vector<std::string>& bench_args) {
  return std::any_of(bench_args.begin(), bench_args.end(), run::is_min_time_flag);
}

/// DecidedSettings::run_length.
std::string chosen_run_length(const config::Config& c, const run::RunnerKind& kind) {
  const bool cobench_chooses = kind.google_benchmark_flags && c.run.repetitions == "1" &&
                               !sets_min_time(c.run.bench_args) && !sets_repetitions(c.run.bench_args);
  return c.run.run_length == "auto" && cobench_chooses ? "auto" : "fixed";
}

}  // namespace

results::JobSettings job_settings(const JobBasis& job, const TargetChoice& choice,
                                  const std::vector<std::string>& bench_args,
                                  std::optional<results::SharedParent> shared_parent) {
  static const std::string job_id = make_job_id();  // one job per process
  const config::Config& c = job.settings;
  const Revisions& revs = job.revs;
  results::JobSettings s;
  s.job = job_id;
  s.base = revs.base_sha;
  s.head = revs.head_sha;
  s.base_ref = revs.base_ref;
  s.head_ref = revs.head_ref;
  s.metric = c.run.time_metric().empty() ? "instructions" : c.run.time_metric();
  if (c.run.counts_instructions())
    s.instructions = results::InstructionSettings{c.run.instruction_runs, c.budget.instructions_tolerance,
                                                  *verdict::governing_from_string(c.budget.governing)};
  s.pairing = c.run.pairing;
  s.looks = c.run.looks;
  s.control_rule = c.run.control_rule;
  s.stopping = c.run.stopping;
  s.repetitions = c.run.repetitions;
  s.run_length = job.decided.run_length;
  if (job.decided.runner.google_benchmark_flags && !sets_min_time(c.run.bench_args)) s.min_time = c.run.min_time;
  if (s.run_length == "auto") s.first_pairs_share = results::kFirstPairsShare;
  s.budgets = verdict::budgets_of(c.budget);
  s.confidence = c.budget.confidence;
  s.min_runs = c.run.min_runs;
  s.max_runs = c.run.max_runs;
  s.run_timeout = c.run.run_timeout;
  s.time_budget = c.run.time_budget;
  s.measure_budget = c.run.measure_budget;
  s.cpu = job.cpu;
  s.bench_args = bench_args;
  s.cmake_args = side_cmake_args(c.build);
  s.build_type = c.build.build_type;
  s.source_dir = c.build.source_dir;
  s.runner = c.run.runner;
  s.targets = choice.both;
  s.selection = choice.selection;
  const run::RunnerKind& kind = job.decided.runner;
  s.alloc_runs = kind.google_benchmark_flags ? c.run.alloc_runs : 0;
  s.no_allocation_counts = !kind.no_allocation_counts.empty() ? kind.no_allocation_counts
                           : kind.google_benchmark_flags && s.alloc_runs == 0 ? "not collected: alloc_runs = 0"
                                                                                : "";
  s.commands = c.run.commands;
  s.prepare = c.run.prepare;
  s.layout_controls = choice.layout_controls;
  s.layout_stable = c.build.layout_stable;
  s.layout_probe = c.run.layout_probe;
  s.layouts = job.decided.layouts;
  s.layouts_aligned = s.layouts > 1;  // job/layout_step.cc builds every other layout layout-stable
  s.reach = c.run.reach;
  s.shard = choice.shard;
  s.budget_dropped = choice.budget_dropped;
  s.shared_parent = std::move(shared_parent);
  return s;
}

const run::RunnerKind& runner_of(const config::Config& settings) {
  return run::runner_kind(settings.run.runner, settings.origin("run.runner").describe("run.runner"));
}

namespace {

/// What the chosen framework's runs cannot do, refused before anything is built.
void check_runner_settings(const config::Config& settings, const run::RunnerKind& kind) {
  const std::string runner = settings.origin("run.runner").describe("run.runner");
  auto refuse = [&](const char* key, const std::string& why) {
    throw InputError(fmt::format("{}: {} (runner is {})", settings.origin(key).describe(key), why, kind.name));
  };
  if (settings.run.counts_instructions() && !kind.google_benchmark_flags)
    refuse(config::metrics_key(settings), "instructions are counted for Google Benchmark targets only");
  if (!settings.build.shared_parent.empty() && !kind.google_benchmark_flags)
    refuse("build.shared_parent", "a shared parent library is linked into Google Benchmark targets only");
  // Go packages have no CMake build to cover: their rows say reach is unknown (job/worktree_job.cc).
  if (settings.run.reach && kind.recognises && !kind.google_benchmark_flags)
    refuse("run.reach", "the coverage pass runs each benchmark alone through Google Benchmark's filter");
  if (!settings.run.filter.empty() && !kind.google_benchmark_flags)
    refuse("run.filter", fmt::format("--filter is Google Benchmark's --benchmark_filter; give {}'s own selection "
                                     "flags with --bench-arg", kind.framework));
  if (kind.takes_commands && settings.run.commands.empty())
    throw InputError(fmt::format("{}: the {} runner needs at least one --command", runner, kind.name));
  if (!kind.takes_commands && (!settings.run.commands.empty() || !settings.run.prepare.empty())) {
    const char* key = settings.run.commands.empty() ? "run.prepare" : "run.commands";
    refuse(key, "commands need the command runner");
  }
}

}  // namespace

DecidedSettings check_settings(const config::Config& settings) {
  if (settings.run.reach && settings.run.layout_probe)
    throw InputError(fmt::format("{}: a layout probe builds one commit against itself, there is no change to reach; "
                                 "drop {}",
                                 settings.origin("run.reach").describe("run.reach"),
                                 settings.origin("run.layout_probe").describe("run.layout_probe")));
  run::parse_commands(settings.run.commands, "--command");
  run::parse_commands(settings.run.prepare, "--prepare");
  verdict::budgets_of(settings.budget);
  const run::RunnerKind& kind = runner_of(settings);
  check_runner_settings(settings, kind);
  if (kind.google_benchmark_flags)
    run::check_bench_args(settings.run.bench_args, !settings.run.filter.empty(),
                          settings.origin("run.bench_args").describe("run.bench_args"));
  if (sets_repetitions(settings.run.bench_args) && settings.run.repetitions != "1")
    throw InputError(fmt::format("{}: conflicts with --benchmark_repetitions in {}; give the repetitions once",
                                 settings.origin("run.repetitions").describe("run.repetitions"),
                                 settings.origin("run.bench_args").describe("run.bench_args")));
  if (settings.run.cpu)
    if (auto why = host::why_not_pinnable(*settings.run.cpu))
      throw InputError(fmt::format("{}: {}", settings.origin("run.cpu").describe("run.cpu"), *why));
  // Before anything is built: a job that cannot count would spend its build for nothing.
  if (settings.run.counts_instructions() && !process::find_on_path("valgrind"))
    throw InfraError("instructions are counted under valgrind's callgrind, and valgrind is not on PATH (Debian: "
                     "apt-get install valgrind)");
  if (settings.select.shard && !kind.recognises)
    throw InputError(fmt::format("{}: shards split benchmark targets; the {} runner has none",
                                 settings.origin("select.shard").describe("select.shard"), settings.run.runner));
  if (!settings.build.shared_parent.empty() && settings.run.layouts > 1 &&
      settings.origin("run.layouts").kind != config::Origin::Kind::Default)
    throw InputError(fmt::format("{}: a shared parent library ({}) is one code layout, built once for both sides; "
                                 "drop one of them",
                                 settings.origin("run.layouts").describe("run.layouts"),
                                 settings.origin("build.shared_parent").describe("build.shared_parent")));
  return {kind, select::narrowing_of(settings), layouts_of(settings, kind), chosen_run_length(settings, kind)};
}

verdict::GatePolicy gate_policy(const config::Config& settings) {
  return {settings.budget.gate || settings.budget.fail_on_inconclusive, settings.budget.fail_on_inconclusive};
}

}  // namespace cobench::job
