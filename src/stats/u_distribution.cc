#include "stats/u_distribution.h"

#include <algorithm>
#include <cfloat>
#include <numeric>

#include "stats/r_defaults.h"

namespace cobench::stats {

UDistribution::UDistribution(int m, int n) {
  // The counts are the number of partitions of u into at most `a` parts, each
  // at most `b`: p(a, b, u) = p(a, b-1, u) + p(a-1, b, u-b). Only additions, so
  // the far tails (tiny p-values) keep full relative precision.
  int a_max = std::min(m, n), b_max = std::max(m, n);
  size_t size = static_cast<size_t>(m) * n + 1;
  std::vector<std::vector<double>> rows(a_max + 1, std::vector<double>(size, 0.0));
  for (auto& row : rows) row[0] = 1;
  for (int b = 1; b <= b_max; ++b)
    for (int a = 1; a <= a_max; ++a)
      for (size_t u = b; u < size; ++u) rows[a][u] += rows[a - 1][u - b];
  counts_ = std::move(rows[a_max]);
  total_ = std::accumulate(counts_.begin(), counts_.end(), 0.0);
}

double UDistribution::cdf(int u) const {
  if (u < 0) return 0;
  if (u >= max_u()) return 1;
  double sum = 0;
  for (int k = 0; k <= u; ++k) sum += counts_[k];
  return sum / total_;
}

int UDistribution::quantile(double p) const {
  double target = p - kQuantileFuzz;
  double cumulative = 0;
  for (int u = 0; u <= max_u(); ++u) {
    cumulative += counts_[u] / total_;
    if (cumulative >= target) return u;
  }
  return max_u();
}

static double binomial(int total, int k) {
  double value = 1;
  for (int i = 1; i <= k; ++i) value = value * (total - k + i) / i;
  return value;
}

bool confidence_reachable(int m, int n, double alpha) {
  // The same test as R's `qwilcox(alpha/2, m, n) == 0`, without the table.
  return 1.0 / binomial(m + n, std::min(m, n)) < alpha / 2 - kQuantileFuzz;
}

int runs_needed_per_side(double alpha) {
  int n = 1;
  while (!confidence_reachable(n, n, alpha)) ++n;
  return n;
}

}  // namespace cobench::stats
