#include "job/console.h"
#include "job/measure_step.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/clock.h"
#include "host/environment.h"
#include "host/host.h"
#include "job/report_step.h"
#include "job/settings_step.h"
#include "plan/plan.h"
#include "process/signals.h"
#include "results/log.h"
#include "run/alloc_runs.h"
#include "run/instruction_runs.h"
#include "run/schedule.h"
#include "run/shipped_files.h"
#include "verdict/budget.h"

namespace cobench::job {

namespace fs = std::filesystem;

std::string control_target_of(const fs::path& program) { return "machine:" + program.filename().string(); }

run::Runner& with_machine_control(run::Runner& units, const run::ProcessSettings& process, Prepared& prepared,
                                  std::optional<run::BesideMachineControl>& beside) {
  prepared.control_program = run::find_shipped(run::machine_control_program());
  if (!prepared.control_program) return units;
  return beside.emplace(units, process, control_target_of(*prepared.control_program));
}

namespace {

/// The machine control: cobench's own `program` (src/control/: quiet by
/// construction, cheap, never optimised away) run in both sides' slots of
/// every block, the job's own A/A (the machine's drift, a side's slot),
/// whatever the job's framework: no user benchmark that is noisy or measures
/// nothing stands in for the machine.
std::optional<run::UnitPair> machine_control(const std::vector<run::UnitPair>& pairs, const fs::path& program) {
  if (pairs.empty()) return std::nullopt;
  const std::string name = control_target_of(program);
  const run::Unit unit{name, {program.string()}, program.parent_path(), /*narrowed_by_filter=*/false};
  return run::UnitPair{name, unit, unit, pairs.front().base_sha, pairs.front().base_sha, true, {}, true};
}

/// Lists the benchmarks of targets that exist on one side only.
void log_one_sided(run::Runner& runner, const run::SideContext& side, const std::vector<std::string>& names, results::ResultsLog& log) {
  if (names.empty()) return;  // prepare() may run commands (--prepare): only when needed
  for (auto& unit : runner.prepare(side))
    if (std::find(names.begin(), names.end(), unit.name) != names.end())
      log.one_sided({unit.name, side.side, runner.list(unit)});
}

}  // namespace

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
  std::string no_machine_control;  // why the job has none, for the reports
  if (settings.run.machine_control && times) {  // the machine control is an A/A of time
    if (!prepared.control_program)
      no_machine_control = "no machine control: " + run::describe_missing(run::machine_control_program());
    else if (auto control = machine_control(pairs, *prepared.control_program)) {
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

  const verdict::Budgets budgets = verdict::budgets_of(settings.budget);
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
  schedule.run_length.automatic = logged.run_length == "auto" && logged.min_time > 0;
  schedule.run_length.seconds = logged.min_time;
  schedule.run_length.first_pairs_share = logged.first_pairs_share;
  schedule.budget_for = [&](const std::string& t, const std::string& n) { return budgets.for_benchmark(t, n).time; };
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return seconds_since(start); };
  run::ScheduleHooks hooks;
  hooks.on_record = [&](const results::RunRecord& r) { log.run(r); };
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { log.stop(target, reason); };
  hooks.on_run_length = [&](const results::RunLength& length) {
    log.run_length(length);
    progress.message(fmt::format("{}: run length {}", length.target, results::describe(length)));
  };
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
    // Counts that are verdicts get every run, for a median per side; counts that only inform end
    // once a first pair counted alike.
    const auto stop = budgets.judges_allocations() ? run::AllocStop::AfterAllRuns : run::AllocStop::OnceTheSidesAgree;
    return run::run_alloc_rounds(
        measured, *gbench_process, settings.run.alloc_runs, stop, on_count,
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
    console().line(fmt::format("kept worktrees and builds in {}; `cobench clean` removes them", job_dir.string()));
  return outcome.interrupted ? kExitInterrupted : code;
}

}  // namespace cobench::job
