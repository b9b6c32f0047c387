#include "job/layout_step.h"

#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cmake/compile_flags.h"
#include "job/settings_step.h"
#include "core/clock.h"
#include "core/errors.h"
#include "plan/plan.h"
#include "process/signals.h"
#include "aggregate/aggregate.h"
#include "run/gbench_runner.h"
#include "verdict/layouts.h"

namespace cobench::job {

namespace fs = std::filesystem;

int layouts_of(const config::Config& settings, const run::RunnerKind& runner) {
  // Other layouts re-run single benchmarks by Google Benchmark's filter; a shared parent is one layout by design.
  if (!runner.google_benchmark_flags || !settings.build.shared_parent.empty()) return 1;
  return settings.run.layouts;
}

Claims claims_needing(const results::ResultsFile& results, int layout) {
  Claims claims;
  for (const auto& row : aggregate::report_of(results, "results.jsonl").benchmarks)
    if (row.layout_outcome == verdict::LayoutOutcome::NeedsLayout && row.layouts.size() == static_cast<size_t>(layout - 1))
      claims[row.target].push_back(row.name);
  return claims;
}

LayoutStep::LayoutStep(const config::Config& settings, int layouts, const Workspace& workspace,
                       const Revisions& revisions, SharedBuildSettings base, SharedBuildSettings head,
                       run::ProcessSettings process, run::Progress& progress)
    : settings_(settings),
      layouts_(layouts),
      workspace_(workspace),
      revisions_(revisions),
      base_(std::move(base)),
      head_(std::move(head)),
      process_(std::move(process)),
      progress_(progress) {}

bool LayoutStep::run(results::ResultsLog& log, const run::ScheduleSettings& schedule,
                     const std::function<double()>& job_elapsed) {
  for (int layout = 2; layout <= layouts_; ++layout) {
    const results::ResultsFile measured = results::read_results(log.path());
    const Claims claims = claims_needing(measured, layout);
    if (claims.empty()) return true;
    // The measuring budget bounded the measuring stage; the job's time budget bounds this one too.
    run::ScheduleSettings bounded = schedule;
    // A claim is re-measured at the length its first layout chose (logged once), or the whole
    // configured length where none was chosen: this layout chooses nothing.
    bounded.run_length.automatic = false;
    for (const auto& [target, length] : measured.run_lengths) bounded.run_length.chosen[target] = length.min_time;
    bounded.time_budget.reset();
    bounded.time_budget_name.clear();
    // A claim's other layout is asked whether it agrees, which a reading short of a decision can
    // (its interval above 1, its ratio past the budget): stopping it when a decision looks out of
    // reach ended a real +10% slowdown's second layout at 22 pairs reading 1.042 [0.935, 1.136],
    // and the claim was called layout-sensitive.
    bounded.stop_when_futile = false;
    if (!fit_to_budget(layout, "", log, job_elapsed(), bounded)) return true;
    try {
      if (!measure_layout(layout, claims, log, bounded, job_elapsed)) return false;
    } catch (const InfraError& e) {
      if (signals::cancellation_requested()) return false;
      // The first layout's verdicts are whole: a layout that cannot be built leaves its claims unchecked, said so.
      progress_.message(fmt::format("layout {}: {}", layout, e.what()));
      log.note(fmt::format("layout {}: not measured, its build failed ({}); its claims are not checked", layout, e.what()));
      return true;
    }
  }
  return true;
}

bool LayoutStep::fit_to_budget(int layout, const std::string& when, results::ResultsLog& log, double job_elapsed,
                               run::ScheduleSettings& schedule) const {
  const auto bound = plan::measuring_bound(settings_.run.time_budget, std::nullopt, job_elapsed);
  if (!bound) return true;
  if (bound->seconds <= 0) {
    log.note(fmt::format("layout {}: not measured, the {} is spent{}; its claims are not checked", layout, bound->phrase, when));
    return false;
  }
  schedule.time_budget = bound->seconds;
  schedule.time_budget_name = bound->phrase;
  return true;
}

bool LayoutStep::measure_layout(int layout, const Claims& claims, results::ResultsLog& log,
                                run::ScheduleSettings schedule, const std::function<double()>& job_elapsed) {
  std::vector<std::string> targets;
  size_t claimed = 0;
  for (const auto& [target, names] : claims) {
    targets.push_back(target);
    claimed += names.size();
  }
  const std::string folder = fmt::format("layout-{}", layout);
  const int shift = verdict::layout_shift_bytes(layout);
  progress_.message(fmt::format("{}: {} claimed benchmark{}; rebuilding {} on both sides layout-stable, with the code "
                                "moved by {} bytes",
                                folder, claimed, claimed == 1 ? "" : "s", fmt::join(targets, ", "), shift));
  // Layout-stable as well as moved: a move of the whole code leaves some alignments a hot loop is
  // sensitive to as they were (on kokkos/mdspan 2 of 7 layout effects held in the 48-byte layout;
  // layout-stable builds read all 7 as passes), while functions on 64-byte boundaries keep every
  // function the change leaves alone where it was on both sides. A job built layout-stable has the
  // flags already.
  cmake::CompileFlags moved =
      cmake::layout_shift_flags(workspace_.job_dir() / folder / "cobench_layout_shift.s", shift);
  if (!settings_.build.layout_stable) moved.compile = cmake::layout_stable_flags().compile;
  const auto build_start = std::chrono::steady_clock::now();
  // A build folder of its own beside the side's first one: the first layout's binaries stay as they were.
  auto rebuild = [&](Side side, const SharedBuildSettings& first) {
    SharedBuildSettings shared = first;
    shared.cmake_args = cmake::with_flags(first.cmake_args, moved);
    shared.log_dir = process_.out_dir / folder / "logs";
    const fs::path build_dir = workspace_.build_dir(side).parent_path() / ("build-" + folder);
    SideBuild built = configure_side(side, workspace_.worktree(side), build_dir, shared);
    build_side(built, targets);
    return built;
  };
  const SideBuild base = rebuild(Side::Base, base_);
  const SideBuild head = rebuild(Side::Head, head_);
  signals::throw_if_cancelled();
  log.note(fmt::format("{}: {} rebuilt on both sides layout-stable, with the code moved by {} bytes, in {:.1f} s; "
                       "compile cache: {}",
                       folder, fmt::join(targets, ", "), shift, seconds_since(build_start),
                       compile_cache_summary(base_.compile_cache, base, head)));

  // Its runs get what the time budget leaves after its build (the layout-stable flags compile the claimed targets).
  if (!fit_to_budget(layout, " after its build", log, job_elapsed(), schedule)) return true;

  run::ProcessSettings process = process_;
  process.out_dir /= folder;  // runs/ and logs/ of its own: the first layout's files keep their names
  run::GoogleBenchmarkRunner runner(process);
  const run::SideContext base_side{Side::Base, revisions_.base_sha, workspace_.worktree(Side::Base),
                                   base.settings.build_dir, executables(base, targets)};
  const run::SideContext head_side{Side::Head, revisions_.head_sha, workspace_.worktree(Side::Head),
                                   head.settings.build_dir, executables(head, targets)};
  std::vector<run::UnitPair> pairs;
  for (auto& pair : run::pair_units(runner, base_side, head_side))
    if (const auto claim = claims.find(pair.target); claim != claims.end()) {
      pair.only = claim->second;  // names as data: the runner's exact filter, nothing else runs
      pairs.push_back(std::move(pair));
    }
  const auto start = std::chrono::steady_clock::now();
  run::ScheduleHooks hooks;
  hooks.on_record = [&](const results::RunRecord& run) {
    results::RunRecord record = run;
    record.layout = layout;
    if (!record.log.empty()) record.log = (fs::path(folder) / record.log).string();
    log.run(record);
  };
  // A stop line names a target's first-layout stop; this layout's is a note.
  hooks.on_stop = [&](const std::string& target, const std::string& reason) {
    log.note(fmt::format("{}: {}: {}", folder, target, reason));
  };
  hooks.on_round = [&](const std::string& label, int round, int undecided) {
    progress_.update({folder + ": " + label, round, round, round, undecided, seconds_since(start), -1});
  };
  const run::ScheduleOutcome outcome = run::run_schedule(runner, pairs, schedule, hooks);
  progress_.finish();
  return !outcome.interrupted;
}

}  // namespace cobench::job
