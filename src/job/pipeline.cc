#include "job/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cmake/compile_flags.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/file_lock.h"
#include "core/parse.h"
#include "process/process.h"
#include "process/signals.h"
#include "report/escape.h"
#include "report/report.h"
#include "aggregate/aggregate.h"
#include "run/alloc_runs.h"
#include "verdict/budget.h"
#include "run/beside_control.h"
#include "run/command_runner.h"
#include "host/environment.h"
#include "run/gbench_runner.h"
#include "run/runner_kinds.h"
#include "run/instruction_runs.h"
#include "host/host.h"
#include "run/progress.h"
#include "results/log.h"
#include "aggregate/merge.h"
#include "results/samples.h"
#include "run/schedule.h"
#include "run/shipped_files.h"
#include "job/job_folder.h"
#include "job/layout_step.h"
#include "job/output_dir.h"
#include "job/report_step.h"
#include "job/planned_build.h"
#include "job/reach_step.h"
#include "job/shared_parent_step.h"
#include "job/side_build.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "plan/plan.h"
#include "select/select.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

/// "auto", or a count; one repetition is the runner's own default, so a
/// user's --benchmark_repetitions in --bench-arg still counts.
run::RepetitionPolicy repetition_policy(const std::string& text) {
  run::RepetitionPolicy policy;
  if (text == "auto") policy.automatic = true;
  else if (const int count = std::stoi(text); count > 1) policy.fixed = count;
  return policy;
}

/// The compiler named in the CMake arguments, for the host context.
std::string compiler_of(const std::vector<std::string>& cmake_args) {
  const std::string key = "-DCMAKE_CXX_COMPILER=";
  for (const auto& arg : cmake_args)
    if (arg.rfind(key, 0) == 0) return arg.substr(key.size());
  return {};
}

results::JobSettings job_settings(const config::Config& c, const Revisions& revs, int cpu,
                                  const TargetChoice& choice, const std::vector<std::string>& bench_args,
                                  std::optional<results::SharedParent> shared_parent = std::nullopt) {
  static const std::string job_id = make_job_id();  // one job per process
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
  s.budgets = c.budgets();
  s.confidence = c.budget.confidence;
  s.min_runs = c.run.min_runs;
  s.max_runs = c.run.max_runs;
  s.run_timeout = c.run.run_timeout;
  s.time_budget = c.run.time_budget;
  s.measure_budget = c.run.measure_budget;
  s.cpu = cpu;
  s.bench_args = bench_args;
  s.cmake_args = side_cmake_args(c.build);
  s.build_type = c.build.build_type;
  s.source_dir = c.build.source_dir;
  s.runner = c.run.runner;
  s.targets = choice.both;
  s.selection = choice.selection;
  s.alloc_runs = run::runner_kind(c.run.runner, "run.runner").google_benchmark_flags ? c.run.alloc_runs : 0;
  s.commands = c.run.commands;
  s.prepare = c.run.prepare;
  s.layout_controls = choice.layout_controls;
  s.layout_stable = c.build.layout_stable;
  s.layout_probe = c.run.layout_probe;
  s.layouts = layouts_of(c);
  s.reach = c.run.reach;
  s.shard = choice.shard;
  s.budget_dropped = choice.budget_dropped;
  s.shared_parent = std::move(shared_parent);
  return s;
}

/// The machine control: one program run in both sides' slots of every
/// block, the job's own A/A (the machine's drift, a side's slot). For Google
/// Benchmark and Catch2 jobs (CMake targets) cobench's own `program`
/// (src/control/: quiet by construction, cheap, never optimised away), so no
/// user benchmark that is noisy or measures nothing stands in for the machine;
/// for Go packages and commands the first unit's first benchmark.
std::string control_target_of(const fs::path& program) { return "machine:" + program.filename().string(); }

