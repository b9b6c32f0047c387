#include "stats/normal_rank_tests.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/normal_distribution.h"
#include "stats/pairwise_order.h"

namespace cobench::stats {
namespace {

/// The centred rank-sum statistic of (x - d) against y, and its tie-corrected
/// standard deviation: R's `dz` and `SIGMA.CI` inside wdiff(). x and y are
/// sorted, so x - d is too and one merge finds the groups of equal values in
/// ascending order: O(m + n) for each of the root search's many probes.
Standardised standardise(std::span<const double> x, std::span<const double> y, double d) {
  size_t m = x.size(), n = y.size(), i = 0, j = 0;
  double rank_sum_x = 0, tie_term = 0;
  while (i < m || j < n) {
    double value = j == n || (i < m && x[i] - d < y[j]) ? x[i] - d : y[j];
    size_t start = i + j, in_x = 0;
    for (; i < m && x[i] - d == value; ++i) ++in_x;
    while (j < n && y[j] == value) ++j;
    double ties = static_cast<double>(i + j - start), mid_rank = static_cast<double>(start + 1 + i + j) / 2;
    rank_sum_x += mid_rank * static_cast<double>(in_x);  // half-integers far below 2^53: exact
    tie_term += ties * ties * ties - ties;
  }
  double total = static_cast<double>(m + n), mm = static_cast<double>(m), mn = mm * static_cast<double>(n);
  Standardised s;
  s.centred = rank_sum_x - mm * (mm + 1) / 2 - mn / 2;
  s.sigma = std::sqrt(mn / 12 * ((total + 1) - tie_term / (total * (total - 1))));
  return s;
}

}  // namespace

NormalRankTest rank_sum_normal(std::span<const double> x, std::span<const double> y, const PairwiseOrder& diffs,
                              double alpha) {
  std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  NormalRankTest result;
  result.p_value = standardise(xs, ys, 0).two_sided_p();
  // R's root(zq): z(d) is a non-increasing step function that only moves at
  // the pairwise differences, so instead of R's uniroot (tolerance 1e-4) the
  // step is found exactly.
  auto root = [&](double zq) { return sign_change(diffs, [&](double d) { return standardise(xs, ys, d).z() - zq; }); };
  result.ci_low = root(-normal_quantile(alpha / 2));
  result.ci_high = root(normal_quantile(alpha / 2));
  return result;
}

}  // namespace cobench::stats
