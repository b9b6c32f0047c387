#pragma once
// Facts and phrases shared by the markdown, JUnit and HTML renderers, so the
// three outputs never disagree on a count, a ratio or a verdict's wording.
#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace cobench::report {

/// How many rows got each answer; `faster` rows are counted in `pass` too.
struct VerdictCounts {
  int regression = 0;
  int inconclusive = 0;
  int pass = 0;
  int faster = 0;
  int unrelated = 0;        ///< rows that do not execute the change and would not have passed
  int layout_sensitive = 0; ///< claims another code layout did not confirm
  int optimised_away = 0;   ///< rows flagged "likely optimised away" (whatever their verdict)
};

/// Counts the rows' verdicts.
VerdictCounts count_verdicts(const std::vector<BenchmarkRow>& rows);

/// "1 regression, 2 inconclusive, 7 pass (1 faster), 1 unrelated change, 1 layout-sensitive".
std::string counts_phrase(const VerdictCounts& counts);

/// The rows in reading order (regressions → inconclusive → faster → pass).
std::vector<BenchmarkRow> sorted_rows(const Report& report);

/// First 10 hex digits of a SHA, or the text unchanged when it is not one.
std::string short_sha(const std::string& sha);

/// Decimals for ratios in this report: 3 when the budget is below 2%.
int ratio_decimals(const Report& report);

/// "1.23" with `decimals` digits.
std::string format_ratio(double ratio, int decimals);

/// "1.23× [1.19, 1.27]", "1.02× (CI needs ≥ 8 runs per side)", or "–" when not compared.
std::string format_ratio_ci(const BenchmarkRow& row, int decimals);

/// A budget fraction as a signed percentage: 0.05 -> "+5%".
std::string format_budget(double budget);

/// "budget +5% (head/base ≤ 1.05, 95% confidence)", noting rows with their own budget.
std::string budget_phrase(const Report& report);

/// Runs per side across rows: "6", "6–30", or "" when no row says.
std::string runs_per_side(const Report& report);

/// Samples per side of one row: "6/6".
std::string samples_per_side(const BenchmarkRow& row);

/// Where the job's time went: "configure 2.1 s, build 8.0 s, runs 20.3 s,
/// machine control 4.1 s, analysis 48 ms, other 1.0 s (36 s in all)"; nullopt when not timed.
std::optional<std::string> phases_phrase(const Report& report);

/// Each kind's telling control with its interval, e.g. "machine 1.002 [0.991, 1.013], layout 1.031 [1.020,
/// 1.043] (bench_join/BM_Join/64)"; nullopt without controls.
std::optional<std::string> control_intervals(const Report& report);

/// How a control row is marked: "control", or "control, shard 1/2" in a
/// merged report (each shard carries its own); "" for other rows.
std::string control_label(const Report& report, const BenchmarkRow& row);

/// "regression", "inconclusive", "pass", "pass, faster", "unrelated change".
std::string verdict_text(const BenchmarkRow& row);

/// One verdict word for styling: "regression" | "inconclusive" | "faster" | "pass" | "unrelated" | "layout".
std::string verdict_class(const BenchmarkRow& row);

/// "0 → 1 (+1)" for an allocation metric, with "✗" when it broke its budget; "" when not measured.
std::string metric_change(const std::optional<verdict::MedianJudgement>& metric);

/// "head: SIGSEGV ×2, timeout ×1 of 6 runs" grouped per side; "" without failures.
std::string failed_runs_phrase(const BenchmarkRow& row);

/// What a reviewer needs to weigh an undecided row: "noise ±2.1% per run; could catch ≥ 8.2%; ~24 runs per
/// side to decide" (the projection only while inconclusive, at the last look's level, which a row that
/// has as many runs already names); "" when the row was not compared.
std::string reach_phrase(const BenchmarkRow& row);

/// A claim's reading in each code layout: "layout 1 0.768 [0.702, 0.841]
/// faster, layout 2 1.302 [1.180, 1.420] regression: layout-sensitive"; "" when
/// no other layout was measured.
std::string layouts_phrase(const BenchmarkRow& row);

/// Why a row is the way it is: its layouts_phrase, its note (or a summary of its failed runs),
/// then "reach unknown: <why>" and "likely optimised away: ..." when they
/// apply, then, for an inconclusive row, reach_phrase.
std::string row_remarks(const BenchmarkRow& row);

/// The interval column's title: "95% CI" when every row's interval has one
/// level, else "CI (level by look)".
std::string ci_title(const Report& report);

/// How the verdicts were reached, as plain sentences: the estimator and
/// interval, the run order (run only), each target's allocation status.
std::vector<std::string> method_sentences(const Report& report);

/// "executes the change (2 of 5 changed lines ran)", "does not execute the change (0 of 5 ...)" or
/// "unknown" (why: in row_remarks) for a row of a reach pass; "" without one.
std::string change_reach_cell(const BenchmarkRow& row);
/// How instruction counts were measured and judged, in one sentence (the
/// tolerance, the range, the cycle formula, which verdict governs); nullopt
/// when no row has them.
std::optional<std::string> instructions_sentence(const Report& report);

/// "2.00× [1.99, 2.01] regression (5040 → 10080 per iteration)" for an instructions
/// column, "faster" beside a passing one; "not compared" or "" when not counted.
std::string instructions_summary(const BenchmarkRow& row, int decimals);

/// "5040 → 10080" instructions per iteration; "" when not counted.
std::string instruction_counts(const BenchmarkRow& row);

/// "est. cycles 2.10×; L1 misses 0.1% → 3.2%, LL 0.0% → 0.4% of accesses; callgrind 61× slower" for notes and
/// columns; "" when not compared.
std::string cache_phrase(const BenchmarkRow& row);

/// "Host and method" when the report knows its host, else "Method".
std::string details_title(const Report& report);

/// "a.json, b.json" or the SHA pair "0123456789…abcdef0123" for the title line.
std::string sides_phrase(const Report& report);

}  // namespace cobench::report
