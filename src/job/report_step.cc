#include "job/console.h"
#include "job/report_step.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "core/clock.h"
#include "core/errors.h"
#include "report/escape.h"
#include "aggregate/aggregate.h"
#include "results/log.h"

namespace cobench::job {

namespace fs = std::filesystem;

int finish_report(const report::Report& report, const fs::path& out_dir, const verdict::GatePolicy& gate) {
  report::write_reports(report, out_dir);
  console().block(report::scrub_rendered(report::render_table(report, ::isatty(STDOUT_FILENO))));
  console().line("reports: " + report::describe_report_files(out_dir));
  if (const auto failures = report::infrastructure_failures(report); !failures.empty()) {
    for (const auto& failure : failures) console().error(report::scrub_rendered(report::sanitize_text(failure, true)));
    return kExitInfra;  // nothing measured is never a pass, gate or not
  }
  std::vector<verdict::Verdict> verdicts;  // controls inform the verdicts; they are not gated themselves
  for (const auto& row : report.benchmarks)
    if (!row.is_control) verdicts.push_back(row.verdict);
  return verdict::gate_exit_code(verdicts, gate);
}

int report_from_log(const fs::path& results_path, const fs::path& out_dir, const verdict::GatePolicy& gate) {
  const auto start = std::chrono::steady_clock::now();
  report::Report report = aggregate::report_of(results::read_results(results_path), results_path.string());
  // Reading the log and judging every row; rendering and writing follow.
  if (!report.phases.empty()) report.phases.insert(report.phases.end() - (report.phases.back().name == "other"),
                                                   {"analysis", seconds_since(start)});
  return finish_report(std::move(report), out_dir, gate);
}

}  // namespace cobench::job
