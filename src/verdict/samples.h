#pragma once
// One benchmark's samples on each side, in run order with their run indices,
// and the pairs the paired test uses: a base and a head run of the same index
// ran back to back (ABBA order), on the same machine state. The log gathers
// them (results/samples.h); the verdict stage judges them.
#include <string>
#include <vector>

namespace cobench::verdict {

/// One benchmark's values on each side, in run order, with their run indices.
struct BenchmarkSamples {
  std::string metric;                 ///< what the values are: "real_time" or "cpu_time"
  std::string metric_note;            ///< why auto chose real_time where the CPU share says so; "" otherwise
  std::vector<double> base;
  std::vector<double> head;
  std::vector<int> base_runs;         ///< base_runs[i] is the run index of base[i]
  std::vector<int> head_runs;
  /// Per run, the loop's own work per iteration: the least of its real_time and
  /// cpu_time where both are measured. A neighbour's preemption raises real_time,
  /// never cpu_time, so "likely optimised away" reads these, whatever the metric.
  std::vector<double> base_work;
  std::vector<double> head_work;
};

/// The least of a side's work per iteration over its runs (BenchmarkSamples::
/// base_work / head_work): a neighbour adds to a run's time and never takes
/// from it, so the least run is the closest to the loop's own work (with two
/// runs a median is their mean, and one run a neighbour hit lifted an empty
/// loop's 0.3 ns over 1 ns beside a CPU hog). NaN without runs.
double least_work(const std::vector<double>& work);

/// The complete pairs of one benchmark: base[i] and head[i] are the runs of one index.
struct Pairs {
  std::vector<double> base;
  std::vector<double> head;
  int incomplete = 0;                 ///< runs whose partner failed or is missing: dropped
};

/// How many runs of one index both sides have.
int complete_pairs(const BenchmarkSamples& samples);

/// Pairs up the runs of one index, in run order.
Pairs pairs_of(const BenchmarkSamples& samples);

}  // namespace cobench::verdict
