#include "report/report_fixture.h"

#include <cmath>
#include <limits>

namespace cobench::testing {

report::BenchmarkRow make_row(const std::string& target, const std::string& name, verdict::Verdict verdict,
                              double ratio, double ci_low, double ci_high) {
  report::BenchmarkRow row;
  row.target = target;
  row.name = name;
  for (int i = 0; i < 6; ++i) {
    double wiggle = 1 + 0.01 * (i - 2.5);
    row.base_samples.push_back(100 * wiggle);
    row.head_samples.push_back(100 * ratio * wiggle);
  }
  row.base_median = 100;
  row.head_median = 100 * ratio;
  row.time.estimate.ratio = ratio;
  row.time.estimate.ci_low = ci_low;
  row.time.estimate.ci_high = ci_high;
  row.time.estimate.p_value = 0.002;
  row.time.compared = true;
  row.verdict = verdict;
  row.time.faster = ci_high < 1;
  row.runs_base = row.runs_head = 6;
  return row;
}

report::Report sample_run_report() {
  using verdict::Verdict;
  report::Report r;
  r.tool = "run";
  r.base = "0123456789abcdef0123456789abcdef01234567";
  r.head = "abcdef0123456789abcdef0123456789abcdef01";
  r.host = {{"cpu", "Intel <Xeon> @ 2.4GHz"}, {"online_cpus", 2}};
  r.settings = {{"min_runs", 6}};
  r.notes = {"time budget exhausted: 1 target undecided"};
  r.phases = {{"configure", 1.25}, {"build", 8}, {"runs", 20.5}, {"machine control", 4}, {"analysis", 0.05}};

  r.benchmarks.push_back(make_row("bench_copy", "BM_Copy/64", Verdict::Pass, 0.80, 0.78, 0.83));
  auto control = make_row("bench_copy", "BM_Control", Verdict::Pass, 1.00, 0.99, 1.01);
  control.is_control = true;
  control.control_kind = "layout";
  r.benchmarks.push_back(control);
  r.controls = {{"bench_copy/BM_Control", "layout", 1.00, 0.99, 1.01, 0.01}};
  r.benchmarks.push_back(make_row("bench_gemm", "BM_Gemm<float>/256", Verdict::Regression, 1.23, 1.19, 1.27));

  auto hostile = make_row("bench_gemm", kHostileName, Verdict::Inconclusive, 1.02, 0, 0);
  hostile.time.estimate.ci_reachable = false;
  hostile.time.estimate.ci_low = hostile.time.estimate.ci_high = std::numeric_limits<double>::quiet_NaN();
  hostile.time.estimate.runs_needed = 8;
  hostile.note = "needs >= 8 runs per side | @all";
  r.benchmarks.push_back(hostile);

  auto alloc = make_row("bench_gemm", "BM_Alloc", Verdict::Regression, 1.00, 0.98, 1.02);
  alloc.allocs = verdict::MedianJudgement{0, 1, config::parse_threshold("0"), Verdict::Regression};
  alloc.bytes = verdict::MedianJudgement{0, 64, std::nullopt, Verdict::Pass};
  alloc.note = "allocs/op 0 → 1";
  alloc.decided_by = "allocs/op";
  r.benchmarks.push_back(alloc);

  report::BenchmarkRow crash;
  crash.target = "bench_gemm";
  crash.name = "BM_Crash";
  crash.base_samples = {100, 101, 99};
  crash.base_median = 100;
  crash.runs_base = crash.runs_head = 3;
  crash.verdict = Verdict::Inconclusive;
  crash.note = "head crashed (SIGSEGV) in 3/3 runs";
  for (int run = 0; run < 3; ++run)
    crash.failed_runs.push_back({"head", run, "SIGSEGV", "logs/bench_gemm-head-" + std::to_string(run) + ".txt"});
  r.benchmarks.push_back(crash);

  r.added = {{"bench_gemm", "BM_New"}};
  r.removed = {{"bench_gemm", "BM_Old"}};
  r.targets = {{"bench_gemm", {"2 benchmark families in one TU: gemm.cpp"}, "measured (3 runs per side)", 3},
               {"bench_copy", {}, "", 0}};
  return r;
}

report::Report sample_compare_report() {
  report::Report r;
  r.tool = "compare";
  r.base = "base.json";
  r.head = "head.json";
  r.benchmarks.push_back(make_row("", "BM_Sort/1024", verdict::Verdict::Regression, 1.10, 1.07, 1.12));
  r.benchmarks.push_back(make_row("", "BM_Find", verdict::Verdict::Inconclusive, 1.04, 1.01, 1.08));
  r.benchmarks.push_back(make_row("", "BM_Hash", verdict::Verdict::Pass, 1.00, 0.98, 1.02));
  for (auto& row : r.benchmarks) row.runs_base = row.runs_head = 0;  // compare counts samples, not runs
  return r;
}

report::Report reach_report() {
  using verdict::Verdict;
  using Status = verdict::ChangeReach::Status;
  report::Report r;
  r.tool = "run";
  r.base = "0123456789abcdef0123456789abcdef01234567";
  r.head = "abcdef0123456789abcdef0123456789abcdef01";
  r.reach_method = "head coverage build; the base's coverage from the reach index";
  auto reached = make_row("bench_grid", "BM_Work/4096", Verdict::Regression, 1.30, 1.20, 1.40);
  reached.reach = verdict::ChangeReach{Status::Reached, 2, 2, ""};
  auto unrelated = make_row("bench_grid", "BM_Work/8", Verdict::Regression, 1.25, 1.15, 1.35);
  unrelated.time.verdict = Verdict::Regression;
  unrelated.reach = verdict::ChangeReach{Status::NotReached, 2, 0, ""};
  auto unknown = make_row("bench_grid", "BM_Work/64", Verdict::Pass, 1.00, 0.98, 1.02);
  unknown.reach = verdict::ChangeReach{Status::Unknown, 2, 0, "non-gcc compiler (Clang 14.0.6)"};
  auto nothing = make_row("bench_grid", "BM_Empty", Verdict::Pass, 1.00, 0.98, 1.02);
  nothing.reach = verdict::ChangeReach{Status::NotReached, 2, 0, ""};
  for (auto* row : {&reached, &unrelated, &unknown, &nothing}) {
    row->time.verdict = row->verdict;
    report::settle_verdict(*row);  // the fold decides what a row that does not execute the change is
  }
  nothing.base_median = nothing.head_median = 0.32;
  // Times that grow with n, as work over n elements does.
  reached.base_median = 4000, reached.head_median = 5200;
  unrelated.base_median = 8, unrelated.head_median = 10;
  unknown.base_median = unknown.head_median = 64;
  r.benchmarks = {reached, unrelated, unknown, nothing};
  report::flag_optimised_away(r.benchmarks);
  r.selection = {{"reason", "3 of 5 benchmark targets reach the change, narrowed to 2 by --target 'grid|also'"},
                 {"selected", {{{"target", "bench_grid"}, {"reason_chain", {"grid.cc", "work.h"}}, {"change", "modified"},
                                {"execution", {{"summary", "executes the change (1 of 4 instances)"}}}}}},
                 {"dropped", {{{"target", "bench_also"},
                               {"drop_reason", "cap of 1: does not execute the change (1 instance ran none of its lines)"}}}},
                 {"max_targets", 1},
                 {"ranking", "reach, then cost (base coverage)"},
                 {"narrowed_out_reached", {"bench_more"}},
                 {"target_regex", "grid|also"},
                 {"target_regex_origin", "--target"}};
  r.targets = {{"bench_grid", {}, "", 0}};
  return r;
}

report::Report long_report(int passing) {
  report::Report r;
  r.tool = "run";
  r.benchmarks.push_back(make_row("t", "BM_Slow", verdict::Verdict::Regression, 1.3, 1.2, 1.4));
  for (int i = 0; i < passing; ++i)
    r.benchmarks.push_back(make_row("t", "BM_Fine/" + std::to_string(i), verdict::Verdict::Pass, 1.0, 0.98, 1.02));
  return r;
}

}  // namespace cobench::testing
