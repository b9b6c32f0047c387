#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plan/plan.h"

namespace cobench::plan {
namespace {

/// A target's cost in seconds when the history knows it: both sides' builds and its measuring.
std::optional<double> recorded_seconds(const CostHistory& history, const std::string& name) {
  auto it = history.targets.find(name);
  if (it == history.targets.end()) return std::nullopt;
  const PastCost& cost = it->second;
  const double seconds = 2 * cost.build_seconds + cost.measured_seconds;
  return seconds > 0 ? std::optional<double>(seconds) : std::nullopt;
}

}  // namespace

results::ShardSplit split_into_shards(const std::vector<Candidate>& candidates, const CostHistory& history, int index,
                                      int count) {
  results::ShardSplit split;
  split.index = index;
  split.count = count;
  // Seconds per source byte over the targets the history knows: the scale for the others.
  double known_seconds = 0, known_bytes = 0;
  int known = 0;
  for (const auto& c : candidates)
    if (auto seconds = recorded_seconds(history, c.name)) {
      known_seconds += *seconds;
      known_bytes += static_cast<double>(c.source_bytes);
      ++known;
    }
  const bool in_seconds = known > 0;
  split.unit = in_seconds ? "s" : "bytes";
  split.basis = !in_seconds ? "source size"
                : known == static_cast<int>(candidates.size())
                    ? fmt::format("build and run time from {}", fmt::join(history.files, ", "))
                    : fmt::format("build and run time from {} ({} of {} targets; the others by source size)",
                                  fmt::join(history.files, ", "), known, candidates.size());
  for (const auto& c : candidates) {
    double cost = static_cast<double>(c.source_bytes);
    if (in_seconds) {
      auto seconds = recorded_seconds(history, c.name);
      cost = seconds ? *seconds
             : known_bytes > 0 ? static_cast<double>(c.source_bytes) * known_seconds / known_bytes
                               : known_seconds / known;
    }
    split.targets.push_back({c.name, 0, cost});
  }
  std::stable_sort(split.targets.begin(), split.targets.end(), [](const auto& a, const auto& b) {
    return a.cost != b.cost ? a.cost > b.cost : a.target < b.target;
  });
  // Each part's load: its cost, then its number of targets (zero-cost targets still spread out).
  std::vector<std::pair<double, int>> load(static_cast<size_t>(count), {0.0, 0});
  for (auto& target : split.targets) {
    const auto lightest = std::min_element(load.begin(), load.end());  // the first of equals: the lower part
    target.shard = static_cast<int>(lightest - load.begin()) + 1;
    lightest->first += target.cost;
    ++lightest->second;
  }
  return split;
}

}  // namespace cobench::plan
