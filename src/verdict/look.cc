#include "verdict/look.h"

#include <algorithm>

#include <fmt/format.h>

namespace cobench::verdict {
namespace {

// Haybittle-Peto's interim bound: 3 sigma, two-sided.
constexpr double kInterimError = 0.0027;

}  // namespace

LookRule::LookRule(double confidence, bool fixed) : stated_(confidence), fixed_(fixed) {
  const double error = 1 - confidence;
  if (fixed) {
    interim_ = final_ = confidence;
    return;
  }
  // A tenth of the error is spent on the interim looks; they are so strict
  // that what they spend, over any number of looks, stays within it
  // (checked by bench/verdict_simulation at 6-30 and other run counts).
  final_ = 1 - 0.9 * error;
  interim_ = 1 - std::min(kInterimError, error / 10);
}

std::string LookRule::describe() const {
  if (fixed_) return fmt::format("every look at {:g}% confidence", stated_ * 100);
  return fmt::format("interim looks at {:g}%, the last (at max_runs) at {:g}% (Haybittle-Peto: about {:g}% overall)",
                     interim_ * 100, final_ * 100, stated_ * 100);
}

}  // namespace cobench::verdict
