#include "results/judging.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "stats/stats.h"

namespace cobench::results {

verdict::TimeJudgement judge_samples(const BenchmarkSamples& samples, double budget, const TimeRule& rule,
                                     verdict::Look look) {
  const double confidence = rule.looks.confidence(look);
  if (rule.pairing == verdict::Pairing::Unpaired)
    return verdict::judge_time(samples.base, samples.head, budget, confidence);
  if (samples.base.empty() || samples.head.empty())  // the empty-side row says which side, as unpaired does
    return verdict::judge_time(samples.base, samples.head, budget, confidence);
  const Pairs pairs = pairs_of(samples);
  verdict::TimeJudgement out = verdict::judge_time(pairs.base, pairs.head, budget, confidence, verdict::Pairing::Paired);
  if (pairs.incomplete > 0) {
    const std::string dropped = fmt::format("{} run{} without a partner dropped", pairs.incomplete,
                                            pairs.incomplete == 1 ? "" : "s");
    out.note = out.note.empty() ? dropped : out.note + "; " + dropped;
  }
  return out;
}

VarianceSplit variance_split(const std::vector<RunRecord>& records, const std::string& target, const std::string& name,
                             const std::string& metric_key) {
  const std::string spread_key = metric_key == "cpu_ns" ? "cpu_log_sd" : "real_log_sd";
  std::vector<double> within, reps, rep_seconds, process_seconds;
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
    if (auto sd = sample.find(spread_key); sd != sample.end()) within.push_back(sd->second);
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
  if (!within.empty()) split.within = stats::median(within);
  if (differences.size() >= 2) {
    // A pair's difference carries two processes' offsets and two medians of k repetitions:
    // var(d) = 2 (between² + within² / k).
    const double sd = stats::robust_sigma(differences);
    split.between = std::sqrt(std::max(0.0, sd * sd / 2 - split.within * split.within / split.repetitions));
    split.known = !within.empty() && split.rep_seconds > 0;
  }
  return split;
}

std::optional<int> best_repetitions(const VarianceSplit& split, int most) {
  if (!split.known) return std::nullopt;
  if (split.within <= 0) return 1;
  // All noise inside the process: repetitions are all that helps, as many as allowed.
  if (split.between <= 0) return most;
  const double cost_ratio = std::max(split.process_seconds, 1e-3) / split.rep_seconds;
  const double k = std::sqrt(cost_ratio * (split.within * split.within) / (split.between * split.between));
  return std::clamp(static_cast<int>(std::lround(k)), 1, most);
}

}  // namespace cobench::results