std::optional<run::UnitPair> machine_control(run::Runner& runner, const std::vector<run::UnitPair>& pairs,
                                             const std::optional<fs::path>& program) {
  if (pairs.empty()) return std::nullopt;
  const run::UnitPair& first = pairs.front();
  if (program) {
    const std::string name = control_target_of(*program);
    const run::Unit unit{name, {program->string()}, program->parent_path(), /*narrowed_by_filter=*/false};
    return run::UnitPair{name, unit, unit, first.base_sha, first.base_sha, true, {}};
  }
  run::UnitPair control{"machine:" + first.target, first.base, first.base, first.base_sha, first.base_sha, true, {}};
  control.base.name = control.head.name = control.target;
  if (auto names = runner.list(first.base); !names.empty()) control.only = {names.front()};
  return control;
}

/// Lists the benchmarks of targets that exist on one side only.
void log_one_sided(run::Runner& runner, const run::SideContext& side, const std::vector<std::string>& names, results::ResultsLog& log) {
  if (names.empty()) return;  // prepare() may run commands (--prepare): only when needed
  for (auto& unit : runner.prepare(side))
    if (std::find(names.begin(), names.end(), unit.name) != names.end())
      log.one_sided({unit.name, side.side, runner.list(unit)});
}

/// A job that measures nothing: its diff reaches no benchmark, its shard got
/// no target, or no target's build fits the time budget. Leaves a report that
/// says why (`notes`) and returns `exit_code`.
int report_unmeasured(const std::vector<std::string>& notes, const config::Config& settings, const Revisions& revs,
                      int cpu, const TargetChoice& choice, const fs::path& out_dir, int exit_code) {
  results::ResultsLog log(out_dir / "results.jsonl");
  log.host(host::collect_host_context(compiler_of(settings.build.cmake_args)));
  log.settings(job_settings(settings, revs, cpu, choice, settings.run.bench_args));
  for (const auto& note : notes) log.note(note);
  report::write_reports(aggregate::report_of(results::read_results(log.path()), log.path().string()), out_dir);
  std::printf("reports: %s/report.{json,md,xml,html}\n", out_dir.string().c_str());
  return exit_code;
}

/// A job whose diff reaches no benchmark: say so, and leave a report that says so.
int report_unreached(const std::string& why, const config::Config& settings, const Revisions& revs, int cpu,
                     const select::Selection& selection, const fs::path& out_dir) {
  std::printf("%s; nothing to build or measure\n", why.c_str());
  return report_unmeasured({why}, settings, revs, cpu, choose_targets({}, selection), out_dir, kExitOk);
}

}  // namespace

