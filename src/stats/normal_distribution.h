#pragma once
// The standard normal distribution, as far as the rank tests need it.

namespace cobench::stats {

/// P(Z > z) for a standard normal Z, accurate in the far tail.
double normal_upper_tail(double z);

/// The z with P(Z <= z) = p, like R's qnorm(p); p in (0, 1).
double normal_quantile(double p);

}  // namespace cobench::stats
