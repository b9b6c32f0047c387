#include "stats/rank_sum_normal.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "stats/normal_distribution.h"
#include "stats/pairwise_order.h"

namespace cobench::stats {
namespace {

/// The centred rank-sum statistic of (x - d) against y, and its tie-corrected
/// standard deviation: R's `dz` and `SIGMA.CI` inside wdiff().
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
  s.centred = rank_sum_x - m * (m + 1) / 2 - mn / 2;
  s.sigma = std::sqrt(mn / 12 * ((total + 1) - tie_term / (total * (total - 1))));
  return s;
}

}  // namespace

NormalRankSum rank_sum_normal(std::span<const double> x, std::span<const double> y, const PairwiseOrder& diffs,
                              double alpha) {
  NormalRankSum result;
  result.p_value = standardise(x, y, 0).two_sided_p();
  // R's root(zq): z(d) is a non-increasing step function that only moves at
  // the pairwise differences, so instead of R's uniroot (tolerance 1e-4) the
  // step is found exactly.
  auto root = [&](double zq) { return sign_change(diffs, [&](double d) { return standardise(x, y, d).z() - zq; }); };
  result.ci_low = root(-normal_quantile(alpha / 2));
  result.ci_high = root(normal_quantile(alpha / 2));
  return result;
}

}  // namespace cobench::stats
