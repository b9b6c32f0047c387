#include "verdict/measures_nothing.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/note.h"
#include "formats/benchmark_name.h"
#include "verdict/verdict.h"

namespace cobench::verdict {
namespace {

/// The value of a size-like argument: "4096" or "n:4096"; nullopt for anything
/// else, including Google Benchmark's own run options (threads:2, repeats:3).
std::optional<double> argument_value(const std::string& component) {
  if (formats::is_run_option(component)) return std::nullopt;
  const size_t colon = component.rfind(':');
  const std::string digits = colon == std::string::npos ? component : component.substr(colon + 1);
  long long value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value <= 0)
    return std::nullopt;
  return static_cast<double>(value);
}

bool measured(double ns) { return std::isfinite(ns) && ns > 0; }

void add_reason(std::string& to, const std::string& reason) {
  append_note_once(to, reason);
}

/// Instances that differ only in the argument at `position`: one family's sweep.
struct Sweep {
  std::vector<size_t> members;
  size_t smallest = 0, largest = 0;  // indexes into instances
  double low = 0, high = 0;          // their argument values
};

}  // namespace

std::vector<std::string> likely_optimised_away(const std::vector<TimedInstance>& instances) {
  std::vector<std::string> reasons(instances.size());
  std::vector<std::vector<std::string>> parts;
  for (size_t i = 0; i < instances.size(); ++i) {
    parts.push_back(formats::name_components(instances[i].name));
    const double ns = instances[i].ns_per_iteration;
    if (measured(ns) && ns < kLeastWorkNs) add_reason(reasons[i], fmt::format("{:.2g} ns per iteration", ns));
  }
  std::map<std::pair<size_t, std::string>, Sweep> sweeps;  // (position, the name without it) -> sweep
  for (size_t i = 0; i < instances.size(); ++i) {
    if (!measured(instances[i].ns_per_iteration)) continue;
    for (size_t position = 1; position < parts[i].size(); ++position) {
      auto value = argument_value(parts[i][position]);
      if (!value) continue;
      std::string rest;
      for (size_t k = 0; k < parts[i].size(); ++k) rest += (k == position ? std::string("\x01") : parts[i][k]) + "/";
      Sweep& sweep = sweeps[{position, rest}];
      if (sweep.members.empty() || *value < sweep.low) sweep.smallest = i, sweep.low = *value;
      if (sweep.members.empty() || *value > sweep.high) sweep.largest = i, sweep.high = *value;
      sweep.members.push_back(i);
    }
  }
  for (const auto& [key, sweep] : sweeps) {
    if (sweep.members.size() < 2 || sweep.high / sweep.low < kFlatArgumentSpan) continue;
    const double growth = instances[sweep.largest].ns_per_iteration / instances[sweep.smallest].ns_per_iteration;
    if (growth >= kFlatTimeRatio) continue;
    const std::string reason =
        fmt::format("time flat (×{:.2f}) while the argument grows ×{:g}, {} → {}", growth, sweep.high / sweep.low,
                    parts[sweep.smallest][key.first], parts[sweep.largest][key.first]);
    for (size_t member : sweep.members) add_reason(reasons[member], reason);
  }
  return reasons;
}

bool worth_no_more_runs(bool flagged_on_base, bool flagged_on_head, double base_median, double head_median,
                        double budget) {
  if (!flagged_on_base || !flagged_on_head || !measured(base_median) || !measured(head_median)) return false;
  const double ratio = head_median / base_median;
  return ratio >= faster_line(budget) && ratio <= budget_line(budget);
}

}  // namespace cobench::verdict
