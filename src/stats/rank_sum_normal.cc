#include "stats/rank_sum_normal.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "stats/normal_distribution.h"

namespace cobench::stats {
namespace {

/// The centred rank-sum statistic of (x - d) against y, and its tie-corrected
/// standard deviation: R's `dz` and `SIGMA.CI` inside wdiff().
struct Standardised {
  double dz = 0;
  double sigma = 0;
  /// (dz - continuity correction) / sigma: R's z before comparing with a quantile.
  double z() const { return (dz - (dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0)) / sigma; }
};

Standardised standardise(std::span<const double> x, std::span<const double> y, double d) {
  std::vector<std::pair<double, bool>> values;  // (value, belongs to x)
  values.reserve(x.size() + y.size());
  for (double v : x) values.emplace_back(v - d, true);
  for (double v : y) values.emplace_back(v, false);
  std::sort(values.begin(), values.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double total = static_cast<double>(values.size());
  double rank_sum_x = 0, tie_term = 0;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j].first == values[i].first) ++j;
    double ties = static_cast<double>(j - i), mid_rank = (static_cast<double>(i + 1 + j)) / 2;
    for (size_t k = i; k < j; ++k)
      if (values[k].second) rank_sum_x += mid_rank;
    tie_term += ties * ties * ties - ties;
    i = j;
  }
  double m = static_cast<double>(x.size()), mn = m * static_cast<double>(y.size());
  Standardised s;
  s.dz = rank_sum_x - m * (m + 1) / 2 - mn / 2;
  s.sigma = std::sqrt(mn / 12 * ((total + 1) - tie_term / (total * (total - 1))));
  return s;
}

/// R's root(zq): where z(d) - zq changes sign over [min diff, max diff]. z(d)
/// is a non-increasing step function that only moves at the pairwise
/// differences, so instead of R's uniroot (tolerance 1e-4) we find the step
/// exactly, probing the open interval between consecutive distinct differences.
double root(std::span<const double> x, std::span<const double> y, const std::vector<double>& distinct,
            double zq) {
  auto f = [&](double d) { return standardise(x, y, d).z() - zq; };
  // R checks the ends first and returns them for extreme data.
  if (distinct.size() == 1 || f(distinct.front()) <= 0) return distinct.front();
  if (f(distinct.back()) >= 0) return distinct.back();
  size_t lo = 0, hi = distinct.size() - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    double between = distinct[mid] + (distinct[mid + 1] - distinct[mid]) / 2;
    if (f(between) < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return distinct[lo];
}

}  // namespace

NormalRankSum rank_sum_normal(std::span<const double> x, std::span<const double> y,
                              std::span<const double> sorted_diffs, double alpha) {
  NormalRankSum result;
  Standardised at_zero = standardise(x, y, 0);
  result.p_value = at_zero.sigma > 0 ? 2 * normal_upper_tail(std::fabs(at_zero.z())) : 1.0;
  std::vector<double> distinct(sorted_diffs.begin(), sorted_diffs.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  result.ci_low = root(x, y, distinct, -normal_quantile(alpha / 2));
  result.ci_high = root(x, y, distinct, normal_quantile(alpha / 2));
  return result;
}

}  // namespace cobench::stats
