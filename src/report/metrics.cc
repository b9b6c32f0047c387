#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parse.h"
#include "report/report.h"

// Allocation-type metrics are deterministic per build, so they are judged on
// medians against a plain threshold: no interval, no inconclusive.
namespace cobench::report {
namespace {

// Absorbs floating error from dividing counts by iterations; a real change is
// at least one allocation per memory pass (1/16 per iteration in GB 1.7).
constexpr double kSlack = 1e-9;

struct Threshold {
  bool relative = false;
  double value = 0;
};

Threshold parse_budget(const std::string& budget) {
  if (budget.ends_with('%')) {
    if (auto fraction = parse_fraction(budget)) return {true, *fraction};
  } else if (auto number = parse_number(budget); number && *number >= 0 && std::isfinite(*number)) {
    return {false, *number};
  }
  throw InputError("allocation budget '" + budget +
                   "': expected a non-negative absolute increase (\"0\", \"64\") or a percentage (\"5%\")");
}

bool exceeds(double base, double head, const Threshold& threshold) {
  double allowed = threshold.relative ? base * threshold.value : threshold.value;
  return head - base > allowed + kSlack * std::max(1.0, std::abs(base));
}

// Counts read best as integers; fractional medians (one-time allocations
// spread over the memory pass) keep three significant digits.
std::string format_count(double value) {
  if (std::abs(value - std::round(value)) < 1e-9) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

int severity(stats::Verdict verdict) {
  switch (verdict) {
    case stats::Verdict::Pass: return 0;
    case stats::Verdict::Inconclusive: return 1;
    case stats::Verdict::Regression: return 2;
  }
  return 0;
}

void fold_one(BenchmarkRow& row, const std::optional<MedianMetric>& metric, const char* label) {
  if (!metric || !metric->judged) return;
  if (severity(metric->verdict) > severity(row.verdict)) row.verdict = metric->verdict;
  if (metric->verdict != stats::Verdict::Regression) return;
  std::string text = fmt::format("{} {} → {} (budget +{})", label, format_count(metric->base_median),
                                 format_count(metric->head_median), metric->budget);
  row.note = row.note.empty() ? text : row.note + "; " + text;
}

}  // namespace

std::optional<MedianMetric> compare_medians(const std::vector<double>& base, const std::vector<double>& head,
                                            const std::string& budget) {
  if (base.empty() || head.empty()) return std::nullopt;
  MedianMetric metric;
  metric.base_median = stats::median(base);
  metric.head_median = stats::median(head);
  metric.budget = budget;
  if (budget.empty()) return metric;
  metric.judged = true;
  bool over = exceeds(metric.base_median, metric.head_median, parse_budget(budget));
  metric.verdict = over ? stats::Verdict::Regression : stats::Verdict::Pass;
  return metric;
}

void fold_metric_verdicts(BenchmarkRow& row) {
  fold_one(row, row.allocs, "allocs/op");
  fold_one(row, row.bytes, "bytes/op");
}

}  // namespace cobench::report
