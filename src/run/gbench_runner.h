#pragma once
// Runs Google Benchmark executables: one pinned process per run, JSON output
// to a file per run, stderr to a log per run; one sample per benchmark (the
// median of its repetitions).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "run/runner.h"

namespace cobench::run {

/// The Runner for Google Benchmark targets.
class GoogleBenchmarkRunner : public Runner {
 public:
  explicit GoogleBenchmarkRunner(ProcessSettings settings);
  /// One unit per built executable, run from the side's build folder.
  std::vector<Unit> prepare(const SideContext& side) override;
  /// Runs the binary once; crashes, exit codes, timeouts and bad JSON become failed records.
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                    const RunScope& scope) override;
  /// `--benchmark_list_tests=true` names, honouring a user --benchmark_filter.
  std::vector<std::string> list(const Unit& unit) override;
  /// list(), or nullopt when the binary could not list its benchmarks (it failed, timed out).
  std::optional<std::vector<std::string>> listed(const Unit& unit);

 private:
  ProcessSettings settings_;
};

/// Refuses benchmark arguments that cobench itself must own: --benchmark_out,
/// --benchmark_out_format, --benchmark_format and --benchmark_list_tests
/// (each run's JSON goes where cobench reads it), and --benchmark_filter when
/// the job's own filter (`filter_set`) passes one. `origin` names where the
/// arguments came from ("--bench-arg"). Throws InputError.
void check_bench_args(const std::vector<std::string>& bench_args, bool filter_set, const std::string& origin);

/// Whether `arg` is Google Benchmark's --benchmark_filter (or -benchmark_filter),
/// the one flag that chooses which benchmarks a process runs or lists.
bool is_filter_flag(const std::string& arg);

/// How Google Benchmark is told how long each benchmark measures per run.
inline constexpr std::string_view kMinTimeFlag = "--benchmark_min_time=";

/// Whether `arg` says how long each benchmark measures (kMinTimeFlag): where
/// the user's arguments hold one, cobench neither adds nor chooses a length.
bool is_min_time_flag(const std::string& arg);

/// How Google Benchmark is told how many repetitions each benchmark runs per process.
inline constexpr std::string_view kRepetitionsFlag = "--benchmark_repetitions=";

/// kRepetitionsFlag with `count`: "--benchmark_repetitions=3".
std::string repetitions_flag(int count);

/// Whether `arg` gives Google Benchmark's --benchmark_repetitions=N (kRepetitionsFlag), read as
/// Google Benchmark reads its flags (a prefix, not a mention inside a filter).
bool is_repetitions_flag(const std::string& arg);

/// The arguments of every timing run: `bench_args` as given when they set
/// --benchmark_min_time themselves (the user's wins), else with
/// --benchmark_min_time=`seconds` added, as a plain number of seconds, which
/// every Google Benchmark version reads. A benchmark with its own MinTime()
/// keeps it either way.
std::vector<std::string> with_min_time(std::vector<std::string> bench_args, double seconds);

/// A --benchmark_filter regex matching exactly the benchmark `name` ("^BM_a/64$")
/// in Google Benchmark's grammar (core/benchmark_regex.h).
std::string exact_filter(const std::string& name);

/// Turns one Google Benchmark JSON output into per-benchmark samples (median of
/// repetitions) and per-benchmark error messages. Throws InputError when unparsable.
void read_gbench_samples(const std::string& json_text, const std::string& source, RunRecord& record);

}  // namespace cobench::run
