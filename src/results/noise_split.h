#pragma once
// Where one benchmark's run-to-run noise comes from, read from the log: the
// split into what repetitions inside a process can average away and what only
// more processes can, and the repetitions per process it asks for.
#include <optional>
#include <string>
#include <vector>

#include "results/record.h"

namespace cobench::results {

/// Where one benchmark's run-to-run noise comes from, on the log scale.
struct VarianceSplit {
  double within = 0;            ///< σ between repetitions inside one process, pooled over its runs (0: one repetition only)
  double between = 0;           ///< σ of a process's own offset: what only more processes average away
  double repetitions = 1;       ///< repetitions per process in the runs measured (median)
  double rep_seconds = 0;       ///< one repetition's duration
  double process_seconds = 0;   ///< a process's cost besides its repetitions (start, iteration-count search), per benchmark
  bool known = false;           ///< enough runs to tell (two pairs with repetitions)
};

/// Variance of the median of k standard normal draws (the per-process statistic
/// with k repetitions): 1, 0.5, 0.449, 0.298, … ≈ π / 2k.
double median_variance_factor(int k);

/// The split for `name` of `target` from its successful timing runs of
/// `metric_key`: within is the pooled unbiased variance of the repetitions
/// of every run, Σ(k-1)s² / Σ(k-1); a pair's difference of two process
/// medians has variance 2 (between² + c_k within²), c_k =
/// median_variance_factor(k), which gives between.
VarianceSplit variance_split(const std::vector<RunRecord>& records, const std::string& target, const std::string& name,
                             const std::string& metric_key);

/// One split for several benchmarks of a target (one process runs them all):
/// their variances averaged, their costs' medians. Not known when none is.
VarianceSplit pooled_split(const std::vector<VarianceSplit>& splits);

/// The repetitions per process that make the interval narrowest per second of
/// machine time, from the classic two-stage allocation
/// k* = sqrt((process cost / repetition cost) · (π/2 · σ²_within / σ²_between))
/// (π/2: a median of k repetitions is that much noisier than their mean), with
/// σ²_between at least σ²_within / 16 (an offset too small to measure is not
/// zero: k grows with the cost ratio, not to the cap), rounded and kept within
/// [1, most]; nullopt when the split is not known.
std::optional<int> best_repetitions(const VarianceSplit& split, int most);

/// The fraction of its measured length a process should measure for, where
/// one repetition is the statistic: the same allocation with the length as the
/// variable, f* = sqrt(process cost · σ²_within / (σ²_between · k² · repetition
/// cost)) for a split measured with k repetitions (their mean is one process of
/// the whole length; the within variance of one process of fraction f is
/// σ²_within / (k f)). σ²_between is at least σ²_within / 16 as above; the
/// process cost counts as fixed, though Google Benchmark's iteration search
/// shrinks with the length, so f errs long. Kept within [shortest, longest]
/// (fractions of the measured length); `longest` when the split is not known.
double best_length_fraction(const VarianceSplit& split, double shortest, double longest);

/// What a process measuring `fraction` of the split's length costs, as a
/// multiple of one of the split's own processes, in the same cost model:
/// (c_process + f·k·r) / (c_process + k·r); `fraction` itself (measuring only)
/// when the split is not known.
double length_cost_ratio(const VarianceSplit& split, double fraction);

}  // namespace cobench::results
