#pragma once
// The verdict and the budget line: the one home of what an answer is and of
// what "past the budget" means. Every rule (time, instructions, controls,
// layouts), the schedule, the aggregation and the reports' lines use these.
#include <optional>
#include <string>

#include "stats/stats.h"

namespace cobench::verdict {

/// The three answers; `faster` is reported beside them, never instead.
/// Unrelated: a benchmark shown not to execute the change (the reach pass)
/// whose answer would otherwise have been a regression or inconclusive; the
/// verdict stage decides it (verdict::fold) and it never fails the gate.
/// LayoutSensitive: a regression or faster claim that another code layout of
/// both sides did not confirm (verdict/layouts.h); gated as inconclusive.
enum class Verdict { Pass, Regression, Inconclusive, Unrelated, LayoutSensitive };

/// The highest head/base ratio within `budget`: 1.05 for a 5% budget. A
/// regression lies wholly above it.
double budget_line(double budget);

/// The mirror of budget_line for a speed-up of the budget's size: 1 / (1 + budget).
double faster_line(double budget);

/// The threshold rule: regression when the whole interval lies above the
/// budget line (ci_low > 1 + budget), pass when it lies at or below it
/// (ci_high <= 1 + budget), else inconclusive; always inconclusive when the
/// interval is unreachable.
Verdict judge_interval(const stats::RatioEstimate& estimate, double budget);

/// Informational: the whole interval lies below 1.
bool is_faster(const stats::RatioEstimate& estimate);

/// "pass" | "regression" | "inconclusive" | "unrelated change" | "layout-sensitive"
std::string to_string(Verdict verdict);
/// The inverse of to_string(Verdict); nullopt for any other text.
std::optional<Verdict> verdict_from_string(const std::string& text);

}  // namespace cobench::verdict
