#include "aggregate/instruction_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "aggregate/failed_runs.h"
#include "core/note.h"
#include "stats/stats.h"

namespace cobench::aggregate {
namespace {

bool counted(const results::Sample& sample) { return sample.count("Ir") > 0; }

/// One target's instruction records and what they add up to.
struct TargetInstructionRuns {
  std::vector<const results::RunRecord*> records;
  int with_counts[2] = {0, 0};   // per side: runs that counted something
  std::string skipped;           // why the runs stopped early (time budget)
  std::string method;            // how the iterations were fixed, from an ok record
  double wall_seconds = 0;
};

int side_index(results::Side side) { return side == results::Side::Base ? 0 : 1; }

TargetInstructionRuns gather_instruction_runs(const std::vector<results::RunRecord>& runs, const std::string& target) {
  TargetInstructionRuns out;
  for (const auto& r : runs) {
    if (r.target != target || r.kind != "instructions") continue;
    if (r.status == "skipped") {
      out.skipped = r.detail;
      continue;
    }
    out.records.push_back(&r);
    out.wall_seconds += r.wall_seconds;
    if (r.ok() && std::any_of(r.samples.begin(), r.samples.end(), [](const auto& s) { return counted(s.second); }))
      ++out.with_counts[side_index(r.side)];
    if (r.ok() && out.method.empty()) out.method = r.detail;
  }
  return out;
}

verdict::CacheEvents events_of(const results::Sample& sample) {
  verdict::CacheEvents events;
  for (const auto& [name, member] : verdict::kCacheEventNames)
    if (auto it = sample.find(name); it != sample.end()) events.*member = it->second;
  return events;
}

/// One benchmark's counts per side, with the runs that failed for it.
struct BenchmarkCounts {
  std::vector<verdict::CacheEvents> events[2];
  std::set<bool> loop_only[2];                    // per side: whether each run counted the loop alone
  std::vector<double> callgrind_cpu, native_cpu;  // both sides, seconds of a process: for the slowdown
  std::map<std::string, int> errors[2];           // per side: error text -> runs
  int attempted[2] = {0, 0};
};

BenchmarkCounts benchmark_counts(const TargetInstructionRuns& target, const std::string& name) {
  BenchmarkCounts out;
  for (const results::RunRecord* r : target.records) {
    const int side = side_index(r->side);
    if (auto error = r->errors.find(name); error != r->errors.end()) {
      ++out.attempted[side];
      ++out.errors[side][error->second];
      continue;
    }
    auto sample = r->samples.find(name);
    if (!r->ok() || sample == r->samples.end() || !counted(sample->second)) continue;
    ++out.attempted[side];
    out.events[side].push_back(events_of(sample->second));
    out.loop_only[side].insert(sample->second.count("loop_only") && sample->second.at("loop_only") > 0);
    if (auto t = sample->second.find("callgrind_cpu_seconds"); t != sample->second.end())
      out.callgrind_cpu.push_back(t->second);
    if (auto t = sample->second.find("native_cpu_seconds"); t != sample->second.end() && t->second > 0)
      out.native_cpu.push_back(t->second);
  }
  return out;
}

/// "head: timed out after 300 s under callgrind (5 iterations) in 3/3 runs" per side and cause.
std::string failure_note(const BenchmarkCounts& counts) {
  std::string note;
  for (int side = 0; side < 2; ++side)
    for (const auto& [error, runs] : counts.errors[side])
      append_note(note, fmt::format("{}: {} in {}/{} runs", side == 0 ? "base" : "head", error, runs,
                                    counts.attempted[side]));
  return note;
}

verdict::InstructionJudgement judge(const BenchmarkCounts& counts, double budget, double tolerance) {
  verdict::InstructionJudgement j = verdict::judge_instructions(counts.events[0], counts.events[1], budget, tolerance);
  if (j.compared && counts.loop_only[0] != counts.loop_only[1]) {
    // One side fenced the loop, the other counted its whole process: the setup is in one count only.
    j = verdict::judge_instructions({}, {}, budget, tolerance);
    j.note = "one side counted the benchmark loop only, the other its whole process (libbenchmark linked "
             "differently): not compared";
  }
  append_note(j.note, failure_note(counts));
  if (!counts.callgrind_cpu.empty() && !counts.native_cpu.empty())
    j.slowdown = stats::median(counts.callgrind_cpu) / stats::median(counts.native_cpu);
  return j;
}

/// Whether the rows of a target counted the loop alone: "all", "none" or "some".
std::string loop_fencing(const std::vector<BenchmarkCounts>& benchmarks) {
  std::set<bool> seen;
  for (const auto& counts : benchmarks)
    for (const auto& side : counts.loop_only) seen.insert(side.begin(), side.end());
  if (seen.size() > 1) return "some";
  return seen.count(true) ? "all" : "none";
}

std::string instruction_status_text(const TargetInstructionRuns& target, const std::vector<BenchmarkCounts>& benchmarks,
                        const std::vector<double>& slowdowns, const results::JobSettings& settings) {
  const int runs = std::min(target.with_counts[0], target.with_counts[1]);
  if (runs == 0) {
    std::string why = "not collected: no instruction counts";
    for (const results::RunRecord* r : target.records)
      if (!r->ok()) {
        why = fmt::format("not collected: {} run {}: {}", to_string(r->side), r->run, r->detail);
        break;
      }
    if (!target.skipped.empty()) why += (why.find("no instruction counts") != std::string::npos ? "; " : "; then ") + target.skipped;
    return why;
  }
  std::string text = fmt::format("measured ({} run{} per side under callgrind", runs, runs == 1 ? "" : "s");
  if (runs < settings.instructions->runs && !target.skipped.empty()) text += ", then " + target.skipped;
  text += "); " + target.method;
  const std::string fenced = loop_fencing(benchmarks);
  const bool repetitions = target.method.find("repetitions") != std::string::npos;
  if (fenced == "all")
    text += "; counted inside the benchmark loop only (setup and paused time left out)";
  else if (repetitions)
    text += "; whole processes counted and Google Benchmark before 1.8 cannot fix the iterations of one loop: the "
            "setup is counted in every iteration (link libbenchmark shared to leave it out)";
  else
    text += fenced == "none" ? "; whole processes counted (libbenchmark linked statically), the setup removed by the "
                               "difference"
                             : "; some benchmarks counted in the loop only, others as whole processes";
  text += fmt::format("; {:.1f} s of callgrind runs", target.wall_seconds);
  if (!slowdowns.empty())
    text += fmt::format("; a process under callgrind took {:.0f}× the CPU time it takes natively (median)",
                        stats::median(slowdowns));
  return text;
}

}  // namespace

void apply_instruction_metrics(report::Report& report, const results::ResultsFile& results) {
  const results::JobSettings& settings = results.settings;
  if (!settings.instructions) return;
  const bool time_measured = settings.metric != "instructions";
  std::vector<std::string> targets;
  for (const auto& r : results.runs)
    if (r.kind == "instructions" && std::find(targets.begin(), targets.end(), r.target) == targets.end())
      targets.push_back(r.target);
  for (const auto& target : targets) {
    auto info = std::find_if(report.targets.begin(), report.targets.end(),
                             [&](const report::TargetInfo& t) { return t.name == target; });
    if (info == report.targets.end()) {
      report::TargetInfo counted_only;
      counted_only.name = target;
      info = report.targets.insert(report.targets.end(), std::move(counted_only));
    }
    const TargetInstructionRuns counts = gather_instruction_runs(results.runs, target);
    std::vector<std::string> names;
    for (const results::RunRecord* r : counts.records) {
      for (const auto& [name, sample] : r->samples) names.push_back(name);
      for (const auto& [name, error] : r->errors) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<BenchmarkCounts> all;
    std::vector<double> slowdowns;
    for (const auto& name : names) {
      all.push_back(benchmark_counts(counts, name));
      auto row = std::find_if(report.benchmarks.begin(), report.benchmarks.end(),
                              [&](const report::BenchmarkRow& r) { return r.target == target && r.name == name; });
      const double budget = settings.budgets.for_benchmark(target, name).time;
      if (row == report.benchmarks.end()) {  // instructions only, or no timing run reported it
        report::BenchmarkRow added = report::judged_row(target, name, {}, {}, budget, verdict::TimeJudgement{});
        added.time_measured = time_measured;
        if (time_measured) added.note = added.time.note = "no timing samples";
        row = report.benchmarks.insert(report.benchmarks.end(), std::move(added));
      }
      row->instructions = judge(all.back(), budget, settings.instructions->tolerance);
      row->governing = settings.instructions->governing;
      if (std::isfinite(row->instructions->slowdown)) slowdowns.push_back(row->instructions->slowdown);
    }
    info->instruction_runs = std::min(counts.with_counts[0], counts.with_counts[1]);
    info->instructions_status = instruction_status_text(counts, all, slowdowns, settings);
    // Counting instructions only, a target of which nothing was counted is not a pass: an infrastructure failure.
    const auto failed = std::find_if(counts.records.begin(), counts.records.end(), [](auto* r) { return !r->ok(); });
    if (!time_measured && counts.with_counts[0] + counts.with_counts[1] == 0 && failed != counts.records.end())
      info->failure = fmt::format("every instruction run failed; first: {}", describe_failed_run(**failed));
  }
}

}  // namespace cobench::aggregate
