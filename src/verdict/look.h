#pragma once
// The look rule: how confident each look at a growing sample must be, so that
// looking after every block does not inflate the error. Interim looks use a
// stringent level, the last one about the stated level (Haybittle-Peto), so
// the chance of a false regression at a true slowdown exactly at the budget
// stays near the stated one-sided 2.5% however many looks there are.
#include <string>

namespace cobench::verdict {

/// Whether more runs may follow the look.
enum class Look { Interim, Final };

/// The confidence levels of the looks.
class LookRule {
 public:
  /// Haybittle-Peto from the stated two-sided `confidence` (0.95): interim
  /// looks at 3 sigma (99.73%) or stricter, the final look at the stated
  /// level less a tenth of its error (95.5%); `fixed`: every look at the
  /// stated level (how cobench looked before; for comparison only).
  explicit LookRule(double confidence = 0.95, bool fixed = false);

  /// The two-sided confidence of a look.
  double confidence(Look look) const { return look == Look::Final ? final_ : interim_; }
  /// The look that `runs` pairs are at, with `max_runs` the most there will be.
  static Look look_at(int runs, int max_runs) { return runs >= max_runs ? Look::Final : Look::Interim; }
  /// The stated confidence the rule was made from.
  double stated() const { return stated_; }
  bool fixed() const { return fixed_; }
  /// One line for reports: "interim looks at 99.73%, the last (at max_runs) at 95.5% (Haybittle-Peto)".
  std::string describe() const;

 private:
  double stated_;
  double interim_;
  double final_;
  bool fixed_;
};

}  // namespace cobench::verdict
