#pragma once
// The measuring plan, as pure logic over a Runner: interleaved ABBA rounds,
// min_runs per side first, then one ABBA block at a time for the benchmarks
// still undecided at the last look (a decided one stops running), within
// max_runs and the time budget; optionally several repetitions per process,
// as many as make the interval narrowest per second.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/run_length.h"
#include "verdict/judging.h"
#include "run/runner.h"

namespace cobench::run {

/// A target built on both sides, ready to be measured.
struct UnitPair {
  std::string target;
  Unit base;
  Unit head;
  std::string base_sha;
  std::string head_sha;
  /// A control that follows the job: measured in every round and block while
  /// any other target is, never stopped by its own verdict (the machine control, a layout control).
  bool follows = false;
  std::vector<std::string> only = {};  ///< benchmarks it covers from the start (empty: all)
  /// Both sides run one binary (the machine control): what differs between them is the machine's.
  bool one_binary = false;
};

/// How many repetitions each process runs.
struct RepetitionPolicy {
  int fixed = 0;          ///< repetitions per process when not automatic (0: the runner's default, one)
  bool automatic = false; ///< choose per target from the measured noise split and costs
  int first = 3;          ///< automatic: the repetitions of the first min_runs pairs, which measure the split
  int most = 10;          ///< automatic: the most repetitions a process gets
};

/// How long each process measures (Google Benchmark's --benchmark_min_time).
struct RunLengthPolicy {
  /// Choose per target at the first look: its first min_runs pairs run two
  /// repetitions of half of `first_pairs_share` of the length (one process's
  /// sample as one run of that share would give it, and a measured split);
  /// after them one repetition, as long as the whole where the noise is inside
  /// the process, down to `shortest` where it is between processes, which only
  /// more of them average.
  bool automatic = false;
  double seconds = 0;          ///< the configured length (results::shortest_run_length: the least)
  double first_pairs_share = 1;  ///< of `seconds`, measured by the first pairs (results::kFirstPairsShare)
  /// Lengths chosen before, by target: such a target runs one repetition of
  /// its length from its first pair, whatever `automatic` says (layout
  /// confirmation re-measures a claim at the length its first layout chose).
  std::map<std::string, double> chosen;
};

/// When to stop and how to judge.
struct ScheduleSettings {
  int min_runs = 6;                       ///< per side, before the first look
  int max_runs = 30;                      ///< per side, cap for adaptive blocks; the look there is the final one
  std::optional<double> time_budget;      ///< seconds for the whole measuring phase
  std::string time_budget_name;           ///< how stop reasons name it ("measuring budget 2.0 min"); "": "time budget X"
  verdict::TimeRule rule;                 ///< metric, pairing and look rule, as the reports judge
  bool per_benchmark = true;              ///< a decided benchmark stops running (false: a target runs all while any is undecided)
  /// An undecided benchmark whose projected chance to be decided by max_runs is
  /// too small stops running (verdict::not_worth_more_runs). Off where the
  /// runs are asked for agreement with an earlier reading rather than a
  /// decision: another code layout checking a claim (job/layout_step.cc).
  bool stop_when_futile = true;
  RepetitionPolicy repetitions;
  RunLengthPolicy run_length;
  /// Allowed slowdown (fraction) for one benchmark, overrides applied.
  std::function<double(const std::string& target, const std::string& name)> budget_for;
};

/// How a reason names a measuring bound of `seconds`: `name`, or "time budget X" when it is empty.
std::string budget_name(double seconds, const std::string& name);

/// Where the schedule reports to; every member is optional.
struct ScheduleHooks {
  std::function<void(const RunRecord&)> on_record;   ///< each finished run, in order
  /// A target stopped before all its benchmarks were decided, and why.
  std::function<void(const std::string& target, const std::string& reason)> on_stop;
  /// A target's run length was chosen (RunLengthPolicy), and from what.
  std::function<void(const results::RunLength&)> on_run_length;
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

/// The units of both prepared sides paired by name (a unit on one side only is left out).
std::vector<UnitPair> pair_units(Runner& runner, const SideContext& base, const SideContext& head);

/// Measures every pair. Round r runs one pair per active target, base first on
/// even pair indices, head first on odd ones, so each side sees ABBA order.
ScheduleOutcome run_schedule(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
                             const ScheduleHooks& hooks = {});

/// Benchmarks of one target that have samples on both sides, measure
/// something on at least one side (a benchmark likely optimised away on both
/// is done: more runs cannot tell anything about it), and whose verdict is
/// still open at `look`, from that target's records: inconclusive, or a
/// regression the control rule does not let stand against `controls`, the
/// job's controls so far (the reports would call it inconclusive; more pairs
/// of it and of the controls can still tell it apart).
std::vector<std::string> undecided_benchmarks(const std::string& target, const std::vector<RunRecord>& records,
                                              const ScheduleSettings& settings, verdict::Look look,
                                              const verdict::JobControls& controls = {});

}  // namespace cobench::run
