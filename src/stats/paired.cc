// estimate_paired_ratio: the Hodges-Lehmann ratio of paired runs with R's
// wilcox.test(paired = TRUE) interval, on log times like estimate_ratio.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/log_times.h"
#include "stats/pairwise_order.h"
#include "stats/signed_rank_distribution.h"
#include "stats/normal_rank_tests.h"
#include "stats/r_defaults.h"
#include "stats/stats.h"

namespace cobench::stats {
namespace {

/// Whether two of the differences have the same absolute value: R ranks |d|.
bool has_tied_magnitudes(const std::vector<double>& d) {
  std::vector<double> magnitudes(d.size());
  std::transform(d.begin(), d.end(), magnitudes.begin(), [](double v) { return std::fabs(v); });
  std::sort(magnitudes.begin(), magnitudes.end());
  return std::adjacent_find(magnitudes.begin(), magnitudes.end()) != magnitudes.end();
}

/// The exact p-value and interval: R's wilcox.test(paired = TRUE, exact = TRUE)
/// for differences without zeros and without tied magnitudes.
void exact_test(const std::vector<double>& d, const PairwiseOrder& walsh, double alpha, RatioEstimate& out) {
  int n = static_cast<int>(d.size());
  SignedRankDistribution dist(n);
  // V: the sum of the ranks of |d| over the pairs where head is slower.
  std::vector<size_t> by_magnitude(d.size());
  std::iota(by_magnitude.begin(), by_magnitude.end(), size_t{0});
  std::sort(by_magnitude.begin(), by_magnitude.end(),
            [&](size_t a, size_t b) { return std::fabs(d[a]) < std::fabs(d[b]); });
  int v = 0;
  for (int rank = 1; rank <= n; ++rank)
    if (d[by_magnitude[rank - 1]] > 0) v += rank;
  int total = dist.max_v();
  // The upper tail through symmetry, P(V >= v) = P(V <= total - v), keeps precision.
  double tail = 2.0 * v > total ? dist.cdf(total - v) : dist.cdf(v);
  out.p_value = std::min(2 * tail, 1.0);
  int qu = dist.quantile(alpha / 2);
  if (qu == 0) return;  // unreachable: the caller says so
  out.ci_low = std::exp(walsh.kth(qu - 1));
  out.ci_high = std::exp(walsh.kth(total - qu));
}

}  // namespace

RatioEstimate estimate_paired_ratio(std::span<const double> base, std::span<const double> head, double confidence) {
  check_confidence(confidence);
  if (base.size() != head.size())
    throw std::invalid_argument("paired samples need equal counts: base has " + std::to_string(base.size()) +
                                ", head " + std::to_string(head.size()));
  std::vector<double> log_base = log_times(base, "base"), log_head = log_times(head, "head");
  // R drops the pairs with equal log times before everything, the interval
  // included: they carry no sign. The estimate and the reachability use the
  // same differences as the interval, so that they describe the same data.
  std::vector<double> d;
  d.reserve(base.size());
  for (size_t i = 0; i < base.size(); ++i)
    if (log_head[i] - log_base[i] != 0) d.push_back(log_head[i] - log_base[i]);
  bool zeros = d.size() < base.size();

  RatioEstimate out;
  out.confidence = confidence;
  double alpha = 1 - confidence;
  out.ci_reachable = signed_rank_reachable(static_cast<int>(d.size()), alpha);
  bool exact = d.size() < kExactLimit && !zeros && !has_tied_magnitudes(d);
  out.method = exact ? Method::SignedRankExact : Method::SignedRankNormal;
  if (d.empty()) {  // every pair tied: no evidence of any change, and no interval
    out.ratio = 1;
    out.p_value = 1;
  } else {
    PairwiseOrder walsh = PairwiseOrder::walsh_averages(d);
    out.ratio = std::exp(walsh.median());
    if (exact) {
      exact_test(d, walsh, alpha, out);
    } else {
      signed_rank_normal(d, walsh, alpha).into(out);
    }
  }
  if (!out.ci_reachable) {
    out.ci_low = out.ci_high = std::nan("");
    out.runs_needed = pairs_needed(alpha);
  }
  return out;
}

}  // namespace cobench::stats
