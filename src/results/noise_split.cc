#include "results/noise_split.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "stats/stats.h"

namespace cobench::results {

double median_variance_factor(int k) {
  // Measured by simulation (2e6 draws per k); the median of an even count is the mean of the middle two.
  static constexpr double kFactors[] = {1.0, 0.5, 0.4487, 0.2982, 0.2868, 0.2147, 0.2104, 0.1682, 0.1661, 0.1383};
  if (k < 1) return 1.0;
  if (k <= 10) return kFactors[k - 1];
  return std::numbers::pi / (2.0 * k);
}

VarianceSplit variance_split(const std::vector<RunRecord>& records, const std::string& target, const std::string& name,
                             const std::string& metric_key) {
  const std::string prefix = metric_key == "cpu_ns" ? "cpu" : "real";
  double pooled_squares = 0, pooled_freedom = 0;
  std::vector<double> reps, rep_seconds, process_seconds;
  std::map<int, double> base_by_run, head_by_run;
  for (const auto& record : records) {
    if (record.target != target || record.kind != "time" || !record.ok()) continue;
    auto it = record.samples.find(name);
    if (it == record.samples.end()) continue;
    const Sample& sample = it->second;
    auto value = sample.find(metric_key);
    if (value == sample.end() || !(value->second > 0)) continue;
    (record.side == Side::Base ? base_by_run : head_by_run)[record.run] = std::log(value->second);
    const double k = sample.count("reps") ? sample.at("reps") : 1;
    reps.push_back(k);
    // The unbiased variance where the run has it; a results file from before it has the robust σ only.
    if (auto var = sample.find(prefix + "_log_var"); var != sample.end()) {
      pooled_squares += (k - 1) * var->second;
      pooled_freedom += k - 1;
    } else if (auto sd = sample.find(prefix + "_log_sd"); sd != sample.end()) {
      pooled_squares += (k - 1) * sd->second * sd->second;
      pooled_freedom += k - 1;
    }
    // The run's wall time less every benchmark's repetitions is what the process cost on top, shared out.
    double measuring = 0;
    for (const auto& [other, s] : record.samples)
      if (auto rep = s.find("rep_seconds"); rep != s.end()) measuring += rep->second * (s.count("reps") ? s.at("reps") : 1);
    if (auto rep = sample.find("rep_seconds"); rep != sample.end()) {
      rep_seconds.push_back(rep->second);
      process_seconds.push_back(std::max(0.0, record.wall_seconds - measuring) / record.samples.size());
    }
  }
  std::vector<double> differences;
  for (const auto& [run, head] : head_by_run)
    if (auto base = base_by_run.find(run); base != base_by_run.end()) differences.push_back(head - base->second);
  VarianceSplit split;
  if (!reps.empty()) split.repetitions = stats::median(reps);
  if (!rep_seconds.empty()) split.rep_seconds = stats::median(rep_seconds);
  if (!process_seconds.empty()) split.process_seconds = stats::median(process_seconds);
  if (pooled_freedom > 0) split.within = std::sqrt(pooled_squares / pooled_freedom);
  if (differences.size() >= 2) {
    // A pair's difference carries two processes' offsets and two medians of k repetitions:
    // var(d) = 2 (between² + c_k within²).
    const double sd = stats::robust_sigma(differences);
    const double c_k = median_variance_factor(static_cast<int>(std::lround(split.repetitions)));
    split.between = std::sqrt(std::max(0.0, sd * sd / 2 - c_k * split.within * split.within));
    split.known = pooled_freedom > 0 && split.rep_seconds > 0;
  }
  return split;
}

VarianceSplit pooled_split(const std::vector<VarianceSplit>& splits) {
  VarianceSplit out;
  double within = 0, between = 0;
  std::vector<double> reps, rep_seconds, process_seconds;
  for (const auto& split : splits) {
    if (!split.known) continue;
    within += split.within * split.within;
    between += split.between * split.between;
    reps.push_back(split.repetitions);
    rep_seconds.push_back(split.rep_seconds);
    process_seconds.push_back(split.process_seconds);
  }
  if (reps.empty()) return out;
  const double n = static_cast<double>(reps.size());
  out.within = std::sqrt(within / n);
  out.between = std::sqrt(between / n);
  out.repetitions = stats::median(reps);
  out.rep_seconds = stats::median(rep_seconds);
  out.process_seconds = stats::median(process_seconds);
  out.known = true;
  return out;
}

std::optional<int> best_repetitions(const VarianceSplit& split, int most) {
  if (!split.known) return std::nullopt;
  if (split.within <= 0) return 1;
  const double within_sq = std::numbers::pi / 2 * split.within * split.within;
  const double between_sq = std::max(split.between * split.between, split.within * split.within / 16);
  const double cost_ratio = std::max(split.process_seconds, 1e-3) / split.rep_seconds;
  const double k = std::sqrt(cost_ratio * within_sq / between_sq);
  return std::clamp(static_cast<int>(std::lround(k)), 1, most);
}

double best_length_fraction(const VarianceSplit& split, double shortest, double longest) {
  if (!split.known || split.within <= 0) return longest;
  const double k = std::max(1.0, split.repetitions);
  const double within_sq = split.within * split.within;
  const double between_sq = std::max(split.between * split.between, within_sq / 16);
  const double process = std::max(split.process_seconds, 1e-3);
  const double fraction = std::sqrt(process * within_sq / (between_sq * k * k * split.rep_seconds));
  return std::clamp(fraction, std::min(shortest, longest), longest);
}

double length_cost_ratio(const VarianceSplit& split, double fraction) {
  if (!split.known || !(split.rep_seconds > 0)) return fraction;
  const double measured = std::max(1.0, split.repetitions) * split.rep_seconds;
  const double process = std::max(split.process_seconds, 0.0);
  return (process + fraction * measured) / (process + measured);
}

}  // namespace cobench::results
