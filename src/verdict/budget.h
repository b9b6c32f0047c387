#pragma once
// What a benchmark may cost: the time budget, the allowed increase of
// allocs/op and bytes/op, and the per-benchmark overrides. One matcher
// decides which override applies; its regexes are compiled once.
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace cobench::verdict {

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
struct Override {
  std::string match;                ///< ECMAScript regex searched in "target/name" and in the name
  std::optional<double> time;       ///< fraction
  std::optional<Threshold> allocs;
  std::optional<Threshold> bytes;
};

/// The budgets one benchmark is judged against.
struct Budget {
  double time = 0.05;                ///< allowed slowdown as a fraction: 0.05 means head/base <= 1.05
  std::optional<Threshold> allocs;   ///< nullopt: reported, not judged
  std::optional<Threshold> bytes;
};

/// The default budgets and the overrides, in file order. For each metric the
/// first override that matches the benchmark and sets that metric wins.
class Budgets {
 public:
  Budgets() = default;
  /// Compiles every `match` once; throws InputError naming a rule whose regex is invalid.
  Budgets(Budget defaults, std::vector<Override> overrides);

  /// The budgets of one benchmark (`target` may be empty, as in `compare`).
  Budget for_benchmark(const std::string& target, const std::string& name) const;
  const Budget& defaults() const { return defaults_; }
  /// Whether any benchmark is judged on allocs/op or bytes/op (a default or an override sets one).
  bool judges_allocations() const;
  const std::vector<Override>& overrides() const { return overrides_; }

 private:
  Budget defaults_;
  std::vector<Override> overrides_;
  std::vector<std::regex> patterns_;  ///< patterns_[i] is overrides_[i].match, compiled
};

}  // namespace cobench::verdict
