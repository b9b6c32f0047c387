#pragma once
// Layout confirmation: a regression or "faster" claim is re-measured with both
// sides rebuilt layout-stable (every function on a 64-byte boundary, loops on
// 32) and their code moved (another layout), and stands only when the layouts
// agree. Moving code by a few bytes can make an untouched loop read 0.6x or
// 1.6x (the layout probe); a layout-stable build keeps every function the
// change leaves alone at its alignment, and a real effect of the change reads
// the same in it. This is the pure decision; job/layout_step.cc measures.
#include <span>
#include <string>

#include "stats/stats.h"
#include "verdict/verdict.h"

namespace cobench::verdict {

/// What one layout of one row read, in the verdict's own words.
enum class LayoutVerdict {
  Regression,    ///< the interval is wholly above 1 + budget
  Faster,        ///< a pass whose interval is wholly below 1
  Pass,          ///< within the budget, not shown faster
  Inconclusive,  ///< undecided: too few runs, or the interval straddles the budget
};

/// "regression" | "faster" | "pass" | "inconclusive".
const char* to_string(LayoutVerdict verdict);
/// The inverse of to_string(LayoutVerdict); false for any other text.
bool layout_verdict_from_string(const std::string& text, LayoutVerdict& out);

/// A row's time verdict and faster flag as one LayoutVerdict.
LayoutVerdict layout_verdict_of(verdict::Verdict verdict, bool faster);

/// One layout's reading of one row.
struct LayoutReading {
  int layout = 1;  ///< 1: the job's own build; 2 and 3: both sides moved
  LayoutVerdict verdict = LayoutVerdict::Inconclusive;
  double ratio = 0;
  double ci_low = 0;  ///< NaN when the interval was not reachable
  double ci_high = 0;
};

/// Whether a row makes a claim layout confirmation checks: a regression or
/// faster verdict of a measured row. A control is never checked: it is the
/// evidence, not a claim.
bool needs_layout_check(LayoutVerdict first_layout, bool is_control);

/// What the layouts make of a claim.
enum class LayoutOutcome {
  Confirmed,        ///< two or more layouts make the claim and none decides otherwise
  LayoutSensitive,  ///< a layout decides otherwise, or none confirms it within the layouts allowed
  NeedsLayout,      ///< no layout decided otherwise, yet none confirmed: measure the next layout
};

/// "confirmed" | "layout-sensitive" | "needs another layout".
const char* to_string(LayoutOutcome outcome);

/// The outcome of layout 1's claim given `readings` in layout order (layout 1
/// first), the most layouts the job allows (`layouts`, 2 or 3) and the row's
/// time budget (a fraction). A layout agrees when it reads the same verdict, or
/// when it is inconclusive yet points the same way past the budget: its whole
/// interval on the claim's side of 1 and its ratio beyond the budget line (a
/// real slowdown under noise reads 1.08 [1.03, 1.13] in another layout; code
/// layout alone reads ~1.0 there). It decides otherwise when it reads another
/// decided verdict (pass, regression, faster), and is undecided when
/// inconclusive otherwise. A claim stands only when no layout decides
/// otherwise and another layout agrees; a third layout is measured only when
/// the second was undecided, since once one layout decides otherwise no third
/// can make every layout agree. Precondition: readings[0] is a claim
/// (needs_layout_check) and readings has at least two entries.
LayoutOutcome decide_layouts(std::span<const LayoutReading> readings, int layouts, double budget);

/// How the reports describe the setting: "each regression or faster claim is
/// re-measured in a second code layout (both sides rebuilt layout-stable, ...,
/// and moved by 48 bytes) and stands only when ..."; "" for 1 (off).
/// `aligned`: the other layouts were layout-stable builds (JobSettings::layouts_aligned;
/// false: a results file from before, whose other layouts were moved plain builds).
std::string describe_layout_rule(int layouts, bool aligned);

/// The bytes layout `layout` (2 or 3) moves both sides' code by; 0 for layout 1.
int layout_shift_bytes(int layout);

}  // namespace cobench::verdict
