#include "stats/normal_rank_tests.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/normal_distribution.h"
#include "stats/pairwise_order.h"

namespace cobench::stats {
namespace {

/// The centred signed-rank statistic of x - d and its tie-corrected standard
/// deviation: R's `zd` and `SIGMA.CI` inside W(d), which drops the values
/// equal to d and ranks the absolute values of the rest. At d = 0 these are
/// the test's own `z` and `SIGMA`, since x holds no zeros. x is sorted, so the
/// magnitudes ascend down the negative part and up the positive one: one
/// merge ranks them, O(n) for each of the root search's many probes.
Standardised standardise(std::span<const double> x, double d) {
  size_t n = x.size();
  size_t below = std::partition_point(x.begin(), x.end(), [&](double v) { return v - d < 0; }) - x.begin();
  size_t above = std::partition_point(x.begin(), x.end(), [&](double v) { return v - d <= 0; }) - x.begin();
  // Negatives are [0, below), walked downwards; positives [above, n), upwards.
  size_t ranked = 0;
  double rank_sum_positive = 0, tie_term = 0;
  while (below > 0 || above < n) {
    double magnitude = above == n || (below > 0 && std::fabs(x[below - 1] - d) < x[above] - d)
                           ? std::fabs(x[below - 1] - d)
                           : x[above] - d;
    size_t start = ranked, positives = 0;
    for (; below > 0 && std::fabs(x[below - 1] - d) == magnitude; --below) ++ranked;
    for (; above < n && x[above] - d == magnitude; ++above, ++positives) ++ranked;
    double ties = static_cast<double>(ranked - start), mid_rank = static_cast<double>(start + 1 + ranked) / 2;
    rank_sum_positive += mid_rank * static_cast<double>(positives);  // half-integers far below 2^53: exact
    tie_term += ties * ties * ties - ties;
  }
  double nx = static_cast<double>(ranked);
  Standardised s;
  s.centred = rank_sum_positive - nx * (nx + 1) / 4;
  s.sigma = std::sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - tie_term / 48);
  return s;
}

}  // namespace

NormalRankTest signed_rank_normal(std::span<const double> x, const PairwiseOrder& walsh, double alpha) {
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  NormalRankTest result;
  result.p_value = standardise(sorted, 0).two_sided_p();
  // R's root(zq) over [min(x), max(x)], the smallest and largest Walsh
  // averages: W(d) is a non-increasing step function that only moves at the
  // Walsh averages, so instead of R's uniroot (tolerance 1e-4) the step is
  // found exactly.
  auto root = [&](double zq) { return sign_change(walsh, [&](double d) { return standardise(sorted, d).z() - zq; }); };
  result.ci_low = root(-normal_quantile(alpha / 2));
  result.ci_high = root(normal_quantile(alpha / 2));
  return result;
}

}  // namespace cobench::stats
