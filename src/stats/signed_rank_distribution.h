#pragma once
// The exact null distribution of the Wilcoxon signed-rank statistic V for n
// non-zero differences, as R's dsignrank/psignrank/qsignrank compute it.
#include <vector>

namespace cobench::stats {

/// Counts of V = 0..n(n+1)/2 over all 2^n equally likely sign patterns.
class SignedRankDistribution {
 public:
  explicit SignedRankDistribution(int n);  ///< O(n^3) dynamic programme
  int max_v() const { return static_cast<int>(counts_.size()) - 1; }  ///< n(n+1)/2
  double cdf(int v) const;  ///< P(V <= v), like psignrank(v, n)
  /// Smallest v with P(V <= v) >= p, like qsignrank(p, n), R's fuzz included.
  int quantile(double p) const;

 private:
  std::vector<double> counts_;
  double scale_ = 1;  // 2^-n: counts times this are probabilities, exactly
};

/// Whether an interval of two-sided confidence 1-alpha exists for n non-zero
/// differences: even the widest, [smallest, largest Walsh average], has
/// coverage 1 - 2/2^n. The same test as R's `qsignrank(alpha/2, n) == 0`.
bool signed_rank_reachable(int n, double alpha);

/// Smallest n for which signed_rank_reachable(n, alpha).
int pairs_needed(double alpha);

}  // namespace cobench::stats
