#include <system_error>

#include <fmt/format.h>

#include "core/errors.h"
#include "plan/plan.h"

namespace cobench::plan {

CostHistory cost_history(const std::vector<results::ResultsFile>& files) {
  CostHistory history;
  std::map<std::string, int> measured_in;  // target -> files that ran it
  for (const auto& file : files) {
    std::map<std::string, double> measured;  // this job's runs of each target, both sides
    for (const auto& build : file.builds) {
      PastCost& cost = history.targets[build.target];
      cost.build_seconds = (cost.build_seconds * cost.builds + build.seconds) / (cost.builds + 1);
      ++cost.builds;
    }
    for (const auto& run : file.runs) {
      // The machine control runs a measured target's binary under its own name; it is no target of its own.
      if (run.target == file.settings.machine_control) continue;
      measured[run.target] += run.wall_seconds;
      if (run.kind != "time") continue;
      PastCost& cost = history.targets[run.target];
      cost.run_seconds = (cost.run_seconds * cost.runs + run.wall_seconds) / (cost.runs + 1);
      ++cost.runs;
    }
    for (const auto& [target, seconds] : measured) {
      PastCost& cost = history.targets[target];
      const int n = measured_in[target]++;
      cost.measured_seconds = (cost.measured_seconds * n + seconds) / (n + 1);
    }
  }
  return history;
}

CostHistory read_cost_history(const std::vector<std::string>& paths, const std::string& origin) {
  std::vector<results::ResultsFile> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw InputError(fmt::format("{}: '{}' is not a file (give the results.jsonl of an earlier job)", origin, path));
    try {
      files.push_back(results::read_results(path));
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", origin, e.what()));
    }
  }
  CostHistory history = cost_history(files);
  history.files = paths;
  return history;
}

std::uintmax_t source_bytes(const cmake::BenchmarkTarget& target) {
  std::uintmax_t bytes = 0;
  std::error_code ec;
  for (const auto& source : target.sources) {
    const auto size = std::filesystem::file_size(source, ec);
    if (!ec) bytes += size;
  }
  return bytes;
}

}  // namespace cobench::plan
