#pragma once
// The job's last step, also all of `cobench report` and `cobench merge`:
// the reports written into the report folder, the table printed, the gate's
// exit code returned.
#include <filesystem>

#include "report/report.h"
#include "verdict/gate.h"

namespace cobench::job {

/// Writes every report of `report` into `out_dir`, prints the table, and
/// returns the exit code: 3 when a target measured nothing, else the gate's.
int finish_report(const report::Report& report, const std::filesystem::path& out_dir, const verdict::GatePolicy& gate);

/// Judges the rows of a results.jsonl (also a partial one) and finishes the
/// report in `out_dir`, which the caller holds.
int report_from_log(const std::filesystem::path& results_path, const std::filesystem::path& out_dir,
                    const verdict::GatePolicy& gate);

}  // namespace cobench::job
