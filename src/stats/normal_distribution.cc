#include "stats/normal_distribution.h"

#include <cmath>
#include <numbers>

namespace cobench::stats {

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::numbers::sqrt2); }

// Abramowitz & Stegun 26.2.23 (error < 4.5e-4) as a start, then Newton steps
// on the exact tail: each step roughly squares the error, so three reach
// double precision over the range the confidence levels use.
static double upper_quantile(double q) {  // q in (0, 0.5]
  double t = std::sqrt(-2 * std::log(q));
  double z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                     (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
  for (int i = 0; i < 4; ++i) {
    double density = std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
    if (density == 0) break;
    z += (normal_upper_tail(z) - q) / density;
  }
  return z;
}

double normal_quantile(double p) {
  if (p == 0.5) return 0;
  return p < 0.5 ? -upper_quantile(p) : upper_quantile(1 - p);
}

}  // namespace cobench::stats
