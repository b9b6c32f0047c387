#pragma once
// Planning a job from what its targets cost: the split of a selection into
// shards balanced by estimated cost (`--shard I/N`), and the build under a
// whole-job time budget (`--time-budget`), learned as the builds go. Costs
// come from earlier results.jsonl files (`--cost-from`: each target's build
// and run times), else from the size of a target's sources.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cmake/cmake.h"
#include "results/log.h"

namespace cobench::plan {

/// What earlier jobs say one target costs.
struct PastCost {
  double build_seconds = 0;     ///< one side's build, mean over the builds recorded
  int builds = 0;
  double run_seconds = 0;       ///< one timing run, mean
  int runs = 0;
  double measured_seconds = 0;  ///< all its runs in one job, both sides (mean over the files that ran it)
};

/// Costs per target from earlier results.jsonl files.
struct CostHistory {
  std::map<std::string, PastCost> targets;
  std::vector<std::string> files;  ///< where they came from, for the report
  bool empty() const { return targets.empty(); }
};

/// The costs recorded in `files`. A file that cannot be read or is not a
/// results.jsonl throws InputError naming `origin` ("--cost-from") and the file.
CostHistory read_cost_history(const std::vector<std::string>& files, const std::string& origin);

/// The costs in results already read (one per earlier job).
CostHistory cost_history(const std::vector<results::ResultsFile>& files);

/// What a target costs to build and run, as far as one can tell before: the bytes of its sources.
std::uintmax_t source_bytes(const cmake::BenchmarkTarget& target);

/// A target to plan for, with what is known of it before anything is built.
struct Candidate {
  std::string name;
  std::uintmax_t source_bytes = 0;
};

/// Splits `candidates` into `count` parts of near-equal estimated cost and
/// names part `index` (1-based) as this job's. Costs: build (both sides) plus
/// measuring time from `history`, scaled by source size for the targets it
/// lacks; without any history, the source size itself. The heaviest target
/// goes first to the lightest part (ties: the lower part; equal costs: by
/// name), so every shard computes the same split from the same inputs.
results::ShardSplit split_into_shards(const std::vector<Candidate>& candidates, const CostHistory& history, int index,
                                      int count);

/// A target the build plan decides on, in rank order.
struct PlannedTarget {
  std::string name;
  int sides = 2;          ///< sides it is built on: 2, or 1 for a target on one side only
  bool required = false;  ///< a control: built whenever anything is
};

/// What the plan keeps of the targets still to build.
struct Fit {
  size_t keep = 0;   ///< the first `keep` targets fit; the rest are dropped
  std::string why;   ///< the reason the rest are dropped, for the log and the report ("" when all fit)
};

/// The build under a whole-job time budget. Each target's build is estimated
/// from the history (corrected by how this machine compares on the targets
/// built so far), else from the builds so far in this job (their mean per
/// side: the target count decides), else from the history's mean; before the
/// first build without a history nothing is known and the first target is
/// built to learn. Measuring keeps a reserve: min_runs pairs of each kept
/// target at its recorded run time, or without run times a quarter of the
/// budget, at most the measuring budget.
class BuildPlan {
 public:
  BuildPlan(double time_budget, std::optional<double> measure_budget, int min_runs, CostHistory history);

  /// Records that building `target` on one side took `seconds`.
  void learn(const std::string& target, double seconds);

  /// The estimated build of `target` on `sides` sides; nullopt while nothing is known.
  std::optional<double> build_estimate(const std::string& target, int sides) const;

  /// How many of `remaining` (in rank order, controls first) fit when
  /// `elapsed` seconds of the job are gone and the `built` targets (not the
  /// controls) will be measured too. Targets are kept
  /// from the top while their builds and the measuring reserve fit; the first
  /// that does not and everything below it are dropped. Nothing is kept when
  /// no non-required target fits.
  Fit fit(const std::vector<PlannedTarget>& remaining, const std::vector<std::string>& built, double elapsed) const;

  /// The seconds to keep for measuring `targets`.
  double measuring_reserve(const std::vector<std::string>& targets) const;

  /// The reach pass before the build (base coverage to rank the targets when
  /// the cap binds) may go on while `elapsed` is under half of the budget:
  /// building and measuring need the rest, and nothing is known yet of what
  /// they cost. "" to go on, else why the pass stops.
  std::string ranking_stop(double elapsed) const;

  /// The reach pass after the build (coverage of the targets to measure) may
  /// go on while what measuring `measured` needs still fits after `elapsed`.
  /// "" to go on, else why the pass stops.
  std::string coverage_stop(const std::vector<std::string>& measured, double elapsed) const;

  /// One line for the start of the build: the budget, what is left, the estimate and where it comes from.
  std::string describe(const std::vector<PlannedTarget>& targets, double elapsed) const;

 private:
  std::string basis() const;  ///< where the estimates come from, in words

  double time_budget_;
  std::optional<double> measure_budget_;
  int min_runs_;
  CostHistory history_;
  struct Learned {
    double seconds = 0;  ///< over the sides built so far
    int sides = 0;
  };
  std::map<std::string, Learned> learned_;
  int sides_learned_ = 0;
  double learned_seconds_ = 0;
};

/// The bound on the measuring phase once `elapsed` seconds of the job are
/// gone: the smaller of the measuring budget and what the time budget leaves.
struct MeasuringBound {
  double seconds = 0;
  std::string phrase;  ///< how stop reasons name it: "time budget 6m", "measuring budget 2m"
};
std::optional<MeasuringBound> measuring_bound(std::optional<double> time_budget, std::optional<double> measure_budget,
                                              double elapsed);

}  // namespace cobench::plan
