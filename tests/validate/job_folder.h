#pragma once
// A job's report folder as `cobench run` leaves it, for the tests that read
// jobs back (test_campaign, test_resume).
#include <filesystem>

#include "core/files.h"
#include "report/report.h"
#include "results/log.h"

namespace cobench::validate {

/// A report folder as `cobench run` leaves it: report.json and results.jsonl.
inline void write_job_folder(const std::filesystem::path& dir) {
  report::Report report;
  report.tool = "run";
  report.benchmarks.push_back(report::judged_row("bench_slowdown_10", "BM_Slowdown10", {100, 101, 99, 100},
                                                 {110, 111, 109, 110}, 0.05, 0.95));
  report.benchmarks.back().runs_base = report.benchmarks.back().runs_head = 4;
  report.benchmarks.push_back(report::judged_row("bench_aa_compute", "BM_Compute", {}, {}, 0.05, 0.95));
  // The controls: rows of their own, no verdict of the fixture's.
  for (const char* target : {"bench_control", "machine:bench_control"}) {
    report.benchmarks.push_back(report::judged_row(target, "BM_Control", {100, 101, 99}, {100, 102, 98}, 0.05, 0.95));
    report.benchmarks.back().is_control = true;
    report.benchmarks.back().control_kind = target[0] == 'm' ? "machine" : "layout";
  }
  report.controls = {{"machine:bench_control/BM_Control", "machine", 1.0, 0.98, 1.03, 0.03},
                     {"bench_control/BM_Control", "layout", 1.0, 0.99, 1.01, 0.01}};
  write_file_atomic(dir / "report.json", report::to_json(report).dump());
  results::ResultsLog log(dir / "results.jsonl");
  log.host(nlohmann::json::object());
  log.settings(results::JobSettings{});
  for (int run = 0; run < 3; ++run) {
    results::RunRecord record;
    record.target = "bench_slowdown_10";
    record.run = run;
    record.wall_seconds = 1.5;
    record.samples["BM_Slowdown10"] = {{"real_ns", 100}, {"cpu_ns", 100}};
    log.run(record);
  }
}

}  // namespace cobench::validate
