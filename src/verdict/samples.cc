#include "verdict/samples.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "stats/stats.h"

namespace cobench::verdict {

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

double least_work(const std::vector<double>& work) {
  return work.empty() ? std::nan("") : *std::min_element(work.begin(), work.end());
}

int complete_pairs(const BenchmarkSamples& samples) { return static_cast<int>(pairs_of(samples).base.size()); }

BenchmarkSamples runs_before(const BenchmarkSamples& samples, int runs) {
  BenchmarkSamples out;
  out.metric = samples.metric;
  out.metric_note = samples.metric_note;
  auto keep = [runs](const std::vector<double>& values, const std::vector<int>& indices, const std::vector<double>& work,
                     std::vector<double>& kept, std::vector<int>& kept_indices, std::vector<double>& kept_work) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (indices[i] >= runs) continue;
      kept.push_back(values[i]);
      kept_indices.push_back(indices[i]);
      if (i < work.size()) kept_work.push_back(work[i]);
    }
  };
  keep(samples.base, samples.base_runs, samples.base_work, out.base, out.base_runs, out.base_work);
  keep(samples.head, samples.head_runs, samples.head_work, out.head, out.head_runs, out.head_work);
  return out;
}

}  // namespace cobench::verdict