namespace {

const run::RunnerKind& runner_of(const config::Config& settings) {
  return run::runner_kind(settings.run.runner, settings.origin("run.runner").describe("run.runner"));
}

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

void check_settings(const config::Config& settings) {
  if (settings.run.reach && settings.run.layout_probe)
    throw InputError(fmt::format("{}: a layout probe builds one commit against itself, there is no change to reach; "
                                 "drop {}",
                                 settings.origin("run.reach").describe("run.reach"),
                                 settings.origin("run.layout_probe").describe("run.layout_probe")));
  run::parse_commands(settings.run.commands, "--command");
  run::parse_commands(settings.run.prepare, "--prepare");
  settings.budgets();
  const run::RunnerKind& kind = runner_of(settings);
  check_runner_settings(settings, kind);
  if (kind.google_benchmark_flags)
    run::check_bench_args(settings.run.bench_args, !settings.run.filter.empty(),
                          settings.origin("run.bench_args").describe("run.bench_args"));
  const bool own_repetitions = std::any_of(settings.run.bench_args.begin(), settings.run.bench_args.end(),
                                           [](const std::string& arg) { return arg.find("benchmark_repetitions") != std::string::npos; });
  if (own_repetitions && settings.run.repetitions != "1")
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
}

verdict::GatePolicy gate_policy(const config::Config& settings) {
  return {settings.budget.gate || settings.budget.fail_on_inconclusive, settings.budget.fail_on_inconclusive};
}

namespace {

/// What the job did before measuring, for results.jsonl.
struct Prepared {
  BuildOutcome build;                        ///< build times and the time budget's notes
  std::function<double()> job_elapsed;       ///< seconds since the job started
  std::vector<results::PhaseTime> phases;    ///< configure, reach, build: how long each took
  /// CMake jobs: cobench's own machine control program, and where it was found (nullopt: it was not).
  bool bundled_control = false;
  std::optional<fs::path> control_program;
};

/// Runs `step`, adding its seconds to the phase `name` of `phases` (a phase
/// met twice, such as configuring each side, is one entry), and returns what it returns.
template <class Step>
auto timed(std::vector<results::PhaseTime>& phases, const std::string& name, Step&& step) {
  const auto start = std::chrono::steady_clock::now();
  struct AddOnExit {  // also when the step throws: the time was spent
    std::vector<results::PhaseTime>& phases;
    const std::string& name;
    std::chrono::steady_clock::time_point start;
    ~AddOnExit() {
      auto it = std::find_if(phases.begin(), phases.end(), [&](const auto& p) { return p.name == name; });
      if (it == phases.end()) it = phases.insert(phases.end(), {name, 0});
      it->seconds += seconds_since(start);
    }
  } add{phases, name, start};
  return step();
}

/// Logs, measures (timing rounds when a time metric is asked for; then, for
/// Google Benchmark targets, whose processes are started as `gbench_process`
/// says, instruction runs and allocation runs as configured; then, with a
/// `layout_step`, the claims in other code layouts) and reports one prepared
/// pair of sides, whatever the runner.
int measure(const RunOptions& options, run::Runner& runner, const run::SideContext& base, const run::SideContext& head,
            const results::JobSettings& job, const TargetChoice& choice, const run::ProcessSettings* gbench_process,
            const std::vector<results::ReachRecord>& reach, const fs::path& out_dir, const fs::path& job_dir,
            run::Progress& progress, const Prepared& prepared, LayoutStep* layout_step) {
  const config::Config& settings = options.settings;
  const bool times = !settings.run.time_metric().empty();
  auto pairs = run::pair_units(runner, base, head);
  // A control witnesses the noise of the period it ran in: one that stopped
  // once it passed would judge the later runs of the others by its first ten.
  for (auto& pair : pairs)
    pair.follows = std::find(choice.layout_controls.begin(), choice.layout_controls.end(), pair.target) !=
                   choice.layout_controls.end();
  results::JobSettings logged = job;
  std::string no_machine_control;  // why a Google Benchmark job has none, for the reports
  if (settings.run.machine_control && times) {  // the machine control is an A/A of time
    if (prepared.bundled_control && !prepared.control_program)
      no_machine_control = "no machine control: " + run::describe_missing(run::machine_control_program());
    if (no_machine_control.empty())
      if (auto control = machine_control(runner, pairs, prepared.control_program)) {
        logged.machine_control = control->target;
        pairs.push_back(std::move(*control));
      }
  }
  results::ResultsLog log(out_dir / "results.jsonl");
  log.host(host::collect_host_context(compiler_of(settings.build.cmake_args)));
  log.settings(logged);
  if (!no_machine_control.empty()) log.note(no_machine_control);
  for (const auto& build : prepared.build.times) log.build(build);
  for (const auto& note : prepared.build.notes) log.note(note);
  log_one_sided(runner, base, choice.base_only, log);
  log_one_sided(runner, head, choice.head_only, log);
  for (const auto& record : reach) log.reach(record);
  for (const auto& phase : prepared.phases) log.phase(phase);

  const verdict::Budgets budgets = settings.budgets();
  // Measuring gets what the time budget leaves, at most the measuring budget.
  const auto bound = plan::measuring_bound(settings.run.time_budget, settings.run.measure_budget, prepared.job_elapsed());
  run::ScheduleSettings schedule;
  schedule.min_runs = settings.run.min_runs;
  schedule.max_runs = settings.run.max_runs;
  if (bound) {
    schedule.time_budget = bound->seconds;
    schedule.time_budget_name = bound->phrase;
  }
  schedule.rule = results::time_rule(logged);
  schedule.per_benchmark = settings.run.stopping == "benchmark";
  schedule.repetitions = repetition_policy(settings.run.repetitions);
  schedule.budget_for = [&](const std::string& t, const std::string& n) { return budgets.for_benchmark(t, n).time; };
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return seconds_since(start); };
  run::ScheduleHooks hooks;
  hooks.on_record = [&](const results::RunRecord& r) { log.run(r); };
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { log.stop(target, reason); };
  hooks.on_round = [&](const std::string& label, int round, int undecided) {
    // Until min_runs the rest is known; after that it depends on the verdicts.
    const int min_runs = settings.run.min_runs;
    const double eta = round < min_runs ? elapsed() / round * (min_runs - round) : -1;
    progress.update({label, round, round, round, undecided, elapsed(), eta});
  };
  std::vector<run::UnitPair> measured;  // the machine control runs one binary as both sides: no delta to count
  std::copy_if(pairs.begin(), pairs.end(), std::back_inserter(measured),
               [&](const auto& p) { return p.target != logged.machine_control; });
  auto say = [&](const std::string& line) { progress.message(line); };
  std::vector<results::RunRecord> counted;  // allocation runs
  // False when interrupted. A pair's cost is estimated from `cost_records` of `cost_kind`.
  auto count_allocations = [&](const std::vector<results::RunRecord>& cost_records, const char* cost_kind) {
    if (!gbench_process || settings.run.alloc_runs <= 0) return true;
    auto on_count = [&](const results::RunRecord& r) {
      log.run(r);
      counted.push_back(r);  // the gate estimates a target's next pair from its earlier ones
    };
    return run::run_alloc_rounds(
        measured, *gbench_process, settings.run.alloc_runs, on_count,
        run::pair_time_gate(schedule.time_budget, cost_records, cost_kind, elapsed, schedule.time_budget_name), say);
  };
  // With an allocation budget the counts are verdicts: they run first, where
  // timing rounds that spend the time budget cannot leave them out. Without
  // one they only inform, and run in what timing leaves.
  const bool allocations_first = budgets.judges_allocations();
  const auto measuring_start = std::chrono::steady_clock::now();
  hooks.elapsed_seconds = elapsed;  // the timing rounds' budget counts allocation runs made before them
  run::ScheduleOutcome outcome;
  outcome.interrupted = allocations_first && !count_allocations(counted, "alloc");
  if (times && !outcome.interrupted) outcome = run::run_schedule(runner, pairs, schedule, hooks);
  progress.finish();
  if (!outcome.interrupted && gbench_process && settings.run.counts_instructions()) {
    const run::InstructionPlan plan{settings.run.instruction_runs, job_dir / "instructions"};
    auto on_record = [&](const results::RunRecord& r) {
      log.run(r);
      outcome.records.push_back(r);  // the gate estimates a target's next pair from its earlier ones
    };
    outcome.interrupted =
        !run::run_instruction_rounds(measured, runner, *gbench_process, plan, on_record,
                                     run::pair_time_gate(schedule.time_budget, outcome.records, "instructions", elapsed,
                                                         schedule.time_budget_name),
                                     say);
  }
  if (!allocations_first && !outcome.interrupted) outcome.interrupted = !count_allocations(outcome.records, "time");
  log.phase({"measuring", seconds_since(measuring_start)});
  if (layout_step && times && !outcome.interrupted) {  // every claim decided so far, in other layouts
    const auto layouts_start = std::chrono::steady_clock::now();
    outcome.interrupted = !layout_step->run(log, schedule, prepared.job_elapsed);
    log.phase({"layouts", seconds_since(layouts_start)});
  }
  log.phase({"job", prepared.job_elapsed()});
  if (outcome.interrupted) {
    log.note(fmt::format("interrupted by {} after {} runs; report from the runs done",
                         process::signal_name(signals::cancellation_signal()), counted.size() + outcome.records.size()));
  }

