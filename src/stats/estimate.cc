// estimate_ratio: the Hodges-Lehmann ratio with R's wilcox.test interval,
// computed on log times so that a shift in location is a ratio of times.
#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/log_times.h"
#include "stats/pairwise_order.h"
#include "stats/normal_rank_tests.h"
#include "stats/r_defaults.h"
#include "stats/stats.h"
#include "stats/u_distribution.h"

namespace cobench::stats {
namespace {

bool has_ties(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> all(x);
  all.insert(all.end(), y.begin(), y.end());
  std::sort(all.begin(), all.end());
  return std::adjacent_find(all.begin(), all.end()) != all.end();
}

/// The exact p-value and interval: R's wilcox.test(exact = TRUE) for data without ties.
void exact_test(const PairwiseOrder& diffs, size_t m, size_t n, double alpha, RatioEstimate& out) {
  UDistribution dist(static_cast<int>(m), static_cast<int>(n));
  int mn = dist.max_u();
  // Without ties no difference is 0, so W counts the pairs where head is slower.
  int w = mn - static_cast<int>(diffs.count_at_most(0.0));
  // The upper tail through symmetry, P(U >= w) = P(U <= mn - w), keeps precision.
  double tail = 2.0 * w > mn ? dist.cdf(mn - w) : dist.cdf(w);
  out.p_value = std::min(2 * tail, 1.0);
  int qu = dist.quantile(alpha / 2);
  if (qu == 0) {  // R would silently widen to [d(1), d(mn)] at a lower confidence
    out.ci_reachable = false;
    return;
  }
  out.ci_low = std::exp(diffs.kth(qu - 1));
  out.ci_high = std::exp(diffs.kth(mn - qu));
}

}  // namespace

RatioEstimate estimate_ratio(std::span<const double> base, std::span<const double> head, double confidence) {
  check_confidence(confidence);
  std::vector<double> x = log_times(head, "head"), y = log_times(base, "base");
  PairwiseOrder diffs = PairwiseOrder::differences(x, y);

  RatioEstimate out;
  out.confidence = confidence;
  out.ratio = std::exp(diffs.median());
  double alpha = 1 - confidence;
  out.ci_reachable = confidence_reachable(static_cast<int>(x.size()), static_cast<int>(y.size()), alpha);
  bool exact = x.size() < kExactLimit && y.size() < kExactLimit && !has_ties(x, y);
  out.method = exact ? Method::Exact : Method::Normal;
  if (exact) {
    exact_test(diffs, x.size(), y.size(), alpha, out);
  } else {
    rank_sum_normal(x, y, diffs, alpha).into(out);
  }
  if (!out.ci_reachable) {
    out.ci_low = out.ci_high = std::nan("");
    out.runs_needed = runs_needed_per_side(alpha);
  }
  return out;
}

}  // namespace cobench::stats
