#include "verdict/look.h"

#include <algorithm>

#include <fmt/format.h>

namespace cobench::verdict {
namespace {

// Haybittle-Peto's interim bound: 3 sigma, two-sided.
constexpr double kInterimError = 0.0027;
// The later interim looks of the default 6-30 runs: up to this many, each is at 3 sigma; more share that error.
constexpr double kLooksAt3Sigma = 11;

}  // namespace

LookRule::LookRule(double confidence, bool fixed, int max_runs) : stated_(confidence), fixed_(fixed) {
  const double error = 1 - confidence;
  if (fixed) {
    early_ = interim_ = final_ = confidence;
    return;
  }
  // The early looks (at most kEarlyPairs pairs) spend a fifth of the error
  // each, the later interim looks a tenth or 3 sigma, shared out when there
  // are more of them than the default 6-30 has (a block of 2 pairs each), so
  // that what all looks spend stays near the stated level (checked by
  // bench/verdict_simulation at 6-30 and other run counts).
  const double later_looks = std::max(1.0, (max_runs - kEarlyPairs) / 2.0);
  final_ = 1 - 0.9 * error;
  interim_ = 1 - std::min(kInterimError, error / 10) * std::min(1.0, kLooksAt3Sigma / later_looks);
  early_ = 1 - error / 5;
}

std::string LookRule::describe() const {
  if (fixed_) return fmt::format("every look at {:g}% confidence", stated_ * 100);
  return fmt::format("looks at up to {} pairs at {:g}%, later interim looks at {:g}%, the last (at max_runs) at {:g}% "
                     "(Haybittle-Peto with early looks: about {:g}% overall)",
                     kEarlyPairs, early_ * 100, interim_ * 100, final_ * 100, stated_ * 100);
}

}  // namespace cobench::verdict
