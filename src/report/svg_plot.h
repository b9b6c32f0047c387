#pragma once
// The per-benchmark picture of report.html: every base and head sample
// normalised to the base median, and the ratio's CI against 1.0 and the budget.
#include <string>
#include <vector>

#include "report/report.h"

namespace cobench::report {

/// A horizontal axis (log scale) in ratios to the base median.
struct PlotScale {
  double low = 0.9;   ///< left edge, as a ratio to the base median
  double high = 1.1;  ///< right edge
};

/// An axis wide enough for the rows' CIs, 1.0, twice the budget and the samples,
/// clamped to [0.5, 2] unless a CI itself lies outside. The report gives each
/// row its own: one 50× speed-up on a shared axis would flatten every 5% spread.
PlotScale plot_scale(const std::vector<BenchmarkRow>& rows);

/// An inline <svg> (no namespace URL needed inside HTML) with a <title> per part.
std::string svg_strip_plot(const BenchmarkRow& row, const PlotScale& scale, int decimals);

}  // namespace cobench::report