  const int code = report_from_log(log.path(), out_dir, gate_policy(settings));
  if (options.keep)
    std::printf("kept worktrees and builds in %s; `cobench clean` removes them\n", job_dir.string().c_str());
  return outcome.interrupted ? kExitInterrupted : code;
}

/// Go packages and plain commands: nothing to configure or build, the worktrees are the sides.
int measure_without_cmake(const RunOptions& options, const Revisions& revs, Workspace& workspace,
                          const std::vector<std::string>& bench_args, int cpu, const fs::path& out_dir,
                          run::Progress& progress, const Prepared& prepared) {
  const config::Config& settings = options.settings;
  const run::ProcessSettings process{bench_args, cpu, settings.run.run_timeout, host::benchmark_environment(),
                                     out_dir};
  const run::RunnerKind& kind = runner_of(settings);
  const std::unique_ptr<run::Runner> runner = kind.make({process, settings.run.commands, settings.run.prepare});
  const run::SideContext base{Side::Base, revs.base_sha, workspace.worktree(Side::Base), {}, {}};
  const run::SideContext head{Side::Head, revs.head_sha, workspace.worktree(Side::Head), {}, {}};
  TargetChoice choice;
  choice.reason = kind.framework;
  results::JobSettings job = job_settings(settings, revs, cpu, choice, bench_args);
  std::vector<results::ReachRecord> reach;
  if (settings.run.reach) {
    const std::string why = fmt::format("runner {}: the coverage pass needs Google Benchmark targets built with CMake",
                                        settings.run.runner);
    job.reach_method = "unknown for every benchmark: " + why;
    reach.push_back({"", {verdict::ChangeReach::Status::Unknown, 0, 0, why}, {}});
  }
  return measure(options, *runner, base, head, job, choice, nullptr, reach, out_dir, workspace.job_dir(), progress,
                 prepared, nullptr);
}

}  // namespace

