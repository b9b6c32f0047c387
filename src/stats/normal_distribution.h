#pragma once
// The standard normal distribution, as far as the rank tests need it.
#include <cmath>

namespace cobench::stats {

/// P(Z > z) for a standard normal Z, accurate in the far tail.
double normal_upper_tail(double z);

/// The z with P(Z <= z) = p, like R's qnorm(p); p in (0, 1).
double normal_quantile(double p);

/// The z of a two-sided `confidence`: 1.96 for 0.95.
inline double two_sided_z(double confidence) { return normal_quantile(1 - (1 - confidence) / 2); }

/// A rank statistic minus its null mean, with its tie-corrected standard
/// deviation: what both of R's normal approximations compute before z.
struct Standardised {
  double centred = 0;
  double sigma = 0;
  /// R's two-sided z: (centred - sign(centred) / 2) / sigma, the continuity
  /// correction pulling towards 0.
  double z() const { return (centred - (centred > 0 ? 0.5 : centred < 0 ? -0.5 : 0.0)) / sigma; }
  /// Two-sided p-value of z; 1 when sigma is 0 (nothing varies, R gives NaN).
  double two_sided_p() const { return sigma > 0 ? 2 * normal_upper_tail(std::fabs(z())) : 1.0; }
};

}  // namespace cobench::stats
