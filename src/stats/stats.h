#pragma once
// The statistical core: Hodges-Lehmann ratio of head/base with an exact
// Mann-Whitney confidence interval, and a three-way verdict against a budget.
#include <optional>
#include <span>
#include <string>

namespace cobench::stats {

/// Which null distribution produced the interval and p-value.
enum class Method { Exact, Normal };

/// The three answers; `faster` is reported beside them, never instead.
enum class Verdict { Pass, Regression, Inconclusive };

/// head/base ratio estimate with its confidence interval.
struct RatioEstimate {
  double ratio = 0;      ///< Hodges-Lehmann: exp(median of log y_j - log x_i)
  double ci_low = 0;     ///< NaN when the confidence is unreachable for (m, n)
  double ci_high = 0;
  double p_value = 1;    ///< two-sided Mann-Whitney U test
  double confidence = 0.95;
  Method method = Method::Exact;
  bool ci_reachable = true;  ///< false: too few samples for `confidence`
  int runs_needed = 0;       ///< when !ci_reachable: smallest equal n per side that reaches it
};

/// Estimates head/base from positive samples. Throws std::invalid_argument on
/// empty sides or non-positive/non-finite values.
RatioEstimate estimate_ratio(std::span<const double> base, std::span<const double> head,
                             double confidence = 0.95);

/// regression: ci_low > 1+budget; pass: ci_high <= 1+budget; else inconclusive
/// (always inconclusive when the interval is unreachable).
Verdict judge(const RatioEstimate& estimate, double budget);

/// Informational: the whole interval lies below 1.
bool is_faster(const RatioEstimate& estimate);

/// Median of a sample (mean of the middle two for even sizes).
double median(std::span<const double> values);

std::string to_string(Method method);    ///< "exact" | "normal"
std::string to_string(Verdict verdict);  ///< "pass" | "regression" | "inconclusive"
std::optional<Verdict> verdict_from_string(const std::string& text);

}  // namespace cobench::stats
