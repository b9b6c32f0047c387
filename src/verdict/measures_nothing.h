#pragma once
// Benchmarks that measure nothing: a time per iteration below what any real
// work costs (about 1 ns, a few cycles), or a family whose time stays flat
// while its argument grows many-fold, usually means the compiler removed the
// work. Every A/A reads such a benchmark as noise, and a change to the code
// it should run cannot show in it. Flagged as "likely optimised away" beside
// the verdict, never instead of it.
#include <string>
#include <vector>

namespace cobench::verdict {

/// One benchmark instance's typical time.
struct TimedInstance {
  std::string name;                ///< "BM_Sum/4096", "BM_Norm<float>/n:64/threads:2"
  double ns_per_iteration = 0;     ///< median time per iteration; NaN or <= 0 when not measured
};

/// Below this many nanoseconds per iteration a benchmark likely measures nothing.
inline constexpr double kLeastWorkNs = 1.0;
/// A family whose argument grows at least this many times ...
inline constexpr double kFlatArgumentSpan = 16;
/// ... while its time grows by less than this factor is flat in its argument.
inline constexpr double kFlatTimeRatio = 1.1;

/// For each instance (same order), why it is likely optimised away ("0.32 ns
/// per iteration", "time flat (×1.02) while the argument grows ×512, /8 →
/// /4096"), or "" when it looks like work. Instances of one family are those
/// whose names differ in one numeric argument; named arguments (n:64) count,
/// threads:, repeats: and the like do not.
std::vector<std::string> likely_optimised_away(const std::vector<TimedInstance>& instances);

/// Whether more runs of a benchmark can tell nothing: it is likely optimised
/// away on both sides and the sides' median times agree within the budget
/// (head/base between faster_line and budget_line). Sides that disagree mean
/// it measures something on one of them, whatever the flag's heuristic says
/// (a change that stops the compiler removing the work; a family whose
/// argument is an id, not a size): it is measured and judged like any row.
bool worth_no_more_runs(bool flagged_on_base, bool flagged_on_head, double base_median, double head_median,
                        double budget);

}  // namespace cobench::verdict
