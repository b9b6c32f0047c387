#include "verdict/judge.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace cobench::verdict {
namespace {

// Absorbs floating error from dividing counts by iterations; a real change is
// at least one allocation per memory pass (1/16 per iteration in GB 1.7).
constexpr double kSlack = 1e-9;

bool exceeds(double base, double head, const Threshold& threshold) {
  const double allowed = threshold.relative ? base * threshold.value : threshold.value;
  return head - base > allowed + kSlack * std::max(1.0, std::abs(base));
}

int severity(stats::Verdict verdict) {
  switch (verdict) {
    case stats::Verdict::Pass: return 0;
    case stats::Verdict::Inconclusive: return 1;
    case stats::Verdict::Regression: return 2;
  }
  return 0;
}

void fold_one(Overall& overall, const std::optional<MedianJudgement>& metric, const char* label) {
  if (!metric || !metric->judged()) return;
  if (severity(metric->verdict) > severity(overall.verdict)) {
    overall.verdict = metric->verdict;
    overall.decided_by = label;
  }
  if (metric->verdict != stats::Verdict::Regression) return;
  const std::string text = fmt::format("{} {} → {} (budget +{})", label, format_count(metric->base_median),
                                       format_count(metric->head_median), metric->budget->text);
  overall.note = overall.note.empty() ? text : overall.note + "; " + text;
}

}  // namespace

TimeJudgement judge_time(std::span<const double> base, std::span<const double> head, double budget,
                         double confidence) {
  TimeJudgement out;
  out.estimate.confidence = confidence;
  out.estimate.ratio = out.estimate.ci_low = out.estimate.ci_high = std::nan("");
  if (base.empty() || head.empty()) {
    out.note = base.empty() && head.empty() ? "no samples on either side"
               : base.empty()               ? "no samples on the base side"
                                            : "no samples on the head side";
    return out;
  }
  try {
    out.estimate = stats::estimate_ratio(base, head, confidence);
  } catch (const std::invalid_argument& e) {
    out.note = e.what();
    return out;
  }
  out.compared = true;
  out.verdict = stats::judge(out.estimate, budget);
  out.faster = stats::is_faster(out.estimate);
  if (!out.estimate.ci_reachable)
    out.note = fmt::format("needs ≥ {} runs per side for {:g}% confidence (has {}/{})", out.estimate.runs_needed,
                           confidence * 100, base.size(), head.size());
  return out;
}

std::optional<MedianJudgement> judge_medians(std::span<const double> base, std::span<const double> head,
                                             const std::optional<Threshold>& budget) {
  if (base.empty() || head.empty()) return std::nullopt;
  MedianJudgement metric;
  metric.base_median = stats::median(base);
  metric.head_median = stats::median(head);
  metric.budget = budget;
  if (budget && exceeds(metric.base_median, metric.head_median, *budget)) metric.verdict = stats::Verdict::Regression;
  return metric;
}

std::string format_count(double value) {
  if (std::abs(value - std::round(value)) < 1e-9) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

Overall fold(const TimeJudgement& time, const std::optional<MedianJudgement>& allocs,
             const std::optional<MedianJudgement>& bytes) {
  Overall overall{time.verdict, "time", time.note};
  fold_one(overall, allocs, "allocs/op");
  fold_one(overall, bytes, "bytes/op");
  return overall;
}

}  // namespace cobench::verdict
