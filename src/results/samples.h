#pragma once
// Per-benchmark samples of one target, gathered from its successful runs.
#include <map>
#include <string>
#include <vector>

#include "formats/formats.h"
#include "results/record.h"

namespace cobench::results {

/// One benchmark's values on each side, in run order.
struct BenchmarkSamples {
  std::vector<double> base;
  std::vector<double> head;
};

/// Samples of `target` keyed by benchmark name, from successful timing runs,
/// using Sample value `key` ("real_ns", "cpu_ns"). Non-positive or non-finite
/// values are left out: no ratio can be formed from them.
std::map<std::string, BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& key);

/// One run's sample of one benchmark: the median of each metric's repetitions
/// ("real_ns", "cpu_ns", and "allocs_per_iter", "bytes_per_iter", "peak_bytes" when reported).
Sample sample_from_entry(const formats::Entry& entry);

/// The Sample key a metric name selects: "real_time" -> "real_ns", "cpu_time" -> "cpu_ns".
std::string sample_key_for_metric(const std::string& metric);

}  // namespace cobench::results