int run_pipeline(const RunOptions& options) {
  const auto job_start = std::chrono::steady_clock::now();
  const config::Config& settings = options.settings;
  check_settings(settings);
  // Before anything is started: no build, benchmark or command gets a credential it was not given on purpose.
  if (const auto withheld = host::describe_withheld(host::withhold_credentials(settings.run.pass_env)); !withheld.empty())
    std::printf("%s\n", withheld.c_str());
  const plan::CostHistory history =
      plan::read_cost_history(settings.select.cost_from, settings.origin("select.cost_from").describe("select.cost_from"));
  Prepared prepared;
  prepared.job_elapsed = [job_start] {
    return seconds_since(job_start);
  };
  const fs::path repo = git::toplevel(options.repo.empty() ? fs::current_path() : options.repo);
  const fs::path work_dir = fs::absolute(options.work_dir.empty() ? repo / ".cobench" : options.work_dir);
  const fs::path out_dir = fs::absolute(options.out_dir.empty() ? work_dir / "report" : options.out_dir);
  const auto env = options.env.empty() ? host::environment_map() : options.env;
  const std::vector<std::string> bench_args = with_filter(settings.run.bench_args, select::narrowing_of(settings));

  const bool probe = settings.run.layout_probe;
  if (probe && !options.base.empty())
    throw InputError(fmt::format("{}: builds one commit against itself; drop --base {}",
                                 settings.origin("run.layout_probe").describe("run.layout_probe"), options.base));
  const Revisions revs = probe ? probe_revisions(repo, options.head)
                               : resolve_revisions(repo, options.head, options.base, env);
  if (probe)
    std::printf("layout probe: base and head are both %s (%s); the head side is perturbed\n", revs.head_sha.c_str(),
                revs.head_ref.c_str());
  else
    std::printf("base: %s (merge base of %s and %s)\nhead: %s (%s)\n", revs.base_sha.c_str(), revs.base_ref.c_str(),
                revs.head_ref.c_str(), revs.head_sha.c_str(), revs.head_ref.c_str());
  if (const auto warning = uncommitted_changes_warning(repo, revs))
    std::fprintf(stderr, "cobench: warning: %s\n", report::sanitize_text(*warning, true).c_str());
  std::fflush(stdout);
  git::ensure_ignored(repo, ".cobench/");
  if (auto rel = work_dir.lexically_relative(repo); !rel.empty() && *rel.begin() != ".." && rel != ".cobench")
    git::ensure_ignored(repo, "/" + rel.generic_string() + "/");  // a custom work folder inside the repo

  if (inside_a_job_folder(out_dir, work_dir))
    throw InputError(fmt::format("--out {}: inside a job folder of {}, which cobench removes when a job ends",
                                 out_dir.string(), work_dir.string()));
  // Taken before anything is built: a second job on this folder stops now, naming the first.
  const OutputDir output(out_dir, "--out", options.out_dir.empty());

  run::Progress progress = run::Progress::for_stream(stderr);
  Workspace workspace(repo, work_dir, revs);
  if (options.keep) workspace.keep();

  const int cpu = settings.run.cpu ? *settings.run.cpu : host::last_online_cpu();
  const run::RunnerKind& kind = runner_of(settings);
  if (!kind.recognises)
    return measure_without_cmake(options, revs, workspace, bench_args, cpu, out_dir, progress, prepared);
  SharedBuildSettings shared{
      side_cmake_args(settings.build), settings.build.build_type, settings.build.source_dir,
      fmt::format("{}", fmt::join(settings.build.targets, "|")), out_dir / "logs",
      cmake::find_compile_cache(settings.build.ccache,
                                settings.origin("build.ccache").describe("build.ccache") + " is false",
                                workspace.job_dir(),
                                settings.build.ccache_dir.empty() ? fs::path() : repo / settings.build.ccache_dir),
      kind.recognises};
  if (settings.build.layout_stable) shared.cmake_args = cmake::with_flags(shared.cmake_args, cmake::layout_stable_flags());
  SharedBuildSettings head_settings = shared;  // the probe perturbs the head side only
  if (probe)
    head_settings.cmake_args = cmake::with_flags(
        shared.cmake_args, cmake::layout_probe_flags(workspace.job_dir() / "probe" / "cobench_layout_pad.h"));
  // Head first: selection needs only its targets, and a diff that reaches none builds nothing.
  progress.message("configuring head");
  const SideBuild head_build = timed(prepared.phases, "configure", [&] {
    return configure_side(Side::Head, workspace.worktree(Side::Head), workspace.build_dir(Side::Head), head_settings);
  });
  select::Selection selection = select_on_head(settings, options.all, revs, workspace, head_build);
  std::optional<plan::BuildPlan> plan;
  if (settings.run.time_budget)
    plan.emplace(*settings.run.time_budget, settings.run.measure_budget, settings.run.min_runs, history);
  std::optional<ReachStep> reach;
  if (settings.run.reach) {
    reach.emplace(settings, revs, workspace, head_build, work_dir, out_dir, bench_args,
                  [&](const std::string& line) { progress.message(line); });
    if (plan) reach->bound_by([&] { return plan->ranking_stop(prepared.job_elapsed()); });
    timed(prepared.phases, "reach", [&] { reach->rank(selection); });
  }
  std::fputs(report::sanitize_text(select::to_text(selection), false).c_str(), stdout);  // names and flags a terminal must not obey
  std::fflush(stdout);
  select::enforce_strict_layout(selection);
  if (auto why = nothing_to_measure(selection)) return report_unreached(*why, settings, revs, cpu, selection, out_dir);
  progress.message("configuring base");
  const SideBuild base_build = timed(prepared.phases, "configure", [&] {
    return configure_side(Side::Base, workspace.worktree(Side::Base), workspace.build_dir(Side::Base), shared);
  });
  TargetChoice choice = choose_targets(base_build.targets, selection);
  if (settings.select.shard) {
    keep_shard(choice, *settings.select.shard, base_build.targets, head_build.targets, history, settings.run.control);
    std::printf("%s\n", results::shard_note(*choice.shard).c_str());
    std::fflush(stdout);
  }
  if (!probe)  // every row of a probe is a layout control of its own
    add_layout_controls(choice, base_build.targets, selection, settings.run.control,
                        settings.origin("run.control").describe("run.control"));
  if (choice.shard && choice.empty())  // the other shards measure it all; the report says so
    return report_unmeasured({}, settings, revs, cpu, choice, out_dir, kExitOk);
  progress.message(fmt::format("to build and measure: {} ({})", fmt::join(choice.both, ", "), choice.reason));
  prepared.build = timed(prepared.phases, "build", [&] {
    return build_chosen(choice, base_build, head_build, plan ? &*plan : nullptr, prepared.job_elapsed, progress);
  });
  if (choice.empty()) {  // the time budget fits no target: nothing measured is never a pass
    std::fprintf(stderr, "cobench: error: no selected target fits the time budget; nothing measured\n");
    return report_unmeasured(prepared.build.notes, settings, revs, cpu, choice, out_dir, kExitInfra);
  }
  const auto base_targets = targets_on(choice, Side::Base), head_targets = targets_on(choice, Side::Head);
  auto parent = timed(prepared.phases, "build",
                      [&] { return link_shared_parent(settings, revs, workspace, base_build, head_build, choice.both); });
  signals::throw_if_cancelled();
  // Timing runs measure each benchmark for run.min_time unless the user's own arguments say how long.
  const std::vector<std::string> timing_args =
      kind.google_benchmark_flags ? run::with_min_time(bench_args, settings.run.min_time) : bench_args;
  results::JobSettings job = job_settings(settings, revs, cpu, choice, timing_args, std::move(parent));
  job.compile_cache = compile_cache_summary(shared.compile_cache, base_build, head_build);
  progress.message("compile cache: " + job.compile_cache);
  std::vector<results::ReachRecord> reach_records;
  if (reach) {
    std::vector<std::string> measured;  // the layout controls are untouched by definition: no coverage for them
    for (const auto& name : choice.both)
      if (std::find(choice.layout_controls.begin(), choice.layout_controls.end(), name) == choice.layout_controls.end())
        measured.push_back(name);
    if (plan)
      reach->bound_by([&plan, &prepared, measured] { return plan->coverage_stop(measured, prepared.job_elapsed()); });
    reach_records = timed(prepared.phases, "reach", [&] { return reach->find(measured); });
    job.reach_method = reach->method();
    std::printf("reach: %s\n", job.reach_method.c_str());
    std::fflush(stdout);
  }

  const run::ProcessSettings process{timing_args, cpu, settings.run.run_timeout, host::benchmark_environment(),
                                     out_dir};
  const std::unique_ptr<run::Runner> units = kind.make({process, {}, {}});
  prepared.bundled_control = true;
  prepared.control_program = run::find_shipped(run::machine_control_program());
  std::optional<run::BesideMachineControl> beside;  // another framework's runner cannot run the program
  if (!kind.google_benchmark_flags && prepared.control_program)
    beside.emplace(*units, process, control_target_of(*prepared.control_program));
  run::Runner& runner = beside ? static_cast<run::Runner&>(*beside) : *units;
  const run::SideContext base{Side::Base, revs.base_sha, workspace.worktree(Side::Base),
                              workspace.build_dir(Side::Base), executables(base_build, base_targets)};
  const run::SideContext head{Side::Head, revs.head_sha, workspace.worktree(Side::Head),
                              workspace.build_dir(Side::Head), executables(head_build, head_targets)};
  if (auto* gbench = dynamic_cast<run::GoogleBenchmarkRunner*>(units.get()))
    check_filter_matches(select::narrowing_of(settings), choice, *gbench, head);
  std::optional<LayoutStep> layout_step;
  if (job.layouts > 1) layout_step.emplace(settings, workspace, revs, shared, head_settings, process, progress);
  return measure(options, runner, base, head, job, choice, kind.google_benchmark_flags ? &process : nullptr,
                 reach_records, out_dir, workspace.job_dir(),
                 progress, prepared, layout_step ? &*layout_step : nullptr);
}

}  // namespace cobench::job
