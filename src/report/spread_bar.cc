#include "report/spread_bar.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cobench::report {

std::string spread_bar_legend() { return "`[━●━]` CI and estimate, `┊` budget, `│` no change (1.0)"; }

std::string spread_bar(const BenchmarkRow& row, int width) {
  const auto& e = row.time.estimate;
  if (!row.time.compared || !e.ci_reachable || !std::isfinite(e.ci_low) || !std::isfinite(e.ci_high) || width < 7)
    return "";
  double threshold = 1 + row.budget;
  double low = std::min({e.ci_low, 1.0, threshold});
  double high = std::max({e.ci_high, 1.0, threshold});
  double pad = std::max((high - low) * 0.12, 0.005);
  low -= pad;
  high += pad;
  auto column = [&](double x) {
    long c = std::lround((x - low) / (high - low) * (width - 1));
    return static_cast<size_t>(std::clamp<long>(c, 0, width - 1));
  };
  // Later writes win: the estimate and the CI ends matter most, then the budget.
  std::vector<std::string> cells(width, "─");
  size_t from = column(e.ci_low), to = column(e.ci_high);
  for (size_t c = from; c <= to; ++c) cells[c] = "━";
  cells[column(1.0)] = "│";
  cells[column(threshold)] = "┊";
  if (from < to) {
    cells[from] = "[";
    cells[to] = "]";
  }
  cells[column(std::clamp(e.ratio, e.ci_low, e.ci_high))] = "●";
  std::string bar;
  for (const auto& cell : cells) bar += cell;
  return bar;
}

}  // namespace cobench::report
