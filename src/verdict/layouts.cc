#include "verdict/layouts.h"
#include "verdict/verdict.h"

#include <fmt/format.h>

namespace cobench::verdict {

namespace {

/// Layout 1 is the job's own build. The moves are multiples of 16 (GCC aligns
/// functions and hot loops to 16) that change a loop's place in its 64-byte
/// cache line and 32-byte fetch window: 48 moves it across both, 32 across the
/// cache line only, so the third layout differs from the first and the second.
constexpr int kShiftBytes[] = {0, 48, 32};

}  // namespace

const char* to_string(LayoutVerdict verdict) {
  switch (verdict) {
    case LayoutVerdict::Regression: return "regression";
    case LayoutVerdict::Faster: return "faster";
    case LayoutVerdict::Pass: return "pass";
    case LayoutVerdict::Inconclusive: break;
  }
  return "inconclusive";
}

bool layout_verdict_from_string(const std::string& text, LayoutVerdict& out) {
  for (LayoutVerdict v : {LayoutVerdict::Regression, LayoutVerdict::Faster, LayoutVerdict::Pass, LayoutVerdict::Inconclusive})
    if (text == to_string(v)) {
      out = v;
      return true;
    }
  return false;
}

LayoutVerdict layout_verdict_of(verdict::Verdict verdict, bool faster) {
  switch (verdict) {
    case verdict::Verdict::Regression: return LayoutVerdict::Regression;
    case verdict::Verdict::Pass: return faster ? LayoutVerdict::Faster : LayoutVerdict::Pass;
    default: return LayoutVerdict::Inconclusive;
  }
}

bool needs_layout_check(LayoutVerdict first_layout, bool is_control) {
  if (is_control) return false;
  return first_layout == LayoutVerdict::Regression || first_layout == LayoutVerdict::Faster;
}

const char* to_string(LayoutOutcome outcome) {
  switch (outcome) {
    case LayoutOutcome::Confirmed: return "confirmed";
    case LayoutOutcome::LayoutSensitive: return "layout-sensitive";
    case LayoutOutcome::NeedsLayout: break;
  }
  return "needs another layout";
}

namespace {

/// An undecided layout that points the way of `claim` past the budget line:
/// its whole interval on the claim's side of 1 (no change ruled out) and its
/// ratio beyond 1 + budget (a slowdown) or below 1 / (1 + budget) (a speed-up).
bool points_the_same_way(const LayoutReading& reading, LayoutVerdict claim, double budget) {
  if (reading.verdict != LayoutVerdict::Inconclusive) return false;
  if (claim == LayoutVerdict::Regression) return reading.ci_low > 1 && reading.ratio > budget_line(budget);
  if (claim == LayoutVerdict::Faster) return reading.ci_high < 1 && reading.ratio < faster_line(budget);
  return false;
}

}  // namespace

LayoutOutcome decide_layouts(std::span<const LayoutReading> readings, int layouts, double budget) {
  const LayoutVerdict claim = readings.front().verdict;
  int agreeing = 0;
  for (const auto& reading : readings) {
    if (reading.verdict == claim || points_the_same_way(reading, claim, budget)) ++agreeing;
    else if (reading.verdict != LayoutVerdict::Inconclusive) return LayoutOutcome::LayoutSensitive;
  }
  if (agreeing >= 2) return LayoutOutcome::Confirmed;
  return static_cast<int>(readings.size()) < layouts ? LayoutOutcome::NeedsLayout : LayoutOutcome::LayoutSensitive;
}

std::string describe_layout_rule(int layouts, bool aligned) {
  if (layouts <= 1) return "";
  std::string rule = fmt::format(
      "each regression or faster claim is re-measured in a second code layout (both sides rebuilt {}with their code "
      "moved by {} bytes) and stands only when that layout reads the same verdict, or an inconclusive one whose whole "
      "interval lies on the claim's side of 1 with its ratio past the budget",
      aligned ? "layout-stable, every function on a 64-byte boundary so that code the change leaves alone keeps its "
                "alignment, and "
              : "",
      layout_shift_bytes(2));
  if (layouts >= 3)
    rule += fmt::format("; when the second is inconclusive, a third layout ({} bytes) decides", layout_shift_bytes(3));
  return rule + "; otherwise the row is layout-sensitive, with each layout's ratio and interval: not a regression, so --gate passes "
         "it, and only --fail-on-inconclusive fails it";
}

int layout_shift_bytes(int layout) {
  if (layout < 1 || layout > static_cast<int>(std::size(kShiftBytes))) return 0;
  return kShiftBytes[layout - 1];
}

}  // namespace cobench::verdict
