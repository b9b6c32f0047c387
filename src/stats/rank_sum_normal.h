#pragma once
// The normal approximation of the Wilcoxon rank-sum test with tie and
// continuity correction, built exactly as R's wilcox.test(exact = FALSE,
// conf.int = TRUE) builds it, on the difference scale x - y.
#include <span>

namespace cobench::stats {

class PairwiseOrder;

/// Two-sided p-value and confidence bounds for the shift of x against y.
struct NormalRankSum {
  double p_value = 1;
  double ci_low = 0;
  double ci_high = 0;
};

/// `diffs` holds every x_i - y_j; alpha = 1 - confidence.
NormalRankSum rank_sum_normal(std::span<const double> x, std::span<const double> y, const PairwiseOrder& diffs,
                              double alpha);

}  // namespace cobench::stats
