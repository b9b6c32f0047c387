// compare_samples and sort_rows: the statistics core applied to one benchmark.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "report/report.h"

namespace cobench::report {

BenchmarkRow compare_samples(std::string target, std::string name, std::vector<double> base,
                             std::vector<double> head, double budget, double confidence) {
  BenchmarkRow row;
  row.target = std::move(target);
  row.name = std::move(name);
  row.base_samples = std::move(base);
  row.head_samples = std::move(head);
  row.base_median = stats::median(row.base_samples);
  row.head_median = stats::median(row.head_samples);
  row.budget = budget;
  row.estimate.confidence = confidence;
  row.estimate.ratio = row.estimate.ci_low = row.estimate.ci_high = std::nan("");
  if (row.base_samples.empty() || row.head_samples.empty()) {
    row.note = row.base_samples.empty() && row.head_samples.empty() ? "no samples on either side"
               : row.base_samples.empty()                           ? "no samples on the base side"
                                                                    : "no samples on the head side";
    return row;
  }
  try {
    row.estimate = stats::estimate_ratio(row.base_samples, row.head_samples, confidence);
  } catch (const std::invalid_argument& e) {
    row.note = e.what();
    return row;
  }
  row.compared = true;
  row.verdict = stats::judge(row.estimate, budget);
  row.faster = stats::is_faster(row.estimate);
  if (!row.estimate.ci_reachable)
    row.note = fmt::format("needs ≥ {} runs per side for {:g}% confidence (has {}/{})",
                           row.estimate.runs_needed, confidence * 100, row.base_samples.size(),
                           row.head_samples.size());
  return row;
}

/// Regressions first: they are what a reader of the report must act on.
static int severity(const BenchmarkRow& row) {
  switch (row.verdict) {
    case stats::Verdict::Regression: return 0;
    case stats::Verdict::Inconclusive: return 1;
    case stats::Verdict::Pass: break;
  }
  return row.faster ? 2 : 3;
}

void sort_rows(std::vector<BenchmarkRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const BenchmarkRow& a, const BenchmarkRow& b) {
    return std::forward_as_tuple(severity(a), a.target, a.name) <
           std::forward_as_tuple(severity(b), b.target, b.name);
  });
}

}  // namespace cobench::report
