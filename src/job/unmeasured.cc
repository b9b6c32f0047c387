#include "job/console.h"
#include "job/unmeasured.h"

#include <cstdio>

#include "aggregate/aggregate.h"
#include "core/errors.h"
#include "host/host.h"
#include "job/settings_step.h"
#include "report/report.h"
#include "results/log.h"

namespace cobench::job {

namespace fs = std::filesystem;

int report_unmeasured(const std::vector<std::string>& notes, const JobBasis& job, const TargetChoice& choice,
                      const fs::path& out_dir, int exit_code) {
  results::ResultsLog log(out_dir / "results.jsonl");
  log.host(host::collect_host_context(compiler_of(job.settings.build.cmake_args)));
  log.settings(job_settings(job, choice, job.settings.run.bench_args));
  for (const auto& note : notes) log.note(note);
  report::write_reports(aggregate::report_of(results::read_results(log.path()), log.path().string()), out_dir);
  console().line("reports: " + report::describe_report_files(out_dir));
  return exit_code;
}

int report_unreached(const std::string& why, const JobBasis& job, const select::Selection& selection,
                     const fs::path& out_dir) {
  console().line(why + "; nothing to build or measure");
  return report_unmeasured({why}, job, choose_targets({}, selection), out_dir, kExitOk);
}

}  // namespace cobench::job
