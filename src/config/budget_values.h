#pragma once
// Budgets as the user writes them: the time budget as a fraction, an allowed
// increase of allocs/op or bytes/op, and the per-benchmark overrides. Values
// only: the verdict stage compiles and applies them (verdict/budget.h).
#include <optional>
#include <string>
#include <string_view>

namespace cobench::config {

/// An allowed increase of a median-compared metric (allocs/op, bytes/op).
struct Threshold {
  double value = 0;       ///< absolute amount, or a fraction of the base median when `relative`
  bool relative = false;  ///< written as a percentage
  std::string text;       ///< as written ("0", "64", "5%"), for reports
};

/// The largest time budget: a head 11 times slower than its base. A larger
/// one ("1e308%") would pass anything, and its arithmetic goes past any ratio.
inline constexpr double kMaxTimeBudget = 10.0;

/// "5%" or a fraction up to 1 ("0.05") -> 0.05. Throws InputError with the
/// reason and the accepted spellings; a plain number above 1 is refused
/// ("5 would mean 500%"), since it is almost always a percentage without '%';
/// a percentage above 1000% (kMaxTimeBudget) is refused.
double parse_time_budget(std::string_view text);

/// The same rule for a number that arrived typed (a TOML float or integer).
double time_budget_from_number(double value);

/// "0", "64" (absolute) or "5%" (relative). Throws InputError naming the accepted spellings.
Threshold parse_threshold(std::string_view text);

/// One `[[budget.override]]` rule as configured.
struct BudgetOverride {
  std::string match;                ///< ECMAScript regex searched in "target/name" and in the name
  std::optional<double> time;       ///< fraction
  std::optional<Threshold> allocs;
  std::optional<Threshold> bytes;
};

}  // namespace cobench::config
