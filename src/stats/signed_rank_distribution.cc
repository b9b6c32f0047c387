#include "stats/signed_rank_distribution.h"

#include <cfloat>
#include <cmath>

#include "stats/r_defaults.h"

namespace cobench::stats {

SignedRankDistribution::SignedRankDistribution(int n) : scale_(std::ldexp(1.0, -n)) {
  // Adding rank k with either sign: c_k(v) = c_{k-1}(v) + c_{k-1}(v - k).
  // Integer counts below 2^53 for the n < 50 the exact test uses: exact.
  counts_.assign(static_cast<size_t>(n) * (n + 1) / 2 + 1, 0.0);
  counts_[0] = 1;
  for (int k = 1; k <= n; ++k)
    for (int v = k * (k + 1) / 2; v >= k; --v) counts_[v] += counts_[v - k];
}

double SignedRankDistribution::cdf(int v) const {
  if (v < 0) return 0;
  if (v >= max_v()) return 1;
  double sum = 0;
  for (int k = 0; k <= v; ++k) sum += counts_[k];
  return sum * scale_;
}

int SignedRankDistribution::quantile(double p) const {
  double cumulative = 0;
  if (p <= 0.5) {
    double target = p - kQuantileFuzz;
    for (int v = 0; v < max_v(); ++v) {
      cumulative += counts_[v] * scale_;
      if (cumulative >= target) return v;
    }
    return max_v();
  }
  // R sums the upper tail from the top for p > 0.5, through symmetry.
  double target = 1 - p + kQuantileFuzz;
  for (int v = 0; v < max_v(); ++v) {
    cumulative += counts_[v] * scale_;
    if (cumulative > target) return max_v() - v;
  }
  return 0;
}

bool signed_rank_reachable(int n, double alpha) { return std::ldexp(1.0, -n) < alpha / 2 - kQuantileFuzz; }

int pairs_needed(double alpha) {
  int n = 0;
  while (!signed_rank_reachable(n, alpha)) ++n;
  return n;
}

}  // namespace cobench::stats
