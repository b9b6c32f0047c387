// estimate_ratio: the Hodges-Lehmann ratio with R's wilcox.test interval,
// computed on log times so that a shift in location is a ratio of times.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/rank_sum_normal.h"
#include "stats/stats.h"
#include "stats/u_distribution.h"

namespace cobench::stats {
namespace {

// R's default: the exact distribution below 50 samples per side.
constexpr size_t kExactLimit = 50;

std::vector<double> logs_of(std::span<const double> values, const char* side) {
  if (values.empty()) throw std::invalid_argument(std::string(side) + " side has no samples");
  std::vector<double> logs;
  logs.reserve(values.size());
  for (double v : values) {
    if (!std::isfinite(v) || v <= 0)
      throw std::invalid_argument(std::string(side) + " sample " + std::to_string(v) +
                                  " is not a positive finite time");
    logs.push_back(std::log(v));
  }
  return logs;
}

bool has_ties(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> all(x);
  all.insert(all.end(), y.begin(), y.end());
  std::sort(all.begin(), all.end());
  return std::adjacent_find(all.begin(), all.end()) != all.end();
}

/// The exact p-value and interval: R's wilcox.test(exact = TRUE) for data without ties.
void exact_test(const std::vector<double>& diffs, size_t m, size_t n, double alpha, RatioEstimate& out) {
  UDistribution dist(static_cast<int>(m), static_cast<int>(n));
  // Without ties no difference is 0, so W counts the pairs where head is slower.
  int w = static_cast<int>(diffs.end() - std::upper_bound(diffs.begin(), diffs.end(), 0.0));
  int mn = dist.max_u();
  // The upper tail through symmetry, P(U >= w) = P(U <= mn - w), keeps precision.
  double tail = 2.0 * w > mn ? dist.cdf(mn - w) : dist.cdf(w);
  out.p_value = std::min(2 * tail, 1.0);
  int qu = dist.quantile(alpha / 2);
  if (qu == 0) {  // R would silently widen to [d(1), d(mn)] at a lower confidence
    out.ci_reachable = false;
    return;
  }
  out.ci_low = std::exp(diffs[qu - 1]);
  out.ci_high = std::exp(diffs[mn - qu]);
}

}  // namespace

RatioEstimate estimate_ratio(std::span<const double> base, std::span<const double> head, double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("confidence " + std::to_string(confidence) + " is not between 0 and 1");
  std::vector<double> x = logs_of(head, "head"), y = logs_of(base, "base");
  std::vector<double> diffs;
  diffs.reserve(x.size() * y.size());
  for (double xi : x)
    for (double yj : y) diffs.push_back(xi - yj);
  std::sort(diffs.begin(), diffs.end());

  RatioEstimate out;
  out.confidence = confidence;
  out.ratio = std::exp(median(diffs));
  double alpha = 1 - confidence;
  out.ci_reachable = confidence_reachable(static_cast<int>(x.size()), static_cast<int>(y.size()), alpha);
  bool exact = x.size() < kExactLimit && y.size() < kExactLimit && !has_ties(x, y);
  out.method = exact ? Method::Exact : Method::Normal;
  if (exact) {
    exact_test(diffs, x.size(), y.size(), alpha, out);
  } else {
    NormalRankSum normal = rank_sum_normal(x, y, diffs, alpha);
    out.p_value = normal.p_value;
    out.ci_low = std::exp(normal.ci_low);
    out.ci_high = std::exp(normal.ci_high);
  }
  if (!out.ci_reachable) {
    out.ci_low = out.ci_high = std::nan("");
    out.runs_needed = runs_needed_per_side(alpha);
  }
  return out;
}

}  // namespace cobench::stats
