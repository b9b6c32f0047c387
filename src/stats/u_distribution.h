#pragma once
// The exact null distribution of the Mann-Whitney U statistic for sample
// sizes (m, n), as R's dwilcox/pwilcox/qwilcox compute it.
#include <vector>

namespace cobench::stats {

/// Counts of U = 0..m*n over all C(m+n, m) equally likely rank arrangements.
class UDistribution {
 public:
  UDistribution(int m, int n);  ///< O(m*n*min(m,n)) dynamic programme
  int max_u() const { return static_cast<int>(counts_.size()) - 1; }  ///< m*n
  double cdf(int u) const;       ///< P(U <= u), like pwilcox(u, m, n)
  /// Smallest u with P(U <= u) >= p, like qwilcox(p, m, n) for p <= 0.5.
  int quantile(double p) const;

 private:
  std::vector<double> counts_;
  double total_ = 0;
};

/// Whether an interval of two-sided confidence 1-alpha exists at all for (m, n):
/// even the widest interval [d(1), d(mn)] has coverage 1 - 2/C(m+n, m).
bool confidence_reachable(int m, int n, double alpha);

/// Smallest n such that (n, n) reaches confidence 1-alpha.
int runs_needed_per_side(double alpha);

}  // namespace cobench::stats
