// Building and ordering rows: the verdict stage's judgements put into the model.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "report/report.h"
#include "core/note.h"
#include "verdict/measures_nothing.h"

namespace cobench::report {

BenchmarkRow judged_row(std::string target, std::string name, std::vector<double> base, std::vector<double> head,
                        double budget, double confidence) {
  verdict::TimeJudgement time = verdict::judge_time(base, head, budget, confidence);
  return judged_row(std::move(target), std::move(name), std::move(base), std::move(head), budget, std::move(time));
}

BenchmarkRow judged_row(std::string target, std::string name, std::vector<double> base, std::vector<double> head,
                        double budget, verdict::TimeJudgement time) {
  BenchmarkRow row;
  row.target = std::move(target);
  row.name = std::move(name);
  row.base_samples = std::move(base);
  row.head_samples = std::move(head);
  if (!row.base_samples.empty()) row.base_median = stats::median(row.base_samples);
  if (!row.head_samples.empty()) row.head_median = stats::median(row.head_samples);
  row.budget = budget;
  row.time = std::move(time);
  row.verdict = row.time.verdict;
  row.note = row.time.note;
  return row;
}

void settle_verdict(BenchmarkRow& row) {
  verdict::TimeJudgement time = row.time;
  time.note.clear();  // already in the row's note, with whatever the caller added
  const verdict::Overall overall = verdict::fold(
      {time, row.time_measured, row.instructions, row.governing, row.allocs, row.bytes, row.reach, row.uncounted_budgets});
  row.verdict = overall.verdict;
  row.decided_by = overall.decided_by;
  if (overall.note.empty()) return;
  // The reach mark leads: it changes how everything after it reads.
  const bool marked = row.reach && row.reach->status == verdict::ChangeReach::Status::NotReached;
  if (marked) prepend_note(row.note, overall.note);
  else append_note(row.note, overall.note);
}

double work_per_iteration(const BenchmarkRow& row, bool base) {
  const double work = base ? row.base_work : row.head_work;
  return std::isnan(work) ? (base ? row.base_median : row.head_median) : work;
}

void flag_optimised_away(std::vector<BenchmarkRow>& rows) {
  std::map<std::string, std::vector<BenchmarkRow*>> by_target;  // families never span targets
  for (auto& row : rows) by_target[row.target].push_back(&row);
  for (auto& [target, members] : by_target) {
    std::vector<verdict::TimedInstance> base, head;
    for (const BenchmarkRow* row : members) {
      base.push_back({row->name, work_per_iteration(*row, true)});
      head.push_back({row->name, work_per_iteration(*row, false)});
    }
    const auto on_base = verdict::likely_optimised_away(base);
    const auto on_head = verdict::likely_optimised_away(head);
    for (size_t i = 0; i < members.size(); ++i) {
      std::string& flag = members[i]->optimised_away;
      flag.clear();
      if (!on_head[i].empty()) flag = "head: " + on_head[i];
      if (!on_base[i].empty()) flag += (flag.empty() ? "base: " : "; base: ") + on_base[i];
    }
  }
}

bool is_faster(const BenchmarkRow& row) {
  if (row.decided_by == "instructions" && row.instructions) return row.instructions->faster;
  return row.time.faster;
}

std::vector<std::string> infrastructure_failures(const Report& report) {
  std::vector<std::string> out;
  for (const auto& target : report.targets)
    if (!target.failure.empty()) out.push_back(target.name + ": " + target.failure);
  return out;
}

/// Regressions first: they are what a reader of the report must act on.
static int severity(const BenchmarkRow& row) {
  switch (row.verdict) {
    case verdict::Verdict::Regression: return 0;
    case verdict::Verdict::Inconclusive: return 1;
    case verdict::Verdict::LayoutSensitive: return 1;
    case verdict::Verdict::Unrelated: return 2;
    case verdict::Verdict::Pass: break;
  }
  return is_faster(row) ? 3 : 4;
}

void sort_rows(std::vector<BenchmarkRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const BenchmarkRow& a, const BenchmarkRow& b) {
    return std::forward_as_tuple(severity(a), a.target, a.name) <
           std::forward_as_tuple(severity(b), b.target, b.name);
  });
}

}  // namespace cobench::report
