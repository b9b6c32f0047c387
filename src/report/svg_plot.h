#pragma once
// The per-benchmark picture of report.html: every base and head sample
// normalised to the base median, and the ratio's CI against 1.0 and the budget.
#include <string>
#include <vector>

#include "report/report.h"

namespace cobench::report {

/// A shared horizontal axis (log scale) so rows can be compared by eye.
struct PlotScale {
  double low = 0.9;
  double high = 1.1;
};

/// An axis wide enough for every CI, 1.0, the budget lines and the samples,
/// clamped to [0.5, 2] unless a CI itself lies outside.
PlotScale plot_scale(const std::vector<BenchmarkRow>& rows);

/// An inline <svg> (no namespace URL needed inside HTML) with a <title> per part.
std::string svg_strip_plot(const BenchmarkRow& row, const PlotScale& scale, int decimals);

}  // namespace cobench::report
