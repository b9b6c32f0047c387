#pragma once
// The one settings model. Every command fills one Config in one order:
// defaults < cobench.toml < COBENCH_* environment < command-line flags.
// Every value goes through set() (keys.cc), which validates it once and
// records where it came from, so every error names its origin:
//   cobench.toml:3:8: budget.time: ...   COBENCH_BUDGET: ...   --budget: ...
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/budget_values.h"

namespace cobench::config {

/// Where a setting's value came from.
struct Origin {
  enum class Kind { Default, File, Environment, Flag };
  Kind kind = Kind::Default;
  std::string where;  ///< "cobench.toml:3:8", "COBENCH_BUDGET", "--budget"; empty for a default

  /// How errors name a value of `key` from here: "cobench.toml:3:8: budget.time", "COBENCH_BUDGET",
  /// "--budget", or "budget.time" for a default.
  std::string describe(std::string_view key) const;
};

struct BuildConfig {
  std::vector<std::string> cmake_args;
  std::vector<std::string> targets;        ///< name regexes that also count as benchmarks
  std::string source_dir;                  ///< CMake project inside the repo ("" = root)
  std::string build_type = "Release";
  bool layout_stable = false;              ///< both sides built so unchanged functions keep their alignment
  bool ccache = true;                      ///< share compiled objects between the sides through ccache when present
  std::string ccache_dir;                  ///< ccache's cache folder for the builds ("" = ccache's own)
  std::string shared_parent;               ///< library target built once as a shared parent ("" = off)
};

struct RunConfig {
  std::optional<int> cpu;                  ///< nullopt: last online CPU
  int min_runs = 6;
  int max_runs = 30;
  double run_timeout = 300;                ///< seconds
  double min_time = 0.1;                   ///< seconds each Google Benchmark benchmark measures per run
  std::optional<double> time_budget;       ///< seconds for the whole job: configure, build and measure
  std::optional<double> measure_budget;    ///< seconds for the measuring phase alone
  std::vector<std::string> bench_args;
  /// What is measured: at most one time metric ("auto": per benchmark, "real_time", "cpu_time") and/or
  /// "instructions" (instructions per iteration under callgrind). Never empty.
  std::vector<std::string> metrics = {"auto"};
  int instruction_runs = 3;                ///< callgrind runs per side and benchmark (metric instructions)
  std::string pairing = "paired";          ///< "paired" (runs of one index) | "unpaired"
  std::string looks = "haybittle-peto";    ///< "haybittle-peto" | "every-look" (each look at the stated confidence)
  std::string stopping = "benchmark";      ///< "benchmark": a decided benchmark stops running | "target"
  std::string repetitions = "1";           ///< repetitions per process: a count, or "auto"
  std::string run_length = "auto";         ///< "auto": shortened where noise is between processes | "fixed": min_time
  int alloc_runs = 3;                      ///< allocation-counting runs per side
  std::string runner = "gbench";           ///< a name of run::runner_kinds(), checked by the job
  std::vector<std::string> commands;       ///< runner "command": each one benchmark
  std::vector<std::string> prepare;        ///< runner "command": run once per worktree first
  std::string filter;                      ///< benchmark-name regex for --benchmark_filter ("" = all)
  /// Credential variables (secrets::is_credential_name) that builds and runs get all the same.
  std::vector<std::string> pass_env;
  std::vector<std::string> control;        ///< layout controls: untouched targets rebuilt on both sides ([] = choose one)
  bool machine_control = true;             ///< one binary run as both sides in every block: the job's own A/A
  std::string control_rule = "shift";      ///< "shift" | "spread" (how controls held claims back before; for comparison)
  bool layout_probe = false;               ///< build one commit twice, one side perturbed: the layout noise floor
  int layouts = 2;                         ///< code layouts a regression or faster claim must hold in (1: no confirmation)
  bool reach = false;                      ///< coverage pass: which benchmark instances execute the change
  std::string reach_index;                 ///< folder of the reach index per base commit ("" = <work-dir>/reach)

