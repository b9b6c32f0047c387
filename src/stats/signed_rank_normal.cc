#include "stats/signed_rank_normal.h"

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
/// the test's own `z` and `SIGMA`, since x holds no zeros.
Standardised standardise(std::span<const double> x, double d) {
  std::vector<double> shifted;  // x - d without zeros; the sign says which side
  shifted.reserve(x.size());
  for (double v : x)
    if (v - d != 0) shifted.push_back(v - d);
  std::sort(shifted.begin(), shifted.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  double rank_sum_positive = 0, tie_term = 0;
  for (size_t i = 0; i < shifted.size();) {
    size_t j = i;
    while (j < shifted.size() && std::fabs(shifted[j]) == std::fabs(shifted[i])) ++j;
    double ties = static_cast<double>(j - i), mid_rank = static_cast<double>(i + 1 + j) / 2;
    for (size_t k = i; k < j; ++k)
      if (shifted[k] > 0) rank_sum_positive += mid_rank;
    tie_term += ties * ties * ties - ties;
    i = j;
  }
  double n = static_cast<double>(shifted.size());
  Standardised s;
  s.centred = rank_sum_positive - n * (n + 1) / 4;
  s.sigma = std::sqrt(n * (n + 1) * (2 * n + 1) / 24 - tie_term / 48);
  return s;
}

}  // namespace

NormalSignedRank signed_rank_normal(std::span<const double> x, const PairwiseOrder& walsh, double alpha) {
  NormalSignedRank result;
  result.p_value = standardise(x, 0).two_sided_p();
  // R's root(zq) over [min(x), max(x)], the smallest and largest Walsh
  // averages: W(d) is a non-increasing step function that only moves at the
  // Walsh averages, so instead of R's uniroot (tolerance 1e-4) the step is
  // found exactly.
  auto root = [&](double zq) { return sign_change(walsh, [&](double d) { return standardise(x, d).z() - zq; }); };
  result.ci_low = root(-normal_quantile(alpha / 2));
  result.ci_high = root(normal_quantile(alpha / 2));
  return result;
}

}  // namespace cobench::stats
