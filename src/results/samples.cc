#include "results/samples.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.h"
#include "stats/stats.h"

namespace cobench::results {

void CpuShare::add(Side side, int run, const Sample& sample) {
  if (auto threads = sample.find("threads"); threads != sample.end()) {
    has_threads = true;
    single_threaded = single_threaded && threads->second == 1;
  }
  auto real = sample.find("real_ns"), cpu = sample.find("cpu_ns");
  if (real == sample.end() || cpu == sample.end() || !(real->second > 0) || !(cpu->second > 0)) return;
  (side == Side::Base ? base : head)[run] = std::min(1.0, cpu->second / real->second);
}

double CpuShare::most(Side side) const {
  double out = 0;
  for (const auto& [run, share] : side == Side::Base ? base : head) out = std::max(out, share);
  return out;
}

namespace {

/// The paired 95% interval of head/base CPU shares over the runs both sides have; nullopt when too few.
std::optional<stats::RatioEstimate> share_ratio(const CpuShare& share) {
  std::vector<double> base, head;
  for (const auto& [run, value] : share.head)
    if (auto it = share.base.find(run); it != share.base.end()) {
      base.push_back(it->second);
      head.push_back(value);
    }
  if (base.empty()) return std::nullopt;
  try {
    auto estimate = stats::estimate_paired_ratio(base, head, 0.95);
    if (!estimate.ci_reachable) return std::nullopt;
    return estimate;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace

MetricChoice metric_for(const std::string& metric, const std::string& name, const CpuShare& share, bool one_binary) {
  if (metric != "auto") return {metric, ""};
  const bool own_clock = name.find("/real_time") == std::string::npos && name.find("/manual_time") == std::string::npos;
  const double base = share.most(Side::Base), head = share.most(Side::Head);
  if (!share.has_threads || !share.single_threaded || !own_clock || base <= 0 || head <= 0) return {"real_time", ""};
  // One binary as both sides: a neighbour that kept one side's runs off the CPU more than the other's moved nothing.
  const auto ratio = one_binary ? std::nullopt : share_ratio(share);
  const bool moved = ratio && (ratio->ci_low > 1 + kCpuShareAgreement || ratio->ci_high < 1 / (1 + kCpuShareAgreement));
  const bool busy = std::max(base, head) >= kLeastCpuShare;
  if (busy && !moved) return {"cpu_time", ""};
  if (moved)
    return {"real_time", fmt::format("the change moved time off or onto the CPU (head/base of the share of its time "
                                     "on the CPU {:.3f} [{:.3f}, {:.3f}]), which cpu_time would not see: judged on "
                                     "real_time",
                                     ratio->ratio, ratio->ci_low, ratio->ci_high)};
  return {"real_time", fmt::format("on the CPU at most {:.0f}% of its time on the base side, {:.0f}% on the head side "
                                   "(it sleeps, waits or hands work to other threads, or a neighbour kept it off the "
                                   "CPU in every run): judged on real_time",
                                   base * 100, head * 100)};
}

CpuShare share_of(const formats::Entry& base, const formats::Entry& head) {
  CpuShare share;
  for (const auto& [entry, side] : {std::pair{&base, Side::Base}, std::pair{&head, Side::Head}})
    for (size_t i = 0; i < entry->real_ns.size() && i < entry->cpu_ns.size(); ++i) {
      Sample repetition = {{"real_ns", entry->real_ns[i]}, {"cpu_ns", entry->cpu_ns[i]}};
      if (entry->threads > 0) repetition["threads"] = entry->threads;
      share.add(side, static_cast<int>(i), repetition);  // the i-th repetitions of the two files are a pair
    }
  return share;
}

namespace {

/// The least of a sample's real and cpu time per iteration, `judged` (its metric's value) when neither is less.
double least_work(const Sample& sample, double judged) {
  double least = judged;
  for (const char* key : {"real_ns", "cpu_ns"})
    if (auto value = sample.find(key); value != sample.end() && std::isfinite(value->second) && value->second > 0)
      least = std::min(least, value->second);
  return least;
}

}  // namespace

std::map<std::string, verdict::BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& metric,
                                                        bool one_binary) {
  std::map<std::string, CpuShare> shares;  // auto looks at every run of both sides before it chooses
  if (metric == "auto")
    for (const auto& record : records) {
      if (record.target != target || record.kind != "time" || !record.ok()) continue;
      for (const auto& [name, sample] : record.samples) shares[name].add(record.side, record.run, sample);
    }
  std::map<std::string, verdict::BenchmarkSamples> out;
  for (const auto& record : records) {
    if (record.target != target || record.kind != "time" || !record.ok()) continue;
    for (const auto& [name, sample] : record.samples) {
      auto& slot = out[name];
      if (slot.metric.empty()) {
        auto choice = metric_for(metric, name, shares[name], one_binary);
        slot.metric = std::move(choice.metric);
        slot.metric_note = std::move(choice.note);
      }
      auto value = sample.find(sample_key_for_metric(slot.metric));
      if (value == sample.end() || !std::isfinite(value->second) || value->second <= 0) continue;
      const bool base = record.side == Side::Base;
      (base ? slot.base : slot.head).push_back(value->second);
      (base ? slot.base_runs : slot.head_runs).push_back(record.run);
      (base ? slot.base_work : slot.head_work).push_back(least_work(sample, value->second));
    }
  }
  return out;
}

std::map<std::string, verdict::ControlTarget> control_samples(const std::vector<RunRecord>& records,
                                                              const std::map<std::string, std::string>& kinds,
                                                              const std::string& metric) {
  std::map<std::string, verdict::ControlTarget> out;
  for (const auto& [target, kind] : kinds) out[target] = {kind, collect_samples(records, target, metric, kind == "machine")};
  return out;
}

namespace {

void add_median(Sample& sample, const std::string& key, const std::vector<double>& values) {
  if (!values.empty()) sample[key] = stats::median(values);
}

/// The spread of one run's repetitions on the log scale, under `prefix`: "_log_sd", a robust σ
/// (for reading), and "_log_var", the unbiased sample variance (n - 1), which the noise split pools.
void add_log_spread(Sample& sample, const std::string& prefix, const std::vector<double>& values) {
  std::vector<double> logs;
  for (double v : values)
    if (v > 0) logs.push_back(std::log(v));
  if (logs.size() < 2) return;
  sample[prefix + "_log_sd"] = stats::robust_sigma(logs);
  double mean = 0, squares = 0;
  for (double l : logs) mean += l / static_cast<double>(logs.size());
  for (double l : logs) squares += (l - mean) * (l - mean);
  sample[prefix + "_log_var"] = squares / static_cast<double>(logs.size() - 1);
}

}  // namespace

Sample sample_from_entry(const formats::Entry& entry) {
  Sample sample;
  add_median(sample, "real_ns", entry.real_ns);
  add_median(sample, "cpu_ns", entry.cpu_ns);
  add_median(sample, "allocs_per_iter", entry.allocs_per_iter);
  add_median(sample, "bytes_per_iter", entry.bytes_per_iter);
  add_median(sample, "peak_bytes", entry.peak_bytes);
  if (entry.threads > 0) sample["threads"] = entry.threads;
  if (entry.real_ns.size() >= 2) {
    sample["reps"] = static_cast<double>(entry.real_ns.size());
    add_log_spread(sample, "real", entry.real_ns);
    add_log_spread(sample, "cpu", entry.cpu_ns);
  }
  if (entry.iterations.size() == entry.real_ns.size() && !entry.iterations.empty()) {
    std::vector<double> durations;
    for (size_t i = 0; i < entry.real_ns.size(); ++i) durations.push_back(entry.iterations[i] * entry.real_ns[i] / 1e9);
    sample["rep_seconds"] = stats::median(durations);
  }
  return sample;
}

std::string sample_key_for_metric(const std::string& metric) {
  if (metric == "real_time") return "real_ns";
  if (metric == "cpu_time") return "cpu_ns";
  throw InputError("unknown metric '" + metric + "' (expected real_time or cpu_time)");
}

}  // namespace cobench::results
