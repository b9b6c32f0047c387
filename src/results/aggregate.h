#pragma once
// results.jsonl -> report::Report. `cobench run` and `cobench report` both
// build their reports here, from the same file, so they can never disagree.
#include "report/report.h"
#include "results/log.h"

namespace cobench::results {

/// Rows per benchmark (ratio, CI, verdict against its budget, runs per side,
/// failed runs and a note saying what failed), added/removed benchmarks,
/// stop reasons and report-wide notes. `source` names the file in errors.
report::Report aggregate(const ResultsFile& results, const std::string& source);

/// Where the job's time went, from its "phase" lines: measuring split into
/// "runs" and "machine control" (the wall time of the machine control's
/// processes), and "other" for what no phase timed, up to the "job" line.
std::vector<report::PhaseTime> phases_of(const ResultsFile& results);

/// "head run 3: killed by SIGSEGV; command: ...; output: a | b": a failed run in one line, for reports.
std::string describe_failed_run(const RunRecord& run);

/// "head crashed (SIGSEGV) in 2/6 runs" for each cause of one side's failed runs.
std::vector<std::string> failure_notes(const std::vector<report::FailedRun>& failed, const std::string& side,
                                       int attempted);

}  // namespace cobench::results
