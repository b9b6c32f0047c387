#pragma once
// The instruction half of a run's report: instructions per iteration per
// benchmark (judged against the time budget with the job's tolerance), the
// estimated cycles and miss ratios, and per target how they were counted.
#include "report/report.h"
#include "results/log.h"

namespace cobench::aggregate {

/// Adds an InstructionJudgement to every row whose benchmark has kind
/// "instructions" records (adding rows, and targets, in a job that counted
/// instructions only), with what failed under callgrind in its note, and
/// fills TargetInfo::instructions_status / instruction_runs. The rows'
/// verdicts are folded later, by settle_verdict. Nothing without
/// JobSettings::instructions.
void apply_instruction_metrics(report::Report& report, const results::ResultsFile& results);

}  // namespace cobench::aggregate
