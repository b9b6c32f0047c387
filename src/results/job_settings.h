#pragma once
// The settings line of results.jsonl: what a job measured and how it judged,
// everything `cobench report` needs to rebuild the reports. One writer and
// one reader, here; nothing else parses this line.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "verdict/judging.h"
#include "verdict/budget.h"
#include "verdict/instructions.h"

namespace cobench::results {

/// The results.jsonl format this cobench writes.
inline constexpr int kResultsSchema = 1;

/// How a job counted and judged instructions (--metric instructions).
struct InstructionSettings {
  int runs = 3;                         ///< callgrind runs per side and benchmark
  double tolerance = 0.005;             ///< the range is widened by this fraction on each side
  verdict::Governing governing = verdict::Governing::Time;  ///< with time measured too: whose verdict leads
};

/// One target of a sharded job's split.
struct ShardedTarget {
  std::string target;
  int shard = 1;                        ///< the part it belongs to, 1-based
  double cost = 0;                      ///< its estimated cost, in the split's unit
};

/// How the selection was split into shards: the same in every shard, so each
/// shard's file says where every target went.
struct ShardSplit {
  int index = 1;                        ///< this job is part `index` of `count`
  int count = 1;
  std::string basis;                    ///< how costs were estimated: "source size", "build and run time from FILE"
  std::string unit;                     ///< of the costs: "s" or "bytes"
  std::vector<ShardedTarget> targets;   ///< every target of the split, heaviest first

  /// The targets of part `part`, in split order.
  std::vector<std::string> targets_of(int part) const;
};

/// The shared parent library both sides' executables linked ([build] shared_parent).
struct SharedParent {
  std::string target;                      ///< the library target
  std::string library;                     ///< the file both sides loaded
  std::string sha256;                      ///< its SHA-256, 64 hex digits
  std::vector<std::string> changed_units;  ///< repo-relative sources compiled from each side instead
};

/// One job's settings as recorded.
struct JobSettings {
  int schema = kResultsSchema;          ///< the results.jsonl format; a newer one is read with a warning
  std::string job;                      ///< this job's id, also on every run line: two jobs' lines never mix
  std::string base;                     ///< full SHA of the merge base
  std::string head;                     ///< full SHA of the head
  std::string base_ref;                 ///< as given, or the default base that resolved
  std::string head_ref;
  /// The time metric: "real_time" | "cpu_time" | "auto" (per benchmark); "instructions" when only they were measured.
  std::string metric = "real_time";
  std::string pairing = "unpaired";     ///< "paired" | "unpaired" (files before pairing: unpaired)
  std::string looks = "every-look";     ///< "haybittle-peto" | "every-look" (files before look rules: every look)
  std::string control_rule = "spread";  ///< "shift" | "spread" (files before the shift rule: spread)
  std::string stopping = "target";      ///< "benchmark" | "target"
  std::string repetitions = "1";        ///< per process: a count or "auto"
  /// "auto": each target's run length chosen at its first look (run::RunLengthPolicy); "fixed": as
  /// bench_args say (files before it: fixed)
  std::string run_length = "fixed";
  double min_time = 0;                  ///< seconds of --benchmark_min_time the runs start from (0: not cobench's)
  /// Run length auto: the share of min_time each target's first min_runs pairs measured
  /// (results::kFirstPairsShare); files from before it read 1, the whole length.
  double first_pairs_share = 1;
  verdict::Budgets budgets;             ///< time, allocs/op and bytes/op budgets with their overrides
  double confidence = 0.95;
  int min_runs = 6;
  int max_runs = 30;
  double run_timeout = 300;             ///< seconds per run
  std::optional<double> time_budget;    ///< seconds for the whole job (configure, build, measure)
  std::optional<double> measure_budget; ///< seconds for the measuring phase alone
  int cpu = 0;                          ///< the CPU every run was pinned to
  std::vector<std::string> bench_args;  ///< as every benchmark process received them
  std::vector<std::string> cmake_args;
  std::string build_type = "Release";
  std::string source_dir;
  std::string runner = "gbench";        ///< the job's run::runner_kinds() name
  std::vector<std::string> targets;     ///< measured on both sides
  nlohmann::json selection = nlohmann::json::object();  ///< `cobench select` JSON plus mode and reason
  int alloc_runs = 0;                   ///< allocation runs per side (0: none)
  /// Why the job's rows have no allocation counts by its settings (the runner reports none,
  /// alloc_runs = 0), as the reports' allocation status says it; "" when they can have them.
  std::string no_allocation_counts;
  std::optional<InstructionSettings> instructions;  ///< how instructions were counted and judged; nullopt: not counted
  std::string machine_control;          ///< the unit run as both sides ("machine:bench_x"); "" without one
  std::vector<std::string> layout_controls;  ///< untouched targets rebuilt on both sides as controls
  bool layout_stable = false;           ///< both sides built with aligned, separated functions
  bool layout_probe = false;            ///< one commit against itself, one side perturbed
  int layouts = 1;                      ///< code layouts a claim had to hold in (files before layout confirmation: 1)
  /// Layouts 2 and 3 were layout-stable builds (functions on 64-byte boundaries) as well as
  /// moved; files from before read false: their other layouts were moved plain builds.
  bool layouts_aligned = false;
  /// Whether layouts 2 and 3 kept every unchanged function's alignment: built layout-stable by layout
  /// confirmation itself, or by the whole job's --layout-stable (files from before layouts_aligned too).
  bool other_layouts_aligned() const { return layouts_aligned || layout_stable; }
  bool reach = false;                   ///< a reach pass ran (--reach): rows carry whether they execute the change
  std::string reach_method;             ///< how reach was found, for the reports' method section
  std::string compile_cache;            ///< how the sides compiled: ccache and its hits per side, or why not ("" unknown)
  std::vector<std::string> commands;    ///< runner "command": the timed commands
  std::vector<std::string> prepare;     ///< runner "command": run once per worktree first
  std::optional<ShardSplit> shard;      ///< a sharded job: the split and this job's part
  std::vector<std::string> budget_dropped;  ///< selected targets not built: the time budget would not fit them
  std::optional<SharedParent> shared_parent;  ///< when the executables were relinked against one
};

/// The report note of a sharded job: which part it measured, and where the rest is.
std::string shard_note(const ShardSplit& split);

/// How this job judged time: its metric, pairing and look rule.
verdict::TimeRule time_rule(const JobSettings& settings);

/// The settings line's JSON (without "type").
nlohmann::json to_json(const JobSettings& settings);

/// The first setting two shards of one job must share and do not, as
/// "budget: {...} and {...}" (each value as results.jsonl writes it,
/// shortened); nullopt when they agree. Shared: the revisions, how runs were
/// made and judged (metric, pairing, looks, stopping, repetitions, budgets,
/// confidence, run counts and limits, arguments, build settings, runner,
/// commands, allocation and instruction counting, layout settings, reach) and
/// the split. Not shared: the job id, the CPU, the targets and controls each
/// shard measured, its compile cache and what its own time budget dropped.
std::optional<std::string> shard_difference(const JobSettings& a, const JobSettings& b);

/// Reads a settings line; `source` ("results.jsonl:2") names it in errors,
/// with the path of the field that has the wrong shape.
JobSettings job_settings_from_json(const nlohmann::json& line, const std::string& source);

}  // namespace cobench::results
