#include "results/samples.h"

#include <cmath>

#include "core/errors.h"
#include "stats/stats.h"

namespace cobench::results {

std::map<std::string, BenchmarkSamples> collect_samples(const std::vector<RunRecord>& records,
                                                        const std::string& target, const std::string& key) {
  std::map<std::string, BenchmarkSamples> out;
  for (const auto& record : records) {
    if (record.target != target || record.kind != "time" || !record.ok()) continue;
    for (const auto& [name, sample] : record.samples) {
      auto value = sample.find(key);
      if (value == sample.end() || !std::isfinite(value->second) || value->second <= 0) continue;
      auto& slot = out[name];
      (record.side == Side::Base ? slot.base : slot.head).push_back(value->second);
    }
  }
  return out;
}

namespace {

void add_median(Sample& sample, const std::string& key, const std::vector<double>& values) {
  if (!values.empty()) sample[key] = stats::median(values);
}

}  // namespace

Sample sample_from_entry(const formats::Entry& entry) {
  Sample sample;
  add_median(sample, "real_ns", entry.real_ns);
  add_median(sample, "cpu_ns", entry.cpu_ns);
  add_median(sample, "allocs_per_iter", entry.allocs_per_iter);
  add_median(sample, "bytes_per_iter", entry.bytes_per_iter);
  add_median(sample, "peak_bytes", entry.peak_bytes);
  return sample;
}

std::string sample_key_for_metric(const std::string& metric) {
  if (metric == "real_time") return "real_ns";
  if (metric == "cpu_time") return "cpu_ns";
  throw InputError("unknown metric '" + metric + "' (expected real_time or cpu_time)");
}

}  // namespace cobench::results
