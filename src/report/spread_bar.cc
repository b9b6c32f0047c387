#include "report/spread_bar.h"
#include "verdict/verdict.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cobench::report {

std::string spread_bar_legend() { return "`[━●━]` CI and estimate, `┊` budget, `│` no change (1.0)"; }

namespace {

/// One glyph at one value; marks never share a cell.
struct Mark {
  double value;
  const char* glyph;
  int order;  ///< among equal values: [ before ● before ], 1.0 before the budget
};

}  // namespace

std::string spread_bar(const BenchmarkRow& row, int width) {
  const auto& e = row.time.estimate;
  if (!row.time.compared || !e.ci_reachable || !std::isfinite(e.ci_low) || !std::isfinite(e.ci_high) || width < 7)
    return "";
  const double threshold = verdict::budget_line(row.budget);
  double low = std::min({e.ci_low, 1.0, threshold});
  double high = std::max({e.ci_high, 1.0, threshold});
  const double pad = std::max((high - low) * 0.12, 0.005);
  low -= pad;
  high += pad;
  std::vector<Mark> marks = {{e.ci_low, "[", 0},
                             {std::clamp(e.ratio, e.ci_low, e.ci_high), "●", 1},
                             {e.ci_high, "]", 2},
                             {1.0, "│", 3},
                             {threshold, "┊", 4}};
  std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
    return a.value != b.value ? a.value < b.value : a.order < b.order;
  });
  // Each mark at its scaled column, then nudged so that no two share a cell
  // (a dropped '[' or budget mark would misstate the picture).
  std::vector<int> columns;
  for (const auto& mark : marks) {
    const long c = std::lround((mark.value - low) / (high - low) * (width - 1));
    columns.push_back(static_cast<int>(std::clamp<long>(c, 0, width - 1)));
  }
  for (size_t i = 1; i < columns.size(); ++i) columns[i] = std::max(columns[i], columns[i - 1] + 1);
  columns.back() = std::min(columns.back(), width - 1);
  for (size_t i = columns.size() - 1; i-- > 0;) columns[i] = std::min(columns[i], columns[i + 1] - 1);

  std::vector<std::string> cells(width, "─");
  int from = 0, to = 0;
  for (size_t i = 0; i < marks.size(); ++i) {
    if (marks[i].order == 0) from = columns[i];
    if (marks[i].order == 2) to = columns[i];
  }
  for (int c = from; c <= to; ++c) cells[c] = "━";
  for (size_t i = 0; i < marks.size(); ++i) cells[columns[i]] = marks[i].glyph;
  std::string bar;
  for (const auto& cell : cells) bar += cell;
  return bar;
}

}  // namespace cobench::report
