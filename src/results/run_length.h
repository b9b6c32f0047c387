#pragma once
// The run length a target's runs took from its first look on (run length
// auto): what the schedule chose, from which noise split, as results.jsonl
// records it on a "run_length" line and the reports say it.
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace cobench::results {

/// The least a run measures when run length auto shortens runs that start
/// from `min_time`: an eighth of it, and never under 0.01 s, where Google
/// Benchmark's iteration search and the process start would outweigh it.
double shortest_run_length(double min_time);

/// The share of `min_time` a target's first min_runs pairs measure under run
/// length auto (two repetitions of half of it each). Most rows of a quiet job
/// are decided at their first look, where the whole length bought them a
/// margin they did not need: on the demo's A/A the first pairs were half of
/// all measuring. A row the first look leaves open gets its length chosen
/// there, up to the whole. Files from before it read 1 (JobSettings).
inline constexpr double kFirstPairsShare = 0.5;

/// The reports' sentence for run length auto from `min_time`, whose first
/// `min_runs` pairs measured `first_pairs_share` of it.
std::string describe_auto_rule(double min_time, int min_runs, double first_pairs_share);

/// One target's chosen run length.
struct RunLength {
  std::string target;
  double min_time = 0;  ///< seconds of --benchmark_min_time of every run after the first look
  /// The split it was chosen from (noise_split.h); NaN when it was not known.
  double within = std::numeric_limits<double>::quiet_NaN();
  double between = std::numeric_limits<double>::quiet_NaN();
  double process_seconds = std::numeric_limits<double>::quiet_NaN();
  /// Every benchmark of the target sets its own iterations or min time in its
  /// code: no length to choose, the configured one kept from the first pair on.
  bool set_by_benchmarks = false;

  bool split_known() const { return std::isfinite(within) && std::isfinite(between); }
};

/// "--benchmark_min_time=0.01: noise 4.3% within a process, 8.4% between
/// processes, 0.010 s per process besides measuring", "… (its noise split is not known)",
/// or "--benchmark_min_time=0.05 kept: every benchmark sets its own iterations or min time".
std::string describe(const RunLength& length);

/// The line's JSON (without "type").
nlohmann::json to_json(const RunLength& length);

/// Reads a "run_length" line; `where` names it in errors. Throws InputError.
RunLength run_length_from_json(const nlohmann::json& line, const std::string& where);

}  // namespace cobench::results
