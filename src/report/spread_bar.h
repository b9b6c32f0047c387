#pragma once
// A one-line text picture of a ratio's confidence interval against 1.0 and
// the budget line, small enough for a markdown table cell or a terminal.
#include <string>

#include "report/report.h"

namespace cobench::report {

/// Legend for spread_bar, e.g. "`[━●━]` CI and estimate · `┊` budget · `│` 1.0".
std::string spread_bar_legend();

/// "──│─[━━●━━]─┊──" scaled to the row's own CI, 1.0 and budget; "" without a CI.
std::string spread_bar(const BenchmarkRow& row, int width = 21);

}  // namespace cobench::report
