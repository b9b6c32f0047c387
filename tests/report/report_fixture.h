#pragma once
// Hand-built reports for the renderer tests: every verdict, a control,
// allocation changes, failed runs, one-sided benchmarks and hostile names.
#include <string>

#include "report/report.h"

namespace cobench::testing {

/// A benchmark name built to break markdown tables, XML and HTML.
inline const std::string kHostileName = "BM_pipe|col `code` <script>alert(1)</script> @here & \"q\"\nnext*line_";

/// A row with an interval; samples spread around base 100 ns and head 100·ratio ns.
report::BenchmarkRow make_row(const std::string& target, const std::string& name, verdict::Verdict verdict,
                              double ratio, double ci_low, double ci_high);

/// The `cobench run` report with six rows over two targets (see report_fixture.cc).
report::Report sample_run_report();

/// A `cobench compare` report: no targets, SHAs or host.
report::Report sample_compare_report();

/// A `cobench run --reach` report: a row that executes the change, one that
/// does not (an unrelated change by the fold), one whose reach is unknown, one
/// likely optimised away, a target dropped by the cap with its reason and
/// reached targets narrowed away by --target.
report::Report reach_report();

/// One regression followed by `passing` passing rows, for folding.
report::Report long_report(int passing);

}  // namespace cobench::testing
