#pragma once
// The allocation half of a run's report: allocs/op and bytes/op per
// benchmark (medians, judged against [budget] allocs/bytes and overrides) and
// per target whether counts were collected and from how many runs.
#include <string>

#include "report/report.h"
#include "results/log.h"

namespace cobench::aggregate {

/// Adds MedianMetrics to every row that has counts on both sides, folds them
/// into the row's verdict, and fills TargetInfo::alloc_status / alloc_runs.
/// Counts come from kind "alloc" records (Google Benchmark) or, where a target
/// has none, from its timing records (Go's -benchmem).
void apply_alloc_metrics(report::Report& report, const results::ResultsFile& results);

}  // namespace cobench::aggregate
