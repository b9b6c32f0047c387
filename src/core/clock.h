#pragma once
// Wall time on the monotonic clock, in seconds: what budgets, progress lines and
// reports measure elapsed time with (never the system clock, which can jump).
#include <chrono>

namespace cobench {

/// Seconds from `start` to now on std::chrono::steady_clock.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cobench
