#pragma once
// Per-benchmark samples of one target, gathered from its successful runs, and
// the pairs the paired test uses: a base and a head run of the same index ran
// back to back (ABBA order), on the same machine state.
#include <map>
#include <string>
#include <vector>

#include "formats/formats.h"
#include "results/record.h"

namespace cobench::results {

/// One benchmark's values on each side, in run order, with their run indices.
struct BenchmarkSamples {
  std::string metric;                 ///< what the values are: "real_time" or "cpu_time"
  std::vector<double> base;
  std::vector<double> head;
  std::vector<int> base_runs;         ///< base_runs[i] is the run index of base[i]
  std::vector<int> head_runs;
};

/// The complete pairs of one benchmark: base[i] and head[i] are the runs of one index.
struct Pairs {
  std::vector<double> base;
  std::vector<double> head;
  int incomplete = 0;                 ///< runs whose partner failed or is missing: dropped
};

/// Pairs up the runs of one index, in run order.
Pairs pairs_of(const BenchmarkSamples& samples);

/// The metric a benchmark is judged on. `metric` itself unless it is "auto":
/// then cpu_time for single-threaded Google Benchmark code timed by its own
/// clock (threads = 1, no /real_time or /manual_time in its name) — preemption
/// on a loaded runner leaves it out — and real_time for everything else
/// (threads, manual timing, Go, plain commands).
std::string metric_for(const std::string& metric, const std::string& name, const Sample& sample);

/// Samples of `target` keyed by benchmark name, from successful timing runs,
/// of `metric` ("real_time", "cpu_time" or "auto", resolved per benchmark
/// from its first sample). Non-positive or non-finite values are left out: no
/// ratio can be formed from them.
std::map<std::string, BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& metric);

/// One run's sample of one benchmark: the median of each metric's
/// repetitions ("real_ns", "cpu_ns", and "allocs_per_iter", "bytes_per_iter",
/// "peak_bytes" when reported); "threads"; and with repetitions their count
/// "reps", the spread within the run ("real_log_sd", "cpu_log_sd": robust σ
/// of the logs) and the duration of one repetition ("rep_seconds").
Sample sample_from_entry(const formats::Entry& entry);

/// The Sample key a metric name selects: "real_time" -> "real_ns", "cpu_time" -> "cpu_ns".
std::string sample_key_for_metric(const std::string& metric);

}  // namespace cobench::results
