#pragma once
// The normal approximations of the Wilcoxon tests with tie and continuity
// correction, built exactly as R's wilcox.test(exact = FALSE, conf.int = TRUE)
// builds them: the rank-sum test on the difference scale x - y, and the
// signed-rank test (paired = TRUE) on the differences.
#include <cmath>
#include <span>

#include "stats/stats.h"

namespace cobench::stats {

class PairwiseOrder;

/// Two-sided p-value and confidence bounds, on the log scale of the samples.
struct NormalRankTest {
  double p_value = 1;
  double ci_low = 0;
  double ci_high = 0;

  /// The p-value and the bounds as ratios, into the estimate.
  void into(RatioEstimate& out) const {
    out.p_value = p_value;
    out.ci_low = std::exp(ci_low);
    out.ci_high = std::exp(ci_high);
  }
};

/// Rank-sum: the shift of x against y. `diffs` holds every x_i - y_j; alpha = 1 - confidence.
NormalRankTest rank_sum_normal(std::span<const double> x, std::span<const double> y, const PairwiseOrder& diffs,
                               double alpha);

/// Signed-rank: the location of the differences. `x`: the non-zero differences
/// (R drops zeros before everything, interval included), at least one;
/// `walsh`: their Walsh averages; alpha = 1 - confidence.
NormalRankTest signed_rank_normal(std::span<const double> x, const PairwiseOrder& walsh, double alpha);

}  // namespace cobench::stats
