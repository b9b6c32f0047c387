#pragma once
// Failed runs in words, one line each, for every report: what the aggregation
// of rows and the instruction rows both say about runs that did not measure.
#include <string>
#include <vector>

#include "report/report.h"
#include "results/record.h"

namespace cobench::aggregate {

/// "head run 3: killed by SIGSEGV; command: ...; output: a | b": a failed run in one line, for reports.
std::string describe_failed_run(const results::RunRecord& run);

/// "head crashed (SIGSEGV) in 2/6 runs" for each cause of one side's failed runs.
std::vector<std::string> failure_notes(const std::vector<report::FailedRun>& failed, const std::string& side,
                                       int attempted);

}  // namespace cobench::aggregate
