#pragma once
// The look rule: how confident each look at a growing sample must be, so that
// looking after every block does not inflate the error. Interim looks use a
// stringent level, the last one about the stated level (Haybittle-Peto), so
// the chance of a false regression at a true slowdown exactly at the budget
// stays near the stated one-sided 2.5% however many looks there are.
#include <string>

namespace cobench::verdict {

/// Which look a number of pairs is at.
enum class Look {
  Early,    ///< an interim look at kEarlyPairs pairs or fewer
  Interim,  ///< a later interim look: more runs may follow
  Final,    ///< the look at max_runs: no more runs follow
};

/// Up to this many pairs a look is early: it spends a little more of the error,
/// so that a clear case (a quiet runner's A/A, a large change) can be decided
/// at 8 pairs, the fewest an exact signed-rank interval at 99% needs, instead
/// of 10 at 99.73%.
inline constexpr int kEarlyPairs = 8;

/// The confidence levels of the looks.
class LookRule {
 public:
  /// Haybittle-Peto from the stated two-sided `confidence` (0.95), with
  /// early looks: looks at up to kEarlyPairs pairs at the stated level less
  /// four fifths of its error (99%), later interim looks at 3 sigma (99.73%)
  /// or stricter, the final look at the stated level less a tenth of its
  /// error (95.5%); `fixed`: every look at the stated level (how cobench
  /// looked before; for comparison only).
  /// More than 11 later interim looks (`max_runs` above 30) share the 3-sigma error.
  explicit LookRule(double confidence = 0.95, bool fixed = false, int max_runs = 30);

  /// The two-sided confidence of a look.
  double confidence(Look look) const {
    return look == Look::Final ? final_ : look == Look::Early ? early_ : interim_;
  }
  /// The look that `runs` pairs are at, with `max_runs` the most there will be.
  static Look look_at(int runs, int max_runs) {
    return runs >= max_runs ? Look::Final : runs <= kEarlyPairs ? Look::Early : Look::Interim;
  }
  /// The stated confidence the rule was made from.
  double stated() const { return stated_; }
  bool fixed() const { return fixed_; }
  /// One line for reports: "interim looks at 99.73%, the last (at max_runs) at 95.5% (Haybittle-Peto)".
  std::string describe() const;

 private:
  double stated_;
  double early_;
  double interim_;
  double final_;
  bool fixed_;
};

}  // namespace cobench::verdict
