#pragma once
// The normal approximation of the Wilcoxon signed-rank test with tie and
// continuity correction, built exactly as R's wilcox.test(paired = TRUE,
// exact = FALSE, conf.int = TRUE) builds it on the differences.
#include <span>

namespace cobench::stats {

class PairwiseOrder;

/// Two-sided p-value and confidence bounds for the location of the differences.
struct NormalSignedRank {
  double p_value = 1;
  double ci_low = 0;
  double ci_high = 0;
};

/// `x`: the non-zero differences (R drops zeros before everything, interval
/// included), at least one; `walsh`: their Walsh averages; alpha = 1 - confidence.
NormalSignedRank signed_rank_normal(std::span<const double> x, const PairwiseOrder& walsh, double alpha);

}  // namespace cobench::stats
