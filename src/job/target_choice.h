#pragma once
// The seam between target discovery and building: the head is configured,
// its benchmark targets are selected from the diff (issue 4), and only the
// chosen targets are built and measured on both sides.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cmake/cmake.h"
#include "config/config.h"
#include "plan/plan.h"
#include "results/job_settings.h"
#include "run/gbench_runner.h"
#include "select/select.h"

namespace cobench::job {

struct JobContext;

struct Revisions;
class Workspace;
struct SideBuild;

/// The targets to build and measure.
struct TargetChoice {
  std::vector<std::string> both;        ///< selected and on both sides: compared
  std::vector<std::string> head_only;   ///< selected new targets: listed as added
  std::vector<std::string> base_only;   ///< deleted targets: listed as removed
  std::vector<std::string> layout_controls;  ///< untouched targets rebuilt on both sides (also in `both`)
  std::string reason;                   ///< one line for the log and report ("2 of 5 benchmark targets reach ...")
  nlohmann::json selection = nlohmann::json::object();  ///< select::to_json plus mode and reason, for report.json
  std::optional<results::ShardSplit> shard;  ///< --shard: the split, and this job's part of it
  std::vector<std::string> budget_dropped;   ///< selected but not built: the time budget would not fit them

  /// Whether nothing is left to build (controls aside).
  bool empty() const;
};

/// Selects among the configured head's targets: the diff base..head over the
/// include graph, narrowed by --target / COBENCH_TARGETS, capped; everything
/// with --all. The base worktree traces deleted and renamed files.
select::Selection select_on_head(const JobContext& job, const SideBuild& head);

/// Why nothing is measured ("no benchmark reaches this change: ..."), or
/// nullopt when something is selected. Throws InputError when there was
/// nothing to select from: no benchmark targets (naming the switches of the
/// head's CMake cache that would build them, cmake::benchmark_options_off), or a
/// target regex matching none.
std::optional<std::string> nothing_to_measure(const select::Selection& selection,
                                              const std::filesystem::path& head_build_dir);

/// Splits the selected head targets against the base side's. Base targets
/// missing on head (and not narrowed out) are listed as removed.
TargetChoice choose_targets(const std::vector<cmake::BenchmarkTarget>& base, const select::Selection& selection);

/// Keeps this shard's part of `choice` (--shard I/N): the selected targets
/// (both sides, head only, base only) are split by plan::split_into_shards,
/// with sizes from the head's targets (the base's for removed ones). Targets
/// named as controls are not split: every shard measures them.
void keep_shard(TargetChoice& choice, const config::Shard& shard, const std::vector<cmake::BenchmarkTarget>& base,
                const std::vector<cmake::BenchmarkTarget>& head, const plan::CostHistory& history,
                const std::vector<std::string>& named_controls);

/// Adds the layout controls to `choice`: the targets named in `named` (each
/// must exist on both sides and be untouched by the diff; `origin` names the
/// setting in errors), or by default the cheapest target the diff does not
/// reach (the smallest sources), if there is one. A control already selected
/// (with --all) is measured once, as the control.
void add_layout_controls(TargetChoice& choice, const std::vector<cmake::BenchmarkTarget>& base,
                         const select::Selection& selection, const std::vector<std::string>& named,
                         const std::string& origin);

/// A --filter / COBENCH_FILTER that matches no benchmark of the measured
/// targets of `choice` (its layout controls aside) on the `head` side is an
/// input error, like a --target that matches no target: the job would measure
/// nothing and pass. Each target lists its benchmarks under the filter; a
/// target that cannot list them (its binary fails) leaves the question to the
/// runs, which then say why. Throws InputError naming the filter's origin.
void check_filter_matches(const select::Narrowing& narrowing, const TargetChoice& choice,
                          run::GoogleBenchmarkRunner& runner, const run::SideContext& head);

/// The benchmark arguments with --filter / COBENCH_FILTER appended as
/// --benchmark_filter (last, so it wins over one in --bench-arg).
std::vector<std::string> with_filter(std::vector<std::string> bench_args, const select::Narrowing& narrowing);

}  // namespace cobench::job
