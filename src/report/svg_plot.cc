#include "report/svg_plot.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/summary.h"
#include "verdict/verdict.h"

namespace cobench::report {
namespace {

constexpr double kWidth = 340, kHeight = 66, kLeft = 38, kRight = 58;  // right: room for "budget 1.05"
constexpr double kBaseY = 13, kHeadY = 31, kCiY = 47;

double base_reference(const BenchmarkRow& row) {
  if (row.base_median > 0) return row.base_median;
  return row.base_samples.empty() ? 0 : stats::median(row.base_samples);
}

bool has_ci(const BenchmarkRow& row) {
  return row.time.compared && row.time.estimate.ci_reachable && std::isfinite(row.time.estimate.ci_low) &&
         std::isfinite(row.time.estimate.ci_high) && row.time.estimate.ci_low > 0;
}

struct Axis {
  PlotScale scale;
  double x(double ratio) const {  // clamped: points off the axis sit on its edge
    double r = std::clamp(ratio, scale.low, scale.high);
    double t = (std::log(r) - std::log(scale.low)) / (std::log(scale.high) - std::log(scale.low));
    return kLeft + t * (kWidth - kLeft - kRight);
  }
};

std::string dots(const std::vector<double>& samples, double reference, double y, const Axis& axis,
                 const char* cls, const char* side) {
  std::string out;
  for (size_t i = 0; i < samples.size(); ++i) {
    double value = samples[i] / reference;
    if (!std::isfinite(value) || value <= 0) continue;
    // Deterministic jitter keeps equal samples visible as a stack, not one dot.
    double jitter = static_cast<double>(static_cast<int>(i * 7 % 5) - 2) * 1.6;
    bool off = value < axis.scale.low || value > axis.scale.high;
    out += fmt::format("<circle class=\"{}{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"><title>{} run {}: {:.4g} ns ({:.3f}× base median)</title></circle>",
                       cls, off ? " off" : "", axis.x(value), y + jitter, side, i, samples[i], value);
  }
  return out;
}

// 1.0 labels to its left and the budget to its right, so the two never overlap.
std::string marker(double ratio, const Axis& axis, const char* cls, const std::string& label, bool left) {
  double x = axis.x(ratio);
  return fmt::format("<line class=\"{}\" x1=\"{:.1f}\" y1=\"3\" x2=\"{:.1f}\" y2=\"54\"/>"
                     "<text class=\"tick\" x=\"{:.1f}\" y=\"64\" text-anchor=\"{}\">{}</text>",
                     cls, x, x, left ? x - 2 : x + 2, left ? "end" : "start", label);
}

}  // namespace

PlotScale plot_scale(const std::vector<BenchmarkRow>& rows) {
  double low = 1, high = 1;
  double ci_low = 1, ci_high = 1;
  for (const auto& row : rows) {
    low = std::min(low, 1 / (1 + 2 * row.budget));
    high = std::max(high, 1 + 2 * row.budget);
    if (has_ci(row)) {
      ci_low = std::min(ci_low, row.time.estimate.ci_low);
      ci_high = std::max(ci_high, row.time.estimate.ci_high);
    }
    double reference = base_reference(row);
    if (reference <= 0) continue;
    for (const auto* side : {&row.base_samples, &row.head_samples})
      for (double sample : *side)
        if (sample > 0 && std::isfinite(sample)) {
          low = std::min(low, sample / reference);
          high = std::max(high, sample / reference);
        }
  }
  // Samples may not stretch the axis past [0.5, 2]; intervals may (to [0.1, 10]).
  low = std::min(std::max(low, 0.5), ci_low);
  high = std::max(std::min(high, 2.0), ci_high);
  low = std::max(low, 0.1);
  high = std::min(high, 10.0);
  double pad = std::pow(high / low, 0.04);
  return {low / pad, high * pad};
}

std::string svg_strip_plot(const BenchmarkRow& row, const PlotScale& scale, int decimals) {
  Axis axis{scale};
  double threshold = verdict::budget_line(row.budget);
  std::string cls = verdict_class(row);
  std::string out = fmt::format(
      "<svg class=\"plot\" viewBox=\"0 0 {:g} {:g}\" width=\"{:g}\" height=\"{:g}\" role=\"img\">", kWidth, kHeight,
      kWidth, kHeight);
  out += fmt::format("<title>{}</title>", escape_xml(row.name + ": head/base " + format_ratio_ci(row, decimals)));
  out += fmt::format("<text class=\"label\" x=\"2\" y=\"{:g}\">base</text><text class=\"label\" x=\"2\" y=\"{:g}\">head</text>"
                     "<text class=\"label\" x=\"2\" y=\"{:g}\">CI</text>",
                     kBaseY + 4, kHeadY + 4, kCiY + 4);
  out += marker(1.0, axis, "one", "1.00", true);
  out += marker(threshold, axis, "budget", "budget " + format_ratio(threshold, decimals), false);
  double reference = base_reference(row);
  if (reference > 0) {
    out += dots(row.base_samples, reference, kBaseY, axis, "base", "base");
    out += dots(row.head_samples, reference, kHeadY, axis, ("head " + cls).c_str(), "head");
  }
  if (has_ci(row)) {
    double x1 = axis.x(row.time.estimate.ci_low), x2 = axis.x(row.time.estimate.ci_high);
    out += fmt::format("<rect class=\"ci {}\" x=\"{:.1f}\" y=\"{:g}\" width=\"{:.1f}\" height=\"8\" rx=\"2\"/>"
                       "<circle class=\"estimate\" cx=\"{:.1f}\" cy=\"{:g}\" r=\"4\"/>",
                       cls, x1, kCiY - 4, std::max(x2 - x1, 1.5), axis.x(row.time.estimate.ratio), kCiY);
  } else {
    out += fmt::format("<text class=\"label\" x=\"{:g}\" y=\"{:g}\">no interval: {}</text>", kLeft, kCiY + 4,
                       escape_xml(row.time.compared ? format_ratio_ci(row, decimals) : "not compared"));
  }
  return out + "</svg>";
}

}  // namespace cobench::report
