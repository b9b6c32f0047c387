#pragma once
// The statistical core: Hodges-Lehmann ratio of head/base with R's
// wilcox.test confidence interval (Mann-Whitney for independent runs,
// signed-rank for paired ones). What an interval means against a budget is
// the verdict stage's (verdict/verdict.h).
#include <optional>
#include <span>
#include <string>

namespace cobench::stats {

/// Which test and null distribution produced the interval and p-value: the
/// rank-sum (Mann-Whitney) ones for estimate_ratio, the signed-rank ones for
/// estimate_paired_ratio.
enum class Method { Exact, Normal, SignedRankExact, SignedRankNormal };

/// head/base ratio estimate with its confidence interval.
struct RatioEstimate {
  double ratio = 0;      ///< Hodges-Lehmann: exp(median of log y_j - log x_i), for pairs of Walsh averages
  double ci_low = 0;     ///< NaN when the confidence is unreachable for the sample sizes
  double ci_high = 0;
  double p_value = 1;    ///< two-sided Mann-Whitney U test, for pairs Wilcoxon signed-rank
  double confidence = 0.95;
  Method method = Method::Exact;
  bool ci_reachable = true;  ///< false: too few samples for `confidence`
  /// when !ci_reachable: smallest equal n per side that reaches it; for pairs,
  /// the smallest number of pairs whose times differ
  int runs_needed = 0;
};

/// Estimates head/base from positive samples. Throws std::invalid_argument on
/// empty sides or non-positive/non-finite values.
RatioEstimate estimate_ratio(std::span<const double> base, std::span<const double> head,
                             double confidence = 0.95);

/// Estimates head/base from paired runs (base[i], head[i]), e.g. run back to
/// back on the same machine state: d_i = log head_i - log base_i, the ratio is
/// exp(median of the Walsh averages (d_i + d_j)/2, i <= j), the interval and
/// p-value those of R's wilcox.test(log(head), log(base), paired = TRUE,
/// conf.int = TRUE): exact below 50 pairs without zero or tied |d_i|, else
/// the normal approximation. As in R, pairs with d_i = 0 are dropped before
/// everything. Linear memory in the number of pairs. Throws
/// std::invalid_argument on unequal or empty sides and on non-positive or
/// non-finite values.
RatioEstimate estimate_paired_ratio(std::span<const double> base, std::span<const double> head,
                                    double confidence = 0.95);

/// Median of a sample (mean of the middle two for even sizes).
double median(std::span<const double> values);

/// 1.4826 times the median absolute deviation from the median: a spread that
/// equals the standard deviation for normal data and ignores outliers; 0 for
/// fewer than 2 values.
double robust_sigma(std::span<const double> values);

/// "exact" | "normal" | "signed-rank exact" | "signed-rank normal"
std::string to_string(Method method);
/// The inverse of to_string(Method); nullopt for any other text.
std::optional<Method> method_from_string(const std::string& text);

}  // namespace cobench::stats
