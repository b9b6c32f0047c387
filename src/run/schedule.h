#pragma once
// The measuring plan, as pure logic over a Runner: interleaved ABBA rounds,
// min_runs per side first, then one ABBA block at a time for the targets that
// still have an inconclusive benchmark, within max_runs and the time budget.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "run/runner.h"

namespace cobench::run {

/// A target built on both sides, ready to be measured.
struct UnitPair {
  std::string target;
  Unit base;
  Unit head;
  std::string base_sha;
  std::string head_sha;
};

/// When to stop and how to judge.
struct ScheduleSettings {
  int min_runs = 6;                       ///< per side, before any verdict counts
  int max_runs = 30;                      ///< per side, cap for adaptive blocks
  std::optional<double> time_budget;      ///< seconds for the whole measuring phase
  std::string sample_key = "real_ns";     ///< which Sample value the verdict uses
  double confidence = 0.95;
  /// Allowed slowdown (fraction) for one benchmark, overrides applied.
  std::function<double(const std::string& target, const std::string& name)> budget_for;
};

/// Where the schedule reports to; every member is optional.
struct ScheduleHooks {
  std::function<void(const RunRecord&)> on_record;   ///< each finished run, in order
  /// A target stopped before all its benchmarks were decided, and why.
  std::function<void(const std::string& target, const std::string& reason)> on_stop;
  /// After each round: the active target ("3 targets" when several), runs per side, undecided benchmarks.
  std::function<void(const std::string& label, int round, int undecided)> on_round;
  std::function<double()> elapsed_seconds;            ///< measuring-phase clock (default: steady clock)
  std::function<bool()> cancelled;                    ///< default: signals::cancellation_requested
};

/// What happened.
struct ScheduleOutcome {
  std::vector<RunRecord> records;                     ///< every finished run
  std::map<std::string, std::string> stop_reasons;    ///< target -> why it stopped undecided
  bool interrupted = false;
};

/// Measures every pair. Round r runs one pair per active target, base first on
/// even pair indices, head first on odd ones, so each side sees ABBA order.
ScheduleOutcome run_schedule(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
                             const ScheduleHooks& hooks = {});

/// Benchmarks of one target that have samples on both sides and whose verdict
/// is still inconclusive, from that target's records.
std::vector<std::string> undecided_benchmarks(const std::string& target, const std::vector<RunRecord>& records,
                                              const ScheduleSettings& settings);

}  // namespace cobench::run
