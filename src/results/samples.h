#pragma once
// Per-benchmark samples of one target, gathered from its successful runs, and
// the pairs the paired test uses: a base and a head run of the same index ran
// back to back (ABBA order), on the same machine state.
#include <map>
#include <string>
#include <vector>

#include "formats/formats.h"
#include "results/record.h"
#include "verdict/judging.h"
#include "verdict/samples.h"

namespace cobench::results {

/// How much of its wall time one benchmark keeps a CPU busy (cpu_time /
/// real_time, at most 1), run by run on each side.
struct CpuShare {
  std::map<int, double> base;     ///< run index -> share
  std::map<int, double> head;
  bool single_threaded = true;    ///< every run reported threads = 1
  bool has_threads = false;       ///< some run reported its threads at all (Google Benchmark does, Go does not)

  /// Adds run `run`'s (or repetition's) sample of `side`.
  void add(Side side, int run, const Sample& sample);
  /// The highest share of a side's runs: a neighbour's load lowers some runs' share, never raises it, so the
  /// quietest run shows what the code itself does. 0 without runs.
  double most(Side side) const;
};

/// A metric resolved for one benchmark.
struct MetricChoice {
  std::string metric;  ///< "real_time" or "cpu_time"
  std::string note;    ///< why auto judged real_time for the CPU share ("" otherwise)
};

/// Below this share of its wall time on the CPU, cpu_time misses what a benchmark waits for.
inline constexpr double kLeastCpuShare = 0.9;
/// The sides' shares may differ by this much (relative) before a change of the time off the CPU is suspected.
inline constexpr double kCpuShareAgreement = 0.025;

/// The metric a benchmark is judged on. `metric` itself unless it is "auto":
/// then cpu_time for single-threaded Google Benchmark code timed by its own
/// clock (threads = 1, no /real_time or /manual_time in its name) that keeps
/// the CPU busy (a run of either side at kLeastCpuShare or more) and whose
/// sides show no evidence of a different share (the paired 95% interval of
/// head/base shares, run by run, not wholly beyond kCpuShareAgreement) —
/// preemption on a loaded runner leaves cpu_time out — and real_time for
/// everything else: threads, manual timing, Go, plain commands, code that
/// sleeps, waits or hands work to other threads, and a change that moves time
/// off or onto the CPU, which cpu_time cannot see. With `one_binary` (both
/// sides run one binary: the machine control) a difference between the sides'
/// shares is the machine's, never a change's, and is not looked for.
MetricChoice metric_for(const std::string& metric, const std::string& name, const CpuShare& share,
                        bool one_binary = false);

/// The CPU share of one benchmark from its repetitions in two files (`cobench compare`).
CpuShare share_of(const formats::Entry& base, const formats::Entry& head);

/// Samples of `target` keyed by benchmark name, from successful timing runs,
/// of `metric` ("real_time", "cpu_time" or "auto", resolved per benchmark
/// from its runs on both sides). Non-positive or non-finite values are left
/// out: no ratio can be formed from them. `one_binary`: as metric_for().
std::map<std::string, verdict::BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& metric,
                                                        bool one_binary = false);

/// The samples of the job's control targets (`kinds`: target -> "machine" or
/// "layout"), as verdict::judge_controls reads them. The machine control runs
/// one binary as both sides (collect_samples' `one_binary`).
std::map<std::string, verdict::ControlTarget> control_samples(const std::vector<RunRecord>& records,
                                                              const std::map<std::string, std::string>& kinds,
                                                              const std::string& metric);

/// One run's sample of one benchmark: the median of each metric's
/// repetitions ("real_ns", "cpu_ns", and "allocs_per_iter", "bytes_per_iter",
/// "peak_bytes" when reported); "threads"; and with repetitions their count
/// "reps", the spread within the run ("real_log_sd", "cpu_log_sd": robust σ
/// of the logs; "real_log_var", "cpu_log_var": their unbiased variance) and
/// the duration of one repetition ("rep_seconds").
Sample sample_from_entry(const formats::Entry& entry);

/// The Sample key a metric name selects: "real_time" -> "real_ns", "cpu_time" -> "cpu_ns".
std::string sample_key_for_metric(const std::string& metric);

}  // namespace cobench::results
