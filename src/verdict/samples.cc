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

}  // namespace cobench::verdict
