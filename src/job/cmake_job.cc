#include "job/console.h"
#include "job/cmake_job.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cmake/compile_flags.h"
#include "core/errors.h"
#include "host/environment.h"
#include "job/layout_step.h"
#include "job/planned_build.h"
#include "job/reach_step.h"
#include "job/settings_step.h"
#include "job/shared_parent_step.h"
#include "job/side_build.h"
#include "job/target_choice.h"
#include "job/unmeasured.h"
#include "process/signals.h"
#include "report/escape.h"
#include "results/record.h"
#include "run/beside_control.h"
#include "run/gbench_runner.h"
#include "run/shipped_files.h"
#include "select/select.h"

namespace cobench::job {

namespace fs = std::filesystem;

int run_cmake_job(JobContext& context) {
  const RunOptions& options = context.options;
  const config::Config& settings = context.settings;
  const run::RunnerKind& kind = context.decided.runner;
  const fs::path &repo = context.repo, &out_dir = context.out_dir;
  const Revisions& revs = context.revs;
  Workspace& workspace = context.workspace;
  const std::vector<std::string>& bench_args = context.bench_args;
  const int cpu = context.cpu;
  const plan::CostHistory& history = context.history;
  run::Progress& progress = context.progress;
  Prepared& prepared = context.prepared;
  const bool probe = settings.run.layout_probe;
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
  check_shared_parent(settings, head_build);
  select::Selection selection = select_on_head(context, head_build);
  std::optional<plan::BuildPlan> plan;
  if (settings.run.time_budget)
    plan.emplace(*settings.run.time_budget, settings.run.measure_budget, settings.run.min_runs, history);
  std::optional<ReachStep> reach;
  if (settings.run.reach) {
    reach.emplace(context, head_build, [&](const std::string& line) { progress.message(line); });
    if (plan) reach->bound_by([&] { return plan->ranking_stop(prepared.job_elapsed()); });
    timed(prepared.phases, "reach", [&] { reach->rank(selection); });
  }
  console().block(report::sanitize_text(select::to_text(selection), false));  // names and flags a terminal must not obey
  select::enforce_strict_layout(selection);
  if (auto why = nothing_to_measure(selection, head_build.settings.build_dir)) return report_unreached(*why, context.basis(), selection, out_dir);
  progress.message("configuring base");
  const SideBuild base_build = timed(prepared.phases, "configure", [&] {
    return configure_side(Side::Base, workspace.worktree(Side::Base), workspace.build_dir(Side::Base), shared);
  });
  TargetChoice choice = choose_targets(base_build.targets, selection);
  if (settings.select.shard) {
    keep_shard(choice, *settings.select.shard, base_build.targets, head_build.targets, history, settings.run.control);
    console().line(results::shard_note(*choice.shard));
  }
  if (!probe)  // every row of a probe is a layout control of its own
    add_layout_controls(choice, base_build.targets, selection, settings.run.control,
                        settings.origin("run.control").describe("run.control"));
  if (choice.shard && choice.empty())  // the other shards measure it all; the report says so
    return report_unmeasured({}, context.basis(), choice, out_dir, kExitOk);
  progress.message(fmt::format("to build and measure: {} ({})", fmt::join(choice.both, ", "), choice.reason));
  prepared.build = timed(prepared.phases, "build", [&] {
    return build_chosen(choice, base_build, head_build, plan ? &*plan : nullptr, prepared.job_elapsed, progress);
  });
  if (choice.empty()) {  // the time budget fits no target: nothing measured is never a pass
    console().error("no selected target fits the time budget; nothing measured");
    return report_unmeasured(prepared.build.notes, context.basis(), choice, out_dir, kExitInfra);
  }
  const auto base_targets = targets_on(choice, Side::Base), head_targets = targets_on(choice, Side::Head);
  auto parent = timed(prepared.phases, "build",
                      [&] { return link_shared_parent(settings, revs, workspace, base_build, head_build, choice.both); });
  signals::throw_if_cancelled();
  // Timing runs measure each benchmark for run.min_time unless the user's own arguments say how long.
  const std::vector<std::string> timing_args =
      kind.google_benchmark_flags ? run::with_min_time(bench_args, settings.run.min_time) : bench_args;
  results::JobSettings job = job_settings(context.basis(), choice, timing_args, std::move(parent));
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
    console().line("reach: " + job.reach_method);
  }

  const run::ProcessSettings process{timing_args, cpu, settings.run.run_timeout, host::benchmark_environment(),
                                     out_dir};
  const std::unique_ptr<run::Runner> units = kind.make({process, {}, {}});
  std::optional<run::BesideMachineControl> beside;
  run::Runner& runner = with_machine_control(*units, process, prepared, beside);
  const run::SideContext base{Side::Base, revs.base_sha, workspace.worktree(Side::Base),
                              workspace.build_dir(Side::Base), executables(base_build, base_targets)};
  const run::SideContext head{Side::Head, revs.head_sha, workspace.worktree(Side::Head),
                              workspace.build_dir(Side::Head), executables(head_build, head_targets)};
  if (auto* gbench = dynamic_cast<run::GoogleBenchmarkRunner*>(units.get()))
    check_filter_matches(context.decided.narrowing, choice, *gbench, head);
  std::optional<LayoutStep> layout_step;
  if (job.layouts > 1) layout_step.emplace(settings, job.layouts, workspace, revs, shared, head_settings, process, progress);
  return measure(options, runner, base, head, job, choice, kind.google_benchmark_flags ? &process : nullptr,
                 reach_records, out_dir, workspace.job_dir(),
                 progress, prepared, layout_step ? &*layout_step : nullptr);
}

}  // namespace cobench::job
