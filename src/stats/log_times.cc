#include "stats/log_times.h"

#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cobench::stats {

std::vector<double> log_times(std::span<const double> times, const char* side) {
  if (times.empty()) throw std::invalid_argument(std::string(side) + " side has no samples");
  std::vector<double> logs;
  logs.reserve(times.size());
  for (double v : times) {
    if (!std::isfinite(v) || v <= 0)
      throw std::invalid_argument(std::string(side) + " sample " + std::to_string(v) +
                                  " is not a positive finite time");
    logs.push_back(std::log(v));
  }
  return logs;
}

void check_confidence(double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("confidence " + std::to_string(confidence) + " is not between 0 and 1");
  // R's quantile functions take alpha/2 less 10 DBL_EPSILON: closer to 1 no
  // sample size reaches the confidence, and the search for one would not end.
  if (1 - confidence <= 20 * DBL_EPSILON)
    throw std::invalid_argument("confidence " + std::to_string(confidence) + " is too close to 1 for any sample size");
}

}  // namespace cobench::stats