  /// The time metric of `metrics` ("auto", "real_time" or "cpu_time"); "" when only instructions are measured.
  std::string time_metric() const;
  /// Whether `metrics` names "instructions".
  bool counts_instructions() const;
};

struct BudgetConfig {
  double time = 0.05;                      ///< allowed slowdown, a fraction
  std::optional<config::Threshold> allocs;  ///< allowed increase of allocs/op; nullopt: reported only
  std::optional<config::Threshold> bytes;   ///< allowed increase of bytes/op
  std::vector<config::BudgetOverride> overrides;  ///< [[budget.override]], in file order
  double confidence = 0.95;
  bool gate = false;                       ///< exit 1 on a regression
  bool fail_on_inconclusive = false;       ///< inconclusive fails the gate too (implies gate)
  /// Instruction counts: how far the head/base range is widened on each side for the nondeterminism
  /// a few runs may not show (ASLR, environment), a fraction.
  double instructions_tolerance = 0.005;
  /// Which verdict is a row's when time and instructions are both measured: "time",
  /// "instructions" or "worst" (the worse of the two). One measured metric governs alone.
  std::string governing = "time";
};

/// One of `count` disjoint parts of the selected targets (`--shard 2/4`).
struct Shard {
  int index = 1;  ///< 1-based
  int count = 1;
};

struct SelectConfig {
  int max_targets = 20;                    ///< 0: no cap
  std::vector<std::string> always_all;     ///< globs: a change here selects everything
  std::vector<std::string> ignore = {"docs/**", "doc/**", "**/*.md", ".gitlab-ci.yml", ".github/**",
                                     ".ci/**", "ci/**", "LICENSE*", "COPYING*"};
  bool strict_layout = false;
  std::string targets;                     ///< target-name regex narrowing the selection ("" = all)
  std::optional<Shard> shard;              ///< measure only this part of the selection
  std::vector<std::string> cost_from;      ///< earlier results.jsonl files: each target's build and run time
};

/// Every setting, and where each one came from.
struct Config {
  BuildConfig build;
  RunConfig run;
  BudgetConfig budget;
  SelectConfig select;
  std::filesystem::path loaded_from;       ///< empty when no file was read
  std::map<std::string, Origin, std::less<>> origins;  ///< key ("run.min_runs") -> origin; absent: default

  /// Where `key`'s value came from (Kind::Default when never set).
  const Origin& origin(std::string_view key) const;
};

/// One settable key: its name in cobench.toml, its environment variable and
/// its flag (either may be empty), for help texts and the layers below.
struct KeyInfo {
  std::string_view key;    ///< "budget.time"
  std::string_view env;    ///< "COBENCH_BUDGET" or ""
  std::string_view flag;   ///< "--budget" or ""
  std::string_view help;   ///< one line for --help
  bool is_switch = false;  ///< a flag without a value (--gate)
  bool repeatable = false; ///< a flag given once per value (--cmake-arg)
  bool appends = false;    ///< the flag's values add to the file's list instead of replacing it
  bool negatable = false;  ///< a switch that also has a --no-... form (--no-machine-control)
};

/// The table of keys, in the order of cobench.toml's sections.
std::span<const KeyInfo> keys();

/// The key whose flag is `flag` ("--budget"); nullptr when none.
const KeyInfo* key_for_flag(std::string_view flag);

/// Sets `key` from text as an environment variable or a flag gives it (a
/// list key takes each repeated flag value as one item). Validates it like
/// the same value in cobench.toml and records `origin`; throws InputError
/// "ORIGIN: what" ("--budget: 5 would mean 500%; ...").
void set(Config& config, std::string_view key, const std::vector<std::string>& values, const Origin& origin);

/// Applies the COBENCH_* variables of `env` that are set and not empty.
void apply_environment(Config& config, const std::map<std::string, std::string>& env);

/// Checks what single values cannot: min_runs <= max_runs, metrics given
/// once. Throws InputError naming the origin of the value at fault. What a
/// runner can do is checked by the job (job::check_settings), which knows the
/// runners.
void validate(const Config& config);

/// The key that said what is measured: "run.metrics" or "run.metric",
/// whichever was set last in the layering (for errors about the metrics).
const char* metrics_key(const Config& config);

/// Reads cobench.toml. Unknown keys and wrong types throw InputError with
/// "FILE:LINE:COL: key: what". A missing optional file returns defaults.
Config load_file(const std::filesystem::path& path);

/// As above; with `required` a missing file is an InputError (an explicit --config).
Config load_file(const std::filesystem::path& path, bool required);

/// Parses TOML text (for tests); `source` names it in errors.
Config parse(const std::string& text, const std::string& source);

}  // namespace cobench::config
