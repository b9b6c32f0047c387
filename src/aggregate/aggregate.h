#pragma once
// results.jsonl -> report::Report. `cobench run` and `cobench report` both
// build their reports here, from the same file, so they can never disagree.
#include "report/report.h"
#include "results/log.h"

namespace cobench::aggregate {

/// Rows per benchmark (ratio, CI, verdict against its budget, runs per side,
/// failed runs and a note saying what failed), added/removed benchmarks,
/// stop reasons and report-wide notes. `source` names the file in errors.
report::Report report_of(const results::ResultsFile& results, const std::string& source);

/// Where the job's time went, from its "phase" lines: measuring split into
/// "runs" and "machine control" (the wall time of the machine control's
/// processes), and "other" for what no phase timed, up to the "job" line.
std::vector<report::PhaseTime> phases_of(const results::ResultsFile& results);

}  // namespace cobench::aggregate
