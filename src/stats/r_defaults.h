#pragma once
// Internal to src/stats: the constants R's wilcox.test, qwilcox and qsignrank
// use, shared by the two-sample and the paired tests so both follow R alike.
#include <cfloat>
#include <cstddef>

namespace cobench::stats {

/// R's default: the exact distribution below this many samples per side
/// (two-sample) or non-zero differences (paired); the normal approximation above.
inline constexpr std::size_t kExactLimit = 50;

/// R's qwilcox and qsignrank move p by this fuzz so that a cumulative
/// probability that should equal p exactly is not missed by rounding.
inline constexpr double kQuantileFuzz = 10 * DBL_EPSILON;

}  // namespace cobench::stats
