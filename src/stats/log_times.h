#pragma once
// Input checks shared by the two-sample and the paired estimates, which both
// work on log times so that a shift in location is a ratio of times.
#include <span>
#include <vector>

namespace cobench::stats {

/// log of every time; throws std::invalid_argument naming `side` when there is
/// none or one is not a positive finite time.
std::vector<double> log_times(std::span<const double> times, const char* side);

/// Throws std::invalid_argument unless 0 < confidence < 1 and some sample size reaches it.
void check_confidence(double confidence);

}  // namespace cobench::stats
