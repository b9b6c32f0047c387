#include "stats/stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cobench::stats {

double median(std::span<const double> values) {
  if (values.empty()) return std::nan("");
  std::vector<double> v(values.begin(), values.end());
  size_t half = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + half, v.end());
  double upper = v[half];
  if (v.size() % 2) return upper;
  double lower = *std::max_element(v.begin(), v.begin() + half);
  return (lower + upper) / 2;  // as R computes it, so symmetric cases negate exactly
}

double robust_sigma(std::span<const double> values) {
  if (values.size() < 2) return 0;
  double center = median(values);
  std::vector<double> deviations(values.size());
  std::transform(values.begin(), values.end(), deviations.begin(), [&](double v) { return std::fabs(v - center); });
  // 1.4826 = 1 / qnorm(0.75): the MAD of a normal sample estimates 0.6745 sigma (R's mad()).
  return 1.4826 * median(deviations);
}

std::string to_string(Method method) {
  switch (method) {
    case Method::Exact: return "exact";
    case Method::Normal: return "normal";
    case Method::SignedRankExact: return "signed-rank exact";
    case Method::SignedRankNormal: break;
  }
  return "signed-rank normal";
}

std::optional<Method> method_from_string(const std::string& text) {
  for (Method m : {Method::Exact, Method::Normal, Method::SignedRankExact, Method::SignedRankNormal})
    if (to_string(m) == text) return m;
  return std::nullopt;
}

}  // namespace cobench::stats
