#include "aggregate/alloc_metrics.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "verdict/judge.h"

namespace cobench::aggregate {
namespace {

/// One target's allocation records and what they add up to.
struct TargetCounts {
  std::vector<const results::RunRecord*> records;  // the records counts are read from
  int counted[2] = {0, 0};                // per side: runs that reported counts
  std::string failure;                    // first reason a run gave no counts
  bool counted_alike = false;             // the runs ended after a first pair whose sides counted alike
  bool from_timing = false;               // Go: -benchmem values of the timing runs
};

bool has_counts(const results::RunRecord& r) {
  return r.ok() && std::any_of(r.samples.begin(), r.samples.end(),
                               [](const auto& s) { return s.second.count("allocs_per_iter") > 0; });
}

TargetCounts gather(const std::vector<results::RunRecord>& runs, const std::string& target) {
  TargetCounts out;
  for (const auto& r : runs)
    if (r.target == target && r.kind == "alloc") out.records.push_back(&r);
  if (out.records.empty()) {
    for (const auto& r : runs)
      if (r.target == target && r.kind == "time" && has_counts(r)) out.records.push_back(&r);
    out.from_timing = !out.records.empty();
  }
  for (const results::RunRecord* r : out.records) {
    if (has_counts(*r)) {
      ++out.counted[r->side == results::Side::Base ? 0 : 1];
    } else if (r->status == results::kCountedAlikeStatus) {
      out.counted_alike = true;
    } else if (out.failure.empty()) {
      out.failure = r->detail.empty() ? to_string(r->side) + " run " + r->status : r->detail;
    }
  }
  return out;
}

std::vector<double> values(const TargetCounts& counts, results::Side side, const std::string& name, const std::string& key) {
  std::vector<double> out;
  for (const results::RunRecord* r : counts.records) {
    if (r->side != side || !r->ok()) continue;
    auto sample = r->samples.find(name);
    if (sample == r->samples.end()) continue;
    if (auto value = sample->second.find(key); value != sample->second.end()) out.push_back(value->second);
  }
  return out;
}

std::string status_text(const TargetCounts& counts, const results::JobSettings& settings) {
  const int runs = std::min(counts.counted[0], counts.counted[1]);
  if (runs > 0 && counts.from_timing) return fmt::format("measured by go test -benchmem ({} runs per side)", runs);
  if (runs > 0) {
    return fmt::format("measured ({} run{} per side{}, counting allocator)", runs, runs == 1 ? "" : "s",
                       counts.counted_alike ? ": both sides counted alike" : "");
  }
  if (!counts.failure.empty()) return "not collected: " + counts.failure;
  if (!settings.no_allocation_counts.empty()) return settings.no_allocation_counts;
  return "not collected: no allocation counts reported";
}

/// The row's configured budgets that had no counts, unless the job's settings
/// left it none (alloc_runs = 0, a runner that reports none): the status says so.
std::vector<verdict::UncountedBudget> uncounted_budgets(const report::BenchmarkRow& row, const verdict::Budget& budget,
                                                        const std::string& status, const results::JobSettings& settings) {
  std::vector<verdict::UncountedBudget> out;
  if (!settings.no_allocation_counts.empty()) return out;
  if (row.target == settings.machine_control) return out;  // one binary as both sides: never counted
  if (budget.allocs && !row.allocs) out.push_back({"allocs/op", budget.allocs->text, status});
  if (budget.bytes && !row.bytes) out.push_back({"bytes/op", budget.bytes->text, status});
  return out;
}

}  // namespace

void apply_alloc_metrics(report::Report& report, const results::ResultsFile& results) {
  for (auto& info : report.targets) {
    const TargetCounts counts = gather(results.runs, info.name);
    info.alloc_runs = std::min(counts.counted[0], counts.counted[1]);
    info.alloc_status = status_text(counts, results.settings);
    for (auto& row : report.benchmarks) {
      if (row.target != info.name) continue;
      const verdict::Budget budget = results.settings.budgets.for_benchmark(row.target, row.name);
      row.allocs = verdict::judge_medians(values(counts, results::Side::Base, row.name, "allocs_per_iter"),
                                          values(counts, results::Side::Head, row.name, "allocs_per_iter"), budget.allocs);
      row.bytes = verdict::judge_medians(values(counts, results::Side::Base, row.name, "bytes_per_iter"),
                                         values(counts, results::Side::Head, row.name, "bytes_per_iter"), budget.bytes);
      row.uncounted_budgets = uncounted_budgets(row, budget, info.alloc_status, results.settings);
      report::settle_verdict(row);
    }
  }
}

}  // namespace cobench::aggregate
