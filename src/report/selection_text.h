#pragma once
// Report.selection (from `cobench select` or run's own target choice) as
// plain sentences for the markdown and HTML reports.
#include <string>
#include <vector>

#include "report/report.h"

namespace cobench::report {

/// Why these targets ran: the overall reason, then one line per selected
/// target with its include chain; empty when the report has no selection.
std::vector<std::string> selection_lines(const Report& report);

/// "2 targets dropped by the cap (max_targets 20): bench_a, bench_b"; "" when none.
std::string dropped_phrase(const Report& report);

}  // namespace cobench::report
