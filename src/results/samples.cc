#include "results/samples.h"

#include <cmath>

#include "core/errors.h"
#include "stats/stats.h"

namespace cobench::results {

Pairs pairs_of(const BenchmarkSamples& samples) {
  Pairs out;
  std::map<int, double> base_by_run;
  for (size_t i = 0; i < samples.base.size(); ++i) base_by_run[samples.base_runs[i]] = samples.base[i];
  for (size_t i = 0; i < samples.head.size(); ++i) {
    auto it = base_by_run.find(samples.head_runs[i]);
    if (it == base_by_run.end()) continue;
    out.base.push_back(it->second);
    out.head.push_back(samples.head[i]);
  }
  out.incomplete = static_cast<int>(samples.base.size() + samples.head.size() - 2 * out.base.size());
  return out;
}

std::string metric_for(const std::string& metric, const std::string& name, const Sample& sample) {
  if (metric != "auto") return metric;
  auto threads = sample.find("threads");
  const bool own_clock = name.find("/real_time") == std::string::npos && name.find("/manual_time") == std::string::npos;
  return threads != sample.end() && threads->second == 1 && own_clock && sample.count("cpu_ns") ? "cpu_time"
                                                                                                 : "real_time";
}

std::map<std::string, BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& metric) {
  std::map<std::string, BenchmarkSamples> out;
  for (const auto& record : records) {
    if (record.target != target || record.kind != "time" || !record.ok()) continue;
    for (const auto& [name, sample] : record.samples) {
      auto& slot = out[name];
      if (slot.metric.empty()) slot.metric = metric_for(metric, name, sample);
      auto value = sample.find(sample_key_for_metric(slot.metric));
      if (value == sample.end() || !std::isfinite(value->second) || value->second <= 0) continue;
      const bool base = record.side == Side::Base;
      (base ? slot.base : slot.head).push_back(value->second);
      (base ? slot.base_runs : slot.head_runs).push_back(record.run);
    }
  }
  return out;
}

namespace {

void add_median(Sample& sample, const std::string& key, const std::vector<double>& values) {
  if (!values.empty()) sample[key] = stats::median(values);
}

void add_log_spread(Sample& sample, const std::string& key, const std::vector<double>& values) {
  std::vector<double> logs;
  for (double v : values)
    if (v > 0) logs.push_back(std::log(v));
  if (logs.size() >= 2) sample[key] = stats::robust_sigma(logs);
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
    add_log_spread(sample, "real_log_sd", entry.real_ns);
    add_log_spread(sample, "cpu_log_sd", entry.cpu_ns);
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
